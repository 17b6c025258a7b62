// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import "strings"

// openLLMetry is Traceloop's OpenLLMetry: traceloop.span.kind marks workflow, agent, task and tool
// spans (tasks are steps, as tools are); model spans carry the transcript flattened into gen_ai.prompt.{i}.* and
// gen_ai.completion.{i}.* (newer JS releases write GenAI's gen_ai.input.messages instead). Tool spans
// carry no call id; association properties, the session id among them, are on every span.
var openLLMetry = Convention{
	Name: "openllmetry",
	Claim: func(s Span) (Role, bool) {
		kind := str(s.Attrs, "traceloop.span.kind")
		if kind == "" {
			if str(s.Attrs, "llm.request.type") != "" || hasPrefixKey(s.Attrs, "gen_ai.prompt.") || hasPrefixKey(s.Attrs, "gen_ai.completion.") {
				return RoleModel, true
			}
			return RoleOther, false
		}
		switch strings.ToLower(kind) {
		case "agent", "workflow":
			return RoleAgent, true
		case "tool", "task":
			// A task is a decorated function, and tools are often decorated as tasks: its entity name
			// and input and output are a tool call's.
			return RoleTool, true
		}
		return RoleOther, true
	},
	ToolName:      []string{"traceloop.entity.name"},
	CallID:        []string{"traceloop.entity.tool_call_id"},
	Arguments:     []string{"traceloop.entity.input"},
	Result:        []string{"traceloop.entity.output"},
	AgentSpanName: []string{"traceloop.entity.name"},
	RunID:         []string{"traceloop.association.properties.session_id"},
	Transcripts: []Transcript{
		{Key: "gen_ai.prompt.", Flat: &openLLMetryFlat},
		{Key: "gen_ai.completion.", Output: true, Flat: &openLLMetryFlat},
	},
	FinishReason: []string{"gen_ai.response.finish_reasons"},
	FlatFinish:   []FlatKey{{Prefix: "gen_ai.completion.", Suffix: "finish_reason"}},
	Structural: []string{
		"traceloop.span.kind", "traceloop.workflow.name", "traceloop.entity.path", "traceloop.entity.version",
		"llm.request.type", "llm.usage.total_tokens", "gen_ai.usage.prompt_tokens", "gen_ai.usage.completion_tokens",
		"traceloop.association.properties.user_id", "traceloop.association.properties.thread_id",
	},
}

var openLLMetryFlat = FlatLayout{
	Role:         "role",
	Content:      []string{"content"},
	ToolCallID:   []string{"tool_call_id"},
	Name:         []string{"name"},
	Calls:        "tool_calls.",
	CallID:       "id",
	CallName:     "name",
	CallArgs:     "arguments",
	FinishReason: "finish_reason",
}
