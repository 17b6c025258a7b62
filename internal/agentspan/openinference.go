package agentspan

import (
	"bytes"
	"strings"

	"github.com/agentotel/agentotel/internal/jsonraw"
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
}

// LangChain serialises its messages as {"lc":1,"type":"constructor","id":[...,"ToolMessage"],
// "kwargs":{...}}; OpenInference's LangChain instrumentation writes a tool span's ToolMessage (alone or
// under "output") into output.value, with the call id and the result (its content) in the kwargs.
func unwrapLangChainToolMessage(raw []byte) (result []byte, callID string, ok bool) {
	kwargs, ok := langChainKwargs(raw)
	if !ok {
		if inner, found := jsonraw.Field(raw, "output"); found {
			kwargs, ok = langChainKwargs(inner)
		}
	}
	if !ok {
		return nil, "", false
	}
	if id, found := jsonraw.Field(kwargs, "tool_call_id"); found {
		text, _ := jsonraw.Text(id)
		callID = strings.TrimSpace(text)
	}
	content, found := jsonraw.Field(kwargs, "content")
	if !found {
		return raw, callID, true
	}
	if text, isText := jsonraw.Text(content); isText {
		return []byte(text), callID, true
	}
	return content, callID, true
}

// langChainKwargs returns the kwargs of a serialised LangChain ToolMessage.
func langChainKwargs(doc []byte) ([]byte, bool) {
	if !jsonraw.IsContainer(doc) || !jsonraw.Valid(doc) {
		return nil, false
	}
	var o object
	readObject(jsonNode(bytes.TrimSpace(doc), 0), &o)
	if !o.langChain || o.kwargs.kind() != kindObject || !lastElementIs(o.lcClass, "ToolMessage") {
		return nil, false
	}
	return o.kwargs.raw, true
}
