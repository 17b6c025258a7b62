// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

// strands is Strands Agents (strands-agents/sdk-python, telemetry/tracer.py, and the TypeScript SDK,
// @strands-agents/sdk): GenAI span names and keys under its own instrumentation scope, and every
// message on span events rather than attributes. Spans: invoke_agent <agent> >
// execute_event_loop_cycle (TypeScript: execute_agent_loop_cycle) > chat, execute_tool <tool>.
//
// By default each message is an event (gen_ai.user.message, gen_ai.tool.message ...) whose content
// attribute holds Strands' content blocks (Bedrock Converse shapes: text, toolUse, toolResult) as
// JSON; a tool span's arguments ride on its gen_ai.tool.message event and its result on its
// gen_ai.choice event, each with the call id in id; a model span's reply and its finish reason (Strands'
// own: toolUse, endTurn, maxTokens) are on its gen_ai.choice event. In the latest mode each span has
// gen_ai.client.inference.operation.details events holding gen_ai.input.messages /
// gen_ai.output.messages, GenAI parts: a tool span's input is its tool_call part, its output the
// tool_call_response part (the TypeScript SDK also sets gen_ai.tool.call.arguments and result then).
// A result is a list of content blocks: [{"json": value}] from the TypeScript SDK, [{"text":
// str(result)}] from a Python tool returning a dict (its repr).
var strands = Convention{
	Name: "strands",
	// Its tracer's name: the Python SDK names it for its module, the TypeScript SDK for itself.
	Claim:        genAIUnder("strands.telemetry.tracer", "strands-agents"),
	ToolName:     genAI.ToolName,
	CallID:       genAI.CallID,
	Arguments:    genAI.Arguments,
	Result:       genAI.Result,
	ToolFromSpan: genAI.ToolFromSpan,
	Unwrap:       unwrapContentBlock,
	ToolEvents: []ToolEvent{
		{Name: "gen_ai.tool.message", Arguments: "content", CallID: "id"},
		{Name: "gen_ai.choice", Result: "message", CallID: "id"},
		{Name: "gen_ai.client.inference.operation.details", Arguments: "gen_ai.input.messages",
			Result: "gen_ai.output.messages", Parts: true},
	},
	ReplyEvents: []ReplyEvent{
		{Name: "gen_ai.choice", Reply: "message", FinishReason: "finish_reason"},
		{Name: "gen_ai.client.inference.operation.details", Reply: "gen_ai.output.messages"},
	},
	AgentName:    genAI.AgentName,
	RunID:        genAI.RunID,
	FinishReason: genAI.FinishReason,
	// Strands writes its model's usage as Bedrock Converse's TokenUsage gives it: inputTokens as
	// input_tokens and prompt_tokens, and cacheReadInputTokens and cacheWriteInputTokens apart from it
	// in its own cache_read_input_tokens and cache_write_input_tokens (strands-agents/sdk-python,
	// src/strands/telemetry/tracer.py: end_model_invoke_span, _add_optional_usage_and_metrics_attributes);
	// Converse counts the cache apart from inputTokens, as the Anthropic API it fronts does. Its
	// invoke_agent span repeats the sum of its chats (testdata/formats/genai/strands-events.traces.json)
	// and is not read.
	Usage: &Usage{
		Input: genAIUsage.Input, Output: genAIUsage.Output,
		CacheRead:          []string{"gen_ai.usage.cache_read_input_tokens"},
		CacheWrite:         []string{"gen_ai.usage.cache_write_input_tokens"},
		InputExcludesCache: true,
	},
	Structural: []string{
		"gen_ai.event.start_time", "gen_ai.event.end_time", "gen_ai.tool.status", "gen_ai.agent.tools",
		"event_loop.cycle_id", "event_loop.parent_cycle_id", "agent_loop.cycle_id", "gen_ai.usage.prompt_tokens",
		"gen_ai.usage.completion_tokens", "gen_ai.usage.total_tokens", "gen_ai.usage.cache_read_input_tokens",
		"gen_ai.usage.cache_write_input_tokens", "gen_ai.server.time_to_first_token", "gen_ai.server.request.duration",
	},
}
