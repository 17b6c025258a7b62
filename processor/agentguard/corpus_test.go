// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/walk"
)

// TestLabelledCorpus judges a labelled corpus of generated runs (every scenario, values varied per run,
// in every convention) and asserts precision and recall of the stuck verdict, and how often each run's
// outcome (on its root span) is the one expected. Each run reaches the
// processor as a real exporter sends it: spans in the order they end, split across batches, so state
// must carry across batches and the root span, which ends the run, comes last.
func TestLabelledCorpus(t *testing.T) {
	const runsPerConvention = 240
	var tp, fp, fn, tn, pollsFlagged, outcomesRight int
	rng := rand.New(rand.NewPCG(1, 2))
	for _, conv := range agentgen.Conventions() {
		h := newHarness(t, seedConfig())
		for _, run := range agentgen.Mix(runsPerConvention, agentgen.Options{Convention: conv, Seed: 42}) {
			flagged := false
			outcome := ""
			for _, batch := range asExported(run.Traces, rng) {
				out := h.run(batch)
				flagged = flagged || len(stuckEvents(out)) > 0
				outcome = firstNonEmpty(outcome, rootOutcome(out))
			}
			// The corpus runs without a run_budget: a run that is over budget only with one answers.
			wantOutcome := run.ExpectOutcome
			if run.ExpectBudget > 0 {
				wantOutcome = "answered"
			}
			if outcome == wantOutcome {
				outcomesRight++
			} else {
				t.Logf("outcome %q, want %q: %s %s", outcome, wantOutcome, conv, run.Scenario)
			}
			want := run.Expect == "stuck"
			switch {
			case flagged && want:
				tp++
			case flagged && !want:
				fp++
				t.Logf("false positive: %s %s", conv, run.Scenario)
			case !flagged && want:
				fn++
				t.Logf("missed: %s %s", conv, run.Scenario)
			default:
				tn++
			}
			if flagged && run.Scenario == "deploy" {
				pollsFlagged++
			}
		}
	}
	total := tp + fp + fn + tn
	precision := float64(tp) / float64(tp+fp)
	recall := float64(tp) / float64(tp+fn)
	outcomes := float64(outcomesRight) / float64(total)
	t.Logf("corpus: %d runs, tp=%d fp=%d fn=%d tn=%d, precision %.3f, recall %.3f, polling runs flagged %d, outcomes right %.3f",
		total, tp, fp, fn, tn, precision, recall, pollsFlagged, outcomes)
	require.GreaterOrEqual(t, total, 200)
	assert.GreaterOrEqual(t, precision, 0.95)
	assert.GreaterOrEqual(t, recall, 0.95)
	assert.Zero(t, pollsFlagged, "a polling run with moving results was flagged")
	assert.Equal(t, 1.0, outcomes, "every run ends with its expected outcome")
}

// rootOutcome is the outcome agentguard wrote on a batch's root span, if the batch holds one.
func rootOutcome(td ptrace.Traces) string {
	outcome := ""
	for _, span := range walk.Spans(td) {
		if v, ok := span.Attributes().Get(annotation.Outcome); ok {
			outcome = v.Str()
		}
	}
	return outcome
}

// asExported reorders a run's spans by end time, as SDK exporters emit them, and splits them into one
// to three consecutive batches.
func asExported(td ptrace.Traces, rng *rand.Rand) []ptrace.Traces {
	rs := td.ResourceSpans().At(0)
	spans := rs.ScopeSpans().At(0).Spans()
	order := make([]int, spans.Len())
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return spans.At(a).EndTimestamp().AsTime().Compare(spans.At(b).EndTimestamp().AsTime())
	})
	cuts := []int{0}
	for range rng.IntN(3) {
		cuts = append(cuts, rng.IntN(len(order)))
	}
	cuts = append(cuts, len(order))
	slices.Sort(cuts)
	var batches []ptrace.Traces
	for i := 1; i < len(cuts); i++ {
		if cuts[i] == cuts[i-1] {
			continue
		}
		out := ptrace.NewTraces()
		ors := out.ResourceSpans().AppendEmpty()
		rs.Resource().CopyTo(ors.Resource())
		ss := ors.ScopeSpans().AppendEmpty()
		rs.ScopeSpans().At(0).Scope().CopyTo(ss.Scope())
		for _, idx := range order[cuts[i-1]:cuts[i]] {
			spans.At(idx).CopyTo(ss.Spans().AppendEmpty())
		}
		batches = append(batches, out)
	}
	return batches
}
