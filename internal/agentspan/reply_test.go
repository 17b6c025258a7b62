// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"bytes"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/message"
)

// replyOf recognises a model span with the given attributes and reads its reply.
func replyOf(t testing.TB, r *Registry, attrs map[string]any) Reply {
	t.Helper()
	m := pcommon.NewMap()
	if err := m.FromRaw(attrs); err != nil {
		t.Fatal(err)
	}
	return r.Reply(r.Recognize(Span{Name: "chat", Attrs: m}), m)
}

func TestReplyAcrossProviders(t *testing.T) {
	r := NewRegistry(nil, 0)
	for _, tt := range []struct {
		name  string
		attrs map[string]any
		want  Reply
	}{{
		name: "GenAI parts, two tool calls in one reply",
		attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.output.messages": `[{"role":"assistant","parts":[
			{"type":"tool_call","id":"c1","name":"search","arguments":{"q":"a"}},
			{"type":"tool_call","id":"c2","name":"search","arguments":{"q":"b"}}],"finish_reason":"tool_call"}]`},
		want: Reply{Finish: FinishToolCalls, Known: true, ToolCalls: 2},
	}, {
		name: "Anthropic blocks cut off at max_tokens",
		attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.response.finish_reasons": []any{"max_tokens"},
			"gen_ai.output.messages": `[{"role":"assistant","content":[{"type":"text","text":"The answer is"}]}]`},
		want: Reply{Finish: FinishLength, Known: true},
	}, {
		name: "Gemini functionCall said stop: a tool turn",
		attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.response.finish_reasons": `["STOP"]`,
			"gen_ai.output.messages": `[{"role":"model","parts":[{"functionCall":{"name":"lookup","args":{"id":7}}}]}]`},
		want: Reply{Finish: FinishToolCalls, Known: true, ToolCalls: 1},
	}, {
		name: "an empty reply, whatever its reason",
		attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.response.finish_reasons": []any{"stop"},
			"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"  "}]}]`},
		want: Reply{Finish: FinishStop, Known: true, Empty: true},
	}, {
		name: "no finish reason on the span: the transcript's first",
		attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.output.messages": `[
			{"role":"assistant","parts":[{"type":"text","content":"The answer is"}],"finish_reason":"MAX_TOKENS"},
			{"role":"assistant","parts":[{"type":"text","content":"42."}],"finish_reason":"stop"}]`},
		want: Reply{Finish: FinishLength, Known: true},
	}, {
		name: "a Genkit response: a toolRequest part under stop is a tool turn",
		attrs: map[string]any{"genkit:type": "action", "genkit:metadata:subtype": "model", "genkit:output": `{"message":{"role":"model",
			"content":[{"toolRequest":{"name":"find_customer","ref":"r1","input":{"query":"Ada"}}}]},"finishReason":"stop","usage":{"outputTokens":15}}`},
		want: Reply{Finish: FinishToolCalls, Known: true, ToolCalls: 1},
	}, {
		name: "a Genkit response blocked",
		attrs: map[string]any{"genkit:type": "action", "genkit:metadata:subtype": "model",
			"genkit:output": `{"message":{"role":"model","content":[]},"finishReason":"blocked","finishMessage":"SAFETY"}`},
		want: Reply{Finish: FinishContentFilter, Known: true, Empty: true},
	}, {
		name: "an empty or blank finish reason says none",
		attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.output.messages": `[
			{"role":"assistant","parts":[{"type":"text","content":"The"}],"finish_reason":""},
			{"role":"assistant","parts":[{"type":"text","content":"answer is"}],"finish_reason":" "},
			{"role":"assistant","parts":[{"type":"text","content":"42."}],"finish_reason":"length"}]`},
		want: Reply{Finish: FinishLength, Known: true},
	}, {
		name: "OpenLLMetry's flattened completion says its finish reason",
		attrs: map[string]any{"llm.request.type": "chat", "gen_ai.completion.0.role": "assistant",
			"gen_ai.completion.0.content": "The answer is", "gen_ai.completion.0.finish_reason": "length"},
		want: Reply{Finish: FinishLength, Known: true},
	}, {
		name: "a GenAI span carrying OpenLLMetry's flattened completion: its finish reason counts",
		attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.completion.0.role": "assistant",
			"gen_ai.completion.0.content": "The answer is", "gen_ai.completion.0.finish_reason": "max_tokens"},
		want: Reply{Finish: FinishLength, Known: true},
	}, {
		name:  "content off: the token count says empty",
		attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.usage.output_tokens": 0},
		want:  Reply{Known: true, Empty: true},
	}, {
		name:  "no output at all is not known",
		attrs: map[string]any{"gen_ai.operation.name": "chat"},
		want:  Reply{},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			if got := replyOf(t, r, tt.attrs); got != tt.want {
				t.Errorf("Reply = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// FuzzReply: any output transcript is read without a panic, and reading it leaves nothing behind for
// the next span (readers are pooled).
func FuzzReply(f *testing.F) {
	for _, seed := range []string{
		`[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"s","arguments":{"q":[1,{"a":{}}]}}]}]`,
		`[{"role":"model","parts":[{"functionCall":{"name":"x"}},{"text":"hi"}]}]`,
		`{"content":[{"type":"tool_use","id":"t","name":"n","input":{}}],"stop_reason":"tool_use"}`,
		`[[[[[]]]]]`, `{"a":`, "plain text",
	} {
		f.Add(seed)
	}
	r := NewRegistry(nil, 0)
	known := map[string]any{"gen_ai.operation.name": "chat",
		"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"done"}],"finish_reason":"stop"}]`}
	want := Reply{Finish: FinishStop, Known: true}
	f.Fuzz(func(t *testing.T, out string) {
		got := replyOf(t, r, map[string]any{"gen_ai.operation.name": "chat", "gen_ai.output.messages": out})
		if got.ToolCalls < 0 || got.Empty && got.ToolCalls > 0 {
			t.Fatalf("Reply(%q) = %+v", out, got)
		}
		if after := replyOf(t, r, known); after != want {
			t.Fatalf("after %q, a plain answer reads %+v", out, after)
		}
	})
}

