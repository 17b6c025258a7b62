// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import "go.opentelemetry.io/collector/pdata/pcommon"

// mastra is Mastra's own telemetry (@mastra/core with @mastra/otel-exporter): GenAI keys on its spans,
// and mastra.span.type saying what a span is. A workflow step that runs a tool is named by its step id
// and carries its input and output in mastra.workflow_step.*; an agent run's step transcripts are in
// mastra.model_step.input and output. Run and session ids are in mastra.metadata.*.
var mastra = Convention{
	Name: "mastra",
	Claim: func(s Span) (Role, bool) {
		switch str(s.Attrs, "mastra.span.type") {
		case "":
			return RoleOther, false
		case "tool_call", "mcp_tool_call", "workflow_step":
			return RoleTool, true
		case "model_inference", "model_generation":
			return RoleModel, true
		case "agent_run", "workflow_run":
			return RoleAgent, true
		}
		return RoleOther, true
	},
	ToolName:     []string{"gen_ai.tool.name", "mastra.workflow_step.step_id"},
	CallID:       []string{"gen_ai.tool.call.id"},
	Arguments:    []string{"gen_ai.tool.call.arguments", "mastra.workflow_step.input"},
	Result:       []string{"gen_ai.tool.call.result", "mastra.workflow_step.output"},
	ToolFromSpan: genAI.ToolFromSpan,
	AgentName:    []string{"gen_ai.agent.name"},
	RunID:        []string{"mastra.metadata.runId", "mastra.metadata.sessionId", "gen_ai.conversation.id"},
	Transcripts: []Transcript{
		{Key: "mastra.model_step.input", MayBeText: true},
		{Key: "mastra.model_step.output", Output: true, MayBeText: true},
	},
	FinishReason: []string{"gen_ai.response.finish_reasons"},
	// A model_generation span is the agent's whole generation, over the model_inference span of each
	// step (testdata/sdk/mastra-otel/traces.json): only a step is one call.
	Usage: &Usage{
		Input: genAIUsage.Input, Output: genAIUsage.Output, CacheRead: genAIUsage.CacheRead, CacheWrite: genAIUsage.CacheWrite,
		PerCall: func(attrs pcommon.Map) bool { return str(attrs, "mastra.span.type") == "model_inference" },
	},
	Structural: []string{
		"mastra.span.type", "mastra.workflow_step.status", "mastra.workflow_run.status", "mastra.model_step.step_index",
		"mastra.metadata.toolCallId", "mastra.metadata.toolName", "gen_ai.operation.name", "gen_ai.tool.type",
		"gen_ai.tool.description", "gen_ai.request.model", "gen_ai.response.model", "gen_ai.usage.input_tokens",
		"gen_ai.usage.output_tokens",
	},
}
