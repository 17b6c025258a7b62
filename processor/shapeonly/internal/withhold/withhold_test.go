// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package withhold

import (
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/message"
)

// testPolicy withholds the calls it was given by id, and the calls of the tools it was given by name;
// like the processor's policy it remembers the ids of the data-class calls it is told of, so a result
// found by id later is withheld too. It logs the ids it was asked about.
type testPolicy struct {
	ids         map[string]bool
	tools       map[string]bool
	traceShaped bool
	forgotten   bool
	asked       []string
}

func policy(ids, tools []string) *testPolicy {
	p := &testPolicy{ids: map[string]bool{}, tools: map[string]bool{}}
	for _, id := range ids {
		p.ids[id] = true
	}
	for _, t := range tools {
		p.tools[t] = true
	}
	return p
}

func (p *testPolicy) ToolShaped(name []byte) bool { return p.tools[string(name)] }

func (p *testPolicy) CallShaped(_ agentspan.Owner, id []byte) bool {
	p.asked = append(p.asked, string(id))
	return p.ids[string(id)]
}

func (p *testPolicy) TraceShaped(agentspan.Owner) bool {
	return p.traceShaped || p.forgotten || len(p.ids) > 0
}

func (p *testPolicy) Forgotten(agentspan.Owner) bool { return p.forgotten }

func (p *testPolicy) AnyShaped() bool { return len(p.tools) > 0 }

func (p *testPolicy) Remember(_ agentspan.Owner, id []byte) {
	if len(id) > 0 {
		p.ids[string(id)] = true
	}
}

// marker is what the test shaper writes in place of anything it shapes.
const marker = "[shaped]"

// markShaper replaces every value it is handed with "[shaped]", as a JSON string in JSON and as plain
// text in an OTLP value, so a test can see exactly which bytes were handed over.
type markShaper struct{ jsonCalls, valueCalls, textCalls int }

func (s *markShaper) ShapeJSON(dst, _ []byte, _ agentspan.Owner, _ Remember) ([]byte, bool) {
	s.jsonCalls++
	return append(dst, `"`+marker+`"`...), true
}

func (s *markShaper) ShapeValue(v pcommon.Value, _ agentspan.Owner, _ Remember) bool {
	s.valueCalls++
	v.SetStr(marker)
	return true
}

func (s *markShaper) Unreadable(string, agentspan.Owner) string {
	s.textCalls++
	return `"` + marker + `"`
}

// attrsOf builds a span's attributes the way an SDK exporter hands them over.
func attrsOf(t testing.TB, raw map[string]any) pcommon.Map {
	t.Helper()
	m := pcommon.NewMap()
	if err := m.FromRaw(raw); err != nil {
		t.Fatalf("FromRaw: %v", err)
	}
	return m
}

func get(t testing.TB, attrs pcommon.Map, key string) string {
	t.Helper()
	v, ok := attrs.Get(key)
	if !ok {
		t.Fatalf("attribute %q is gone", key)
	}
	return v.AsString()
}

// withholdCase is one span's attributes, the policy's ids and tools, and the attributes expected after
// Withhold. Attributes not listed in want must come out byte-identical.
type withholdCase struct {
	name         string
	attrs        map[string]any
	ids, tools   []string
	taint        bool
	want         map[string]string
	wantPayloads int
	wantTainted  bool
}

func runWithhold(t *testing.T, tt withholdCase) {
	t.Helper()
	attrs := attrsOf(t, tt.attrs)
	before := attrsOf(t, tt.attrs)
	s := &markShaper{}
	rw := Withhold(attrs, policy(tt.ids, tt.tools), s, tt.taint)
	if rw.Payloads != tt.wantPayloads {
		t.Errorf("Rewrite = %+v, want Payloads %d", rw, tt.wantPayloads)
	}
	if attrs.Len() != before.Len() {
		t.Errorf("attribute count %d, was %d", attrs.Len(), before.Len())
	}
	for k, v := range before.All() {
		got := get(t, attrs, k)
		want, changed := tt.want[k]
		if !changed {
			want = v.AsString()
		}
		if got != want {
			t.Errorf("%s =\n %s\nwant\n %s", k, got, want)
		}
	}
	for k := range tt.want {
		if _, ok := before.Get(k); !ok {
			t.Errorf("test bug: want lists %q, which the span lacks", k)
		}
	}
}

