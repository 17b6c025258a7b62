// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// A trace or run that carried data-class data and was forgotten to stay within a bound is kept as an
// id in the memory's forgotten set: a later batch of it is walked, and a result in it that cannot be
// attributed to a call of a tool that is not data-class is withheld (memory.go,
// docs/design.md#4-structure-first-internalagentspan-processorshapeonly).

// floodTrace is trace i of a flood: one find_customer call, call_<i>, returning a customer record.
func floodTrace(i int) pcommon.TraceID {
	var id pcommon.TraceID
	id[0] = 0xf1
	binary.BigEndian.PutUint64(id[8:], uint64(i))
	return id
}

// flood sends traces first to first+n-1, each one data-class call, in batches of per traces.
func flood(h *harness, first, n, per int) {
	for b := first; b < first+n; b += per {
		td := ptrace.NewTraces()
		for i := b; i < min(b+per, first+n); i++ {
			inTrace(spans(customerSpan("find_customer", map[string]any{"gen_ai.tool.call.id": fmt.Sprintf("call_%d", i)})),
				floodTrace(i)).ResourceSpans().MoveAndAppendTo(td.ResourceSpans())
		}
		h.run(td)
	}
}

// answering is a GenAI transcript that shows only the response of call id, with the customer record.
func answering(id string) string {
	return `[{"role":"tool","parts":[{"type":"tool_call_response","id":"` + id + `","response":` + janeRecord + `}]}]`
}

// chatIn is a model span of a trace whose transcript is messages.
func chatIn(trace pcommon.TraceID, messages string, extra map[string]any) ptrace.Traces {
	a := map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": messages}
	for k, v := range extra {
		a[k] = v
	}
	return inTrace(spans(a), trace)
}

// TestForgottenTracesFailClosed is test/e2e's TestForgottenTracesThroughTheCollector scaled down:
// max_traces data-class traces and 100 more, then a transcript in each of the first 100 that shows
// only the tool's response. Their traces were forgotten by capacity; each response must still be
// withheld.
func TestForgottenTracesFailClosed(t *testing.T) {
	const maxTraces = 200
	h := newHarness(t, func(c *Config) { byName(c); c.MaxTraces = maxTraces })
	flood(h, 0, maxTraces+100, 50)
	require.NotZero(t, counts(t, h, "otelcol_processor_shapeonly_memory_evicted")["reason=capacity"])
	for i := range 100 {
		out := h.run(chatIn(floodTrace(i), answering(fmt.Sprintf("call_%d", i)), nil))
		got := attr(out, 0, "gen_ai.input.messages")
		require.NotContains(t, got, janeName, "trace %d", i)
		require.NotContains(t, got, janeEmail, "trace %d", i)
	}
}

// TestEveryBoundFailsClosed: a trace forgotten by any bound, the trace count, the fingerprints held or
// their age, fails closed in its later batches.
func TestEveryBoundFailsClosed(t *testing.T) {
	for reason, bound := range map[string]func(*Config){
		"capacity":     func(c *Config) { c.MaxTraces = 50 },
		"fingerprints": func(c *Config) { c.MaxFingerprints, c.MaxFingerprintsPerTrace = 1000, 1000 },
		"age":          func(c *Config) { c.MemoryTTL = time.Nanosecond },
	} {
		t.Run(reason, func(t *testing.T) {
			h := newHarness(t, func(c *Config) { byName(c); bound(c) })
			flood(h, 0, 100, 25)
			h.run(ptrace.NewTraces()) // a batch later, what is older than its age limit is forgotten
			require.NotZero(t, counts(t, h, "otelcol_processor_shapeonly_memory_evicted")["reason="+reason])
			for i := range 10 {
				got := attr(h.run(chatIn(floodTrace(i), answering(fmt.Sprintf("call_%d", i)), nil)), 0, "gen_ai.input.messages")
				require.NotContains(t, got, janeName, "trace %d", i)
			}
		})
	}
}

