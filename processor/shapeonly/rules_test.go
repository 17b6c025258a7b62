// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/metric/metricdata/metricdatatest"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/metadatatest"
)

// The customer record these tests hide, and its values of 8 bytes or more.
const (
	janeRecord = `{"customer_id":"cus_88421907","name":"Jane Roe-Whitfield","email":"jane.roe@example-mail.test","status":"active","notes":"VIP; disputes every invoice since March"}`
	janeName   = "Jane Roe-Whitfield"
	janeEmail  = "jane.roe@example-mail.test"
	janeID     = "cus_88421907"
)

// inTrace puts every span of a batch in one trace, with the first span the parent of the rest.
func inTrace(td ptrace.Traces, trace pcommon.TraceID) ptrace.Traces {
	ss := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans()
	for i := 0; i < ss.Len(); i++ {
		ss.At(i).SetTraceID(trace)
		ss.At(i).SetSpanID(pcommon.SpanID{byte(i + 1)})
		if i > 0 {
			ss.At(i).SetParentSpanID(pcommon.SpanID{1})
		}
	}
	return td
}

func customerSpan(name string, extra map[string]any) map[string]any {
	a := map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": "call_1",
		"gen_ai.tool.call.result": janeRecord}
	for k, v := range extra {
		a[k] = v
	}
	return a
}

// TestNamesAndClassesCompareLoosely: tool names and data classes compare case-insensitively with
// surrounding spaces trimmed, and a span is a tool call by its tool name alone.
func TestNamesAndClassesCompareLoosely(t *testing.T) {
	for name, span := range map[string]map[string]any{
		"Find_Customer":               customerSpan("Find_Customer", nil),
		"trailing space":              customerSpan("find_customer ", nil),
		"class Customer by attribute": customerSpan("crm_lookup", map[string]any{"tool.data_class": " Customer"}),
		"no operation name": {"gen_ai.tool.name": "find_customer", "gen_ai.tool.call.id": "call_1",
			"gen_ai.tool.call.result": janeRecord},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, byName)
			out := h.run(spans(span))
			got := attr(out, 0, "gen_ai.tool.call.result")
			assert.NotContains(t, got, janeName)
			assert.Contains(t, got, `"status":"active"`, "kept keys stay")
		})
	}
}

// TestWrapperClassAppliesToToolsUnderIt: a data class on a span that wraps tool spans (a task, a
// step) applies to the tool spans under it, and to the wrapper itself.
func TestWrapperClassAppliesToToolsUnderIt(t *testing.T) {
	h := newHarness(t, nil)
	td := inTrace(spans(
		map[string]any{"name": "crm step", "tool.data_class": "customer", "app.input": `{"ref":"` + janeID + `"}`},
		map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "crm_lookup", "gen_ai.tool.call.id": "w1",
			"gen_ai.tool.call.result": janeRecord},
	), pcommon.TraceID{1})
	out := h.run(td)
	assert.NotContains(t, attr(out, 1, "gen_ai.tool.call.result"), janeName)
	assert.NotContains(t, attr(out, 0, "app.input"), janeID)
}

// TestWrapperValuesAreWithheldWhereTheyRepeat: what a span declaring its data class held is found
// again elsewhere in its trace, though no tool call of the trace said so.
func TestWrapperValuesAreWithheldWhereTheyRepeat(t *testing.T) {
	h := newHarness(t, nil)
	out := h.run(inTrace(spans(
		map[string]any{"name": "crm step", "tool.data_class": "customer", "app.output": janeRecord},
		map[string]any{"name": "notify", "app.note": "wrote to " + janeEmail},
	), pcommon.TraceID{3}))
	assert.NotContains(t, attr(out, 0, "app.output"), janeEmail)
	assert.Equal(t, "wrote to "+countsonly.Withheld, attr(out, 1, "app.note"))
}

