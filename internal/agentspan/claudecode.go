// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"bytes"
	"strings"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// claudeCode is Anthropic's Claude Code CLI, as its monitoring documentation (code.claude.com/docs/en/
// monitoring-usage) and captures of 2.1.283 to 2.1.289 show it (testdata/formats/cli/claude-code/README.md
// says which field comes from where). Traces (beta, CLAUDE_CODE_ENHANCED_TELEMETRY_BETA): scope
// com.anthropic.claude_code.tracing, one trace per prompt, claude_code.interaction > claude_code.llm_request
// and claude_code.tool; a tool span names the tool in tool_name (mcp__<server>__<tool>) and the call in
// tool_use_id, and with OTEL_LOG_TOOL_CONTENT its result is the output of its tool.output event. Log
// records: scope com.anthropic.claude_code.events, the event name in event.name without its claude_code.
// prefix, written in the interaction's span; tool_result names the call and its arguments (tool_input)
// but never its result, and calls an MCP tool "mcp_tool", its server and tool only in tool_parameters;
// api_request_body (OTEL_LOG_RAW_API_BODIES) holds the Messages API request, every result of the run in
// its tool_result blocks.
var claudeCode = Convention{
	Name: "claude-code",
	Claim: func(s Span) (Role, bool) {
		switch s.Scope {
		case "com.anthropic.claude_code.tracing":
			switch s.Name {
			case "claude_code.interaction":
				return RoleAgent, true
			case "claude_code.llm_request":
				return RoleModel, true
			case "claude_code.tool":
				return RoleTool, true
			}
			return RoleOther, true
		case "com.anthropic.claude_code.events":
			switch s.Name {
			case "tool_result":
				return RoleTool, true
			case "api_request_body":
				return RoleRequest, true
			}
			return RoleOther, true
		}
		return RoleOther, false
	},
	ToolFromSpan: claudeCodeTool,
	CallID:       []string{"tool_use_id", "gen_ai.tool.call.id"},
	Arguments:    []string{"tool_input"},
	UnwrapArgs:   claudeCodeInput,
	ToolEvents:   []ToolEvent{{Name: "tool.output", Result: "output"}},
	RunID:        []string{"prompt.id"},
	FinishReason: []string{"stop_reason", "gen_ai.response.finish_reasons"},
	// An llm_request span carries the Messages API's usage as it comes: input_tokens leaves out the
	// cache_read_tokens and cache_creation_tokens beside it (testdata/formats/cli/claude-code).
	Usage: &Usage{
		Input: []string{"input_tokens"}, Output: []string{"output_tokens"},
		CacheRead: []string{"cache_read_tokens"}, CacheWrite: []string{"cache_creation_tokens"},
		InputExcludesCache: true,
	},
	BodyLabel: true,
	Structural: []string{
		"tool_name", "span.type", "prompt.id", "session.id", "user.id", "user.email", "user.account_uuid", "user.account_id",
		"organization.id", "terminal.type", "event.name", "event.timestamp", "event.sequence", "message.uuid",
		"request_id", "client_request_id", "tool_use_id", "tool_name_safe", "tool_source", "tool_parameters",
		"decision", "decision_type", "decision_source", "source", "success", "duration_ms", "ttft_ms",
		"first_content_ms", "attempt", "model", "speed", "effort", "query_source", "query_source_safe",
		"input_tokens", "output_tokens", "cache_read_tokens", "cache_creation_tokens", "cost_usd",
		"cost_usd_micros", "tool_input_size_bytes", "tool_result_size_bytes", "body_length", "prompt_length",
		"response_length", "mcp_server_scope", "llm_request.context", "response.has_tool_call",
	},
}

// claudeCodeTool names a Claude Code tool: a span's tool_name, or, where a log record calls an MCP
// tool "mcp_tool", the mcp__<server>__<tool> its tool_parameters name.
func claudeCodeTool(s Span) string {
	name := str(s.Attrs, "tool_name")
	if name != "mcp_tool" {
		return name
	}
	params := zerocopy.Bytes(str(s.Attrs, "tool_parameters"))
	server, _ := jsonField(params, "mcp_server_name")
	tool, _ := jsonField(params, "mcp_tool_name")
	if server == "" || tool == "" {
		return name
	}
	return "mcp__" + server + "__" + tool
}

// claudeCodeInput opens a detailed tool span's tool_input, "[TOOL INPUT: <tool>]" and a newline before
// the arguments.
func claudeCodeInput(raw []byte, _ int) ([]byte, bool) {
	if !bytes.HasPrefix(raw, []byte("[TOOL INPUT: ")) {
		return nil, false
	}
	_, args, ok := bytes.Cut(raw, []byte("\n"))
	return args, ok
}

// jsonField is a string member of a JSON object, decoded.
func jsonField(doc []byte, name string) (string, bool) {
	raw, ok := jsonraw.Field(doc, name)
	if !ok {
		return "", false
	}
	text, ok := jsonraw.Text(raw)
	return strings.TrimSpace(text), ok
}
