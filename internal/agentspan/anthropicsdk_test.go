// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import "testing"

// TestAnthropicSDKToolResult: the Anthropic SDK's tool span holds the tool's result as the content
// blocks its tool runner sent; one text block is read as its text, so a JSON result is read as JSON
// (its volatile fields can be stripped, its shape kept). Anything else is read as it is.
func TestAnthropicSDKToolResult(t *testing.T) {
	for _, tt := range []struct{ name, content, want string }{
		{"a JSON result as one text block", `[{"type":"text","text":"{\"rows\":[],\"served_at\":\"09:12\"}"}]`, `{"rows":[],"served_at":"09:12"}`},
		{"a text result", `[{"type":"text","text":"no rows"}]`, `no rows`},
		{"an untyped text block, as Strands writes one", `[{"text":"no rows"}]`, `no rows`},
		{"several blocks", `[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, `[{"type":"text","text":"a"},{"type":"text","text":"b"}]`},
		{"an image block", `[{"type":"image"}]`, `[{"type":"image"}]`},
		{"a block of another type with text", `[{"type":"document","text":"a"}]`, `[{"type":"document","text":"a"}]`},
		{"a text block with more members", `[{"type":"text","text":"a","citations":[]}]`, `[{"type":"text","text":"a","citations":[]}]`},
		{"two texts in one block", `[{"text":"a","text":"b"}]`, `[{"text":"a","text":"b"}]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			attrs := attrsOf(t, map[string]any{
				"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer", "gen_ai.tool.call.id": "toolu_1",
				"gen_ai.tool.call.arguments": `{"query":"Ada"}`, "anthropic.tool_result.content": tt.content,
			})
			v := Default.Recognize(Span{Scope: "com.anthropic.sdk.typescript", Name: "anthropic.custom_tool_use find_customer", Attrs: attrs})
			if v.Convention != &anthropicSDK || v.Role != RoleTool || v.ResultKey != "anthropic.tool_result.content" {
				t.Fatalf("recognised as %s %s, result in %q", v.ConventionName(), v.Role, v.ResultKey)
			}
			if got, ok := Default.Result(v, attrs); !ok || string(got) != tt.want {
				t.Errorf("result %q (%v), want %q", got, ok, tt.want)
			}
		})
	}
}

// TestAnthropicSDKStopReason: the SDK writes a reply's stop reason in a key of its own, not GenAI's;
// a reply cut off at max_tokens is a cut-off, whatever its text.
func TestAnthropicSDKStopReason(t *testing.T) {
	attrs := attrsOf(t, map[string]any{
		"gen_ai.operation.name":         "chat",
		"gen_ai.output.messages":        `[{"role":"assistant","parts":[{"type":"text","content":"The incident began at"}]}]`,
		"anthropic.message.stop_reason": "max_tokens",
	})
	v := Default.Recognize(Span{Scope: "com.anthropic.sdk.typescript", Name: "anthropic.messages.create", Attrs: attrs})
	if got, want := Default.Reply(v, attrs), (Reply{Finish: FinishLength, Known: true}); got != want {
		t.Errorf("reply %+v, want %+v", got, want)
	}
}
