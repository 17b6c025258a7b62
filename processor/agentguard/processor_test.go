// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/metric/metricdata/metricdatatest"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/processor/agentguard/internal/metadatatest"
)

func generate(t *testing.T, scenario string, seed uint64) agentgen.Run {
	t.Helper()
	run, err := agentgen.Generate(scenario, agentgen.Options{Seed: seed})
	require.NoError(t, err)
	return run
}

func TestAnnotationsAndOneEventPerEpisode(t *testing.T) {
	h := newHarness(t, seedConfig())
	run := generate(t, "docs", 1)
	spansIn := run.Traces.SpanCount()
	out := h.run(run.Traces)
	require.Equal(t, spansIn, out.SpanCount(), "no span is dropped")

	var steps, events int
	for _, span := range walk.Spans(out) {
		step, ok := span.Attributes().Get(annotation.Step)
		if !ok {
			continue
		}
		steps++
		assert.Equal(t, int64(steps), step.Int(), "steps are numbered in start order")
		for _, k := range []string{annotation.Progress, annotation.Signals, annotation.Barren} {
			_, ok := span.Attributes().Get(k)
			assert.True(t, ok, "%s on step %d", k, steps)
		}
		for i := 0; i < span.Events().Len(); i++ {
			e := span.Events().At(i)
			if e.Name() != annotation.StuckEvent {
				continue
			}
			events++
			reason, _ := e.Attributes().Get(annotation.EventReason)
			agent, _ := e.Attributes().Get(annotation.EventAgentName)
			barren, _ := e.Attributes().Get(annotation.EventBarren)
			assert.Equal(t, "no_progress", reason.Str())
			assert.Equal(t, "docs", agent.Str())
			assert.Equal(t, int64(4), barren.Int())
			assert.Equal(t, int64(4), step.Int(), "the docs agent is stuck at its fourth empty search")
		}
	}
	assert.Equal(t, 5, steps)
	assert.Equal(t, 1, events, "one event per stuck episode, though step 5 is stuck too")

	assert.Equal(t, map[string]int64{"gen_ai.agent.name=docs,reason=no_progress": 1},
		counts(t, h.tel, "otelcol_processor_agentguard_stuck_episodes"))
	// Every empty search is barren.
	assert.Equal(t, map[string]int64{"gen_ai.agent.name=docs,progress=false": 5},
		counts(t, h.tel, "otelcol_processor_agentguard_steps"))
	// The agent's series start at zero as soon as it is seen: every reason, outcome and kind of step.
	metadatatest.AssertEqualProcessorAgentguardStuckEpisodes(t, h.tel, zerosBut(
		map[string]int64{"no_progress": 1}, "docs", "reason", "no_progress", "loop", "repeated_error", "alternation", "cycle", "wait_timeout"),
		metricdatatest.IgnoreTimestamp())
}

// TestStepsNumberedInStartOrderWhateverTheirArrival: a batch holding a run's spans last first (as an
// exporter sends them when they end out of order) is read in start order all the same.
func TestStepsNumberedInStartOrderWhateverTheirArrival(t *testing.T) {
	h := newHarness(t, seedConfig())
	run := generate(t, "docs", 1)
	for _, rs := range run.Traces.ResourceSpans().All() {
		for _, ss := range rs.ScopeSpans().All() {
			reversed := ptrace.NewSpanSlice()
			for i := ss.Spans().Len() - 1; i >= 0; i-- {
				ss.Spans().At(i).CopyTo(reversed.AppendEmpty())
			}
			reversed.CopyTo(ss.Spans())
		}
	}
	var numbered []ptrace.Span
	for _, span := range walk.Spans(h.run(run.Traces)) {
		if _, ok := span.Attributes().Get(annotation.Step); ok {
			numbered = append(numbered, span)
		}
	}
	require.Len(t, numbered, 5)
	slices.SortFunc(numbered, func(a, b ptrace.Span) int { return cmp.Compare(a.StartTimestamp(), b.StartTimestamp()) })
	for i, span := range numbered {
		step, _ := span.Attributes().Get(annotation.Step)
		assert.Equal(t, int64(i+1), step.Int(), "the step that started %d. is numbered so", i+1)
	}
}