// TestPythonReprResultIsRememberedByValue: a Python SDK reports a tool's dict as its repr. It is
// withheld whole, and remembered value by value, as its JSON would be: a short value of it is found
// again alone, where the whole text as one leaf would only give up fragments of 16 bytes or more.
// Arguments printed the same way are remembered the same way.
func TestPythonReprResultIsRememberedByValue(t *testing.T) {
	h := newHarness(t, byName)
	out := h.run(inTrace(spans(
		map[string]any{"name": "execute_tool find_customer", "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer",
			"gen_ai.tool.call.arguments": `{'customer_ref': 'acct-7781-XK'}`,
			"gen_ai.tool.call.result":    `{'name': 'Ada Byron', 'plan': 'annual', 'vip': True, 'notes': None}`},
		map[string]any{"name": "notify", "app.note": "called Ada Byron today", "app.ref": "acct-7781-XK"},
	), pcommon.TraceID{14}))
	assert.Equal(t, countsonly.Withheld, attr(out, 0, "gen_ai.tool.call.result"))
	assert.Equal(t, "called [withheld] today", attr(out, 1, "app.note"))
	assert.Equal(t, countsonly.Withheld, attr(out, 1, "app.ref"), "printed arguments are read as the literal they are too")
}

// TestSpanNamedLikeADataClassTool: a span that no convention reads as a call but whose name holds a
// data-class tool's as a word, as an SDK agentotel does not know names a tool's span, is withheld whole
// and what it held is withheld where it reappears; a span whose name holds the tool's only inside a
// longer word, or that names another tool, is left alone.
func TestSpanNamedLikeADataClassTool(t *testing.T) {
	const email = "ada.lovelace@analytical-engine.example"
	h := newHarness(t, func(c *Config) {
		c.Tools = map[string]string{"find_customer": "customer", "get_weather": "public"}
		c.ShapedClasses, c.UnshapedClasses = []string{"customer"}, []string{"public"}
	})
	out := h.run(spans(
		map[string]any{"name": "Find_Customer", "mysdk.input": `{"customer_ref":"Lovelace account"}`,
			"mysdk.output": `{"rows":[{"email":"` + email + `","plan":"annual"}]}`},
		map[string]any{"name": "find_customer_report", "mysdk.output": `{"email":"someone.else@example.test"}`},
		map[string]any{"name": "get_weather", "mysdk.output": `{"sky":"overcast skies today"}`},
		map[string]any{"name": "notify", "note": "wrote to " + email},
	))
	assert.Equal(t, `{"rows":"[1 withheld]"}`, attr(out, 0, "mysdk.output"))
	assert.Equal(t, `{"email":"someone.else@example.test"}`, attr(out, 1, "mysdk.output"))
	assert.Equal(t, `{"sky":"overcast skies today"}`, attr(out, 2, "mysdk.output"))
	assert.Equal(t, "wrote to "+countsonly.Withheld, attr(out, 3, "note"))

	// The tool's name as a word of the span's: Spring AI 1.x's tool spans ("tool_call {tool}", the
	// GenAI operation "framework", which says no tool call), and names other SDKs and HTTP clients give.
	// Each with an address of its own, sharing no 16 bytes with another: the content search would
	// withhold a copy of one withheld before.
	for i, name := range []string{"tool_call find_customer", "Tool: FIND_CUSTOMER", "find_customer.run", "GET /crm/find_customer?id=7"} {
		result := fmt.Sprintf(`{"email":"named%d@%s.example"}`, i, []string{"alpha", "bravo", "charlie", "delta"}[i])
		out := h.run(spans(map[string]any{"name": name, "gen_ai.operation.name": "framework", "app.result": result}))
		assert.Equal(t, `{"email":"[withheld]"}`, attr(out, 0, "app.result"), name)
	}
	for i, name := range []string{"refind_customer", "find_customers", "find-customer", "find customer"} {
		result := fmt.Sprintf(`{"email":"other%d@%s.example"}`, i, []string{"echo", "foxtrot", "golf", "hotel"}[i])
		out := h.run(spans(map[string]any{"name": name, "app.result": result}))
		assert.Equal(t, result, attr(out, 0, "app.result"), name)
	}
}

// TestToolSpanNamedOnlyBySpan: a span its convention reads as a tool call but names no tool of (the
// GenAI operation execute_tool, as LangSmith's exporter writes a tool run, which it names after the
// tool) is data-class when its span name holds a data-class tool's; one named after another tool is not.
func TestToolSpanNamedOnlyBySpan(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} })
	out := h.run(spans(
		map[string]any{"name": "find_customer", "gen_ai.operation.name": "execute_tool",
			"gen_ai.completion": `{"output":{"email":"spoke.to@india.example"}}`},
		map[string]any{"name": "get_weather", "gen_ai.operation.name": "execute_tool",
			"gen_ai.completion": `{"output":{"sky":"overcast skies today"}}`},
	))
	assert.Equal(t, `{"output":{"email":"[withheld]"}}`, attr(out, 0, "gen_ai.completion"))
	assert.Equal(t, `{"output":{"sky":"overcast skies today"}}`, attr(out, 1, "gen_ai.completion"))
}

