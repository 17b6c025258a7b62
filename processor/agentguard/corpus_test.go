package agentguard

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentgen"
)

// TestLabelledCorpus judges a labelled corpus of generated runs (every scenario, values varied per run,
// in every convention) and asserts precision and recall of the stuck verdict. Each run reaches the
// processor as a real exporter sends it: spans in the order they end, split across batches, so state
// must carry across batches and the root span, which ends the run, comes last.
func TestLabelledCorpus(t *testing.T) {
	const runsPerConvention = 240
	var tp, fp, fn, tn, pollsFlagged int
	rng := rand.New(rand.NewPCG(1, 2))
	for _, conv := range agentgen.Conventions() {
		h := newHarness(t, seedConfig())
		for _, run := range agentgen.Mix(runsPerConvention, agentgen.Options{Convention: conv, Seed: 42}) {
			flagged := false
			for _, batch := range asExported(run.Traces, rng) {
				out := h.run(batch)
				flagged = flagged || len(stuckEvents(out)) > 0
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
	precision := float64(tp) / float64(tp+fp)
	recall := float64(tp) / float64(tp+fn)
	t.Logf("corpus: %d runs, tp=%d fp=%d fn=%d tn=%d, precision %.3f, recall %.3f, polling runs flagged %d",
		tp+fp+fn+tn, tp, fp, fn, tn, precision, recall, pollsFlagged)
	require.GreaterOrEqual(t, tp+fp+fn+tn, 200)
	assert.GreaterOrEqual(t, precision, 0.95)
	assert.GreaterOrEqual(t, recall, 0.95)
	assert.Zero(t, pollsFlagged, "a polling run with moving results was flagged")
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