// zerosBut lists an agent's data points, one per value of label, at zero but where values says.
func zerosBut(values map[string]int64, agent, label string, all ...string) []metricdata.DataPoint[int64] {
	var out []metricdata.DataPoint[int64]
	for _, v := range all {
		out = append(out, metricdata.DataPoint[int64]{Value: values[v],
			Attributes: attribute.NewSet(attribute.String("gen_ai.agent.name", agent), attribute.String(label, v))})
	}
	return out
}

// The model-call counter counts each model call by the finish its span is annotated with, or as empty,
// and the finished-run counter each run by the outcome its root span is annotated with.
func TestCountersMatchAnnotations(t *testing.T) {
	h := newHarness(t, seedConfig())
	finishes, outcomes := map[string]int64{}, map[string]int64{}
	for _, run := range agentgen.Mix(60, agentgen.Options{Seed: 5}) {
		for _, span := range walk.Spans(h.run(run.Traces)) {
			attrs := span.Attributes()
			if finish, ok := attrs.Get(annotation.Finish); ok {
				label := finish.Str()
				if empty, ok := attrs.Get(annotation.Empty); ok && empty.Bool() {
					label = "empty"
				}
				finishes[label]++
			}
			if outcome, ok := attrs.Get(annotation.Outcome); ok {
				outcomes[outcome.Str()]++
			}
		}
	}
	require.GreaterOrEqual(t, len(finishes), 3, "the mix ends replies in several ways: %v", finishes)
	require.GreaterOrEqual(t, len(outcomes), 3, "the mix ends runs in several ways: %v", outcomes)
	assert.Equal(t, finishes, byLabel(t, counts(t, h.tel, "otelcol_processor_agentguard_model_calls"), "finish"))
	assert.Equal(t, outcomes, byLabel(t, counts(t, h.tel, "otelcol_processor_agentguard_runs_finished"), "outcome"))
}

// byLabel sums counts (as counts returns them) by the value of one label.
func byLabel(t *testing.T, series map[string]int64, label string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for labels, n := range series {
		_, value, found := strings.Cut(labels, label+"=")
		require.True(t, found, "%s has no %s", labels, label)
		value, _, _ = strings.Cut(value, ",")
		out[value] += n
	}
	return out
}

func TestWaitExemptPollsAreCounted(t *testing.T) {
	h := newHarness(t, seedConfig())
	out := h.run(generate(t, "deploy", 1).Traces)
	exempt := 0
	for _, span := range walk.Spans(out) {
		if v, ok := span.Attributes().Get(annotation.WaitExempt); ok && v.Bool() {
			exempt++
		}
	}
	require.NotZero(t, exempt, "the deploy run polls a build that is still running")
	metadatatest.AssertEqualProcessorAgentguardPollsExempt(t, h.tel, []metricdata.DataPoint[int64]{{Value: int64(exempt)}},
		metricdatatest.IgnoreTimestamp())
}

// The AI SDK 7 names the agent only on the run's root span: a root span in the same batch names it.
func TestAgentNameFromRootSpanOnly(t *testing.T) {
	run := generate(t, "docs", 2)
	for _, span := range walk.Spans(run.Traces) {
		if !span.ParentSpanID().IsEmpty() {
			span.Attributes().Remove("gen_ai.agent.name")
		}
	}
	run.Traces.ResourceSpans().At(0).Resource().Attributes().PutStr("service.name", "svc")
	h := newHarness(t, seedConfig())
	assert.Equal(t, []string{"docs"}, agentsOfEvents(h.run(run.Traces)))

	// Without any agent name, service.name stands in.
	run = generate(t, "docs", 3)
	for _, span := range walk.Spans(run.Traces) {
		span.Attributes().Remove("gen_ai.agent.name")
	}
	run.Traces.ResourceSpans().At(0).Resource().Attributes().PutStr("service.name", "svc")
	assert.Equal(t, []string{"svc"}, agentsOfEvents(h.run(run.Traces)))
}

func agentsOfEvents(td ptrace.Traces) []string {
	var agents []string
	for _, span := range walk.Spans(td) {
		for i := 0; i < span.Events().Len(); i++ {
			if a, ok := span.Events().At(i).Attributes().Get(annotation.EventAgentName); ok {
				agents = append(agents, a.Str())
			}
		}
	}
	return agents
}

