// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import "strings"

// googleADK is Google's Agent Development Kit (adk-js, adk-python). Its spans name tools and call ids
// with GenAI keys, but put arguments, results and transcripts in its own attributes: the model's
// request and response as Gemini JSON in gcp.vertex.agent.llm_request / llm_response. Spans:
// invocation > invoke_agent <agent> > call_llm > execute_tool <tool> (tool spans nest under the model
// call that asked for them). The session id is on invoke_agent and call_llm only, not on tool spans.
// When the model gives no call id, ADK makes one (adk-<uuid>) and strips it from later requests, where
// calls and results are then matched by name.
var googleADK = Convention{
	Name: "google-adk",
	Claim: func(s Span) (Role, bool) {
		if s.Scope != "gcp.vertex.agent" && !hasPrefixKey(s.Attrs, "gcp.vertex.agent.") {
			return RoleOther, false
		}
		switch op := str(s.Attrs, "gen_ai.operation.name"); {
		case op == "execute_tool" || strings.HasPrefix(s.Name, "execute_tool"):
			return RoleTool, true
		case op == "invoke_agent" || strings.HasPrefix(s.Name, "invoke_agent"):
			return RoleAgent, true
		case s.Name == "call_llm" || op == "generate_content" || op == "chat":
			return RoleModel, true
		}
		return RoleOther, true
	},
	ToolName:     []string{"gen_ai.tool.name"},
	CallID:       []string{"gen_ai.tool.call.id"},
	Arguments:    []string{"gcp.vertex.agent.tool_call_args"},
	Result:       []string{"gcp.vertex.agent.tool_response"},
	ToolFromSpan: genAI.ToolFromSpan,
	AgentName:    []string{"gen_ai.agent.name"},
	RunID:        []string{"gen_ai.conversation.id", "gcp.vertex.agent.session_id"},
	FinishReason: []string{"gen_ai.response.finish_reasons"},
	Usage:        genAI.Usage,
	Transcripts: []Transcript{
		{Key: "gcp.vertex.agent.llm_request"},
		{Key: "gcp.vertex.agent.llm_response", Output: true},
	},
	Structural: []string{
		"gen_ai.operation.name", "gen_ai.system", "gen_ai.request.model", "gen_ai.tool.description", "gen_ai.tool.type",
		"gcp.vertex.agent.event_id", "gcp.vertex.agent.invocation_id", "gcp.vertex.agent.llm_request.model",
		"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens",
	},
}
