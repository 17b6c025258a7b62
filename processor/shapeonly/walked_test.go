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
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/toolname"
)

// A trace with no data-class traffic is not walked (walked.go); these are the ways one might have
// some anyway, each of which must still be found.

// transcriptCalling is a GenAI transcript in which the assistant calls tool, spelt as given (raw
// JSON), with arguments naming Jane, and the tool answers with her record.
func transcriptCalling(tool string) string {
	return `[{"role":"assistant","parts":[{"type":"tool_call","id":"c9","name":"` + tool + `","arguments":{"account":"` + janeName + `"}}]},` +
		`{"role":"tool","parts":[{"type":"tool_call_response","id":"c9","response":` + janeRecord + `}]}]`
}

// TestUnwalkedTracesStillFindDataClassNames: a transcript alone, in a trace that carried nothing
// data-class before, names the data-class tool in any case, through escapes, or with the Kelvin sign or
// the dotted capital I (which lower-case to k and i, as tool names are compared): its arguments and
// result are withheld.
func TestUnwalkedTracesStillFindDataClassNames(t *testing.T) {
	for name, spelt := range map[string]string{
		"as configured":      "kyc_lookup",
		"another case":       "KYC_Lookup",
		"escaped underscore": `kyc\u005flookup`,
		"escaped slash":      `crm\/find`,
		"kelvin sign":        "\u212Ayc_lookup",
		"dotted capital I":   "r\u0130sk_check",
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, func(c *Config) {
				c.Tools = map[string]string{"kyc_lookup": "customer", "crm/find": "customer", "risk_check": "customer"}
			})
			out := h.run(inTrace(spans(map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": transcriptCalling(spelt)}),
				pcommon.TraceID{0x51}))
			got := attr(out, 0, "gen_ai.input.messages")
			assert.NotContains(t, got, janeName)
			assert.NotContains(t, got, "jane.roe@example-mail.test")
		})
	}
}

// TestUnwalkedTracesKeepOtherTools: a trace that names no data-class tool keeps its transcripts byte
// for byte, but one that cannot be read, which is withheld whole wherever it is.
func TestUnwalkedTracesKeepOtherTools(t *testing.T) {
	h := newHarness(t, byName)
	weather := transcriptCalling("get_weather")
	out := h.run(inTrace(spans(
		map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": weather},
		map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": "\ufeff" + weather},
		map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": `[{"role":"user"`},
	), pcommon.TraceID{0x52}))
	assert.Equal(t, weather, attr(out, 0, "gen_ai.input.messages"))
	assert.Equal(t, `"[withheld]"`, attr(out, 1, "gen_ai.input.messages"), "a BOM before the transcript")
	assert.Equal(t, `"[withheld]"`, attr(out, 2, "gen_ai.input.messages"), "a transcript cut short")
}

// TestUnwalkedTranscriptsThatGrow: each model call's transcript repeats the one before it, and is
// validated only past the messages they share (jsonraw.Growing); one that breaks after them, or
// differs inside them, is still withheld whole.
func TestUnwalkedTranscriptsThatGrow(t *testing.T) {
	h := newHarness(t, byName)
	first := `[{"role":"user","content":"weather in Oslo?"}]`
	second := first[:len(first)-1] + `,{"role":"assistant","content":"rain"}]`
	brokenAfter := second[:len(second)-1] + `,{"role":"user","content":}]`
	brokenInside := `[{"role":"user","content":"weather in Oslo?"]` + second[len(first)-1:]
	out := h.run(inTrace(spans(
		map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": first},
		map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": second},
		map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": brokenAfter},
		map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": brokenInside},
	), pcommon.TraceID{0x53}))
	assert.Equal(t, first, attr(out, 0, "gen_ai.input.messages"))
	assert.Equal(t, second, attr(out, 1, "gen_ai.input.messages"))
	assert.Equal(t, `"[withheld]"`, attr(out, 2, "gen_ai.input.messages"), "invalid past the messages it repeats")
	assert.Equal(t, `"[withheld]"`, attr(out, 3, "gen_ai.input.messages"), "invalid inside them")
}

