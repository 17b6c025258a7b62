// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import "strings"

// anthropicSDK is the tracing the Anthropic SDK does itself (@anthropic-ai/sdk from 1.x, on by default,
// into the global tracer provider; scope com.anthropic.sdk.typescript, with a suffix in a platform's
// package): GenAI's operations, keys and messages, but, in content mode, a tool run's result in
// anthropic.tool_result.content as the content blocks the tool runner sent ([{"type":"text","text":..}]),
// and a reply's stop reason in anthropic.message.stop_reason. Spans: anthropic.messages.tool_runner
// (invoke_agent) > anthropic.messages.create (chat), anthropic.custom_tool_use <tool> (execute_tool).
// The tool runner's requests continue a thread the API keeps, so a model span's gen_ai.input.messages
// holds only what its request adds (the results since the reply before), not the conversation so far.
var anthropicSDK = Convention{
	Name: "anthropic-sdk",
	Claim: func(s Span) (Role, bool) {
		if !strings.HasPrefix(s.Scope, "com.anthropic.sdk.") {
			return RoleOther, false
		}
		return genAI.Claim(s)
	},
	ToolName:  genAI.ToolName,
	CallID:    genAI.CallID,
	Arguments: genAI.Arguments,
	Result:    []string{"gen_ai.tool.call.result", "anthropic.tool_result.content"},
	Unwrap:    unwrapContentBlock,
	ToolFromSpan: func(s Span) string {
		return afterPrefix(s.Name, "anthropic.custom_tool_use", "anthropic.mcp_tool_use", "anthropic.tool_use")
	},
	AgentName:    genAI.AgentName,
	RunID:        []string{"gen_ai.conversation.id", "anthropic.session.id"},
	Transcripts:  genAI.Transcripts,
	FinishReason: []string{"gen_ai.response.finish_reasons", "anthropic.message.stop_reason"},
	// GenAI's usage keys (testdata/sdk/anthropic-sdk-otel/traces.json), read by GenAI's rule: the SDK
	// writes GenAI's attributes, whose input_tokens counts the cache too.
	Usage: genAI.Usage,
	Structural: []string{
		"anthropic.request.id", "anthropic.beta", "anthropic.toolset.name", "anthropic.session.thread.id",
		"anthropic.request.service_tier", "anthropic.response.service_tier", "anthropic.thinking.type",
		"anthropic.thinking.budget_tokens", "anthropic.content.truncated", "anthropic.organization.id",
		"anthropic.workspace.id",
	},
	EventRoles: genAI.EventRoles,
}
