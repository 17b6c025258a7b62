// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import "strings"

// haystack is Haystack's own OpenTelemetry tracing (deepset-ai/haystack; in 2.x its core tracer, in 3.x
// the opentelemetry-haystack integration's; the tracer is "haystack"). Every tag is one attribute: a
// string, number or bool as it is, anything else JSON text (json.dumps of its to_dict form). Spans:
//
//	haystack.pipeline.run > haystack.component.run (each component's run; an Agent's too)
//	haystack.agent.run > (2.x) haystack.component.run of its chat generator and its ToolInvoker
//	                   > (3.x) haystack.agent.step > haystack.agent.step.llm, haystack.agent.step.tool
//
// A 3.x tool span is one call: haystack.tool.name, its arguments and what the tool returned. In 2.x a
// ToolInvoker runs every call of a message in one component span, and no attribute names a tool: the
// calls and results are only in its messages, which the transcripts hold. Messages are Haystack's
// ChatMessage dicts, {"role","meta","name","content":[..]}, with {"tool_call":{..}} and
// {"tool_call_result":{"result","origin":{the call}}} parts (internal/message). With content tracing on
// (HAYSTACK_CONTENT_TRACING_ENABLED), a component span's inputs and outputs are in
// haystack.component.input / .output, a 3.x model call's in haystack.agent.step.llm.input / .output.
var haystack = Convention{
	Name: "haystack",
	Claim: func(s Span) (Role, bool) {
		switch s.Name {
		case "haystack.agent.step.tool":
			return RoleTool, true
		case "haystack.agent.step.llm":
			return RoleModel, true
		case "haystack.agent.run":
			return RoleAgent, true
		case "haystack.component.run":
			// Chat generators are named <Provider>ChatGenerator (OpenAIChatGenerator, ...).
			if strings.HasSuffix(str(s.Attrs, "haystack.component.type"), "ChatGenerator") {
				return RoleModel, true
			}
			return RoleOther, true
		}
		return RoleOther, strings.HasPrefix(s.Name, "haystack.")
	},
	ToolName:  []string{"haystack.tool.name"},
	Arguments: []string{"haystack.agent.step.tool.input"},
	Result:    []string{"haystack.agent.step.tool.output"},
	Transcripts: []Transcript{
		{Key: "haystack.agent.step.llm.input"},
		{Key: "haystack.component.input"},
		{Key: "haystack.agent.input"},
		{Key: "haystack.agent.step.llm.output", Output: true},
		{Key: "haystack.component.output", Output: true},
		{Key: "haystack.agent.output", Output: true},
	},
	Structural: []string{
		"haystack.tool.description", "haystack.agent.tools", "haystack.agent.max_steps",
		"haystack.agent.exit_conditions", "haystack.agent.state_schema", "haystack.agent.steps_taken",
		"haystack.agent.step", "haystack.component.name", "haystack.component.type",
		"haystack.component.fully_qualified_type", "haystack.component.input_types",
		"haystack.component.input_spec", "haystack.component.output_spec", "haystack.component.visits",
		"haystack.pipeline.max_runs_per_component",
	},
}
