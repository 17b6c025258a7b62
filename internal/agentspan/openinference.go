package agentspan

import (
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// OpenInference (Arize): openinference.span.kind says what the span is; LLM transcripts are flattened
// into llm.input_messages.{i}.message.* attributes.
const (
	oiSpanKind       = "openinference.span.kind"
	oiToolName       = "tool.name"
	oiToolCallID     = "tool_call.id"
	oiAgentName      = "agent.name"
	oiInputValue     = "input.value"
	oiOutputValue    = "output.value"
	oiInputMessages  = "llm.input_messages."
	oiOutputMessages = "llm.output_messages."
)

var openInferenceStructural = []string{
	oiSpanKind, oiToolName, oiToolCallID, oiAgentName, "tool.description", "tool.parameters",
	"input.mime_type", "output.mime_type", "llm.model_name", "llm.provider", "llm.system",
	"llm.token_count.prompt", "llm.token_count.completion", "llm.token_count.total", "session.id",
}

func recognizeOpenInference(name string, attrs pcommon.Map) (View, bool) {
	kind := str(attrs, oiSpanKind)
	if kind == "" {
		return View{}, false
	}
	v := View{Convention: OpenInference, Agent: str(attrs, oiAgentName)}
	switch strings.ToUpper(kind) {
	case "AGENT":
		v.Role = RoleAgent
		if v.Agent == "" {
			// The instrumentations write no agent.name: OpenAI Agents names the AGENT span after the
			// agent.
			v.Agent = name
		}
	case "TOOL":
		v.Role = RoleTool
		v.Tool = str(attrs, oiToolName)
		v.CallID = strings.TrimSpace(str(attrs, oiToolCallID))
		v.ArgsKey = firstPresent(attrs, oiInputValue)
		v.ResultKey = firstPresent(attrs, oiOutputValue)
		if v.CallID == "" {
			// LangChain writes no tool_call.id; the id is in the ToolMessage the tool returned.
			v.CallID = langChainCallID(attrBytes(attrs, v.ResultKey))
		}
	case "LLM":
		v.Role = RoleModel
	default:
		v.Role = RoleOther
	}
	return v, true
}

// openInferenceFlat reads llm.input_messages.{i}.message.* and llm.output_messages.{i}.message.*.
var openInferenceFlat = flatConvention{
	inputPrefix:  oiInputMessages,
	outputPrefix: oiOutputMessages,
	role:         "message.role",
	content:      []string{"message.content", "message.contents."},
	toolCallID:   "message.tool_call_id",
	callsPrefix:  "message.tool_calls.",
	callID:       "tool_call.id",
	callName:     "tool_call.function.name",
	callArgs:     "tool_call.function.arguments",
}

func langChainCallID(output []byte) string {
	kwargs, ok := langChainToolMessage(output)
	if !ok {
		return ""
	}
	raw, _ := jsonraw.Field(kwargs, "tool_call_id")
	id, _ := jsonraw.Text(raw)
	return strings.TrimSpace(id)
}
