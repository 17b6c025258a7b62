// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/walk"
)

// The end-to-end tests: every agentgen scenario in every convention through the real processor,
// configured as a deployment would be (the default config plus tools: {find_customer: customer}),
// checked for leaks by searching the whole OTLP/JSON output.

// customerTool is the one data-class tool agentgen's scenarios call (support: find_customer, which
// also carries tool.data_class=customer on its span).
const customerTool = "find_customer"

func byName(c *Config) { c.Tools = map[string]string{customerTool: "customer"} }

// windowLen is the leak granularity: no run of this many bytes of a secret may survive.
const windowLen = 8

// secretScan finds secrets and their 8-byte windows in OTLP/JSON text in one pass over it.
type secretScan struct {
	secrets []string
	windows map[uint64]string // window bytes (little-endian) -> the secret it came from
	// skipped counts the windows not checked per secret, because they also occur in the input
	// outside every secret (a surname is in the task and the search query by design; a notes word can
	// be in a research title): finding them in the output says nothing about a leak.
	skipped map[string]int
}

func word(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// newSecretScan takes the secrets and the input as OTLP/JSON.
func newSecretScan(t testing.TB, secrets []string, input string) *secretScan {
	t.Helper()
	secrets = slices.Compact(slices.Sorted(slices.Values(secrets)))
	pairs := make([]string, 0, 2*len(secrets))
	for _, s := range secrets {
		pairs = append(pairs, s, "\x00")
	}
	background := strings.NewReplacer(pairs...).Replace(input)
	candidates := map[uint64]bool{}
	for _, s := range secrets {
		require.GreaterOrEqual(t, len(s), windowLen, "secret %q", s)
		for i := 0; i+windowLen <= len(s); i++ {
			candidates[word([]byte(s[i:i+windowLen]))] = false
		}
	}
	// One pass over the background marks the candidate windows it holds.
	bg := []byte(background)
	for i := 0; i+windowLen <= len(bg); i++ {
		if _, ok := candidates[word(bg[i:i+windowLen])]; ok {
			candidates[word(bg[i:i+windowLen])] = true
		}
	}
	sc := &secretScan{secrets: secrets, windows: map[uint64]string{}, skipped: map[string]int{}}
	for _, s := range secrets {
		n := len(s) - windowLen + 1
		for i := range n {
			w := word([]byte(s[i : i+windowLen]))
			if candidates[w] {
				sc.skipped[s]++
				continue
			}
			sc.windows[w] = s
		}
		// A secret whose windows are mostly public anyway would make this check hollow.
		require.LessOrEqual(t, sc.skipped[s]*2, n, "secret %q: %d of %d windows also occur outside the secrets", s, sc.skipped[s], n)
	}
	return sc
}

// leaks returns every secret, and every secret window, found in output.
func (sc *secretScan) leaks(output string) []string {
	var found []string
	for _, s := range sc.secrets {
		if strings.Contains(output, s) {
			found = append(found, "secret "+s)
		}
	}
	b := []byte(output)
	seen := map[uint64]bool{}
	for i := 0; i+windowLen <= len(b); i++ {
		w := word(b[i : i+windowLen])
		if s, ok := sc.windows[w]; ok && !seen[w] {
			seen[w] = true
			found = append(found, fmt.Sprintf("window %q of %q at %d: …%s…", b[i:i+windowLen], s, i, b[max(0, i-60):min(len(b), i+60)]))
		}
	}
	return found
}

func otlpJSON(t testing.TB, td ptrace.Traces) string {
	t.Helper()
	b, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	require.NoError(t, err)
	return string(b)
}

func copyTraces(td ptrace.Traces) ptrace.Traces {
	out := ptrace.NewTraces()
	td.CopyTo(out)
	return out
}

// merge puts runs side by side in one batch, one ResourceSpans each, as a collector batch holds
// traces of many services.
func merge(runs []agentgen.Run) ptrace.Traces {
	td := ptrace.NewTraces()
	for _, r := range runs {
		r.Traces.ResourceSpans().At(0).CopyTo(td.ResourceSpans().AppendEmpty())
	}
	return td
}

func allSecrets(runs []agentgen.Run) []string {
	var s []string
	for _, r := range runs {
		s = append(s, r.Secrets...)
	}
	return s
}

// callIDPattern matches agentgen's call ids (call_1, call_2, ...) wherever a value holds them: as
// the whole value of an id attribute and as a JSON string inside a transcript.
var callIDPattern = regexp.MustCompile(`\bcall_(\d+)\b`)

// uniqueCallIDs rewrites a run's call ids to be unique across runs, as providers make them
// (call_<random>, toolu_<random>): agentgen numbers the calls of every run call_1, call_2, ...
func uniqueCallIDs(r agentgen.Run) agentgen.Run {
	prefix := "call_" + strings.TrimPrefix(r.ID, "run_")[:10] + "_"
	for _, s := range walk.Spans(r.Traces) {
		for _, v := range s.Attributes().All() {
			if v.Type() == pcommon.ValueTypeStr && strings.Contains(v.Str(), "call_") {
				v.SetStr(callIDPattern.ReplaceAllString(v.Str(), prefix+"$1"))
			}
		}
	}
	return r
}

func uniqueRuns(runs []agentgen.Run) []agentgen.Run {
	for i := range runs {
		runs[i] = uniqueCallIDs(runs[i])
	}
	return runs
}

// toolCall is one tool span's payloads as they were before the processor ran.
type toolCall struct {
	view         agentspan.View
	args, result string
}

// toolCalls lists the tool spans of a batch in walk order, with their payloads copied out.
func toolCalls(td ptrace.Traces) []toolCall {
	var calls []toolCall
	for _, s := range walk.Spans(td) {
		v := agentspan.Default.Recognize(agentspan.Span{Name: s.Name(), Attrs: s.Attributes()})
		if v.Role != agentspan.RoleTool {
			continue
		}
		c := toolCall{view: v}
		if a, ok := s.Attributes().Get(v.ArgsKey); ok {
			c.args = a.AsString()
		}
		if r, ok := s.Attributes().Get(v.ResultKey); ok {
			c.result = r.AsString()
		}
		// View strings point into the span; keep copies that outlive the processor's rewrite.
		c.view.Tool, c.view.CallID = strings.Clone(v.Tool), strings.Clone(v.CallID)
		calls = append(calls, c)
	}
	return calls
}

// checkBatch runs the assertions every end-to-end test shares: no secret and no 8-byte window of one
// survives anywhere, span counts are unchanged, the customer tool's payloads were shaped, and every
// other tool's arguments and results are byte-identical. It returns the output's OTLP/JSON.
func checkBatch(t *testing.T, h *harness, td ptrace.Traces, secrets []string) string {
	t.Helper()
	before := copyTraces(td)
	beforeJSON := otlpJSON(t, before)
	scan := newSecretScan(t, secrets, beforeJSON)
	if len(secrets) > 0 {
		// The scan must see what it is looking for, or a pass proves nothing.
		require.NotEmpty(t, scan.leaks(beforeJSON), "secrets not found in the input")
	}
	out := h.run(td)
	outJSON := otlpJSON(t, out)

	for _, leak := range scan.leaks(outJSON) {
		t.Errorf("leak: %s", leak)
	}
	require.Equal(t, before.SpanCount(), out.SpanCount(), "span count")
	require.Equal(t, before.ResourceSpans().Len(), out.ResourceSpans().Len())

	was, is := toolCalls(before), toolCalls(out)
	require.Len(t, is, len(was))
	var leaves []string
	for _, c := range was {
		if c.view.Tool == customerTool {
			leaves = append(leaves, withheldLeaves(c.result)...)
		}
	}
	for i, c := range was {
		require.Equal(t, c.view.CallID, is[i].view.CallID, "tool spans in the same order")
		name := c.view.ConventionName() + " " + c.view.Tool + " " + c.view.CallID
		if c.view.Tool == customerTool {
			assert.NotEqual(t, c.result, is[i].result, "%s: customer result not shaped", name)
			assert.Contains(t, is[i].result, `withheld]`, name)
			continue
		}
		// Another tool's payload changes only where it repeats what the customer tool returned.
		for _, pair := range [][2]string{{c.result, is[i].result}, {c.args, is[i].args}} {
			repeats := false
			for _, leaf := range leaves {
				repeats = repeats || strings.Contains(pair[0], leaf)
				assert.NotContains(t, pair[1], leaf, "%s: a customer value survives in another tool's payload", name)
			}
			if !repeats {
				assert.Equal(t, pair[0], pair[1], "%s: a payload of a non-customer tool changed", name)
			}
		}
	}
	return outJSON
}

// withheldLeaves lists the strings of 8 bytes or more that shaping withholds from a JSON result:
// those not directly under a kept key.
func withheldLeaves(result string) []string {
	var doc any
	if json.Unmarshal([]byte(result), &doc) != nil {
		return nil
	}
	kept := map[string]bool{}
	for _, k := range countsonly.DefaultKeptKeys() {
		kept[k] = true
	}
	var leaves []string
	var walk func(v any, key string, inArray bool)
	walk = func(v any, key string, inArray bool) {
		switch v := v.(type) {
		case string:
			if len(v) >= 8 && (inArray || !kept[key]) {
				leaves = append(leaves, v)
			}
		case []any:
			for _, e := range v {
				walk(e, "", true)
			}
		case map[string]any:
			for k, e := range v {
				walk(e, k, inArray)
			}
		}
	}
	walk(doc, "", false)
	return leaves
}

func TestEveryScenarioInEveryConvention(t *testing.T) {
	for _, c := range agentgen.Conventions() {
		for _, name := range agentgen.Scenarios() {
			t.Run(string(c)+"/"+name, func(t *testing.T) {
				r, err := agentgen.Generate(name, agentgen.Options{Convention: c, Seed: 11})
				require.NoError(t, err)
				require.Equal(t, r.Spans, r.Traces.SpanCount())
				if name == "support" {
					require.NotEmpty(t, r.Secrets)
				}
				h := newHarness(t, byName)
				before := copyTraces(r.Traces)
				outJSON := checkBatch(t, h, r.Traces, r.Secrets)
				if len(r.Secrets) == 0 {
					// No customer call, so nothing at all may change.
					assert.Equal(t, otlpJSON(t, before), outJSON, "a run without customer data changed")
				}
			})
		}
	}
}

// TestMixInEveryConvention: 200 mixed runs in one batch per convention, every scenario many times
// over, with call ids unique across runs as real providers make them.
func TestMixInEveryConvention(t *testing.T) {
	for _, c := range agentgen.Conventions() {
		t.Run(string(c), func(t *testing.T) {
			runs := uniqueRuns(agentgen.Mix(200, agentgen.Options{Convention: c, Seed: 3}))
			td := merge(runs)
			before := copyTraces(td)
			h := newHarness(t, byName)
			checkBatch(t, h, td, allSecrets(runs))
			// Runs that never called the customer tool come out byte-identical, transcripts included.
			out := h.sinkT.AllTraces()[0]
			for i, r := range runs {
				if len(r.Secrets) > 0 {
					continue
				}
				w, g := ptrace.NewTraces(), ptrace.NewTraces()
				before.ResourceSpans().At(i).CopyTo(w.ResourceSpans().AppendEmpty())
				out.ResourceSpans().At(i).CopyTo(g.ResourceSpans().AppendEmpty())
				if otlpJSON(t, w) != otlpJSON(t, g) {
					t.Errorf("run %d (%s) changed without customer data", i, r.Scenario)
				}
			}
		})
	}
}

// TestMixWithRepeatedCallIDs runs agentgen.Mix as it comes: every run numbers its calls call_1,
// call_2, ..., so ids repeat across runs (as they do with SDKs that number calls per run). Secrets
// must still never leak, span counts hold, and because calls are remembered per trace, another run's
// call_1 keeps its result even after a support run's find_customer call_1 was withheld.
func TestMixWithRepeatedCallIDs(t *testing.T) {
	for _, c := range agentgen.Conventions() {
		t.Run(string(c), func(t *testing.T) {
			runs := agentgen.Mix(200, agentgen.Options{Convention: c, Seed: 3})
			td := merge(runs)
			before := copyTraces(td)
			scan := newSecretScan(t, allSecrets(runs), otlpJSON(t, before))
			h := newHarness(t, byName)
			out := h.run(td)
			for _, leak := range scan.leaks(otlpJSON(t, out)) {
				t.Errorf("leak: %s", leak)
			}
			require.Equal(t, before.SpanCount(), out.SpanCount())

			customerIDs := map[string]bool{}
			for _, call := range toolCalls(before) {
				if call.view.Tool == customerTool {
					customerIDs[call.view.CallID] = true
				}
			}
			require.Equal(t, map[string]bool{"call_1": true}, customerIDs, "agentgen: find_customer is every support run's first call")
			was, is := toolCalls(before), toolCalls(out)
			for i, call := range was {
				if call.view.Tool != customerTool {
					assert.Equal(t, call.result, is[i].result, "%s %s: result changed", call.view.Tool, call.view.CallID)
				}
			}
		})
	}
}

// split returns a run's spans in two batches: the spans for which first is true, then the others,
// each batch with the run's resource and scope.
func split(td ptrace.Traces, first func(agentspan.View) bool) (ptrace.Traces, ptrace.Traces) {
	a, b := ptrace.NewTraces(), ptrace.NewTraces()
	rs := td.ResourceSpans().At(0)
	ss := rs.ScopeSpans().At(0)
	dst := func(td ptrace.Traces) ptrace.SpanSlice {
		out := td.ResourceSpans().AppendEmpty()
		rs.Resource().CopyTo(out.Resource())
		outSS := out.ScopeSpans().AppendEmpty()
		ss.Scope().CopyTo(outSS.Scope())
		return outSS.Spans()
	}
	sa, sb := dst(a), dst(b)
	for _, s := range ss.Spans().All() {
		if first(agentspan.Default.Recognize(agentspan.Span{Name: s.Name(), Attrs: s.Attributes()})) {
			s.CopyTo(sa.AppendEmpty())
		} else {
			s.CopyTo(sb.AppendEmpty())
		}
	}
	return a, b
}

func notTool(v agentspan.View) bool { return v.Role != agentspan.RoleTool }
func isTool(v agentspan.View) bool  { return v.Role == agentspan.RoleTool }

func supportRun(t *testing.T, c agentgen.Convention, seed uint64) agentgen.Run {
	t.Helper()
	r, err := agentgen.Generate("support", agentgen.Options{Convention: c, Seed: seed})
	require.NoError(t, err)
	return uniqueCallIDs(r)
}

// TestToolSpanInLaterBatch: the model spans of a support run arrive in one batch, its tool spans in
// a later one (a span is exported when it ends, and exporters batch by time).
//
// With the tool classed only by its span attribute (tools: {}), nothing in the first batch says that
// find_customer returns customer data: the transcripts name the tool and the call id, but the
// processor has neither learnt the name nor remembered the id yet. Those transcripts pass through
// unshaped; the processor cannot recall a batch it has already handed on. What it does learn, from
// the tool span's attribute in the second batch, is the tool name (memory.learnTool), so every later
// run's transcripts are shaped even when they again arrive before their tool spans. With the tool
// configured by name (tools: {find_customer: customer}) the first batch is shaped too, in either
// order.
func TestToolSpanInLaterBatch(t *testing.T) {
	for _, c := range agentgen.Conventions() {
		t.Run(string(c)+"/by attribute", func(t *testing.T) {
			h := newHarness(t, nil) // tools: {}
			first := supportRun(t, c, 31)
			models, tools := split(first.Traces, notTool)
			out := otlpJSON(t, h.run(models))
			for _, s := range first.Secrets {
				assert.Contains(t, out, s, "the first run's transcripts leave before its tool span is seen: nothing can class them")
			}
			checkBatch(t, h, tools, first.Secrets)

			// The name was learnt from the attribute: the next run is shaped in the same split order.
			second := supportRun(t, c, 32)
			require.NotEqual(t, first.Secrets, second.Secrets)
			models, tools = split(second.Traces, notTool)
			checkBatch(t, h, models, second.Secrets)
			checkBatch(t, h, tools, second.Secrets)
		})
		t.Run(string(c)+"/by attribute, tool spans first", func(t *testing.T) {
			h := newHarness(t, nil)
			r := supportRun(t, c, 33)
			tools, models := split(r.Traces, isTool)
			checkBatch(t, h, tools, r.Secrets)
			checkBatch(t, h, models, r.Secrets)
		})
		for _, order := range []struct {
			name  string
			first func(agentspan.View) bool
		}{{"models first", notTool}, {"tools first", isTool}} {
			t.Run(string(c)+"/by name, "+order.name, func(t *testing.T) {
				h := newHarness(t, byName)
				r := supportRun(t, c, 34)
				a, b := split(r.Traces, order.first)
				checkBatch(t, h, a, r.Secrets)
				checkBatch(t, h, b, r.Secrets)
			})
		}
	}
}