// A conversation spread over traces is one run when run_attributes names its key.
func TestRunAttributesGroupTraces(t *testing.T) {
	split := func() []ptrace.Traces {
		run := generate(t, "docs", 4)
		var parts []ptrace.Traces
		for _, span := range walk.Spans(run.Traces) {
			if _, ok := span.Attributes().Get("gen_ai.tool.name"); !ok {
				continue
			}
			td := ptrace.NewTraces()
			s := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
			span.CopyTo(s)
			s.SetTraceID(pcommon.TraceID([16]byte{byte(len(parts) + 1)})) // a new trace per turn
			s.Attributes().PutStr("gen_ai.conversation.id", "conv-1")
			parts = append(parts, td)
		}
		return parts
	}
	stuckIn := func(cfg *Config) bool {
		h := newHarness(t, cfg)
		flagged := false
		for _, td := range split() {
			flagged = flagged || len(stuckEvents(h.run(td))) > 0
		}
		return flagged
	}
	assert.False(t, stuckIn(seedConfig()), "by default each trace is its own run")
	cfg := seedConfig()
	cfg.RunAttributes = []string{"gen_ai.conversation.id"}
	assert.True(t, stuckIn(cfg), "grouped by conversation, the docs agent is stuck")
}

// Where the run is named: a run that is its trace is named on its root span and its stuck events, and
// its steps and model calls are found by their trace id; a run named by a run attribute spans traces,
// so every step and model call of it says which run it is.
func TestRunNameIsWrittenWhereTheTraceDoesNotSayIt(t *testing.T) {
	run := generate(t, "docs", 4)
	h := newHarness(t, seedConfig())
	out := h.run(run.Traces)
	require.NotEmpty(t, stuckEvents(out))
	var root ptrace.Span
	for _, span := range walk.Spans(out) {
		if span.ParentSpanID().IsEmpty() {
			root = span
		}
	}
	name, ok := root.Attributes().Get(annotation.Run)
	require.True(t, ok, "the root span names the run")
	names := runNames(out, name.Str())
	assert.Equal(t, 1, names["root"])
	assert.Equal(t, len(stuckEvents(out)[root.TraceID().String()]), names["event"])
	assert.Zero(t, names["step"]+names["model"], "the trace names the run of its steps and model calls: %v", names)

	run = generate(t, "docs", 4)
	for _, span := range walk.Spans(run.Traces) {
		span.Attributes().PutStr("gen_ai.conversation.id", "conv-1")
	}
	cfg := seedConfig()
	cfg.RunAttributes = []string{"gen_ai.conversation.id"}
	out = newHarness(t, cfg).run(run.Traces)
	steps, models := 0, 0
	for _, span := range walk.Spans(out) {
		if _, ok := span.Attributes().Get(annotation.Step); ok {
			steps++
		}
		if _, ok := span.Attributes().Get(annotation.Round); ok {
			models++
		}
	}
	require.NotZero(t, steps)
	require.NotZero(t, models)
	names = runNames(out, "conv-1")
	assert.Equal(t, steps, names["step"])
	assert.Equal(t, models, names["model"])
	assert.NotZero(t, names["event"])
	assert.Len(t, names, 3, "only steps, model calls and events name a run that spans traces: %v", names)
}

func TestAgentLabelsAreCapped(t *testing.T) {
	cfg := seedConfig()
	cfg.MaxAgentNames = 1
	h := newHarness(t, cfg)
	for i, agent := range []string{"first", "second"} {
		run := generate(t, "docs", uint64(10+i))
		for _, span := range walk.Spans(run.Traces) {
			if _, ok := span.Attributes().Get("gen_ai.agent.name"); ok {
				span.Attributes().PutStr("gen_ai.agent.name", agent)
			}
		}
		h.run(run.Traces)
	}
	assert.Equal(t, map[string]int64{
		"gen_ai.agent.name=first,reason=no_progress": 1,
		"gen_ai.agent.name=other,reason=no_progress": 1,
	}, counts(t, h.tel, "otelcol_processor_agentguard_stuck_episodes"))
}

