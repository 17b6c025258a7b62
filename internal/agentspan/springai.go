// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

// springAI is Spring AI's Micrometer observations, exported through Micrometer Tracing's OpenTelemetry
// bridge: spring.ai.kind says what a framework span is (tool_call, chat_client, advisor,
// vector_store). A tool call's span is named "tool_call {tool}" with gen_ai.operation.name
// "framework" in Spring AI 1.x, and "execute_tool {tool}" with "execute_tool" and a call id from 2.0;
// the tool is spring.ai.tool.definition.name, and with tool content observed
// (spring.ai.tools.observations.include-content) its arguments and result are
// spring.ai.tool.call.arguments and spring.ai.tool.call.result, as the tool's converter wrote them
// (JSON by default). Chat model spans carry no spring.ai.kind: they are the GenAI convention's, their
// finish reasons a JSON-like list of the provider's own ("["TOOL_CALLS"]") and token counts strings.
var springAI = Convention{
	Name: "spring-ai",
	Claim: func(s Span) (Role, bool) {
		switch str(s.Attrs, "spring.ai.kind") {
		case "":
			return RoleOther, false
		case "tool_call":
			return RoleTool, true
		case "chat_client":
			return RoleAgent, true
		}
		return RoleOther, true
	},
	ToolName:     []string{"spring.ai.tool.definition.name"},
	CallID:       []string{"spring.ai.tool.call.id"},
	Arguments:    []string{"spring.ai.tool.call.arguments"},
	Result:       []string{"spring.ai.tool.call.result"},
	ToolFromSpan: func(s Span) string { return afterPrefix(s.Name, "tool_call ", "execute_tool ") },
	Structural: []string{
		"spring.ai.kind", "spring.ai.tool.definition.name", "spring.ai.tool.definition.description",
		"spring.ai.tool.definition.schema", "spring.ai.tool.type", "gen_ai.operation.name", "gen_ai.system",
	},
}