// TestForgottenTracesKeepOtherTools: in a forgotten trace, a result attributed to a call of a tool
// that is not data-class stays, by the call's id, by the tool it names, or by order after that call;
// a result whose call names no tool, and whose id no call of the batch names a tool for, is withheld:
// it may answer one of the forgotten calls.
func TestForgottenTracesKeepOtherTools(t *testing.T) {
	weather := `{"forecast":"overcast skies today"}`
	unnamed := `[{"role":"assistant","parts":[{"type":"tool_call","id":"u1","arguments":{}}]},` +
		`{"role":"tool","parts":[{"type":"tool_call_response","id":"u1","response":` + weather + `}]}]`
	cases := []struct {
		name     string
		messages string
		kept     bool
	}{
		{"by id", `[{"role":"assistant","parts":[{"type":"tool_call","id":"w1","name":"get_weather","arguments":{"city":"Oslo"}}]},` +
			`{"role":"tool","parts":[{"type":"tool_call_response","id":"w1","response":` + weather + `}]}]`, true},
		{"by name", `[{"role":"user","parts":[{"type":"text","content":"weather?"}]},` +
			`{"role":"user","parts":[{"type":"functionResponse","name":"get_weather","response":` + weather + `}]}]`, true},
		{"by order", `[{"role":"assistant","tool_calls":[{"function":{"name":"get_weather","arguments":"{}"}}]},` +
			`{"role":"tool","content":` + strconv.Quote(weather) + `}]`, true},
		{"unnamed call", unnamed, false},
		{"unknown call", `[{"role":"tool","parts":[{"type":"tool_call_response","id":"zz","response":` + weather + `}]}]`, false},
	}
	h := newHarness(t, func(c *Config) { byName(c); c.MaxTraces = 1 })
	flood(h, 0, len(cases)+2, 1)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := attr(h.run(chatIn(floodTrace(i), tc.messages, nil)), 0, "gen_ai.input.messages")
			if tc.kept {
				assert.Equal(t, tc.messages, got)
			} else {
				assert.NotContains(t, got, "overcast skies today")
			}
		})
	}
	t.Run("unnamed call of a tool span", func(t *testing.T) {
		td := chatIn(floodTrace(len(cases)), unnamed, nil)
		spans := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans()
		weatherSpan := spans.AppendEmpty()
		weatherSpan.SetTraceID(floodTrace(len(cases)))
		weatherSpan.SetSpanID(pcommon.SpanID{2})
		require.NoError(t, weatherSpan.Attributes().FromRaw(map[string]any{"gen_ai.operation.name": "execute_tool",
			"gen_ai.tool.name": "get_weather", "gen_ai.tool.call.id": "u1", "gen_ai.tool.call.result": weather}))
		out := h.run(td)
		assert.Equal(t, unnamed, attr(out, 0, "gen_ai.input.messages"), "the tool span names the call's tool")
	})
}

// TestForgottenRunsFailClosed: a run forgotten after a trace of it withheld a customer record; a new
// trace of the run, whose transcript answers that call by id alone, withholds the answer.
func TestForgottenRunsFailClosed(t *testing.T) {
	h := newHarness(t, func(c *Config) { byName(c); c.RunAttributes = []string{"session.id"}; c.MaxTraces = 2 })
	for i := 1; i <= 4; i++ { // s1's trace and run are forgotten by capacity
		h.run(inTrace(spans(customerSpan("find_customer", map[string]any{"session.id": fmt.Sprintf("s%d", i)})), floodTrace(1000+i)))
	}
	got := attr(h.run(chatIn(floodTrace(2000), answering("call_1"), map[string]any{"session.id": "s1"})), 0, "gen_ai.input.messages")
	assert.NotContains(t, got, janeName)
}

// TestForgottenIDsAreBounded: max_forgotten bounds the ids kept; the oldest generation is dropped and
// counted (from zero), and the last max_forgotten forgotten traces still fail closed.
func TestForgottenIDsAreBounded(t *testing.T) {
	h := newHarness(t, func(c *Config) { byName(c); c.MaxTraces = 10; c.MaxForgotten = 20 })
	dropped, err := h.tel.GetMetric("otelcol_processor_shapeonly_forgotten_dropped")
	require.NoError(t, err, "served from zero")
	require.Equal(t, int64(0), sumPoints(t, dropped)[0].Value)
	flood(h, 0, 100, 10) // 90 forgotten
	assert.Positive(t, counts(t, h, "otelcol_processor_shapeonly_forgotten_dropped")[""])
	for i := 70; i < 90; i++ {
		got := attr(h.run(chatIn(floodTrace(i), answering(fmt.Sprintf("call_%d", i)), nil)), 0, "gen_ai.input.messages")
		require.NotContains(t, got, janeName, "trace %d", i)
	}
}
