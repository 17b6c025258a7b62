package agentspan

import (
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// GenAI semantic conventions: gen_ai.operation.name says what the span is.
const (
	genAIOperation      = "gen_ai.operation.name"
	genAIAgentName      = "gen_ai.agent.name"
	genAIToolName       = "gen_ai.tool.name"
	genAIToolCallID     = "gen_ai.tool.call.id"
	genAIToolArgs       = "gen_ai.tool.call.arguments"
	genAIToolResult     = "gen_ai.tool.call.result"
	genAIInputMessages  = "gen_ai.input.messages"
	genAIOutputMessages = "gen_ai.output.messages"
	// GenAIToolMessageEvent is the older per-message event (span event or log record) for a tool result.
	GenAIToolMessageEvent = "gen_ai.tool.message"
)

var genAIStructural = []string{
	genAIOperation, genAIAgentName, "gen_ai.agent.id", genAIToolName, genAIToolCallID, "gen_ai.tool.type",
	"gen_ai.tool.description", "gen_ai.provider.name", "gen_ai.system", "gen_ai.request.model",
	"gen_ai.response.model", "gen_ai.response.id", "gen_ai.response.finish_reasons",
	"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "gen_ai.conversation.id",
	"gen_ai.request.temperature", "gen_ai.request.max_tokens",
}

func recognizeGenAI(name string, attrs pcommon.Map) (View, bool) {
	op := str(attrs, genAIOperation)
	if op == "" {
		return View{}, false
	}
	v := View{Convention: GenAI, Agent: str(attrs, genAIAgentName)}
	switch op {
	case "invoke_agent", "create_agent":
		v.Role = RoleAgent
	case "execute_tool":
		v.Role = RoleTool
		v.Tool = str(attrs, genAIToolName)
		if v.Tool == "" {
			// The span name is "execute_tool {gen_ai.tool.name}" when the attribute is missing.
			v.Tool = strings.TrimSpace(strings.TrimPrefix(name, "execute_tool"))
		}
		v.CallID = strings.TrimSpace(str(attrs, genAIToolCallID))
		v.ArgsKey = firstPresent(attrs, genAIToolArgs)
		v.ResultKey = firstPresent(attrs, genAIToolResult)
	case "chat", "text_completion", "generate_content":
		v.Role = RoleModel
	default:
		v.Role = RoleOther
	}
	return v, true
}