// TestToolSpanNamedByNothing: a tool call whose span names no tool, neither by attribute nor by its
// name (MLflow exports every tool span in GenAI's terms as "execute_tool", with its arguments and result
// but not the tool's name), may be a data-class tool's: while any tool is data-class, it is withheld as
// one, and so is its result wherever a transcript repeats it by its call id. With no data-class tool, it
// is left alone.
func TestToolSpanNamedByNothing(t *testing.T) {
	batch := func() ptrace.Traces {
		return spans(
			map[string]any{"name": "execute_tool", "gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.id": "call_7",
				"gen_ai.tool.call.arguments": `{"query":"Ada"}`, "gen_ai.tool.call.result": customerResult},
			map[string]any{"name": "chat gpt-4o", "gen_ai.operation.name": "chat", "gen_ai.input.messages": `[` +
				`{"role":"assistant","parts":[{"type":"tool_call","id":"call_7","name":"lookup","arguments":{"query":"Ada"}}]},` +
				`{"role":"tool","parts":[{"type":"tool_call_response","id":"call_7","response":` + customerResult + `}]}]`},
		)
	}
	// First with no tool data-class: the two harnesses share their memory (one component), and what the
	// second withholds it would remember for the trace.
	out := newHarness(t, nil).run(batch())
	assert.Equal(t, customerResult, attr(out, 0, "gen_ai.tool.call.result"), "no tool is data-class")
	assert.Contains(t, attr(out, 1, "gen_ai.input.messages"), "Ada Lovelace")

	out = newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} }).run(batch())
	assert.JSONEq(t, shapedCustomerResult, attr(out, 0, "gen_ai.tool.call.result"))
	assert.NotContains(t, attr(out, 1, "gen_ai.input.messages"), "Ada Lovelace")
}

// TestPlainTextPromptIsNotUnreadable: gen_ai.prompt and gen_ai.completion hold JSON where LangSmith
// writes them, and plain text where other instrumentations do (OpenLIT's gen_ai.content.prompt event):
// plain text there is no transcript that failed to parse, and is not withheld for it.
func TestPlainTextPromptIsNotUnreadable(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} })
	td := spans(map[string]any{"name": "chat gpt-4o", "gen_ai.operation.name": "chat", "gen_ai.prompt": "user: is it raining in Oslo?",
		"gen_ai.completion": "assistant: overcast skies today"})
	out := h.run(td)
	assert.Equal(t, "user: is it raining in Oslo?", attr(out, 0, "gen_ai.prompt"))
	assert.Equal(t, "assistant: overcast skies today", attr(out, 0, "gen_ai.completion"))
}

// TestContentIsWithheldWhereverItRepeats: once a data-class result was withheld, its values are
// withheld wherever they repeat in the trace, in any attribute, at any depth, in names, status
// messages, events, links and resource attributes, verbatim or escaped; plain text keeps its shape.
func TestContentIsWithheldWhereverItRepeats(t *testing.T) {
	h := newHarness(t, byName)
	trace := pcommon.TraceID{2}
	td := inTrace(spans(
		customerSpan("find_customer", nil),
		map[string]any{"name": "reply to " + janeName, "app.note": janeName + " has one order",
			"app.payload": `{"deep":{"who":"` + janeEmail + `","query":"` + janeName + `"}}`,
			"app.python":  `{"who": "Jane Roe-Whitfield", "escaped": "jane.roe@example\u002dmail.test"}`,
			"app.double":  `"{\"customer\":\"` + janeID + `\"}"`,
			"app.list":    []any{"first", janeEmail},
			"session.id":  janeID},
	), trace)
	second := spanAt(td, 1)
	second.Status().SetMessage("lookup failed for " + janeEmail)
	second.Events().AppendEmpty().Attributes().PutStr("exception.message", "no order for "+janeName)
	second.Links().AppendEmpty().Attributes().PutStr("app.about", janeID+" refund")
	td.ResourceSpans().At(0).Resource().Attributes().PutStr("app.tenant", janeID)
	out := h.run(td)
	span := spanAt(out, 1)

	assert.Equal(t, "reply to [withheld]", span.Name())
	assert.Equal(t, "[withheld] has one order", attr(out, 1, "app.note"), "plain text keeps its shape")
	assert.JSONEq(t, `{"deep":{"who":"[withheld]","query":"Jane Roe-Whitfield"}}`, attr(out, 1, "app.payload"), "a kept key's value stays")
	assert.NotContains(t, attr(out, 1, "app.python"), "example")
	assert.NotContains(t, attr(out, 1, "app.double"), janeID)
	assert.Equal(t, `["first","[withheld]"]`, attr(out, 1, "app.list"))
	assert.Equal(t, janeID, attr(out, 1, "session.id"), "the ids users search by are left alone")
	assert.Equal(t, "lookup failed for [withheld]", span.Status().Message())
	assert.Equal(t, "no order for [withheld]", eventAttr(span.Events().At(0), "exception.message"))
	about, _ := span.Links().At(0).Attributes().Get("app.about")
	assert.Equal(t, "[withheld] refund", about.Str())
	tenant, _ := out.ResourceSpans().At(0).Resource().Attributes().Get("app.tenant")
	assert.Equal(t, "[withheld]", tenant.Str())

	// A later batch of the same trace is searched too; another trace is not.
	later := inTrace(spans(map[string]any{"app.summary": "Refunded " + janeName + "."}), trace)
	other := inTrace(spans(map[string]any{"app.summary": "Refunded " + janeName + "."}), pcommon.TraceID{3})
	assert.Equal(t, "Refunded [withheld].", attr(h.run(later), 0, "app.summary"))
	assert.Equal(t, "Refunded "+janeName+".", attr(h.run(other), 0, "app.summary"))
}

