// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"bytes"
	"strings"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// geminiCLI is Google's Gemini CLI (google-gemini/gemini-cli, packages/core/src/telemetry at 5411f11;
// testdata/formats/cli/gemini-cli/README.md cites the lines). Everything is under the scope gemini-cli.
// Spans: an llm_call per model call and a schedule_tool_calls > tool_call per tool batch, each its own
// trace: a run is joined by its session (gen_ai.conversation.id on spans, session.id on the resource).
// An llm_call's gen_ai.input.messages is the conversation so far in Gemini's own format
// (functionCall / functionResponse parts with ids); a tool_call names the tool in gen_ai.tool.name
// (mcp_<server>_<tool>) and the call in gen_ai.tool.call_id, "<tool>__" before the id the requests use,
// and holds the call in gen_ai.input.messages ({callId, name, args, ...}) and the completed call in
// gen_ai.output.messages ({status, request, response: {responseParts: [{functionResponse}]}, ...}).
// Span values longer than 10,000 characters are cut and end in "...[TRUNCATED: original length N]".
// Log records name themselves in event.name: gemini_cli.api_request's request_text and the
// gen_ai.client.inference.operation.details records hold the request (GenAI parts, the model's turns
// with role system); gemini_cli.tool_call names a call (function_name, function_args) but neither its
// result nor its id.
var geminiCLI = Convention{
	Name: "gemini-cli",
	Claim: func(s Span) (Role, bool) {
		if s.Scope != "gemini-cli" {
			return RoleOther, false
		}
		switch s.Name {
		case "llm_call":
			return RoleModel, true
		case "tool_call", "gemini_cli.tool_call":
			return RoleTool, true
		case "gemini_cli.api_request", "gen_ai.client.inference.operation.details":
			return RoleRequest, true
		}
		return RoleOther, true
	},
	ToolName: []string{"gen_ai.tool.name"},
	// A record names the tool in function_name, a key too common to name a tool on any span.
	ToolFromSpan:   func(s Span) string { return str(s.Attrs, "function_name") },
	CallID:         []string{"gen_ai.tool.call_id"},
	CallIDFromSpan: func(_ Span, tool, id string) string { return strings.TrimPrefix(id, tool+"__") },
	Arguments:      []string{"gen_ai.input.messages", "function_args"},
	UnwrapArgs:     geminiCLIArgs,
	Result:         []string{"gen_ai.output.messages"},
	Unwrap:         geminiCLIResult,
	Truncated:      geminiCLITruncated,
	RunKey:         []string{"gen_ai.conversation.id", "session.id"},
	RunID:          []string{"gen_ai.prompt.name", "prompt_id"},
	AgentName:      []string{"gen_ai.agent.name"},
	Transcripts: []Transcript{
		{Key: "gen_ai.input.messages"},
		{Key: "gen_ai.output.messages", Output: true},
	},
	FinishReason: []string{"gen_ai.response.finish_reasons"},
	// llm_call spans carry GenAI's counts; Gemini's promptTokenCount, which they take, includes the
	// cachedContentTokenCount the api_response record breaks out.
	Usage:     genAI.Usage,
	BodyLabel: true,
	Structural: []string{
		"function_name", "gen_ai.operation.name", "gen_ai.agent.description", "gen_ai.tool.description", "gen_ai.prompt.name",
		"gen_ai.conversation.id", "gen_ai.request.model", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens",
		"session.id", "installation.id", "interactive", "auth_type", "event.name", "event.timestamp", "prompt_id",
		"duration_ms", "success", "decision", "tool_type", "mcp_server_name", "status_code", "http.status_code",
		"input_token_count", "output_token_count", "cached_content_token_count", "thoughts_token_count",
		"tool_token_count", "total_token_count", "role", "prompt_length", "content_length",
	},
}

// geminiCLITruncationMarker ends a span value Gemini CLI cut at 10,000 characters
// (utils/textUtils.ts truncateForTelemetry).
const geminiCLITruncationMarker = "...[TRUNCATED: original length "

func geminiCLITruncated(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	i := bytes.LastIndex(raw, []byte(geminiCLITruncationMarker))
	return i >= 0 && bytes.HasSuffix(raw, []byte("]"))
}

// geminiCLIArgs opens a tool span's gen_ai.input.messages, the call it made: its args. A record's
// function_args is the arguments already.
func geminiCLIArgs(raw []byte, maxDepth int) ([]byte, bool) {
	if !jsonraw.ValidDepth(raw, maxDepth) || !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		return nil, false
	}
	if _, ok := jsonraw.Field(raw, "callId"); !ok {
		return nil, false
	}
	return jsonraw.Field(raw, "args")
}

// geminiCLIResult opens a tool span's gen_ai.output.messages, the completed call: the response of its
// functionResponse part, as the model got it, and its call id. The call's request, the tool's schema
// and its timings beside it are the call's, not its result.
func geminiCLIResult(raw []byte, maxDepth int) (Envelope, bool) {
	if !jsonraw.ValidDepth(raw, maxDepth) {
		return Envelope{}, false
	}
	parts, ok := jsonraw.Field(raw, "response.responseParts")
	if !ok || len(parts) == 0 || parts[0] != '[' {
		return Envelope{}, false
	}
	var e Envelope
	jsonraw.EachElement(parts, func(part []byte, _ int) {
		if e.Result != nil || part[0] != '{' {
			return
		}
		if fr, ok := jsonraw.Field(part, "functionResponse"); ok {
			e.Result, _ = jsonraw.Field(fr, "response")
			id, _ := jsonField(fr, "id")
			e.CallID = id
		}
	})
	return e, e.Result != nil
}