// Past max_tool_names, the tool-call counter labels further tools "other": the first tool a step
// calls keeps its name.
func TestToolLabelsAreCapped(t *testing.T) {
	cfg := seedConfig()
	cfg.MaxToolNames = 1
	h := newHarness(t, cfg)
	calls, first := map[string]int64{}, ""
	for _, span := range walk.Spans(h.run(generate(t, "deploy", 1).Traces)) {
		if step, ok := span.Attributes().Get(annotation.Step); ok {
			tool, _ := span.Attributes().Get("gen_ai.tool.name")
			calls[tool.Str()]++
			if step.Int() == 1 {
				first = tool.Str()
			}
		}
	}
	require.Len(t, calls, 2, "the deploy run calls two tools: %v", calls)
	want := map[string]int64{}
	for tool, n := range calls {
		label := "other"
		if tool == first {
			label = tool
		}
		want["gen_ai.agent.name=deploy,gen_ai.tool.name="+label+",outcome=ok"] += n
	}
	assert.Equal(t, want, counts(t, h.tel, "otelcol_processor_agentguard_tool_calls"))
}

// State is bounded by max_runs and run_idle_timeout, and both kinds of eviction are counted.
func TestRunStateIsBounded(t *testing.T) {
	tel := componenttest.NewTelemetry()
	t.Cleanup(func() { require.NoError(t, tel.Shutdown(context.Background())) })
	cfg := seedConfig()
	cfg.MaxRuns = 2
	cfg.RunIdleTimeout = time.Minute
	g, err := newGuard(metadatatest.NewSettings(tel), cfg)
	require.NoError(t, err)
	now := time.Date(2026, 3, 17, 9, 0, 0, 0, time.UTC)
	g.now = func() time.Time { return now }

	// Three runs whose root spans never arrive: the third pushes the first out.
	for i := range 3 {
		run := generate(t, "research", uint64(20+i))
		withoutRoot(run.Traces)
		_, err := g.processTraces(context.Background(), run.Traces)
		require.NoError(t, err)
	}
	assert.Equal(t, 2, g.runs.active(now))
	now = now.Add(2 * time.Minute)
	assert.Equal(t, 0, g.runs.active(now), "idle runs expire")
	_, err = g.processTraces(context.Background(), ptrace.NewTraces())
	require.NoError(t, err)
	run := generate(t, "research", 30)
	withoutRoot(run.Traces)
	_, err = g.processTraces(context.Background(), run.Traces)
	require.NoError(t, err)
	metadatatest.AssertEqualProcessorAgentguardRunsEvicted(t, tel, []metricdata.DataPoint[int64]{
		{Value: 1, Attributes: attribute.NewSet(attribute.String("reason", "capacity"))},
		{Value: 2, Attributes: attribute.NewSet(attribute.String("reason", "idle"))},
	}, metricdatatest.IgnoreTimestamp())
	metadatatest.AssertEqualProcessorAgentguardRunsActive(t, tel, []metricdata.DataPoint[int64]{{Value: 1}}, metricdatatest.IgnoreTimestamp())
}

func withoutRoot(td ptrace.Traces) {
	td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().RemoveIf(func(s ptrace.Span) bool { return s.ParentSpanID().IsEmpty() })
}

// A run ends when its root agent span ends: its state goes at once.
func TestRunEndsWithItsRootSpan(t *testing.T) {
	tel := componenttest.NewTelemetry()
	t.Cleanup(func() { require.NoError(t, tel.Shutdown(context.Background())) })
	g, err := newGuard(metadatatest.NewSettings(tel), seedConfig())
	require.NoError(t, err)
	_, err = g.processTraces(context.Background(), generate(t, "research", 40).Traces)
	require.NoError(t, err)
	assert.Equal(t, 0, g.runs.active(time.Now()))
}

func TestConcurrentBatches(t *testing.T) {
	h := newHarness(t, seedConfig())
	runs := agentgen.Mix(64, agentgen.Options{Seed: 5})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(runs); i += 4 {
				assert.NoError(t, h.proc.ConsumeTraces(context.Background(), runs[i].Traces))
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 64, len(h.sink.AllTraces()))
}