// TestContentInNamesAndPropagation: the search reads every string a record carries, not only values:
// attribute names at any depth (an SDK that keys a map by its values, or flattens a record into
// attributes named by them), trace states, a log record's event name, severity text and body keys, and
// the names, versions and schema URLs of instrumentation scopes and resources. A name that holds a withheld value becomes "[withheld]" (numbered when the map holds one
// already), its value searched as any other; a trace state loses the members that hold one. The
// names the conventions and the configuration define are vocabulary and are not searched.
func TestContentInNamesAndPropagation(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		byName(c)
		c.StructuralKeys = []string{"app.owner." + janeEmail}
	})
	trace := pcommon.TraceID{11}
	td := inTrace(spans(
		customerSpan("find_customer", nil),
		map[string]any{"name": "later", "crm." + janeEmail: "vip", "[withheld]": "already there",
			"app.owner." + janeEmail: "structural by configuration"},
	), trace)
	later := spanAt(td, 1)
	flags := later.Attributes().PutEmptyMap("app.flags") // in this order: the first renamed is "[withheld]"
	flags.PutBool(janeEmail, true)
	flags.PutInt("other", 1)
	flags.PutEmptyMap(janeName).PutStr("plan", janeID)
	later.TraceState().FromRaw("congo=t61rcWkgMzE,crm=" + janeEmail + ",rojo=00f067aa0ba902b7")
	link := later.Links().AppendEmpty()
	link.TraceState().FromRaw("crm=" + janeName)
	link.Attributes().PutStr(janeName, "linked")
	out := spanAt(h.run(td), 1)

	assert.Equal(t, map[string]any{
		"[withheld 2]": "vip", "[withheld]": "already there",
		"app.flags":              map[string]any{"[withheld]": true, "other": int64(1), "[withheld 2]": map[string]any{"plan": "[withheld]"}},
		"app.owner." + janeEmail: "structural by configuration",
	}, out.Attributes().AsRaw())
	assert.Equal(t, "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7", out.TraceState().AsRaw(), "the other members still propagate")
	assert.Empty(t, out.Links().At(0).TraceState().AsRaw())
	assert.Equal(t, map[string]any{"[withheld]": "linked"}, out.Links().At(0).Attributes().AsRaw())

	ld := plog.NewLogs()
	rl := ld.ResourceLogs().AppendEmpty()
	rl.SetSchemaUrl("https://schemas.example/" + janeID)
	sl := rl.ScopeLogs().AppendEmpty()
	sl.Scope().SetName("crm-" + janeName)
	sl.Scope().SetVersion("1.0+" + janeID)
	sl.SetSchemaUrl("https://schemas.example/" + janeEmail)
	lr := sl.LogRecords().AppendEmpty()
	lr.SetTraceID(trace)
	lr.SetEventName("crm.lookup " + janeEmail)
	lr.SetSeverityText("INFO " + janeName)
	lr.Body().SetEmptyMap().PutStr(janeEmail, "found")
	outRL := h.runLogs(ld).ResourceLogs().At(0)
	outSL := outRL.ScopeLogs().At(0)
	rec := outSL.LogRecords().At(0)
	assert.Equal(t, "crm.lookup [withheld]", rec.EventName())
	assert.Equal(t, "INFO [withheld]", rec.SeverityText())
	assert.Equal(t, map[string]any{"[withheld]": "found"}, rec.Body().AsRaw())
	// The scope's name and version and the schema URLs name the instrumentation: only a copy is withheld.
	assert.Equal(t, "crm-[withheld]", outSL.Scope().Name())
	assert.Equal(t, "1.0+[withheld]", outSL.Scope().Version())
	assert.Equal(t, "https://schemas.example/[withheld]", outSL.SchemaUrl())
	assert.Equal(t, "https://schemas.example/[withheld]", outRL.SchemaUrl())
}

