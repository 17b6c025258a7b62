// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/metric/metricdata/metricdatatest"

	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/metadatatest"
)

// TestRecordNamingADataClassToolInItsValues: a span no convention claims, named generically, that names
// a data-class tool only in a value of its own (an SDK agentotel does not know) is withheld whole, and
// what it held is withheld where it reappears; the value that says which tool it ran stays, and the
// tool's name is not remembered, so the trace keeps naming the tool elsewhere.
func TestRecordNamingADataClassToolInItsValues(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.Tools = map[string]string{"find_customer": "customer", "get_weather": "public"}
		c.ShapedClasses, c.UnshapedClasses = []string{"customer"}, []string{"public"}
	})
	const email = "ada.lovelace@analytical-engine.example"
	out := h.run(inTrace(spans(
		map[string]any{"name": "tool.execute", "mysdk.tool_name": "find_customer", "mysdk.input": `{"ref":"Lovelace account"}`,
			"mysdk.output": `{"email":"` + email + `","orders":[1,2]}`},
		map[string]any{"name": "notify", "note": "wrote to " + email + " after find_customer", "step": "execute_tool find_customer"},
	), pcommon.TraceID{0x51}))
	assert.Equal(t, `{"email":"[withheld]","orders":"[2 withheld]"}`, attr(out, 0, "mysdk.output"))
	assert.Equal(t, `{"ref":"[withheld]"}`, attr(out, 0, "mysdk.input"))
	assert.Equal(t, "find_customer", attr(out, 0, "mysdk.tool_name"), "which tool ran is the span's structure")
	assert.Equal(t, "wrote to "+countsonly.Withheld+" after find_customer", attr(out, 1, "note"),
		"the result is found again, the tool's name is not")
	assert.Equal(t, "execute_tool find_customer", attr(out, 1, "step"))

	// Every other place a value may name the tool alone, each with a value of its own: the content
	// search would withhold a copy of one withheld before.
	for i, a := range []map[string]any{
		{"mysdk.call": `{"tool":"find_customer","result":{"email":"named0@alpha.example"}}`},
		{"tool": map[string]any{"name": "  FIND_CUSTOMER "}, "result": `{"email":"named1@bravo.example"}`},
		{"calls": `[{"tool":"find_customer","output":{"email":"named2@charlie.example"}}]`},
		{"mysdk.call": `{"payload":"{\"tool\":\"find\\u005fcustomer\",\"email\":\"named3@delta.example\"}"}`},
		{"mysdk.call": `{'tool': 'find_customer', 'email': 'named4@echo.example'}`},
		{"mysdk.call": `{'tool': 'find_customer', 'at': datetime.date(2026, 1, 1), 'email': 'named10@kilo.example'}`},
		{"tool.find_customer.output": `{"email":"named5@foxtrot.example"}`},
		{"note": "calling tool \"find_customer\" for named8@india.example"},
		{"mysdk.call": `{"tool":"find_customer","output":{"email":"named9@juliet.example"}`},
		{"mysdk.tool": "crm.find_customer", "mysdk.output": `{"email":"named12@november.example"}`},
		{"mysdk.call": `{"fn":"functions.FIND_CUSTOMER","out":"named13@oscar.example"}`},
		{"url.full": "https://crm.example/find_customer?ref=named14@papa.example"},
	} {
		a["name"] = "step"
		out := h.run(spans(a))
		assert.NotContains(t, fmt.Sprint(spanAt(out, 0).Attributes().AsRaw()), ".example", "case %d", i)
	}

	// Those values' trace (the zero trace id of spans) remembered what they held, but not the tool's name.
	out = h.run(spans(map[string]any{"name": "notify", "note": "ran find_customer twice"}))
	assert.Equal(t, "ran find_customer twice", attr(out, 0, "note"))

	// A span event or a log record names the tool as well as an attribute does.
	td := spans(map[string]any{"name": "step"})
	e := spanAt(td, 0).Events().AppendEmpty()
	e.SetName("tool_result")
	e.Attributes().PutStr("tool", "find_customer")
	e.Attributes().PutStr("output", `{"email":"named6@golf.example"}`)
	out = h.run(td)
	assert.Equal(t, `{"email":"[withheld]"}`, eventAttr(spanAt(out, 0).Events().At(0), "output"))

	td = spans(map[string]any{"name": "step"})
	e = spanAt(td, 0).Events().AppendEmpty()
	e.SetName("find_customer.result")
	e.Attributes().PutStr("output", `{"email":"named11@mike.example"}`)
	out = h.run(td)
	assert.Equal(t, `{"email":"[withheld]"}`, eventAttr(spanAt(out, 0).Events().At(0), "output"), "an event named after the tool")

	ld := plog.NewLogs()
	lr := ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords().AppendEmpty()
	require.NoError(t, lr.Body().SetEmptyMap().FromRaw(map[string]any{"tool": "find_customer", "email": "named7@hotel.example"}))
	assert.Equal(t, map[string]any{"tool": "find_customer", "email": countsonly.Withheld},
		h.runLogs(ld).ResourceLogs().At(0).ScopeLogs().At(0).LogRecords().At(0).Body().AsRaw())
}

