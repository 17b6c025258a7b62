package agentspan

import (
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// Vercel AI SDK legacy telemetry (v4 and v5+): ai.operationId says what the span is; the transcript is
// the JSON in ai.prompt.messages.
const (
	vercelOperation  = "ai.operationId"
	vercelToolName   = "ai.toolCall.name"
	vercelToolCallID = "ai.toolCall.id"
	vercelFunctionID = "ai.telemetry.functionId"
)

var vercelStructural = []string{
	vercelOperation, vercelToolName, vercelToolCallID, vercelFunctionID, "operation.name",
	"ai.model.id", "ai.model.provider", "ai.response.finishReason", "ai.response.id", "ai.response.model",
	"ai.usage.promptTokens", "ai.usage.completionTokens", "ai.usage.inputTokens", "ai.usage.outputTokens",
	"ai.usage.totalTokens", "ai.settings.maxRetries", "ai.settings.maxSteps", "resource.name",
}

func recognizeVercelAI(name string, attrs pcommon.Map) (View, bool) {
	op := str(attrs, vercelOperation)
	if op == "" {
		if !strings.HasPrefix(name, "ai.") {
			return View{}, false
		}
		op = name
	}
	v := View{Convention: VercelAI, Agent: str(attrs, vercelFunctionID)}
	switch {
	case op == "ai.toolCall":
		v.Role = RoleTool
		v.Tool = str(attrs, vercelToolName)
		v.CallID = strings.TrimSpace(str(attrs, vercelToolCallID))
		// v4 writes args/result; some v5+ builds write input/output.
		v.ArgsKey = firstPresent(attrs, "ai.toolCall.args", "ai.toolCall.input")
		v.ResultKey = firstPresent(attrs, "ai.toolCall.result", "ai.toolCall.output")
	case strings.HasSuffix(op, ".doGenerate") || strings.HasSuffix(op, ".doStream"):
		v.Role = RoleModel
	case op == "ai.generateText" || op == "ai.streamText" || op == "ai.generateObject" || op == "ai.streamObject":
		v.Role = RoleAgent
	default:
		v.Role = RoleOther
	}
	return v, true
}