// TestTextOnlyRepeatCountsItsRecord: a span whose name or status message, or a log record whose event
// name or severity text, is the only place a withheld value repeats is shaped all the same, and
// records_shaped counts it.
func TestTextOnlyRepeatCountsItsRecord(t *testing.T) {
	h := newHarness(t, byName)
	trace := pcommon.TraceID{14}
	td := inTrace(spans(customerSpan("find_customer", nil), map[string]any{"name": "reply to " + janeName}, map[string]any{"name": "lookup"}), trace)
	spanAt(td, 2).Status().SetMessage("lookup failed for " + janeEmail)
	out := h.run(td)
	assert.Equal(t, "reply to [withheld]", spanAt(out, 1).Name())
	assert.Equal(t, "lookup failed for [withheld]", spanAt(out, 2).Status().Message())
	// The tool call's span, and each of the two.
	metadatatest.AssertEqualProcessorShapeonlyRecordsShaped(t, h.tel, []metricdata.DataPoint[int64]{{Value: 3}}, metricdatatest.IgnoreTimestamp())

	ld := plog.NewLogs()
	records := ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords()
	named, severe := records.AppendEmpty(), records.AppendEmpty()
	named.SetTraceID(trace)
	named.SetEventName("crm.lookup " + janeEmail)
	severe.SetTraceID(trace)
	severe.SetSeverityText("INFO " + janeName)
	outRecords := h.runLogs(ld).ResourceLogs().At(0).ScopeLogs().At(0).LogRecords()
	assert.Equal(t, "crm.lookup [withheld]", outRecords.At(0).EventName())
	assert.Equal(t, "INFO [withheld]", outRecords.At(1).SeverityText())
	metadatatest.AssertEqualProcessorShapeonlyRecordsShaped(t, h.tel, []metricdata.DataPoint[int64]{{Value: 5}}, metricdatatest.IgnoreTimestamp())
}

// TestContentInURLs: a value copied into a URL is found through its escapes, percent-encoded or with
// '+' for its spaces, as in the query string of an HTTP client span under a tool call.
func TestContentInURLs(t *testing.T) {
	h := newHarness(t, byName)
	out := h.run(inTrace(spans(
		customerSpan("find_customer", nil),
		map[string]any{"name": "GET", "url.full": "https://crm.example/v1/customers?email=jane.roe%40example-mail.test&name=Jane+Roe-Whitfield&page=2",
			"url.query": "who=Jane%20Roe-Whitfield"},
	), pcommon.TraceID{12}))
	assert.Equal(t, "https://crm.example/v1/customers?email=[withheld]&name=[withheld]&page=2", attr(out, 1, "url.full"))
	assert.Equal(t, "who=[withheld]", attr(out, 1, "url.query"))

	// A path keeps a '+' as it is and escapes a space as %20 (url.PathEscape), where a form writes '+'
	// for the space.
	out = h.run(inTrace(spans(
		map[string]any{"name": "execute_tool find_customer", "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer",
			"gen_ai.tool.call.result": `{"phone":"+1 415 555 0199"}`},
		map[string]any{"name": "GET", "url.full": "https://crm.example/v1/callers/+1%20415%20555%200199/history"},
	), pcommon.TraceID{13}))
	assert.Equal(t, "https://crm.example/v1/callers/[withheld]/history", attr(out, 1, "url.full"))
}