// FuzzReplyOnePass: an output transcript held as JSON text is read in one pass (readJSON); what it
// counts is what walking the validated document node by node counts, the walk OTLP values still take.
func FuzzReplyOnePass(f *testing.F) {
	for _, seed := range []string{
		`[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"s","arguments":{"q":[1,{"a":{}}]}}],"finish_reason":"tool_call"}]`,
		`{"finish_reason":"stop","choices":[{"finish_reason":"length","message":{"role":"assistant","content":"hi"}}]}`,
		`[{"role":"model","parts":[{"functionCall":{"name":"x","args":{"finish_reason":"x"}}},{"text":" "}]}]`,
		`[{"role":"tool","tool_call_id":"c","content":"r"},{"role":"user","content":"u"},{"role":"assistant","content":"a"}]`,
		`{"lc":1,"type":"constructor","id":["x","ToolMessage"],"kwargs":{"content":"c","finish_reason":"y"}}`,
		`{"content":[{"type":"tool_use","id":"t","name":"n","input":{}}],"stop_reason":"tool_use"}`,
		`[[[[[]]]]]`, `{"a":`, `[{"text":"a\u0020b","finishReason":"STOP"}]`,
		`{"message":{"role":"model","content":[{"toolRequest":{"name":"n","ref":"r","input":{}}},{"text":"x"}]},"finishReason":"blocked"}`,
		// As deep as jsonraw allows, and one level deeper.
		strings.Repeat(`[{"a":`, 32) + strings.Repeat(`}]`, 32),
		strings.Repeat(`[{"a":`, 32) + `[]` + strings.Repeat(`}]`, 32),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		b := []byte(doc)
		var got replyReader
		valid := got.readJSON(b)
		if valid != jsonraw.Valid(b) {
			t.Fatalf("readJSON(%q) valid = %v", doc, valid)
		}
		if !valid {
			if got.tally != (tally{}) {
				t.Fatalf("readJSON(%q) counted %+v from an invalid document", doc, got.tally)
			}
			return
		}
		var want replyReader
		want.visit(message.JSONNode(bytes.TrimSpace(b), 0), message.InNone)
		if got.tally != want.tally {
			t.Fatalf("readJSON(%q) = %+v, the node walk %+v", doc, got.tally, want.tally)
		}
	})
}
