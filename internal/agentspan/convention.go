// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"slices"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// Convention declares how one instrumentation writes agent telemetry. Everything recognition knows
// about a convention is here, so adding one is one file (and its captured fixture and its row in
// docs/conventions.md).
type Convention struct {
	// Name identifies the convention in docs, tests and config errors.
	Name string
	// Claim reports whether a span is this convention's and what it stands for. The registry asks the
	// conventions in order; the first claim wins.
	Claim func(s Span) (Role, bool)

	// ToolName, CallID, Arguments and Result are the attributes of a tool span, tried in order.
	ToolName, CallID, Arguments, Result []string
	// ToolEvents are the span events a tool span carries its arguments and result on, for
	// conventions that write them as events rather than attributes; ReplyEvents those a model span
	// carries its reply on.
	ToolEvents  []ToolEvent
	ReplyEvents []ReplyEvent
	// ToolFromSpan, when set, names the tool when no ToolName attribute does: from the span's name, or
	// from an attribute that names the tool only on this convention's spans (ToolName's keys are
	// structural and name a tool on any span, so a key as common as "name" cannot be one of them).
	ToolFromSpan func(s Span) string
	// Unwrap, when set, opens a result held in the convention's own envelope (LangChain's
	// ToolMessage), reading JSON nested at most maxDepth deep; ok is false when raw is no such
	// envelope. UnwrapArgs does so for a call's arguments.
	Unwrap     func(raw []byte, maxDepth int) (e Envelope, ok bool)
	UnwrapArgs func(raw []byte, maxDepth int) ([]byte, bool)
	// Truncated, when set, reports whether a result the convention wrote was cut short (it ends in
	// the convention's marker): what is left of it is not the result, and is not read as one.
	Truncated func(raw []byte) bool
	// CallIDFromSpan, when set, is a tool span's call id as the convention's requests spell it, from
	// the id its keys found (Gemini CLI's tool span prefixes the tool's name).
	CallIDFromSpan func(s Span, tool, id string) string
	// BodyLabel: the convention's log records carry in their body a label the SDK writes (the event's
	// name, a summary of it), never a call's data: a data-class record's body is kept, and searched
	// like any string.
	BodyLabel bool
	// RunKey are the attributes (of a span or record, else of its resource) naming the run it belongs
	// to, for a convention whose traces do not each hold one run (a CLI that starts a trace per model
	// call and per tool batch): its spans and records are grouped by them across traces, and a run so
	// grouped ends by idling, with no root span to end it.
	RunKey []string

	// AgentName are the attributes naming the agent on any of its spans; AgentSpanName those naming it
	// on agent spans only. AgentFromSpanName names it from an agent span's name when they are absent;
	// AgentFromRootName from the trace's root span's name.
	AgentName, AgentSpanName             []string
	AgentFromSpanName, AgentFromRootName bool
	// RunID are the attributes naming the run or session a span belongs to.
	RunID []string

	// Transcripts are the attributes holding a model call's messages, in reading order (inputs first).
	Transcripts []Transcript
	// FinishReason are the attributes recording why a model call stopped (a string, a JSON array of
	// strings, or a string array); FlatFinish are flattened ones, "<prefix><i>.<suffix>".
	FinishReason []string
	FlatFinish   []FlatKey
	// Usage says where a model call's token counts are (usage.go); nil when the convention writes none
	// agentotel reads.
	Usage *Usage

	// Structural are attributes that describe a call rather than carry its data: names, ids,
	// operation, model, token counts, status, correlation ids. Shaping leaves them as they are.
	Structural []string
	// EventRoles maps the name of a per-message event (span event or log record) to the role of the
	// message it carries ("" when the message says its own role). ChoiceEvents are those of them that
	// carry the model's reply, not a message of its request.
	EventRoles   map[string]string
	ChoiceEvents []string
}

// Envelope is what a convention wraps around a tool's result: the result itself, what else of the
// tool's data rides along (LangChain's artifact), and the call id. The rest of the envelope (message
// ids, type, status) describes the message, not the data.
type Envelope struct {
	Result, Artifact []byte
	CallID           string
	// Tool is the tool the envelope names (LangChain's ToolMessage names its tool), or "".
	Tool string
}