// TestContentInHTML: a value copied into HTML or XML is found through its character references, as
// Go's html package, Python's html.escape and XML escapers write them.
func TestContentInHTML(t *testing.T) {
	h := newHarness(t, byName)
	out := h.run(inTrace(spans(
		map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer", "gen_ai.tool.call.id": "call_1",
			"gen_ai.tool.call.result": `{"name":"Zoë O'Brien","note":"prefers <b>post</b> & phone"}`},
		map[string]any{"name": "send_email", "app.body": "<p>Dear Zoë O&#39;Brien,</p>", "app.body.python": "<p>Dear Zoë O&#x27;Brien,</p>",
			"app.xml": "<note>prefers &lt;b&gt;post&lt;/b&gt; &amp; phone</note>"},
	), pcommon.TraceID{13}))
	assert.Equal(t, "<p>Dear [withheld],</p>", attr(out, 1, "app.body"))
	assert.Equal(t, "<p>Dear [withheld],</p>", attr(out, 1, "app.body.python"))
	assert.Equal(t, "<note>[withheld]</note>", attr(out, 1, "app.xml"))
}

// TestContentInGrowingText: a long attribute that begins with all but the last byte of the one its
// owner held before is searched from where they part (search.go), and still has withheld a value that
// its new part completes or adds.
func TestContentInGrowingText(t *testing.T) {
	h := newHarness(t, byName)
	filler := `[` + strings.Repeat(`{"role":"user","content":"weather?"},`, 20)
	cut := filler + `{"role":"user","content":"call me, Jane R]`
	completed := cut[:len(cut)-1] + `oe-Whitfield"}]`
	clean := filler + `{"role":"user","content":"thanks"}]`
	added := clean[:len(clean)-1] + `,{"role":"assistant","content":"noted: ` + janeEmail + `"}]`
	out := h.run(inTrace(spans(
		customerSpan("find_customer", nil),
		map[string]any{"app.log": cut}, map[string]any{"app.log": completed},
		map[string]any{"app.log": clean}, map[string]any{"app.log": added},
	), pcommon.TraceID{5}))
	assert.Equal(t, cut, attr(out, 1, "app.log"), "a part of the name is not the name")
	assert.Contains(t, attr(out, 2, "app.log"), `"content":"[withheld]"`, "the name completed where the texts part")
	assert.Equal(t, clean, attr(out, 3, "app.log"))
	assert.Contains(t, attr(out, 4, "app.log"), `"content":"[withheld]"`, "a value in the new part")
	assert.NotContains(t, attr(out, 4, "app.log"), janeEmail)
}

// TestContentLooksAhead: a string earlier in the batch than the data-class result is searched too.
func TestContentLooksAhead(t *testing.T) {
	h := newHarness(t, byName)
	out := h.run(inTrace(spans(
		map[string]any{"name": "root", "app.answer": "Emailed " + janeEmail},
		customerSpan("find_customer", nil),
	), pcommon.TraceID{4}))
	assert.Equal(t, "Emailed [withheld]", attr(out, 0, "app.answer"))
}

// TestContentAcrossARun: with run attributes, what a run's trace withheld is searched for in the
// run's later traces, including those whose spans do not carry the run attribute.
func TestContentAcrossARun(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		byName(c)
		c.RunAttributes = []string{"session.id"}
	})
	h.run(inTrace(spans(
		map[string]any{"name": "turn 1", "session.id": "sess-1"},
		customerSpan("find_customer", nil),
	), pcommon.TraceID{5}))
	turn2 := inTrace(spans(
		map[string]any{"name": "turn 2", "session.id": "sess-1"},
		map[string]any{"app.text": "Following up on " + janeEmail},
	), pcommon.TraceID{6})
	assert.Equal(t, "Following up on [withheld]", attr(h.run(turn2), 1, "app.text"))
}

// TestCorrelationIDsSurviveOnDataClassSpans: the ids users group and search by are kept on a
// data-class span, as are the configured run attributes.
func TestCorrelationIDsSurviveOnDataClassSpans(t *testing.T) {
	ids := map[string]any{
		"session.id": "s-1", "gen_ai.conversation.id": "conv-1", "ai.telemetry.metadata.sessionId": "sess-vercel",
		"traceloop.association.properties.session_id": "sess-tl", "gcp.vertex.agent.session_id": "sess-adk",
		"gcp.vertex.agent.event_id": "ev-1", "app.run": "run-7",
	}
	h := newHarness(t, func(c *Config) {
		byName(c)
		c.RunAttributes = []string{"app.run"}
	})
	out := h.run(spans(customerSpan("find_customer", ids)))
	for k, v := range ids {
		assert.Equal(t, v, attr(out, 0, k), k)
	}
	assert.NotContains(t, attr(out, 0, "gen_ai.tool.call.result"), janeName)
}