// TestRecordMentioningADataClassTool: what only mentions a data-class tool, names another tool, holds
// the name inside a longer word, or is claimed by a convention that says where its data is, is left
// alone; and a record that names the tool does not class the tool calls under it, as a span declaring
// its data class does.
func TestRecordMentioningADataClassTool(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.Tools = map[string]string{"find_customer": "customer", "get_weather": "public"}
		c.ShapedClasses, c.UnshapedClasses = []string{"customer"}, []string{"public"}
	})
	for i, a := range []map[string]any{
		{"note": "then call find_customer with the ref"},
		{"mysdk.tool_name": "get_weather"},
		{"mysdk.tool_name": "find_customer_report"},
		{"url.full": "https://crm.example/find_customers?page=2"},
		{"mysdk.tool_name": "refind_customer"},
		{"mysdk.call": `{"tool":"find_customers"}`},
		{"mysdk.call": "prefix 'find_customer suffix"},
		{"calls": []any{"get_weather", "find_customer"}},
		{"mysdk.tools": `["find_customer","get_weather"]`},
		{"mysdk.request": `{"tools":[{"type":"function","function":{"name":"find_customer","description":"Find a customer",` +
			`"parameters":{"type":"object"}}}],"messages":[{"role":"user","text":"Who is Ada?"}]}`},
		{"mysdk.request": `{"tools":[{"name":"find_customer","input_schema":{"type":"object"}}]}`},
		{"mysdk.reply": `{"text":"I will use find_customer next"}`},
		{"mysdk.reply": `{"text":"I will call 'find_customer' next"}`},
		{"mysdk.request": `{'tools': [{'name': 'find_customer', 'description': 'Find a customer'}]}`},
		{"gen_ai.operation.name": "chat", "mysdk.tool_name": "find_customer"},
		{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "crm", "mysdk.tool_name": "find_customer"},
	} {
		a["name"] = "step"
		a["mysdk.output"] = fmt.Sprintf(`{"email":"left%d@alone.example"}`, i)
		out := h.run(spans(a))
		assert.Equal(t, a["mysdk.output"], attr(out, 0, "mysdk.output"), "case %d", i)
	}

	td := inTrace(spans(
		map[string]any{"name": "plan", "mysdk.next_tool": "find_customer"},
		map[string]any{"name": "execute_tool get_weather", "gen_ai.operation.name": "execute_tool",
			"gen_ai.tool.name": "get_weather", "gen_ai.tool.call.result": `{"sky":"overcast skies today"}`},
	), pcommon.TraceID{0x52})
	out := h.run(td)
	assert.Equal(t, `{"sky":"overcast skies today"}`, attr(out, 1, "gen_ai.tool.call.result"), "a mention is not a declaration")
}

