// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

// pydanticAI is Pydantic AI's instrumentation (its tracer is "pydantic-ai"): the GenAI convention's
// operations and keys, but with InstrumentationSettings version 1 or 2, and version 2 is the default
// through Pydantic AI 1.x, a tool span is "running tool" with its arguments and result in
// tool_arguments and tool_response, and the agent's span is "agent run" naming it in agent_name.
// From version 3 tool spans write GenAI's keys. Every span of a run carries its run's id,
// gen_ai.agent.call.id.
var pydanticAI = Convention{
	Name:         "pydantic-ai",
	Claim:        genAIUnder("pydantic-ai"),
	ToolName:     genAI.ToolName,
	CallID:       genAI.CallID,
	Arguments:    []string{"gen_ai.tool.call.arguments", "tool_arguments"},
	Result:       []string{"gen_ai.tool.call.result", "tool_response"},
	ToolFromSpan: genAI.ToolFromSpan,
	AgentName:    []string{"gen_ai.agent.name", "agent_name"},
	RunID:        genAI.RunID,
	Transcripts:  genAI.Transcripts,
	FinishReason: genAI.FinishReason,
	// Its chat spans carry the call's usage in GenAI's keys; the agent span's gen_ai.aggregated_usage.*
	// sums them (testdata/formats/genai/pydantic-ai-v2-default.traces.json), and is not read.
	Usage:      genAI.Usage,
	Structural: []string{"gen_ai.agent.call.id", "agent_name", "model_name"},
	EventRoles: genAI.EventRoles,
}
