// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import "strings"

// logfireAgents is Logfire's instrumentation of the OpenAI Agents SDK (logfire.instrument_openai_agents,
// scope "logfire.openai_agents"): every span of the SDK's own tracing becomes a span named by Logfire's
// message template, which logfire.msg_template repeats ("Function: {name}", "Agent run: {name!r}",
// "Responses API with {gen_ai.request.model!r}"), with the span data's fields as attributes. A function
// tool's span holds the tool in name, the model's arguments (a JSON string) in input and the tool's return
// value in output (JSON when it was an object); model calls carry GenAI's operation and keys. The tool is
// named by name only here: the key is too common to name a tool on any other span.
var logfireAgents = Convention{
	Name: "logfire-openai-agents",
	Claim: func(s Span) (Role, bool) {
		if s.Scope != "logfire.openai_agents" {
			return RoleOther, false
		}
		switch str(s.Attrs, "logfire.msg_template") {
		case "Function: {name}":
			return RoleTool, true
		case "Agent run: {name!r}":
			return RoleAgent, true
		}
		if role, ok := genAI.Claim(s); ok {
			return role, true
		}
		return RoleOther, true
	},
	ToolFromSpan: func(s Span) string { return strings.TrimSpace(str(s.Attrs, "name")) },
	Arguments:    []string{"input"},
	Result:       []string{"output"},
	FinishReason: genAI.FinishReason,
	Usage:        genAI.Usage,
	Structural:   []string{"logfire.msg_template", "logfire.span_type", "logfire.json_schema", "agent_trace_id"},
}