// TestMessagesNamingADataClassToolAreWalked: a record no convention claims whose values are messages in
// a known shape is walked, not withheld whole: the call it names is found, and only its arguments and
// results are withheld.
func TestMessagesNamingADataClassToolAreWalked(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} })
	out := h.run(spans(map[string]any{"name": "agent step", "mysdk.messages": `[` +
		`{"role":"user","content":"Who is the customer behind ref 7?"},` +
		`{"role":"assistant","tool_calls":[{"id":"call_9","type":"function","function":{"name":"find_customer","arguments":"{\"ref\":7}"}}]},` +
		`{"role":"tool","tool_call_id":"call_9","content":` + fmt.Sprintf("%q", customerResult) + `}]`}))
	got := attr(out, 0, "mysdk.messages")
	assert.Contains(t, got, "Who is the customer behind ref 7?", "the rest of the transcript stays")
	assert.Contains(t, got, `"name":"find_customer"`)
	assert.NotContains(t, got, "Ada Lovelace")

	// The same messages on a record that also names the tool outright, in an attribute of its own, are
	// no explanation: the record says it is the tool's, and what else it holds may be the tool's data.
	out = h.run(spans(map[string]any{"name": "agent step", "mysdk.tool": "find_customer",
		"mysdk.observation": `{"email":"observed@lima.example"}`, "mysdk.messages": `[` +
			`{"role":"assistant","tool_calls":[{"id":"call_10","type":"function","function":{"name":"find_customer","arguments":"{}"}}]}]`}))
	assert.Equal(t, `{"email":"[withheld]"}`, attr(out, 0, "mysdk.observation"))
}

// TestRecordWithheldWholeIsShapedOnce: a record withheld whole for naming a data-class tool is left to
// that, even where the walk found a data-class result in it (by its call id, here): its values are
// shaped once, from what arrived, and counted once.
func TestRecordWithheldWholeIsShapedOnce(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} })
	out := h.run(inTrace(spans(
		map[string]any{"name": "step", "mysdk.tool": "find_customer", "mysdk.messages": `[` +
			`{"role":"tool","tool_call_id":"call_5","content":{"rows":[1,2]}}]`},
		map[string]any{"name": "execute_tool find_customer", "gen_ai.operation.name": "execute_tool",
			"gen_ai.tool.name": "find_customer", "gen_ai.tool.call.id": "call_5"},
	), pcommon.TraceID{0x53}))
	assert.Equal(t, `"`+countsonly.WithheldArray(1)+`"`, attr(out, 0, "mysdk.messages"))
	metadatatest.AssertEqualProcessorShapeonlyValuesWithheld(t, h.tel, []metricdata.DataPoint[int64]{{Value: 1}}, metricdatatest.IgnoreTimestamp())
}

// BenchmarkNamesWithin is the check of every span no convention claims for a data-class tool's name in
// its values (namesShapedToolWithin, naming.go), over the spans of the LlamaIndex run in testdata/formats/genai: its step
// and chat spans, whose events hold the messages and the tool's output, name find_customer in JSON
// documents and Python reprs. records/op counts the spans that name it.
func BenchmarkNamesWithin(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "formats", "genai", "llamaindex-otel.traces.json"))
	require.NoError(b, err)
	td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(raw)
	require.NoError(b, err)
	bt, _ := oneTraceBatch(newBenchProcessor(b))
	var records []record
	for _, span := range walk.Spans(td) {
		records = append(records, record{attrs: span.Attributes(), events: span.Events(), body: bt.noBody})
	}
	b.ReportAllocs()
	named := 0
	for b.Loop() {
		named = 0
		for i := range records {
			if bt.namesShapedToolWithin(&records[i]) != namesNone {
				named++
			}
		}
	}
	b.ReportMetric(float64(named), "records/op")
}
