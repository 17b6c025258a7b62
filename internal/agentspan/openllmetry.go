// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import "strings"

// openLLMetry is Traceloop's OpenLLMetry: traceloop.span.kind marks workflow, agent, task and tool
// spans (tasks are steps, as tools are); model spans carry the transcript flattened into gen_ai.prompt.{i}.* and
// gen_ai.completion.{i}.* (newer JS releases write GenAI's gen_ai.input.messages instead). Tool spans
// carry no call id; association properties, the session id among them, are on every span. Its LangChain
// handler (JS, from 0.27) writes GenAI's operation beside traceloop.span.kind, names a tool's span
// after the tool's class (execute_tool DynamicStructuredTool, traceloop.entity.name too) and records the
// tool's output as LangChain's ToolMessage, which names the tool and its call. So it claims spans before
// GenAI: a tool or task span is read as OpenLLMetry's whatever operation it carries.
var openLLMetry = Convention{
	Name: "openllmetry",
	Claim: func(s Span) (Role, bool) {
		kind := strings.ToLower(str(s.Attrs, "traceloop.span.kind"))
		if kind == "tool" || kind == "task" {
			// A task is a decorated function, and tools are often decorated as tasks: its entity name
			// and input and output are a tool call's.
			return RoleTool, true
		}
		if str(s.Attrs, "gen_ai.operation.name") != "" {
			if kind == "" {
				return RoleOther, false // a GenAI span, read by the GenAI convention after this one
			}
			return genAI.Claim(s) // the LangChain handler's workflow spans, as GenAI reads them
		}
		switch kind {
		case "":
			if str(s.Attrs, "llm.request.type") != "" || hasPrefixKey(s.Attrs, "gen_ai.prompt.") || hasPrefixKey(s.Attrs, "gen_ai.completion.") {
				return RoleModel, true
			}
			return RoleOther, false
		case "agent", "workflow":
			return RoleAgent, true
		}
		return RoleOther, true
	},
	ToolName:  []string{"traceloop.entity.name"},
	CallID:    []string{"traceloop.entity.tool_call_id"},
	Arguments: []string{"traceloop.entity.input"},
	Result:    []string{"traceloop.entity.output"},
	// Its LangChain handler records a tool run's output as LangChain's serialised ToolMessage.
	Unwrap:        unwrapLangChainToolMessage,
	AgentSpanName: []string{"traceloop.entity.name"},
	RunID:         []string{"traceloop.association.properties.session_id"},
	Transcripts: []Transcript{
		{Key: "gen_ai.prompt.", Flat: &openLLMetryFlat},
		{Key: "gen_ai.completion.", Output: true, Flat: &openLLMetryFlat},
	},
	FinishReason: []string{"gen_ai.response.finish_reasons"},
	// Its model spans write GenAI's counts or their older names, and the cache in its own keys
	// (testdata/formats/providers/openai-legacy-function.openllmetry.traces.json); its Anthropic
	// instrumentation adds the cache into input_tokens, as OpenAI's prompt_tokens holds it.
	Usage: &Usage{
		Input: genAIUsage.Input, Output: genAIUsage.Output,
		CacheRead:  []string{"gen_ai.usage.cache_read_input_tokens", "gen_ai.usage.cache_read.input_tokens"},
		CacheWrite: []string{"gen_ai.usage.cache_creation_input_tokens", "gen_ai.usage.cache_creation.input_tokens"},
	},
	FlatFinish: []FlatKey{{Prefix: "gen_ai.completion.", Suffix: "finish_reason"}},
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
