// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"bytes"
	"strings"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/message"
)

// openInference is Arize's OpenInference: openinference.span.kind says what a span is. Model
// transcripts are flattened into llm.input_messages.{i}.message.* and llm.output_messages.{i}.*; the
// raw request and response sit in input.value and output.value (JSON or plain text). The
// instrumentations write no agent.name: OpenAI Agents names the AGENT span after the agent, LangGraph
// names the run only in its root CHAIN span's name.
var openInference = Convention{
	Name: "openinference",
	Claim: func(s Span) (Role, bool) {
		kind := str(s.Attrs, "openinference.span.kind")
		if kind == "" {
			return RoleOther, false
		}
		switch strings.ToUpper(kind) {
		case "AGENT":
			return RoleAgent, true
		case "TOOL":
			return RoleTool, true
		case "LLM":
			return RoleModel, true
		}
		return RoleOther, true
	},
	ToolName:          []string{"tool.name"},
	CallID:            []string{"tool_call.id"},
	Arguments:         []string{"input.value"},
	Result:            []string{"output.value"},
	Unwrap:            unwrapLangChainToolMessage,
	AgentName:         []string{"agent.name"},
	AgentFromSpanName: true,
	AgentFromRootName: true,
	RunID:             []string{"session.id"},
	FinishReason:      []string{"llm.finish_reason"},
	// openinference-semantic-conventions: llm.token_count.prompt is the whole prompt, of which
	// prompt_details.cache_read and cache_write are parts (testdata/sdk/openai-agents-openinference).
	Usage: &Usage{
		Input:      []string{"llm.token_count.prompt"},
		Output:     []string{"llm.token_count.completion"},
		CacheRead:  []string{"llm.token_count.prompt_details.cache_read"},
		CacheWrite: []string{"llm.token_count.prompt_details.cache_write"},
	},
	Transcripts: []Transcript{
		{Key: "input.value", MayBeText: true},
		{Key: "output.value", Output: true, MayBeText: true},
		{Key: "llm.input_messages.", Flat: &openInferenceFlat},
		{Key: "llm.output_messages.", Output: true, Flat: &openInferenceFlat},
	},
	Structural: []string{
		"openinference.span.kind", "tool.description", "tool.parameters", "input.mime_type", "output.mime_type",
		"llm.model_name", "llm.provider", "llm.system", "llm.token_count.prompt", "llm.token_count.completion",
		"llm.token_count.total", "user.id",
	},
}

var openInferenceFlat = FlatLayout{
	Role:       "message.role",
	Content:    []string{"message.content", "message.contents."},
	ToolCallID: []string{"message.tool_call_id"},
	Name:       []string{"message.name"},
	Calls:      "message.tool_calls.",
	CallID:     "tool_call.id",
	CallName:   "tool_call.function.name",
	CallArgs:   "tool_call.function.arguments",
	// openinference-semantic-conventions: MESSAGE_FUNCTION_CALL_NAME, MESSAGE_FUNCTION_CALL_ARGUMENTS_JSON.
	FunctionCallName: "message.function_call_name",
	FunctionCallArgs: "message.function_call_arguments_json",
}

// LangChain writes a tool's ToolMessage into its TOOL span's output.value in one of three forms: the
// serialised constructor ({"lc":1,"type":"constructor","id":[...,"ToolMessage"],"kwargs":{...}}), alone
// or under "output"; the message's own fields ({"type":"tool","content",..,"tool_call_id",..}); or
// messages_to_dict's {"type":"tool","data":{...}}. The result is the message's content; its artifact
// is the tool's data too, and its name and tool_call_id name the call.
func unwrapLangChainToolMessage(raw []byte, maxDepth int) (Envelope, bool) {
	if !jsonraw.IsContainer(raw) || !jsonraw.ValidDepth(raw, maxDepth) {
		return Envelope{}, false
	}
	msg, ok := message.ToolMessageFields(bytes.TrimSpace(raw))
	if !ok {
		inner, found := jsonraw.Field(raw, "output")
		if !found {
			return Envelope{}, false
		}
		if msg, ok = message.ToolMessageFields(inner); !ok {
			return Envelope{}, false
		}
	}
	e := Envelope{Result: member(msg, "content"), Artifact: member(msg, "artifact")}
	if string(e.Artifact) == "null" {
		e.Artifact = nil
	}
	if id, found := jsonraw.Field(msg, "tool_call_id"); found {
		text, _ := jsonraw.Text(id)
		e.CallID = strings.TrimSpace(text)
	}
	if name, found := jsonraw.Field(msg, "name"); found {
		text, _ := jsonraw.Text(name)
		e.Tool = strings.TrimSpace(text)
	}
	if e.Result == nil {
		e.Result = raw
	}
	return e, true
}

// member returns an object member's value: a string decoded, anything else as it is written.
func member(obj []byte, key string) []byte {
	v, found := jsonraw.Field(obj, key)
	if !found {
		return nil
	}
	if v[0] == '"' {
		text, _ := jsonraw.Unquote(v)
		return []byte(text)
	}
	return v
}
