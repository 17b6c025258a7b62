// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"bytes"
	"strings"
)

// codex is OpenAI's Codex CLI (openai/codex, codex-rs/otel at 608b8b1; testdata/formats/cli/codex/README.md
// cites the lines). Its tool calls and their results are only in log records, scope codex_otel.log_only,
// the event name in event.name: codex.tool_result names the tool (MCP tools "mcp__<server><tool>", no
// separator, the server in mcp_server), the call (call_id), its arguments and its output: "Wall time:
// <s> seconds\nOutput:\n" before the MCP content array, cut after 2,048 bytes or 64 lines with
// "[... telemetry preview truncated ...]". codex.api_request is one model call. Every record names its
// conversation in conversation.id, which joins the run, ended by idling; its spans (scope codex_exec)
// carry lengths and names, never content, in three traces a run, and are no agent telemetry here.
var codex = Convention{
	Name: "codex",
	Claim: func(s Span) (Role, bool) {
		switch s.Scope {
		case "codex_otel.log_only":
			// The record's OTLP event name is its call site ("event otel/src/events/...rs:1116"); its
			// name is in event.name.
			switch str(s.Attrs, "event.name") {
			case "codex.tool_result":
				return RoleTool, true
			case "codex.api_request":
				return RoleModel, true
			}
			return RoleOther, true
		case "codex_exec":
			// Its spans hold no content, in three traces a run: the run is its conversation's records.
			return RoleOther, true
		}
		return RoleOther, false
	},
	ToolFromSpan: codexTool,
	CallID:       []string{"call_id"},
	Arguments:    []string{"arguments"},
	Result:       []string{"output"},
	Unwrap:       codexOutput,
	Truncated:    func(raw []byte) bool { return bytes.HasSuffix(bytes.TrimSpace(raw), []byte(codexTruncationMarker)) },
	RunKey:       []string{"conversation.id"},
	// A codex.api_request record carries no usage: Codex writes it on the response's codex.sse_event
	// records, which are no model call here, and sums a turn on its session_task.turn span. Its model
	// calls count no tokens.
	Structural: []string{
		"tool_name", "event.name", "event.timestamp", "event.kind", "conversation.id", "app.version", "auth_mode", "originator",
		"user.account_id", "user.email", "terminal.type", "model", "slug", "duration_ms", "success", "mcp_server",
		"mcp_server_origin", "http.response.status_code", "attempt", "endpoint", "input_token_count",
		"output_token_count", "cached_token_count", "reasoning_token_count", "tool_token_count", "prompt_length",
	},
}

const codexTruncationMarker = "[... telemetry preview truncated ...]"

// codexTool names a Codex tool: an MCP tool, "mcp__" + server + tool in telemetry, is
// mcp__<server>__<tool>, as other clients name it; a built-in tool is its name.
func codexTool(s Span) string {
	name := str(s.Attrs, "tool_name")
	server := str(s.Attrs, "mcp_server")
	if tool, ok := strings.CutPrefix(name, "mcp__"+server); ok && server != "" && tool != "" {
		return "mcp__" + server + "__" + tool
	}
	return name
}

// codexOutput opens a tool's output: what follows its "Wall time: <s> seconds" and "Output:" lines,
// the time differing on every call.
func codexOutput(raw []byte, maxDepth int) (Envelope, bool) {
	if !bytes.HasPrefix(raw, []byte("Wall time: ")) {
		return Envelope{}, false
	}
	_, rest, ok := bytes.Cut(raw, []byte("\nOutput:\n"))
	if !ok {
		return Envelope{}, false
	}
	if e, ok := unwrapContentBlock(rest, maxDepth); ok {
		return e, true
	}
	return Envelope{Result: rest}, true
}
