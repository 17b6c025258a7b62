// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package withhold

import (
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentspan"
)

// customer is the record the format tests hide; weather (withhold_test.go) is another tool's result
// that stays.
const customer = `{"name":"Jane Roe-Whitfield","email":"jane.roe@example-mail.test"}`

// TestWithholdProviderFormats: each message format, wherever it sits (a request body in input.value
// here), has the data-class tool's arguments and result shaped and the other tool's left alone.
func TestWithholdProviderFormats(t *testing.T) {
	tests := []struct {
		name, doc string
		// shaped are the exact JSON values that must come out as the marker; everything else stays.
		shaped []string
	}{
		{
			name: "anthropic tool_use and tool_result",
			doc: `{"model":"claude","messages":[{"role":"user","content":"who?"},` +
				`{"role":"assistant","content":[{"type":"text","text":"looking"},{"type":"tool_use","id":"toolu_1","name":"find_customer","input":{"customer_ref":"c-881"}},` +
				`{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Oslo"}}]},` +
				`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"` + jsonEscape(customer) + `"}]},` +
				`{"type":"tool_result","tool_use_id":"toolu_2","content":"` + jsonEscape(weather) + `"}]}]}`,
			shaped: []string{`{"customer_ref":"c-881"}`, `[{"type":"text","text":"` + jsonEscape(customer) + `"}]`},
		},
		{
			name: "bedrock converse toolUse and toolResult",
			doc: `{"messages":[{"role":"assistant","content":[{"toolUse":{"toolUseId":"tooluse_1","name":"find_customer","input":{"customer_ref":"c-881"}}},` +
				`{"toolUse":{"toolUseId":"tooluse_2","name":"get_weather","input":{"city":"Oslo"}}}]},` +
				`{"role":"user","content":[{"toolResult":{"toolUseId":"tooluse_1","content":[{"json":` + customer + `}],"status":"success"}},` +
				`{"toolResult":{"toolUseId":"tooluse_2","content":[{"json":` + weather + `}]}}]}]}`,
			shaped: []string{`{"customer_ref":"c-881"}`, `[{"json":` + customer + `}]`},
		},
		{
			name: "gemini functionCall and functionResponse, matched by name",
			doc: `{"contents":[{"role":"user","parts":[{"text":"who?"}]},` +
				`{"role":"model","parts":[{"functionCall":{"name":"find_customer","args":{"customer_ref":"c-881"}}},{"functionCall":{"name":"get_weather","args":{"city":"Oslo"}}}]},` +
				`{"role":"user","parts":[{"functionResponse":{"name":"find_customer","response":` + customer + `}},{"functionResponse":{"name":"get_weather","response":` + weather + `}}]}]}`,
			shaped: []string{`{"customer_ref":"c-881"}`, customer},
		},
		{
			name: "genkit toolRequest and toolResponse parts, matched by name",
			doc: `{"messages":[{"role":"user","content":[{"text":"who?"}]},` +
				`{"role":"model","content":[{"toolRequest":{"name":"find_customer","ref":"r1","input":{"customer_ref":"c-881"}}},{"toolRequest":{"name":"get_weather","ref":"r2","input":{"city":"Oslo"}}}]},` +
				`{"role":"tool","content":[{"toolResponse":{"name":"find_customer","ref":"r1","output":` + customer + `}},{"toolResponse":{"name":"get_weather","ref":"r2","output":` + weather + `}}]}],` +
				`"tools":[{"name":"find_customer","description":"Look up a customer.","inputSchema":{"type":"object"}}]}`,
			shaped: []string{`{"customer_ref":"c-881"}`, customer},
		},
		{
			name: "ollama tool_name without ids",
			doc: `{"messages":[{"role":"assistant","content":"","tool_calls":[{"function":{"name":"find_customer","arguments":{"customer_ref":"c-881"}}}]},` +
				`{"role":"tool","tool_name":"find_customer","content":"` + jsonEscape(customer) + `"},` +
				`{"role":"tool","tool_name":"get_weather","content":"` + jsonEscape(weather) + `"}]}`,
			shaped: []string{`{"customer_ref":"c-881"}`, `"` + jsonEscape(customer) + `"`},
		},
		{
			name: "legacy openai function calling",
			doc: `[{"role":"assistant","content":null,"function_call":{"name":"find_customer","arguments":"{\"customer_ref\":\"c-881\"}"}},` +
				`{"role":"function","name":"find_customer","content":"` + jsonEscape(customer) + `"},` +
				`{"role":"function","name":"get_weather","content":"` + jsonEscape(weather) + `"}]`,
			shaped: []string{`"{\"customer_ref\":\"c-881\"}"`, `"` + jsonEscape(customer) + `"`},
		},
		{
			name: "langchain message dicts with artifact",
			doc: `[{"type":"ai","data":{"type":"ai","content":"","tool_calls":[{"name":"find_customer","args":{"customer_ref":"c-881"},"id":"call_lc1","type":"tool_call"}]}},` +
				`{"type":"tool","data":{"type":"tool","content":"` + jsonEscape(customer) + `","tool_call_id":"call_lc1","name":"find_customer","artifact":` + customer + `}},` +
				`{"type":"tool","content":"` + jsonEscape(weather) + `","tool_call_id":"call_lc2","name":"get_weather"}]`,
			shaped: []string{`{"customer_ref":"c-881"}`, `"` + jsonEscape(customer) + `"`, customer},
		},
		{
			name: "ai sdk v4 experimental_content",
			doc: `[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"v1","toolName":"find_customer","args":{"customer_ref":"c-881"}}]},` +
				`{"role":"tool","content":[{"type":"tool-result","toolCallId":"v1","toolName":"find_customer","result":` + customer + `,` +
				`"experimental_content":[{"type":"text","text":"` + jsonEscape(customer) + `"}]}]}]`,
			shaped: []string{`{"customer_ref":"c-881"}`, customer, `[{"type":"text","text":"` + jsonEscape(customer) + `"}]`},
		},
		{
			name: "every duplicate of a payload key",
			doc: `[{"type":"tool_call","id":"d1","name":"find_customer","arguments":{}},` +
				`{"type":"tool_call_response","id":"d1","response":` + weather + `,"response":` + customer + `}]`,
			shaped: []string{`{}`, weather, customer},
		},
		{
			name: "a duplicate name: any data-class name counts",
			doc: `[{"type":"tool_call","id":"d2","name":"get_weather","name":"find_customer","arguments":{"customer_ref":"c-881"}},` +
				`{"type":"tool_call_response","id":"d2","response":` + customer + `}]`,
			shaped: []string{`{"customer_ref":"c-881"}`, customer},
		},
		{
			name: "id-less parallel results out of order: every candidate is withheld",
			doc: `[{"role":"assistant","tool_calls":[{"function":{"name":"get_weather","arguments":"{}"}},{"function":{"name":"find_customer","arguments":"{\"ref\":1}"}}]},` +
				`{"role":"tool","content":"` + jsonEscape(customer) + `"},{"role":"tool","content":"` + jsonEscape(weather) + `"}]`,
			shaped: []string{`"{\"ref\":1}"`, `"` + jsonEscape(customer) + `"`, `"` + jsonEscape(weather) + `"`},
		},
		{
			name: "an id-less result answering one call is that call's",
			doc: `[{"role":"assistant","tool_calls":[{"function":{"name":"get_weather","arguments":"{}"}}]},{"role":"tool","content":"` + jsonEscape(weather) + `"},` +
				`{"role":"assistant","tool_calls":[{"function":{"name":"find_customer","arguments":"{\"ref\":1}"}}]},{"role":"tool","content":"` + jsonEscape(customer) + `"}]`,
			shaped: []string{`"{\"ref\":1}"`, `"` + jsonEscape(customer) + `"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.doc
			for _, s := range tt.shaped {
				if !strings.Contains(want, s) {
					t.Fatalf("test bug: %s not in the document", s)
				}
				want = strings.Replace(want, s, `"`+marker+`"`, 1)
			}
			runWithhold(t, withholdCase{
				attrs:        map[string]any{"input.value": tt.doc},
				tools:        []string{"find_customer"},
				want:         map[string]string{"input.value": want},
				wantPayloads: len(tt.shaped),
			})
		})
	}
}

// TestWithholdUnknownResult: a result whose call is in neither the transcript nor the memory might be
// a data-class call's (the memory evicted it), so it is withheld when its trace carried data-class
// data, and left alone when it did not.
func TestWithholdUnknownResult(t *testing.T) {
	doc := `[{"role":"tool","tool_call_id":"evicted_1","content":"` + jsonEscape(customer) + `"}]`
	p := policy(nil, []string{"find_customer"})
	p.traceShaped = true
	attrs := attrsOf(t, map[string]any{"gen_ai.input.messages": doc})
	if rw := Withhold(attrs, p, &markShaper{}, false); rw.Payloads != 1 {
		t.Errorf("unknown result in a data-class trace: %+v, %s", rw, get(t, attrs, "gen_ai.input.messages"))
	}
	runWithhold(t, withholdCase{attrs: map[string]any{"gen_ai.input.messages": doc}, tools: []string{"find_customer"}})
}

// TestWithholdStructuredTranscript: GenAI transcripts as OTLP values (an array of message maps) are
// read as they are, and the payloads shaped in place.
func TestWithholdStructuredTranscript(t *testing.T) {
	attrs := pcommon.NewMap()
	msgs := attrs.PutEmptySlice("gen_ai.input.messages")
	call := msgs.AppendEmpty().SetEmptyMap()
	call.PutStr("role", "assistant")
	part := call.PutEmptySlice("parts").AppendEmpty().SetEmptyMap()
	part.PutStr("type", "tool_call")
	part.PutStr("id", "s1")
	part.PutStr("name", "find_customer")
	part.PutEmptyMap("arguments").PutStr("customer_ref", "c-881")
	res := msgs.AppendEmpty().SetEmptyMap()
	res.PutStr("role", "tool")
	rp := res.PutEmptySlice("parts").AppendEmpty().SetEmptyMap()
	rp.PutStr("type", "tool_call_response")
	rp.PutStr("id", "s1")
	rp.PutStr("response", customer)
	s := &markShaper{}
	rw := Withhold(attrs, policy(nil, []string{"find_customer"}), s, false)
	if rw.Payloads != 2 || s.valueCalls != 2 {
		t.Fatalf("Rewrite %+v, %d ShapeValue calls", rw, s.valueCalls)
	}
	if got := rp.AsRaw()["response"]; got != marker {
		t.Errorf("response = %v", got)
	}
	if got, _ := part.Get("arguments"); got.AsString() != marker {
		t.Errorf("arguments = %v", got.AsString())
	}
}

// TestWithholdMessageEvents: per-message events as log records. The assistant message names the tool
// and its arguments are shaped; the tool message is withheld by the call id the assistant message
// gave, whichever of the two comes first in the batch, with no tool span at all.
func TestWithholdMessageEvents(t *testing.T) {
	toolBody := pcommon.NewValueMap()
	toolBody.Map().PutStr("id", "call_e1")
	toolBody.Map().PutStr("content", customer)
	asstBody := pcommon.NewValueMap()
	tc := asstBody.Map().PutEmptySlice("tool_calls").AppendEmpty().SetEmptyMap()
	tc.PutStr("id", "call_e1")
	tc.PutStr("type", "function")
	fn := tc.PutEmptyMap("function")
	fn.PutStr("name", "find_customer")
	fn.PutStr("arguments", `{"customer_ref":"c-881"}`)
	w := New(agentspan.Default, false)
	w.Add(0, agentspan.Span{Name: "gen_ai.tool.message", Attrs: attrsOf(t, map[string]any{"gen_ai.system": "openai"})}, toolBody)
	w.Add(0, agentspan.Span{Name: "gen_ai.assistant.message", Attrs: pcommon.NewMap()}, asstBody)
	w.Resolve(policy(nil, []string{"find_customer"}))
	s := &markShaper{}
	if rw := w.Apply(s); rw.Payloads != 2 {
		t.Errorf("Rewrite %+v", rw)
	}
	if got, _ := toolBody.Map().Get("content"); got.Str() != marker {
		t.Errorf("tool message content = %q", got.Str())
	}
	if got, _ := fn.Get("arguments"); got.Str() != marker {
		t.Errorf("assistant arguments = %q", got.Str())
	}
}

// jsonEscape escapes a JSON text to sit inside a JSON string.
func jsonEscape(s string) string { return strings.ReplaceAll(s, `"`, `\"`) }