// Transcript is one place a convention writes a model call's messages.
type Transcript struct {
	// Key is the attribute: a JSON document in a string, or an OTLP array or map.
	Key string
	// Output marks the model's reply rather than its input.
	Output bool
	// Text marks a plain-text reply (not JSON): it carries model text and no tool traffic.
	Text bool
	// MayBeText marks an attribute that holds JSON messages or plain text (OpenInference's input.value,
	// whose mime type says which): it is read when it is JSON and left to the content search when not.
	// Any other transcript that is not JSON cannot be read, and is withheld whole.
	MayBeText bool
	// Flat, when set, describes a transcript flattened into indexed attributes under Key, a prefix.
	Flat *FlatLayout
}

// FlatKey names "<Prefix><i>.<Suffix>" attributes.
type FlatKey struct{ Prefix, Suffix string }

// FlatLayout describes a transcript flattened into indexed attributes, as OpenInference
// (llm.input_messages.{i}.message.*) and OpenLLMetry (gen_ai.prompt.{i}.*) write them. Every field
// is a suffix under the message's "<Key><i>.".
type FlatLayout struct {
	Role string
	// Content are a message's content attributes: an exact suffix, or a prefix when it ends in '.'
	// (OpenInference's message.contents.{k}.message_content.text).
	Content []string
	// ToolCallID and Name identify the call a tool message answers (Name: legacy function messages,
	// Ollama's tool_name).
	ToolCallID, Name []string
	// Calls is the prefix of a message's tool calls, "<Calls><j>.", with CallID, CallName and CallArgs
	// suffixes under it.
	Calls                      string
	CallID, CallName, CallArgs string
	// FunctionCallName and FunctionCallArgs are the suffixes of a message's one legacy function call
	// (OpenAI's function_call, before tool calls), named and argued on the message itself.
	FunctionCallName, FunctionCallArgs string
	// FinishReason is the suffix holding an output message's finish reason.
	FinishReason string
}

// Span is what recognition reads of a span, span event or log record.
type Span struct {
	// Scope is the instrumentation scope name.
	Scope string
	// Name is the span name, or the event name of an event or log record.
	Name  string
	Attrs pcommon.Map
	// Root marks a span without a parent.
	Root bool
}

// spanName is ToolFromSpan for conventions that name a tool's span after the tool.
func spanName(s Span) string { return s.Name }

// afterPrefix is what follows the first of prefixes a span name begins with, trimmed: the tool of a
// span named "<prefix><tool>". It is "" when the name begins with none.
func afterPrefix(name string, prefixes ...string) string {
	for _, prefix := range prefixes {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// genAIUnder claims, as the GenAI convention does, the spans of the instrumentation scopes named: the
// Claim of a convention that writes GenAI's operations under its own tracer.
func genAIUnder(scopes ...string) func(Span) (Role, bool) {
	return func(s Span) (Role, bool) {
		if !slices.Contains(scopes, s.Scope) {
			return RoleOther, false
		}
		return genAI.Claim(s)
	}
}

func str(attrs pcommon.Map, key string) string {
	if v, ok := attrs.Get(key); ok && v.Type() == pcommon.ValueTypeStr {
		return v.Str()
	}
	return ""
}

// firstStr returns the first of keys that holds a non-blank string, trimmed.
func firstStr(attrs pcommon.Map, keys []string) string {
	for _, k := range keys {
		if s := strings.TrimSpace(str(attrs, k)); s != "" {
			return s
		}
	}
	return ""
}

// firstPresent returns the first of keys that attrs holds, or "".
func firstPresent(attrs pcommon.Map, keys []string) string {
	for _, k := range keys {
		if _, ok := attrs.Get(k); ok {
			return k
		}
	}
	return ""
}

func hasPrefixKey(attrs pcommon.Map, prefix string) bool {
	found := false
	attrs.Range(func(k string, _ pcommon.Value) bool {
		found = strings.HasPrefix(k, prefix)
		return !found
	})
	return found
}
