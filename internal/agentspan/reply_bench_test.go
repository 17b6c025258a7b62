// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// BenchmarkReply reads the reply of a model span as agentguard does for every model call: the span's
// attributes as agentgen writes them (GenAI convention), with the replies a run is made of. The
// anchor is one validating pass over the same output transcript, the least any reader does.
func BenchmarkReply(b *testing.B) {
	r := NewRegistry(nil, 0)
	for _, c := range []struct{ name, output string }{
		{"tool-call", `[{"role":"assistant","parts":[{"type":"tool_call","id":"call_7f3a","name":"search_docs",` +
			`"arguments":{"query":"refund policy for annual plans","limit":5}}],"finish_reason":"tool_call"}]`},
		{"answer", `[{"role":"assistant","parts":[{"type":"text","content":"Your annual plan can be refunded ` +
			`within 30 days of renewal; after that the unused months are credited to your account."}],"finish_reason":"stop"}]`},
		{"two-calls", `[{"role":"assistant","parts":[{"type":"text","content":"Let me check both."},` +
			`{"type":"tool_call","id":"call_1","name":"find_order","arguments":{"order_id":"ord_1234567890"}},` +
			`{"type":"tool_call","id":"call_2","name":"find_customer","arguments":{"customer_id":"cus_0987654321"}}],` +
			`"finish_reason":"tool_call"}]`},
	} {
		attrs := pcommon.NewMap()
		if err := attrs.FromRaw(map[string]any{
			"gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": "gpt-4o",
			"gen_ai.response.model": "gpt-4o-2024-08-06", "gen_ai.response.finish_reasons": []any{"tool_calls"},
			"gen_ai.usage.input_tokens": 812, "gen_ai.usage.output_tokens": 24, "gen_ai.conversation.id": "conv_5b1e0c",
			"gen_ai.input.messages":  `[{"role":"user","parts":[{"type":"text","content":"Can I get a refund?"}]}]`,
			"gen_ai.output.messages": c.output,
		}); err != nil {
			b.Fatal(err)
		}
		view := r.Recognize(Span{Name: "chat gpt-4o", Attrs: attrs})
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				r.Reply(view, attrs)
			}
		})
		b.Run(c.name+"/anchor-valid", func(b *testing.B) {
			out := []byte(c.output)
			for b.Loop() {
				if !jsonraw.Valid(out) {
					b.Fatal("invalid")
				}
			}
		})
	}
}