// TestFingerprintBoundsFailClosed: a trace whose fingerprints fill their bound can no longer remember
// what it withholds, so every later value of it is withheld whole, structural strings of 8 bytes or more
// too; the total bound forgets the oldest traces and counts them.
func TestFingerprintBoundsFailClosed(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		byName(c)
		c.MaxFingerprintsPerTrace = 4
		c.MaxFingerprints = 8
	})
	trace := pcommon.TraceID{7}
	h.run(inTrace(spans(customerSpan("find_customer", nil)), trace))
	saturated := inTrace(spans(map[string]any{"app.text": "an unrelated sentence", "gen_ai.operation.name": "chat",
		"gen_ai.request.model": "gpt-4.1-mini Jane Roe", "session.id": "sess-0123456789", "gen_ai.usage.input_tokens": 1200,
		"tags": map[string]any{"Jane Roe": 1, "vip": 2}}), trace)
	spanAt(saturated, 0).TraceState().FromRaw("congo=t61rcWkgMzE,ot=th:8")
	scope := saturated.ResourceSpans().At(0).ScopeSpans().At(0)
	scope.Scope().SetName("crm-instrumentation")
	scope.Scope().SetVersion("2.4.1-Jane Roe")
	scope.SetSchemaUrl("https://opentelemetry.io/schemas/1.37.0")
	out := h.run(saturated)
	outScope := out.ResourceSpans().At(0).ScopeSpans().At(0)
	assert.Equal(t, "crm-instrumentation", outScope.Scope().Name(), "the scope's name says which instrumentation sent the data")
	assert.Equal(t, "[withheld]", outScope.Scope().Version())
	assert.Empty(t, outScope.SchemaUrl(), "a schema URL is cleared, not replaced by what does not parse as one")
	assert.Equal(t, "[withheld]", attr(out, 0, "[withheld]"), "a saturated trace withholds everything, names too")
	assert.Equal(t, "<missing>", attr(out, 0, "app.text"))
	assert.Equal(t, `{"[withheld]":1,"vip":2}`, attr(out, 0, "tags"), "a name too short to hold a remembered value stays")
	assert.Equal(t, "ot=th:8", spanAt(out, 0).TraceState().AsRaw(), "so does a short trace state member")
	assert.Equal(t, "[withheld]", attr(out, 0, "gen_ai.request.model"),
		"structural strings long enough to hold a value it could not remember are withheld too")
	assert.Equal(t, "chat", attr(out, 0, "gen_ai.operation.name"), "a string too short to hold a remembered value stays")
	assert.Equal(t, "sess-0123456789", attr(out, 0, "session.id"), "the ids users group by stay")
	assert.Equal(t, "1200", attr(out, 0, "gen_ai.usage.input_tokens"), "numbers stay")
	ld := plog.NewLogs()
	lr := ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords().AppendEmpty()
	lr.SetTraceID(trace)
	lr.SetEventName("app.customer.note")
	assert.Equal(t, "[withheld]", h.runLogs(ld).ResourceLogs().At(0).ScopeLogs().At(0).LogRecords().At(0).EventName(),
		"a log record's event name, as a span's name")

	h.run(inTrace(spans(customerSpan("find_customer", nil)), pcommon.TraceID{8}))
	h.run(inTrace(spans(customerSpan("find_customer", nil)), pcommon.TraceID{9}))
	evicted := counts(t, h, "otelcol_processor_shapeonly_memory_evicted")
	assert.NotZero(t, evicted["reason=fingerprints"])
	assert.Zero(t, evicted["reason=capacity"], "forgotten for the fingerprints, not for the trace count")
}