const (
	adaResult    = `{"rows":[{"name":"Ada Lovelace","email":"ada@example.com"}],"total":1,"status":"ok"}`
	weather      = `{"city":"Oslo","temp":3}`
	shapedString = `"` + marker + `"`
)

func TestWithholdGenAIParts(t *testing.T) {
	transcript := `[{"role":"user","parts":[{"type":"text","content":"who is Ada?"}]},` +
		`{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"find_customer","arguments":{"query":"Ada"}},` +
		`{"type":"tool_call","id":"call_2","name":"get_weather","arguments":{"city":"Oslo"}}]},` +
		`{"role":"tool","parts":[{"type":"tool_call_response","id":" call_1 ","response":` + adaResult + `}]},` +
		`{"role":"tool","parts":[{"type":"tool_call_response","id":"call_2","result":` + weather + `}]}]`
	for _, tt := range []withholdCase{
		{
			name:  "by tool name: call and response",
			attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": transcript},
			tools: []string{"find_customer"},
			want: map[string]string{"gen_ai.input.messages": strings.NewReplacer(
				`"arguments":{"query":"Ada"}`, `"arguments":`+shapedString,
				`"response":`+adaResult, `"response":`+shapedString,
			).Replace(transcript)},
			wantPayloads: 2, wantTainted: true,
		},
		{
			name:  "by id: result member, spaces trimmed",
			attrs: map[string]any{"gen_ai.input.messages": strings.Replace(transcript, `"id":"call_2"`, `"id":"  call_2\t"`, 1)},
			ids:   []string{"call_2"},
			want: map[string]string{"gen_ai.input.messages": strings.NewReplacer(
				`"arguments":{"city":"Oslo"}`, `"arguments":`+shapedString,
				`"result":`+weather, `"result":`+shapedString,
			).Replace(strings.Replace(transcript, `"id":"call_2"`, `"id":"  call_2\t"`, 1))},
			wantPayloads: 2, wantTainted: true,
		},
		{
			// An escaped id is decoded before it is compared.
			name:         "escaped id",
			attrs:        map[string]any{"gen_ai.input.messages": `[{"type":"tool_call_response","id":"c\u0031 ","response":"Ada"}]`},
			ids:          []string{"c1"},
			want:         map[string]string{"gen_ai.input.messages": `[{"type":"tool_call_response","id":"c\u0031 ","response":` + shapedString + `}]`},
			wantPayloads: 1, wantTainted: true,
		},
		{
			name:  "nothing withheld",
			attrs: map[string]any{"gen_ai.input.messages": transcript, "gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"Ada is VIP"}]}]`},
			tools: []string{"issue_refund"},
		},
		{
			// Output messages hold the calls a model makes now: their arguments are data-class too.
			name:  "call in the output",
			attrs: map[string]any{"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"tool_call","id":"call_9","name":"find_customer","arguments":{"query":"Ada","phone":"555-0100"}}],"finish_reason":"tool_call"}]`},
			tools: []string{"find_customer"},
			want: map[string]string{
				"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"tool_call","id":"call_9","name":"find_customer","arguments":` + shapedString + `}],"finish_reason":"tool_call"}]`,
			},
			wantPayloads: 1,
		},
	} {
		t.Run(tt.name, func(t *testing.T) { runWithhold(t, tt) })
	}
}

// TestWithholdReadsAgainWhenALaterMemberUndoesTheType: an object whose first member says it is a result
// has its containers passed over as payload; when a later "type" says it is not one after all, it is
// read again, and a call inside those containers is found.
func TestWithholdReadsAgainWhenALaterMemberUndoesTheType(t *testing.T) {
	call := `{"type":"tool_call","id":"call_1","name":"find_customer","arguments":{"q":"Ada"}}`
	transcript := `[{"type":"tool_call_response","content":[` + call + `],"type":"message"}]`
	runWithhold(t, withholdCase{
		attrs:        map[string]any{"gen_ai.input.messages": transcript},
		tools:        []string{"find_customer"},
		want:         map[string]string{"gen_ai.input.messages": strings.Replace(transcript, `{"q":"Ada"}`, shapedString, 1)},
		wantPayloads: 1,
	})
}

// TestWithholdRereadsDoNotCompound: every level of this document says it is a result, has its payload
// passed over, then says it is not, and is read again. Were the levels inside read again with passing
// over allowed, each would read its own inner levels twice: 2^60 reads at this depth, a walk that never
// ends. Read again payloads and all, the walk is linear in the depth.
func TestWithholdRereadsDoNotCompound(t *testing.T) {
	doc := `{"type":"tool_call","id":"c1","name":"find_customer","arguments":{"q":"Ada"}}`
	for range 60 {
		doc = `{"inner":` + doc + `,"type":"tool_call_response","payload":[1],"type":"message"}`
	}
	transcript := "[" + doc + "]"
	runWithhold(t, withholdCase{
		attrs:        map[string]any{"gen_ai.input.messages": transcript},
		tools:        []string{"find_customer"},
		want:         map[string]string{"gen_ai.input.messages": strings.Replace(transcript, `{"q":"Ada"}`, shapedString, 1)},
		wantPayloads: 1,
	})
}

func TestWithholdVercel(t *testing.T) {
	v4 := `[{"role":"system","content":"be brief"},` +
		`{"role":"assistant","content":[{"type":"tool-call","toolCallId":"v1","toolName":"findCustomer","args":{"query":"Ada"}}]},` +
		`{"role":"tool","content":[{"type":"tool-result","toolCallId":"v1","toolName":"findCustomer","result":` + adaResult + `}]}]`
	v5 := `[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"v2","toolName":"findCustomer","input":{"query":"Ada"}}]},` +
		`{"role":"tool","content":[{"type":"tool-result","toolCallId":"v2","toolName":"findCustomer","output":{"type":"json","value":` + adaResult + `}}]},` +
		`{"role":"tool","content":[{"type":"tool-result","toolCallId":"v3","toolName":"findCustomer","output":{"type":"text","value":"Ada Lovelace, ada@example.com"}}]}]`
	for _, tt := range []withholdCase{
		{
			name:  "v4 args and result",
			attrs: map[string]any{"ai.operationId": "ai.generateText.doGenerate", "ai.prompt.messages": v4},
			tools: []string{"findCustomer"},
			want: map[string]string{"ai.prompt.messages": strings.NewReplacer(
				`"args":{"query":"Ada"}`, `"args":`+shapedString,
				`"result":`+adaResult, `"result":`+shapedString,
			).Replace(v4)},
			wantPayloads: 2, wantTainted: true,
		},
		{
			// v5+ keeps the {"type":..,"value":..} wrapper readable and shapes only the value.
			name:  "v5 input and typed output",
			attrs: map[string]any{"ai.prompt.messages": v5},
			tools: []string{"findCustomer"},
			want: map[string]string{"ai.prompt.messages": strings.NewReplacer(
				`"input":{"query":"Ada"}`, `"input":`+shapedString,
				`"value":`+adaResult, `"value":`+shapedString,
				`"value":"Ada Lovelace, ada@example.com"`, `"value":`+shapedString,
			).Replace(v5)},
			wantPayloads: 3, wantTainted: true,
		},
		{
			// The provider hands arguments back as a JSON string; the SDK records it as it is.
			name: "response tool calls with stringified input",
			attrs: map[string]any{
				"ai.prompt.messages":       `[{"role":"user","content":[{"type":"text","text":"find Ada"}]}]`,
				"ai.response.toolCalls":    `[{"toolCallId":"v7","toolName":"findCustomer","input":"{\"query\":\"Ada\",\"phone\":\"555-0100\"}"},{"toolCallId":"v8","toolName":"getWeather","input":"{\"city\":\"Oslo\"}"}]`,
				"ai.response.finishReason": "tool-calls",
			},
			tools: []string{"findCustomer"},
			want: map[string]string{
				"ai.response.toolCalls": `[{"toolCallId":"v7","toolName":"findCustomer","input":` + shapedString + `},{"toolCallId":"v8","toolName":"getWeather","input":"{\"city\":\"Oslo\"}"}]`,
			},
			wantPayloads: 1,
		},
		{
			name: "v4 response tool calls with toolCallType and args",
			attrs: map[string]any{
				"ai.response.toolCalls": `[{"toolCallType":"function","toolCallId":"v9","toolName":"findCustomer","args":"{\"query\":\"Ada\"}"}]`,
			},
			tools:        []string{"findCustomer"},
			want:         map[string]string{"ai.response.toolCalls": `[{"toolCallType":"function","toolCallId":"v9","toolName":"findCustomer","args":` + shapedString + `}]`},
			wantPayloads: 1,
		},
	} {
		t.Run(tt.name, func(t *testing.T) { runWithhold(t, tt) })
	}
}

// TestWithholdOpenAIMessagesInInputValue: OpenInference records the raw request on LLM and agent spans,
// where the OpenAI shape puts the call under tool_calls[].function and the result in a role "tool"
// message that names no tool.
func TestWithholdOpenAIMessagesInInputValue(t *testing.T) {
	req := `{"model":"gpt-4.1","messages":[{"role":"system","content":"be brief"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"find_customer","arguments":"{\"query\":\"Ada\"}"}},` +
		`{"id":"c2","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"{\"rows\":[{\"name\":\"Ada Lovelace\"}]}"},` +
		`{"role":"tool","tool_call_id":"c2","content":"{\"temp\":3}"}],"temperature":0}`
	resp := `{"id":"chatcmpl-1","choices":[{"index":0,"message":{"role":"assistant","content":"Ada Lovelace is a VIP."},"finish_reason":"stop"}]}`
	runWithhold(t, withholdCase{
		attrs: map[string]any{"openinference.span.kind": "LLM", "input.value": req, "output.value": resp, "input.mime_type": "application/json"},
		tools: []string{"find_customer"},
		want: map[string]string{"input.value": strings.NewReplacer(
			`"arguments":"{\"query\":\"Ada\"}"`, `"arguments":`+shapedString,
			`"content":"{\"rows\":[{\"name\":\"Ada Lovelace\"}]}"`, `"content":`+shapedString,
		).Replace(req)},
		wantPayloads: 2, wantTainted: true,
	})
	// With taint the answer, written after the result was read, is withheld too.
	runWithhold(t, withholdCase{
		attrs: map[string]any{"input.value": req, "output.value": resp},
		tools: []string{"find_customer"},
		taint: true,
		want: map[string]string{
			"input.value": strings.NewReplacer(
				`"arguments":"{\"query\":\"Ada\"}"`, `"arguments":`+shapedString,
				`"content":"{\"rows\":[{\"name\":\"Ada Lovelace\"}]}"`, `"content":`+shapedString,
			).Replace(req),
			"output.value": strings.Replace(resp, `"content":"Ada Lovelace is a VIP."`, `"content":`+shapedString, 1),
		},
		wantPayloads: 3, wantTainted: true,
	})
}

func openInferenceSpan() map[string]any {
	return map[string]any{
		"openinference.span.kind":                                                "LLM",
		"llm.input_messages.0.message.role":                                      "system",
		"llm.input_messages.0.message.content":                                   "be brief",
		"llm.input_messages.1.message.role":                                      "assistant",
		"llm.input_messages.1.message.content":                                   "let me look",
		"llm.input_messages.2.message.role":                                      "assistant",
		"llm.input_messages.2.message.tool_calls.0.tool_call.id":                 "oi_1",
		"llm.input_messages.2.message.tool_calls.0.tool_call.function.name":      "find_customer",
		"llm.input_messages.2.message.tool_calls.0.tool_call.function.arguments": `{"query":"Ada"}`,
		"llm.input_messages.2.message.tool_calls.1.tool_call.id":                 "oi_2",
		"llm.input_messages.2.message.tool_calls.1.tool_call.function.name":      "get_weather",
		"llm.input_messages.2.message.tool_calls.1.tool_call.function.arguments": `{"city":"Oslo"}`,
		"llm.input_messages.3.message.role":                                      "tool",
		"llm.input_messages.3.message.tool_call_id":                              " oi_1",
		"llm.input_messages.3.message.content":                                   adaResult,
		"llm.input_messages.4.message.role":                                      "tool",
		"llm.input_messages.4.message.tool_call_id":                              "oi_2",
		"llm.input_messages.4.message.content":                                   weather,
		// Index 10 sorts after 4 by number, not by text: it comes after the result.
		"llm.input_messages.10.message.role":                            "assistant",
		"llm.input_messages.10.message.contents.0.message_content.type": "text",
		"llm.input_messages.10.message.contents.0.message_content.text": "Ada Lovelace is a VIP",
		"llm.input_messages.11.message.role":                            "user",
		"llm.input_messages.11.message.content":                         "thanks",
		"llm.output_messages.0.message.role":                            "assistant",
		"llm.output_messages.0.message.content":                         "Her email is ada@example.com",
		"llm.model_name":                                                "gpt-4.1",
	}
}

func TestWithholdOpenInferenceFlat(t *testing.T) {
	shaped := map[string]string{
		"llm.input_messages.2.message.tool_calls.0.tool_call.function.arguments": marker,
		"llm.input_messages.3.message.content":                                   marker,
	}
	t.Run("taint off", func(t *testing.T) {
		runWithhold(t, withholdCase{attrs: openInferenceSpan(), tools: []string{"find_customer"}, want: shaped, wantPayloads: 2, wantTainted: true})
	})
	t.Run("taint on", func(t *testing.T) {
		want := map[string]string{
			"llm.input_messages.10.message.contents.0.message_content.text": marker,
			"llm.output_messages.0.message.content":                         marker,
		}
		for k, v := range shaped {
			want[k] = v
		}
		// Assistant text before the result (message 1) and user text after it (message 11) stay.
		runWithhold(t, withholdCase{attrs: openInferenceSpan(), tools: []string{"find_customer"}, taint: true, want: want, wantPayloads: 4, wantTainted: true})
	})
	t.Run("by id alone", func(t *testing.T) {
		runWithhold(t, withholdCase{attrs: openInferenceSpan(), ids: []string{"oi_2"}, want: map[string]string{
			"llm.input_messages.2.message.tool_calls.1.tool_call.function.arguments": marker,
			"llm.input_messages.4.message.content":                                   marker,
		}, wantPayloads: 2, wantTainted: true})
	})
	t.Run("nothing withheld, taint on", func(t *testing.T) {
		runWithhold(t, withholdCase{attrs: openInferenceSpan(), tools: []string{"nobody"}, taint: true})
	})
}

func openLLMetrySpan() map[string]any {
	return map[string]any{
		"gen_ai.system":                     "openai",
		"gen_ai.prompt.0.role":              "system",
		"gen_ai.prompt.0.content":           "be brief",
		"gen_ai.prompt.1.role":              "user",
		"gen_ai.prompt.1.content":           "refund Ada",
		"gen_ai.prompt.2.role":              "assistant",
		"gen_ai.prompt.2.tool_calls.0.id":   "t1",
		"gen_ai.prompt.2.tool_calls.0.name": "find_customer",
		// Arguments as a JSON string; the shaper sees them whatever they are.
		"gen_ai.prompt.2.tool_calls.0.arguments": `{"query":"Ada"}`,
		"gen_ai.prompt.3.role":                   "tool",
		"gen_ai.prompt.3.tool_call_id":           "t1 ",
		"gen_ai.prompt.3.content":                adaResult,
		"gen_ai.prompt.4.role":                   "assistant",
		"gen_ai.prompt.4.content":                "Ada Lovelace is a VIP",
		"gen_ai.completion.0.role":               "assistant",
		"gen_ai.completion.0.content":            "Her email is ada@example.com",
		"gen_ai.completion.0.finish_reason":      "stop",
	}
}

func TestWithholdOpenLLMetryFlat(t *testing.T) {
	shaped := map[string]string{
		"gen_ai.prompt.2.tool_calls.0.arguments": marker,
		"gen_ai.prompt.3.content":                marker,
	}
	t.Run("taint off", func(t *testing.T) {
		runWithhold(t, withholdCase{attrs: openLLMetrySpan(), tools: []string{"find_customer"}, want: shaped, wantPayloads: 2, wantTainted: true})
	})
	t.Run("taint on", func(t *testing.T) {
		want := map[string]string{"gen_ai.prompt.4.content": marker, "gen_ai.completion.0.content": marker}
		for k, v := range shaped {
			want[k] = v
		}
		runWithhold(t, withholdCase{attrs: openLLMetrySpan(), tools: []string{"find_customer"}, taint: true, want: want, wantPayloads: 4, wantTainted: true})
	})
	t.Run("result without its call, by id", func(t *testing.T) {
		attrs := openLLMetrySpan()
		for _, k := range []string{"gen_ai.prompt.2.tool_calls.0.id", "gen_ai.prompt.2.tool_calls.0.name", "gen_ai.prompt.2.tool_calls.0.arguments"} {
			delete(attrs, k)
		}
		runWithhold(t, withholdCase{attrs: attrs, ids: []string{"t1"}, want: map[string]string{"gen_ai.prompt.3.content": marker}, wantPayloads: 1, wantTainted: true})
	})
}

func TestWithholdTaintJSON(t *testing.T) {
	in := `[{"role":"user","parts":[{"type":"text","content":"who?"}]},` +
		`{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"find_customer","arguments":{"query":"Ada"}}]},` +
		`{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":` + adaResult + `}]},` +
		`{"role":"assistant","parts":[{"type":"text","content":"Ada Lovelace is a VIP"}]}]`
	out := `[{"role":"assistant","parts":[{"type":"text","content":"Her email is ada@example.com"}],"finish_reason":"stop"}]`
	shapedIn := strings.NewReplacer(`"arguments":{"query":"Ada"}`, `"arguments":`+shapedString, `"response":`+adaResult, `"response":`+shapedString).Replace(in)
	t.Run("off", func(t *testing.T) {
		runWithhold(t, withholdCase{
			attrs: map[string]any{"gen_ai.input.messages": in, "gen_ai.output.messages": out},
			tools: []string{"find_customer"},
			want:  map[string]string{"gen_ai.input.messages": shapedIn}, wantPayloads: 2, wantTainted: true,
		})
	})
	t.Run("on", func(t *testing.T) {
		runWithhold(t, withholdCase{
			attrs: map[string]any{"gen_ai.input.messages": in, "gen_ai.output.messages": out},
			tools: []string{"find_customer"}, taint: true,
			want: map[string]string{
				"gen_ai.input.messages":  strings.Replace(shapedIn, `"content":"Ada Lovelace is a VIP"`, `"content":`+shapedString, 1),
				"gen_ai.output.messages": strings.Replace(out, `"content":"Her email is ada@example.com"`, `"content":`+shapedString, 1),
			},
			wantPayloads: 4, wantTainted: true,
		})
	})
	t.Run("on, but no withheld result", func(t *testing.T) {
		runWithhold(t, withholdCase{
			attrs: map[string]any{"gen_ai.input.messages": in, "gen_ai.output.messages": out},
			tools: []string{"get_weather"}, taint: true,
		})
	})
	// The AI SDK's answer is plain text in ai.response.text.
	v5 := `[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"v1","toolName":"findCustomer","input":{"query":"Ada"}}]},` +
		`{"role":"tool","content":[{"type":"tool-result","toolCallId":"v1","toolName":"findCustomer","output":{"type":"json","value":` + adaResult + `}}]}]`
	shapedV5 := strings.NewReplacer(`"input":{"query":"Ada"}`, `"input":`+shapedString, `"value":`+adaResult, `"value":`+shapedString).Replace(v5)
	t.Run("vercel text on", func(t *testing.T) {
		runWithhold(t, withholdCase{
			attrs: map[string]any{"ai.prompt.messages": v5, "ai.response.text": "Ada's email is ada@example.com"},
			tools: []string{"findCustomer"}, taint: true,
			want: map[string]string{"ai.prompt.messages": shapedV5, "ai.response.text": marker}, wantPayloads: 3, wantTainted: true,
		})
	})
	t.Run("vercel text off", func(t *testing.T) {
		runWithhold(t, withholdCase{
			attrs: map[string]any{"ai.prompt.messages": v5, "ai.response.text": "Ada's email is ada@example.com"},
			tools: []string{"findCustomer"},
			want:  map[string]string{"ai.prompt.messages": shapedV5}, wantPayloads: 2, wantTainted: true,
		})
	})
}

// TestWithholdInvalidTranscript: a declared transcript that is not valid JSON might hold anything, so
// it is withheld whole, whatever the policy says. input.value and output.value may hold plain text and
// are left to the content search.
func TestWithholdInvalidTranscript(t *testing.T) {
	for _, doc := range []string{
		`[{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":"Ada Lovelace"`,
		`[{"role":"tool"}] trailing`,
		`[{"role":"tool"}][]`,
		`{"messages":[{"role":"tool","tool_call_id":"c1","content":"Ada\x"}]}`,
		"[\"\xff\"]",
		` {"a":01}`,
	} {
		for _, key := range []string{"gen_ai.input.messages", "ai.prompt.messages", "gen_ai.output.messages", "ai.response.toolCalls", "gcp.vertex.agent.llm_request"} {
			attrs := attrsOf(t, map[string]any{key: doc})
			s := &markShaper{}
			rw := Withhold(attrs, policy(nil, nil), s, false)
			// Withheld whole as a JSON string, so readers that parse the attribute still can.
			if got := get(t, attrs, key); got != `"`+marker+`"` || rw.Payloads != 1 || s.textCalls != 1 {
				t.Errorf("%s = %q (%+v, %d ShapeText calls) for %q; want it withheld whole", key, got, rw, s.textCalls, doc)
			}
		}
	}
	// Text that does not start a container from its first byte (a BOM, a leading space, plain text)
	// cannot be read as a transcript: withheld whole too.
	for _, doc := range []string{"", "   ", "Ada Lovelace", `"[{\"id\":\"c1\"}]"`, "42", " []", "\ufeff[]", "\n{}"} {
		attrs := attrsOf(t, map[string]any{"gen_ai.input.messages": doc})
		if rw := Withhold(attrs, policy([]string{"c1"}, nil), &markShaper{}, true); rw.Payloads != 1 || get(t, attrs, "gen_ai.input.messages") != `"`+marker+`"` {
			t.Errorf("%q: %+v, want it withheld whole", doc, rw)
		}
	}
	// input.value holds plain text as often as JSON: text is left to the content search.
	for _, doc := range []string{"Ada Lovelace", "[draft] refund", "{not json"} {
		attrs := attrsOf(t, map[string]any{"input.value": doc})
		if rw := Withhold(attrs, policy([]string{"c1"}, nil), &markShaper{}, true); rw.Payloads != 0 || get(t, attrs, "input.value") != doc {
			t.Errorf("input.value %q changed: %+v", doc, rw)
		}
	}
	// A transcript as an OTLP value is read as it is; a slice of plain strings holds no tool traffic.
	attrs := pcommon.NewMap()
	attrs.PutEmptySlice("gen_ai.input.messages").AppendEmpty().SetStr("Ada")
	if rw := Withhold(attrs, policy(nil, nil), &markShaper{}, true); rw.Payloads != 0 {
		t.Errorf("slice attribute shaped: %+v", rw)
	}
}

// TestWithholdLeavesOtherBytesAlone: the walker splices the shaped payload in; everything around it,
// whitespace, escapes, number spelling and objects that merely look like tool traffic, stays
// byte-identical.
func TestWithholdLeavesOtherBytesAlone(t *testing.T) {
	payload := `{"rows" : [ 1, 2 ],  "name":"Ada"}`
	doc := "[ {\"role\" : \"user\", \"parts\":[ {\"type\":\"text\",\"content\":\"caf\\u00e9 \\\"quoted\\\" \xe2\x9c\x93\"} ]},\n" +
		"  {\"role\":\"tool\",\"parts\":[{\"type\":\"tool_call_response\",\"id\":\"c1\",\"response\": " + payload + " }]},\n" +
		// Not tool objects: an id without a type, role or payload; content under an id but no tool marker.
		"  {\"meta\":{\"id\":\"c1\",\"nested\":{\"content\":\"Ada\",\"id\":\"c1\"}}, \"n\": 1.50e+3, \"ok\": true, \"z\": null, \"e\": {}, \"a\": []},\n" +
		// A result of a call that is not withheld.
		"  {\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"c2\",\"name\":\"get_weather\",\"arguments\":{}}]},\n" +
		"  {\"role\":\"tool\",\"parts\":[{\"type\":\"tool_call_response\",\"id\":\"c2\",\"response\":{\"deep\":[[[{\"x\":\"y\"}]]]}}]}\t]\n"
	want := strings.Replace(doc, payload, shapedString, 1)
	if want == doc {
		t.Fatal("test bug: payload not in doc")
	}
	runWithhold(t, withholdCase{
		attrs: map[string]any{
			"gen_ai.input.messages": doc,
			// Not a transcript key, but JSON that holds the same tool result: read by its shape.
			"app.payload": doc,
		},
		ids:  []string{"c1"},
		want: map[string]string{"gen_ai.input.messages": want, "app.payload": want}, wantPayloads: 2, wantTainted: true,
	})
	// With nothing withheld the attribute is not even rewritten.
	runWithhold(t, withholdCase{attrs: map[string]any{"gen_ai.input.messages": doc}})
}

// TestWithholdAsksPolicyWithTrimmedIDs pins the Policy contract: ids arrive trimmed, and the tool is
// named where the transcript names it (at the call) and nil where it does not (a GenAI response).
func TestWithholdAsksPolicyWithTrimmedIDs(t *testing.T) {
	attrs := attrsOf(t, map[string]any{"gen_ai.input.messages": `[{"type":"tool_call","id":" c1 ","name":"find_customer","arguments":{}},` +
		`{"type":"tool_call_response","id":"c1 ","response":{}}]`})
	p := policy(nil, nil)
	Withhold(attrs, p, &markShaper{}, false)
	want := []string{"c1", "c1"}
	if strings.Join(p.asked, ",") != strings.Join(want, ",") {
		t.Errorf("policy asked %q, want %q", p.asked, want)
	}
}

// Withhold runs a fresh Withholder on one span's attributes.
func Withhold(attrs pcommon.Map, p Policy, s Shaper, taint bool) Rewrite {
	w := New(agentspan.Default, taint)
	w.Add(0, agentspan.Span{Attrs: attrs}, pcommon.NewValueEmpty())
	w.Resolve(p)
	return w.Apply(s)
}

// TestTypedValue: a typed wrapper gives up its value, however its "type" key is written; an object
// that has no "type" member, even with "type" deeper inside, is its own value.
func TestTypedValue(t *testing.T) {
	for raw, want := range map[string]string{
		`{"type":"json","value":{"a":"b"}}`:          `{"a":"b"}`,
		`{ "typ\u0065" : "json", "value" : [1, 2] }`: `[1, 2]`,
		`{"type":"text","text":"Ada"}`:               `"Ada"`,
		`{"kind":"json","value":{"a":"b"}}`:          `{"kind":"json","value":{"a":"b"}}`,
		`{"value":{"type":"json","value":"x"}}`:      `{"value":{"type":"json","value":"x"}}`,
		`{"type":"json"}`:                            `{"type":"json"}`,
	} {
		if got := typedValue(message.JSONNode([]byte(raw), 0)); string(got.Raw()) != want {
			t.Errorf("typedValue(%s) = %s, want %s", raw, got.Raw(), want)
		}
	}
}

// TestWithholdPassesOverValidatedResults: a transcript's copy of a result the caller validated and
// told of (AddValidated) is passed over by its bytes, not read again; one the caller did not tell of
// is read. The result told of below is planted, and invalid, to tell the two apart.
func TestWithholdPassesOverValidatedResults(t *testing.T) {
	planted := `{"customer_id":"cus_0123456789","notes":"` + strings.Repeat("n", 300) + `",oops}`
	doc := `[{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":` + planted + `}]}]`
	for _, told := range []bool{true, false} {
		attrs := attrsOf(t, map[string]any{"gen_ai.input.messages": doc})
		w := New(agentspan.Default, false)
		if told {
			w.AddValidated([]byte(planted), 1)
		}
		w.Add(0, agentspan.Span{Attrs: attrs}, pcommon.NewValueEmpty())
		w.Resolve(policy([]string{"c1"}, nil))
		s := &markShaper{}
		w.Apply(s)
		if read := s.textCalls == 0; read != told {
			t.Errorf("told %v: the transcript was read as valid: %v", told, read)
		}
	}
}
