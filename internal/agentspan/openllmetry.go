package agentspan

import (
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// OpenLLMetry (Traceloop): traceloop.span.kind marks workflow, agent and tool spans; model spans carry
// the transcript flattened into gen_ai.prompt.{i}.* and gen_ai.completion.{i}.*.
const (
	traceloopKind       = "traceloop.span.kind"
	traceloopEntityName = "traceloop.entity.name"
	traceloopToolCallID = "traceloop.entity.tool_call_id"
	traceloopInput      = "traceloop.entity.input"
	traceloopOutput     = "traceloop.entity.output"
	openLLMetryPrompt   = "gen_ai.prompt."
	openLLMetryComplete = "gen_ai.completion."
)

var openLLMetryStructural = []string{
	traceloopKind, traceloopEntityName, traceloopToolCallID, "traceloop.workflow.name",
	"traceloop.entity.path", "llm.request.type", "llm.usage.total_tokens",
	"gen_ai.usage.prompt_tokens", "gen_ai.usage.completion_tokens",
}

func recognizeOpenLLMetry(_ string, attrs pcommon.Map) (View, bool) {
	kind := str(attrs, traceloopKind)
	if kind == "" {
		if hasPrefixKey(attrs, openLLMetryPrompt) || hasPrefixKey(attrs, openLLMetryComplete) {
			return View{Role: RoleModel, Convention: OpenLLMetry}, true
		}
		return View{}, false
	}
	v := View{Convention: OpenLLMetry}
	switch kind {
	case "agent", "workflow":
		v.Role = RoleAgent
		v.Agent = str(attrs, traceloopEntityName)
	case "tool":
		v.Role = RoleTool
		v.Tool = str(attrs, traceloopEntityName)
		v.CallID = strings.TrimSpace(str(attrs, traceloopToolCallID))
		v.ArgsKey = firstPresent(attrs, traceloopInput)
		v.ResultKey = firstPresent(attrs, traceloopOutput)
	default:
		v.Role = RoleOther
	}
	return v, true
}

func hasPrefixKey(attrs pcommon.Map, prefix string) bool {
	found := false
	attrs.Range(func(k string, _ pcommon.Value) bool {
		found = strings.HasPrefix(k, prefix)
		return !found
	})
	return found
}

// openLLMetryFlat reads gen_ai.prompt.{i}.* and gen_ai.completion.{i}.*.
var openLLMetryFlat = flatConvention{
	inputPrefix:  openLLMetryPrompt,
	outputPrefix: openLLMetryComplete,
	role:         "role",
	content:      []string{"content"},
	toolCallID:   "tool_call_id",
	callsPrefix:  "tool_calls.",
	callID:       "id",
	callName:     "name",
	callArgs:     "arguments",
}
