// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"slices"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// Role is what an agent span stands for.
type Role uint8

const (
	// RoleOther is any span that is not recognised as agent telemetry.
	RoleOther Role = iota
	// RoleAgent is an agent run (invoke_agent, an AI SDK generateText call, an OpenInference AGENT span).
	RoleAgent
	// RoleTool is one tool call.
	RoleTool
	// RoleModel is one model call, which carries the transcript.
	RoleModel
	// RoleRequest is a model call's request alone, written apart from the call (a CLI's api_request
	// log record): its transcript, and nothing of the reply.
	RoleRequest
)

func (r Role) String() string {
	switch r {
	case RoleAgent:
		return "agent"
	case RoleTool:
		return "tool"
	case RoleModel:
		return "model"
	case RoleRequest:
		return "request"
	}
	return "other"
}

// View is one span seen as agent telemetry. Strings are views into the span's own attributes: they are
// valid until the attributes change.
type View struct {
	Role Role
	// Convention is the convention that claimed the span; nil when none did.
	Convention *Convention
	// Tool and CallID identify a tool call on a tool span.
	Tool, CallID string
	// ArgsKey and ResultKey name the attributes that hold a tool call's arguments and result; empty
	// when the span carries none the convention declares.
	ArgsKey, ResultKey string
	// Agent is the agent name, RunID the run or session id, when this span carries them.
	Agent, RunID string
}

// ConventionName is the name of the convention that claimed the span, or "unknown".
func (v View) ConventionName() string {
	if v.Convention == nil {
		return "unknown"
	}
	return v.Convention.Name
}

// Registry is the set of conventions both processors recognise agent telemetry by: the built-in ones
// and those declared in configuration. It is immutable once built and safe for concurrent use.
type Registry struct {
	conventions []*Convention
	// builtin are the conventions that ship with agentotel, after the declared ones in conventions:
	// only their keys say anything about a span no convention claims. A declared convention's keys
	// apply to the spans its match selects, and to no others.
	builtin []*Convention
	// transcripts are every convention's transcript attributes; a span of any convention may carry
	// another's (OpenLLMetry writes GenAI's gen_ai.input.messages), so all are read on every span.
	transcripts map[string]Transcript
	outputs     []Transcript // the declared output transcripts, in registry order
	flat        []flatTranscript
	eventRoles  map[string]pcommon.Value
	// choiceEvents are the per-message events that carry a reply (gen_ai.choice).
	choiceEvents map[string]bool
	structural   map[string]struct{}
	runIDs       []string
	// maxDepth bounds the nesting of the JSON the registry's readers accept.
	maxDepth int
	// reading says how Add reads an attribute, with one lookup: the declared transcripts, and the
	// structural attributes, which are never read. Any other attribute is read for messages.
	reading map[string]attrReading
	// checked are the keys of the transcripts AddUnread checks, by their length (the last for 63 bytes
	// and more): an attribute is passed over by its key's length, or compared with the one or two keys
	// of that length, without hashing it.
	checked [64][]string
}

// attrReading is how an attribute is read: as its declared transcript, or not at all (passive).
type attrReading struct {
	transcript Transcript
	declared   bool
}

type flatTranscript struct {
	prefix string
	output bool
	layout *FlatLayout
}

// Builtin returns the conventions that ship with agentotel, in the order they claim spans: the more
// specific first, so that a convention writing GenAI keys beside its own claims its spans before genai
// does (docs/design.md#1-recognition-internalagentspan, "One registry of conventions").
// docs/conventions.md#claim-order is generated from this list.
func Builtin() []*Convention {
	return []*Convention{&claudeCode, &geminiCLI, &codex, &googleADK, &mastra, &strands, &springAI, &pydanticAI, &langSmith, &logfireAgents, &anthropicSDK, &openLLMetry, &genAI, &openInference, &vercelAI, &langfuse, &genkit, &haystack, &mlflowTracing}
}

// commonStructural are structural whatever the convention: error type and status.
var commonStructural = []string{"error.type", "otel.status_code", "otel.status_description"}

// NewRegistry returns the built-in conventions after those declared in configuration, which claim
// spans first. Declared conventions must have passed Validate. maxDepth bounds the nesting of the JSON
// documents read through the registry (transcripts, replies, envelopes): a processor's one depth
// limit; zero or negative is jsonraw.DefaultMaxDepth.
func NewRegistry(declared []Declared, maxDepth int) *Registry {
	if maxDepth <= 0 {
		maxDepth = jsonraw.DefaultMaxDepth
	}
	r := &Registry{
		maxDepth:     maxDepth,
		transcripts:  map[string]Transcript{},
		eventRoles:   map[string]pcommon.Value{},
		choiceEvents: map[string]bool{},
		structural:   map[string]struct{}{},
	}
	for i := range declared {
		r.conventions = append(r.conventions, declared[i].convention())
	}
	r.builtin = Builtin()
	r.conventions = append(r.conventions, r.builtin...)
	for _, k := range commonStructural {
		r.structural[k] = struct{}{}
	}
	for _, c := range r.conventions {
		for _, t := range c.Transcripts {
			switch {
			case t.Flat != nil:
				r.flat = append(r.flat, flatTranscript{prefix: t.Key, output: t.Output, layout: t.Flat})
			default:
				if _, dup := r.transcripts[t.Key]; !dup {
					r.transcripts[t.Key] = t
					if t.Output {
						r.outputs = append(r.outputs, t)
					}
				}
			}
		}
		for name, role := range c.EventRoles {
			v := pcommon.NewValueEmpty()
			if role != "" {
				v.SetStr(role)
			}
			r.eventRoles[name] = v
		}
		for _, name := range c.ChoiceEvents {
			r.choiceEvents[name] = true
		}
		for _, keys := range [][]string{c.Structural, c.ToolName, c.CallID, c.AgentName, c.AgentSpanName, c.RunID, c.FinishReason} {
			for _, k := range keys {
				r.structural[k] = struct{}{}
			}
		}
	}
	for _, c := range r.builtin {
		for _, k := range c.RunID {
			if !slices.Contains(r.runIDs, k) {
				r.runIDs = append(r.runIDs, k)
			}
		}
	}
	r.reading = make(map[string]attrReading, len(r.structural)+len(r.transcripts))
	for k := range r.structural {
		r.reading[k] = attrReading{}
	}
	for k, t := range r.transcripts {
		r.reading[k] = attrReading{transcript: t, declared: true}
		if checkedUnread(t) {
			r.checked[min(len(k), 63)] = append(r.checked[min(len(k), 63)], k)
		}
	}
	return r
}