// TestFlattenedTranscriptFieldsAreVocabulary: a flattened transcript's field names ("<prefix><i>.<field>",
// as OpenInference and OpenLLMetry write them) hold a convention's words and indices, never a value: a
// trace past its fingerprint bound keeps them, and the search does not read them. A name under the same
// prefix that is no field of the layout is read as any other, and renamed when it holds a withheld value.
func TestFlattenedTranscriptFieldsAreVocabulary(t *testing.T) {
	t.Run("searched", func(t *testing.T) {
		h := newHarness(t, byName)
		trace := pcommon.TraceID{0x71}
		h.run(inTrace(spans(customerSpan("find_customer", nil)), trace))
		out := h.run(inTrace(spans(map[string]any{"openinference.span.kind": "LLM",
			"llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "who is my account manager?",
			"llm.input_messages.1.message." + janeEmail: "vip"}), trace))
		assert.Equal(t, map[string]any{"openinference.span.kind": "LLM",
			"llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "who is my account manager?",
			"[withheld]": "vip"}, spanAt(out, 0).Attributes().AsRaw())
	})
	t.Run("saturated", func(t *testing.T) {
		h := newHarness(t, func(c *Config) {
			byName(c)
			c.MaxFingerprintsPerTrace = 4
		})
		trace := pcommon.TraceID{0x72}
		h.run(inTrace(spans(customerSpan("find_customer", nil)), trace))
		out := h.run(inTrace(spans(map[string]any{"openinference.span.kind": "LLM",
			"llm.input_messages.0.message.role":                            "user",
			"llm.input_messages.0.message.tool_calls.0.tool_call.id":       "call_1",
			"llm.input_messages.0.message.contents.0.message_content.text": "hi",
			"gen_ai.prompt.12.tool_call_id":                                "call_2"}), trace))
		assert.Equal(t, map[string]any{"openinference.span.kind": "LLM", // the transcript's values are withheld whole
			"llm.input_messages.0.message.role":                      "[withheld]",
			"llm.input_messages.0.message.tool_calls.0.tool_call.id": "[withheld]",
			"[withheld]":                    "[withheld]", // a content prefix leaves its parts' names open: read as any other name
			"gen_ai.prompt.12.tool_call_id": "[withheld]"}, spanAt(out, 0).Attributes().AsRaw())
	})
}

// TestTraceBoundEvictsByCapacity: past max_traces the oldest trace is forgotten and counted as such.
func TestTraceBoundEvictsByCapacity(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		byName(c)
		c.MaxTraces = 1
	})
	h.run(inTrace(spans(customerSpan("find_customer", nil)), pcommon.TraceID{1}))
	h.run(inTrace(spans(customerSpan("find_customer", nil)), pcommon.TraceID{2}))
	evicted := counts(t, h, "otelcol_processor_shapeonly_memory_evicted")
	assert.NotZero(t, evicted["reason=capacity"])
	assert.Zero(t, evicted["reason=fingerprints"])
}

// TestDeclaredConventionIsShaped: an SDK's tool span and transcripts declared in configuration are
// read like any built-in convention's.
func TestDeclaredConventionIsShaped(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		byName(c)
		c.Conventions = []agentspan.Declared{{Name: "mysdk", Match: agentspan.Match{Attribute: "mysdk.kind"},
			ToolName: "mysdk.tool", CallID: "mysdk.call_id", Arguments: "mysdk.args", Result: "mysdk.output",
			Transcripts: []string{"mysdk.prompt"}}}
	})
	out := h.run(inTrace(spans(
		map[string]any{"mysdk.kind": "tool", "mysdk.tool": "find_customer", "mysdk.call_id": "m1", "mysdk.output": janeRecord},
		map[string]any{"mysdk.kind": "llm", "mysdk.prompt": "not JSON: " + janeName},
	), pcommon.TraceID{10}))
	assert.NotContains(t, attr(out, 0, "mysdk.output"), janeName)
	assert.Equal(t, "m1", attr(out, 0, "mysdk.call_id"), "a declared call id is structural")
	assert.Equal(t, `"[withheld]"`, attr(out, 1, "mysdk.prompt"), "a declared transcript that is not JSON is withheld whole")
}

// counts reads a counter's non-zero points by their attributes ("key=value,...").
func counts(t *testing.T, h *harness, name string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	m, err := h.tel.GetMetric(name)
	require.NoError(t, err)
	for _, dp := range sumPoints(t, m) {
		var parts []string
		for _, kv := range dp.Attributes.ToSlice() {
			parts = append(parts, string(kv.Key)+"="+kv.Value.String())
		}
		if dp.Value != 0 {
			out[strings.Join(parts, ",")] = dp.Value
		}
	}
	return out
}

func sumPoints(t *testing.T, m metricdata.Metrics) []metricdata.DataPoint[int64] {
	t.Helper()
	sum, ok := m.Data.(metricdata.Sum[int64])
	require.True(t, ok, "%s is not an int64 sum", m.Name)
	return sum.DataPoints
}