// TestUnwalkedDeclaredTranscriptsOfAnyLength: a declared transcript is checked on a trace that is not
// walked whatever its key's length (the check passes over other attributes by their key's length).
func TestUnwalkedDeclaredTranscriptsOfAnyLength(t *testing.T) {
	long := "acme.agent." + strings.Repeat("x", 60) + ".messages"
	h := newHarness(t, func(c *Config) {
		byName(c)
		c.Conventions = []agentspan.Declared{{Name: "acme", Match: agentspan.Match{Attribute: "acme.kind", Value: "llm"},
			Transcripts: []string{long, "acme.msgs"}}}
	})
	out := h.run(inTrace(spans(map[string]any{"acme.kind": "llm", long: `[{"role":"user"`, "acme.msgs": `{"role":`}),
		pcommon.TraceID{0x54}))
	assert.Equal(t, `"[withheld]"`, attr(out, 0, long))
	assert.Equal(t, `"[withheld]"`, attr(out, 0, "acme.msgs"))
}

// TestUnwalkedTracesRememberedBefore: a trace that withheld a customer record in an earlier batch is
// walked in a later one, whose transcript answers the call by id alone, with text the content search
// could not know.
func TestUnwalkedTracesRememberedBefore(t *testing.T) {
	h := newHarness(t, byName)
	trace := pcommon.TraceID{0x53}
	h.run(inTrace(spans(customerSpan("find_customer", nil)), trace))
	answer := `[{"role":"tool","parts":[{"type":"tool_call_response","id":"call_1","response":{"note":"call her at noon"}}]}]`
	out := h.run(inTrace(spans(map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": answer}), trace))
	assert.NotContains(t, attr(out, 0, "gen_ai.input.messages"), "call her at noon")
}

// TestUnwalkedTracesEventsAndRuns: a span's per-message event, whose result names nothing but an id
// nobody knows, is withheld while any tool is data-class; and a trace whose run withheld data in this
// same batch, through another trace, withholds a result it cannot attribute and is searched for what
// the run withheld. Neither trace names a data-class tool, so both must be walked for other reasons.
func TestUnwalkedTracesEventsAndRuns(t *testing.T) {
	t.Run("event", func(t *testing.T) {
		h := newHarness(t, byName)
		td := inTrace(spans(map[string]any{"gen_ai.operation.name": "chat"}), pcommon.TraceID{0x54})
		e := spanAt(td, 0).Events().AppendEmpty()
		e.SetName("gen_ai.tool.message")
		e.Attributes().PutStr("id", "call_77")
		e.Attributes().PutStr("content", "call her at noon")
		out := h.run(td)
		assert.NotContains(t, eventAttr(spanAt(out, 0).Events().At(0), "content"), "call her at noon")
	})
	t.Run("run", func(t *testing.T) {
		h := newHarness(t, func(c *Config) { byName(c); c.RunAttributes = []string{"session.id"} })
		td := inTrace(spans(customerSpan("find_customer", map[string]any{"session.id": "s1"})), pcommon.TraceID{0x55})
		quoting := inTrace(spans(map[string]any{"session.id": "s1", "app.note": "spoke with " + janeName}), pcommon.TraceID{0x57})
		other := inTrace(spans(map[string]any{"gen_ai.operation.name": "chat", "session.id": "s1",
			"gen_ai.input.messages": `[{"role":"tool","parts":[{"type":"tool_call_response","id":"zzz","response":{"note":"call her at noon"}}]}]`}),
			pcommon.TraceID{0x56})
		other.ResourceSpans().MoveAndAppendTo(td.ResourceSpans())
		quoting.ResourceSpans().MoveAndAppendTo(td.ResourceSpans())
		out := h.run(td)
		span := func(i int) map[string]any {
			return out.ResourceSpans().At(i).ScopeSpans().At(0).Spans().At(0).Attributes().AsRaw()
		}
		assert.NotContains(t, span(1)["gen_ai.input.messages"], "call her at noon")
		assert.Equal(t, "spoke with [withheld]", span(2)["app.note"], "what the run withheld in this batch is searched for in all its traces")
	})
}

// TestNamesJSONWritesEscapedAreNotSearched: a data-class tool whose name holds a quote is written \" in
// a transcript, so its name cannot be searched for: every trace is walked, and the call found.
func TestNamesJSONWritesEscapedAreNotSearched(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Tools = map[string]string{`crm "find"`: "customer"} })
	out := h.run(inTrace(spans(map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": transcriptCalling(`crm \"find\"`)}),
		pcommon.TraceID{0x58}))
	assert.NotContains(t, attr(out, 0, "gen_ai.input.messages"), janeName)
}

// TestManyLearntToolsWalkEveryTrace: with more tools learnt than the name search looks for, a trace
// that names only one of them is walked all the same, and its call found.
func TestManyLearntToolsWalkEveryTrace(t *testing.T) {
	h := newHarness(t, nil)
	var learnt []map[string]any
	for i := range maxNamesSearched + 1 {
		learnt = append(learnt, map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": fmt.Sprintf("lookup_%d", i),
			"gen_ai.tool.call.id": fmt.Sprintf("l%d", i), "tool.data_class": "customer", "gen_ai.tool.call.result": "{}"})
	}
	h.run(inTrace(spans(learnt...), pcommon.TraceID{0x5a}))
	out := h.run(inTrace(spans(map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": transcriptCalling("lookup_0")}),
		pcommon.TraceID{0x5b}))
	assert.NotContains(t, attr(out, 0, "gen_ai.input.messages"), janeName)
}

// FuzzNameSearchGrowing: searching a string only past what it shares with the one searched before it
// finds what searching it whole finds, wherever the shared part ends: in a name, in a run of
// backslashes, or in a character that lower-cases into a name's letter.
func FuzzNameSearchGrowing(f *testing.F) {
	for _, s := range [][3]string{
		{`[{"tool":"find_cus]`, `[{"tool":"find_customer"}]`, "find_customer"},
		{`["ab\]`, `["ab\u0066"]`, "f"},
		{`["ab\\]`, `["ab\\\u0066"]`, "zz"},
		{`["ab\\]`, `["ab\\u0066"]`, "zz"},
		{"[\"\xe2\x84]", "[\"\xe2\x84\xaayc\"]", "kyc"},
		{"[\"\xe2\x84]", "[\"\xe2\x84\xaa\"]", "k"},
		{`[1]`, `[1,"Find_Customer"]`, "find_customer"},
	} {
		f.Add([]byte(s[0]), []byte(s[1]), s[2])
	}
	f.Fuzz(func(t *testing.T, prev, text []byte, name string) {
		name = strings.ToLower(name)
		if !toolname.Searchable(name) {
			return
		}
		var n, whole nameSearch
		n.reset([]string{name})
		whole.reset([]string{name})
		for _, s := range [][]byte{prev, text} {
			if got, want := n.attribute(1, "gen_ai.input.messages", s), whole.text(s); got != want {
				t.Fatalf("after %q, searching %q for %q: %v, searched whole: %v", prev, s, name, got, want)
			}
		}
	})
}

// FuzzUnwalkedAsWalked: whatever a batch holds, checking a trace instead of walking it changes nothing.
// The same batch goes through two processors: one configured with find_customer, which checks the
// traces that name no data-class tool, and one that also names a tool outside ASCII, which it cannot
// search for, so it walks every trace. Both must write the same bytes. The batch is one model span with
// data as its GenAI transcript and as its input.value, and a span event.
func FuzzUnwalkedAsWalked(f *testing.F) {
	for _, seed := range []string{
		transcriptCalling("find_customer"), transcriptCalling("Find_Customer"), transcriptCalling("get_weather"),
		transcriptCalling(`find\u005fcustomer`), transcriptCalling("fınd_customer"),
		`[{"role":"tool","parts":[{"type":"tool_call_response","id":"zz","response":{"note":"call her at noon"}}]}]`,
		`{"messages":[{"role":"assistant","tool_calls":[{"id":"cc","type":"function","function":{"name":"find_customer","arguments":"{\"q\":1}"}}]},` +
			`{"role":"tool","tool_call_id":"cc","content":"Ada Lovelace"}]}`,
		`[{"toolCallType":"function","toolCallId":"xx","toolName":"FIND_CUSTOMER ","args":"{\"q\":\"Ada\"}"}]`,
		`[]`, `[`, "\ufeff[]", `x`, ``,
	} {
		f.Add(seed, false)
	}
	f.Fuzz(func(t *testing.T, data string, event bool) {
		batch := func() ptrace.Traces {
			td := inTrace(spans(map[string]any{}), pcommon.TraceID{0x59})
			attrs := spanAt(td, 0).Attributes()
			attrs.PutStr("gen_ai.operation.name", "chat")
			attrs.PutStr("gen_ai.input.messages", data)
			attrs.PutStr("input.value", data)
			if event {
				e := spanAt(td, 0).Events().AppendEmpty()
				e.SetName("gen_ai.tool.message")
				e.Attributes().PutStr("content", data)
			}
			return td
		}
		checked := newHarness(t, byName).run(batch())
		walked := newHarness(t, func(c *Config) { c.Tools = map[string]string{customerTool: "customer", "zoë": "customer"} }).run(batch())
		a, err := (&ptrace.JSONMarshaler{}).MarshalTraces(checked)
		require.NoError(t, err)
		b, err := (&ptrace.JSONMarshaler{}).MarshalTraces(walked)
		require.NoError(t, err)
		require.Equal(t, string(b), string(a))
	})
}