// checkedUnread reports whether AddUnread checks a declared transcript: one held as JSON text.
func checkedUnread(t Transcript) bool { return !t.Text && !t.MayBeText }

// checks reports whether AddUnread checks the attribute key.
func (r *Registry) checks(key string) bool {
	return slices.Contains(r.checked[min(len(key), 63)], key)
}

// Default is the registry of the built-in conventions alone.
var Default = NewRegistry(nil, 0)

// Conventions lists the registered conventions in claiming order.
func (r *Registry) Conventions() []*Convention { return r.conventions }

// Recognize classifies a span (or a span event, or a log record). The first convention that claims it
// wins; a span no convention claims is still a tool call when it names a tool the way a built-in
// convention does (a tool span without its operation name, say). A declared convention's keys say
// nothing about spans its match does not select: a generic key (tool_name) would make any span that
// carries it a tool call.
func (r *Registry) Recognize(s Span) View {
	for _, c := range r.conventions {
		if role, ok := c.Claim(s); ok {
			return c.view(role, s, r.maxDepth)
		}
	}
	for _, c := range r.builtin {
		if firstStr(s.Attrs, c.ToolName) != "" {
			return c.view(RoleTool, s, r.maxDepth)
		}
	}
	return View{}
}

func (c *Convention) view(role Role, s Span, maxDepth int) View {
	v := View{Role: role, Convention: c, RunID: firstStr(s.Attrs, c.RunID)}
	v.Agent = firstStr(s.Attrs, c.AgentName)
	if v.Agent == "" && role == RoleAgent {
		v.Agent = firstStr(s.Attrs, c.AgentSpanName)
	}
	switch {
	case v.Agent != "":
	case role == RoleAgent && c.AgentFromSpanName, s.Root && c.AgentFromRootName:
		v.Agent = s.Name
	}
	if role != RoleTool {
		return v
	}
	v.Tool = firstStr(s.Attrs, c.ToolName)
	if v.Tool == "" && c.ToolFromSpan != nil {
		v.Tool = c.ToolFromSpan(s)
	}
	v.CallID = firstStr(s.Attrs, c.CallID)
	if c.CallIDFromSpan != nil {
		v.CallID = c.CallIDFromSpan(s, v.Tool, v.CallID)
	}
	v.ArgsKey = firstPresent(s.Attrs, c.Arguments)
	v.ResultKey = firstPresent(s.Attrs, c.Result)
	if v.CallID == "" && c.Unwrap != nil {
		if raw, ok := attrBytes(s.Attrs, v.ResultKey); ok {
			if e, ok := c.Unwrap(raw, maxDepth); ok {
				v.CallID = e.CallID
				// The message answering the call names the tool the model asked for, where a span may
				// name the tool's class (OpenLLMetry's LangChain handler: DynamicStructuredTool).
				if e.Tool != "" {
					v.Tool = e.Tool
				}
			}
		}
	}
	return v
}

// StructuralKeys lists the attributes every registered convention declares structural: names, ids,
// operation, model, tokens, status, correlation ids. Shaping leaves them as they are.
func (r *Registry) StructuralKeys() []string {
	keys := make([]string, 0, len(r.structural))
	for k := range r.structural {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// RunIDOf returns the run or session id any built-in convention names on a span, or "": a span no
// convention claims (an SDK's root span) may still carry its run's id. A declared convention's run id
// is read on its own spans (View.RunID).
func (r *Registry) RunIDOf(attrs pcommon.Map) string { return firstStr(attrs, r.runIDs) }

// IDKeys lists the attributes holding the ids users group and search by, as the built-in conventions
// name them: call ids, and run and session ids. The content search leaves them alone on every span; a
// declared convention's keys may be generic (id), so they are not among them.
func (r *Registry) IDKeys() []string {
	keys := slices.Clone(r.runIDs)
	for _, c := range r.builtin {
		for _, k := range c.CallID {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// RunKeyOf names the run a span or record belongs to beyond its trace: the first of the configured
// run attributes on it or its resource, else the first of its convention's run keys (byConvention:
// its traces do not each hold a run). "" when none is present.
func RunKeyOf(configured []string, v View, attrs, res pcommon.Map) (key string, byConvention bool) {
	if k := firstOn(configured, attrs, res); k != "" {
		return k, false
	}
	if v.Convention != nil {
		if k := firstOn(v.Convention.RunKey, attrs, res); k != "" {
			return k, true
		}
	}
	return "", false
}

// firstOn is the value of the first of keys on attrs, or else on res.
func firstOn(keys []string, attrs, res pcommon.Map) string {
	for _, key := range keys {
		for _, m := range [2]pcommon.Map{attrs, res} {
			if v, ok := m.Get(key); ok && v.AsString() != "" {
				return v.AsString()
			}
		}
	}
	return ""
}
