package agentspan

import (
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// ToolMessageID returns the call id of an older GenAI tool-result event (a span event or log record
// named gen_ai.tool.message), read from its attributes or, for log records, its map body. The result
// itself is the event's "content".
func ToolMessageID(eventName string, attrs pcommon.Map, body pcommon.Value) (string, bool) {
	if eventName != GenAIToolMessageEvent {
		return "", false
	}
	for _, m := range []pcommon.Map{attrs, bodyMap(body)} {
		for _, key := range []string{"id", genAIToolCallID, "tool_call_id"} {
			if id := str(m, key); id != "" {
				return strings.TrimSpace(id), true
			}
		}
	}
	return "", true
}

// ToolMessageContentKey is where a gen_ai.tool.message event keeps the result.
const ToolMessageContentKey = "content"

func bodyMap(body pcommon.Value) pcommon.Map {
	if body.Type() == pcommon.ValueTypeMap {
		return body.Map()
	}
	return pcommon.NewMap()
}
