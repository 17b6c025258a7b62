// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/metric/metricdata/metricdatatest"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/statecodec"
	"github.com/agentotel/agentotel/internal/statestore"
	"github.com/agentotel/agentotel/internal/statestore/statestoretest"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/processor/agentguard/internal/metadata"
	"github.com/agentotel/agentotel/processor/agentguard/internal/metadatatest"
)

var storageID = component.MustNewID("file_storage")

// storageConfig is seedConfig (the reference agents' manifest) with its runs kept on the
// file_storage extension.
func storageConfig() *Config {
	cfg := seedConfig()
	cfg.Storage = &storageID
	return cfg
}

// hostOf is a collector host whose file_storage is ext.
func hostOf(ext *statestoretest.Extension) component.Host { return statestoretest.Host{storageID: ext} }

// splitAfterSteps cuts a run in two batches: the spans that started before its tool step after steps,
// and the rest, the root span among them (it ends last).
func splitAfterSteps(td ptrace.Traces, steps int) (before, after ptrace.Traces) {
	var spans []ptrace.Span
	for _, s := range walk.Spans(td) {
		if !s.ParentSpanID().IsEmpty() {
			spans = append(spans, s)
		}
	}
	slices.SortFunc(spans, func(a, b ptrace.Span) int { return cmp.Compare(a.StartTimestamp(), b.StartTimestamp()) })
	tools := 0
	cut := len(spans)
	for i, s := range spans {
		if _, ok := s.Attributes().Get("gen_ai.tool.name"); ok {
			if tools++; tools > steps {
				cut = i
				break
			}
		}
	}
	early := map[pcommon.SpanID]bool{}
	for _, s := range spans[:cut] {
		early[s.SpanID()] = true
	}
	before, after = ptrace.NewTraces(), ptrace.NewTraces()
	td.CopyTo(before)
	td.CopyTo(after)
	for _, rs := range before.ResourceSpans().All() {
		for _, ss := range rs.ScopeSpans().All() {
			ss.Spans().RemoveIf(func(s ptrace.Span) bool { return !early[s.SpanID()] })
		}
	}
	for _, rs := range after.ResourceSpans().All() {
		for _, ss := range rs.ScopeSpans().All() {
			ss.Spans().RemoveIf(func(s ptrace.Span) bool { return early[s.SpanID()] })
		}
	}
	return before, after
}

func marshal(t *testing.T, td ptrace.Traces) string {
	t.Helper()
	b, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	require.NoError(t, err)
	return string(b)
}

// A restart between barren steps: a docs run with two barren steps before a restart and three after
// is stuck where it is without the restart. Every span of both batches leaves annotated exactly as from a processor
// that never stopped, and the run ends the same; without storage, the restart forgets the count and
// the run is never stuck. With a logs pipeline beside the traces one, the two share the runs: the first
// to start loads them, the last to stop saves them.
func TestRestartKeepsTheRuns(t *testing.T) {
	run := generate(t, "docs", 1)
	trace := run.Traces.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).TraceID().String()
	for _, logs := range []bool{false, true} {
		t.Run(fmt.Sprint("logs pipeline ", logs), func(t *testing.T) {
			steady := startPipelines(t, storageConfig(), hostOf(statestoretest.New()), true, logs)
			before, after := splitAfterSteps(run.Traces, 2)
			want := []string{marshal(t, steady.run(before)), marshal(t, steady.run(after))}
			wantEnd := ending(t, steady.tel)
			steady.shutdown()
			require.Equal(t, map[string][]string{trace: {"no_progress"}}, stuckEvents(steady.sink.AllTraces()[1]),
				"the uninterrupted run is stuck after the cut")

			for _, cfg := range []*Config{storageConfig(), seedConfig()} {
				ext := statestoretest.New()
				before, after := splitAfterSteps(run.Traces, 2)
				first := startPipelines(t, cfg, hostOf(ext), true, logs)
				got := []string{marshal(t, first.run(before))}
				first.shutdown()
				second := startPipelines(t, cfg, hostOf(ext), true, logs)
				got = append(got, marshal(t, second.run(after)))
				gotEnd := ending(t, second.tel)
				second.shutdown()
				if cfg.Storage != nil {
					assert.Equal(t, want, got, "with storage, the restart changes nothing")
					assert.Equal(t, wantEnd, gotEnd, "nor how the run ended, and how long it took")
				} else {
					assert.Empty(t, stuckEvents(second.sink.AllTraces()[0]), "without storage, the restart starts the count again")
				}
			}
		})
	}
}

// ending is how the runs a processor saw ended, and their durations.
func ending(t *testing.T, tel *componenttest.Telemetry) string {
	t.Helper()
	m, err := tel.GetMetric("otelcol_processor_agentguard_run_duration")
	require.NoError(t, err)
	var seconds []float64
	for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
		seconds = append(seconds, dp.Sum)
	}
	return fmt.Sprint(counts(t, tel, "otelcol_processor_agentguard_runs_finished"), seconds)
}

// startGuard starts a guard on ext with its clock at *now and its log observed: the processor of
// TestRestartKeepsTheRuns, with the hands on the clock and the log that the cases below need.
func startGuard(t *testing.T, cfg *Config, ext *statestoretest.Extension, now *time.Time) (*guard, *componenttest.Telemetry, *observer.ObservedLogs) {
	t.Helper()
	tel := componenttest.NewTelemetry()
	t.Cleanup(func() { require.NoError(t, tel.Shutdown(context.Background())) })
	core, logs := observer.New(zap.InfoLevel)
	set := metadatatest.NewSettings(tel)
	set.Logger = zap.New(core)
	g, err := newGuard(set, cfg)
	require.NoError(t, err)
	g.now = func() time.Time { return *now }
	g.traces.Store(true) // as the factory marks a guard in a traces pipeline
	require.NoError(t, g.start(context.Background(), hostOf(ext)))
	return g, tel, logs
}

// openRuns feeds the guard runs whose root spans have not come yet, a second apart, and returns their
// state keys, oldest first.
func openRuns(t *testing.T, g *guard, n int, now *time.Time) []string {
	t.Helper()
	var keys []string
	for i := range n {
		run := generate(t, "research", uint64(100+i))
		withoutRoot(run.Traces)
		_, err := g.processTraces(context.Background(), run.Traces)
		require.NoError(t, err)
		keys = append(keys, runKey{trace: run.Traces.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).TraceID()}.String())
		*now = now.Add(time.Second)
	}
	return keys
}

// heldRuns lists the keys of the runs the guard holds, least recently active first.
func heldRuns(g *guard) []string {
	var keys []string
	g.runs.update(func(r *runs) {
		r.byKey.Each(func(key string, _ *runState, _ time.Time) { keys = append(keys, key) })
	})
	return keys
}

// A state saved under a larger max_runs loads its newest runs, and the others are counted as evicted
// for capacity, as if they had been pushed out live.
func TestRestoredRunsMeetMaxRuns(t *testing.T) {
	ext, now := statestoretest.New(), time.Date(2026, 3, 17, 9, 0, 0, 0, time.UTC)
	cfg := storageConfig()
	cfg.MaxRuns = 100
	g, _, _ := startGuard(t, cfg, ext, &now)
	keys := openRuns(t, g, 100, &now)
	require.NoError(t, g.shutdown(context.Background()))

	small := storageConfig()
	small.MaxRuns = 10
	g, tel, logs := startGuard(t, small, ext, &now)
	defer func() { require.NoError(t, g.shutdown(context.Background())) }()
	assert.Equal(t, keys[90:], heldRuns(g), "the ten newest, in their order")
	metadatatest.AssertEqualProcessorAgentguardRunsEvicted(t, tel, []metricdata.DataPoint[int64]{
		{Value: 90, Attributes: attribute.NewSet(attribute.String("reason", "capacity"))},
		{Value: 0, Attributes: attribute.NewSet(attribute.String("reason", "idle"))},
	}, metricdatatest.IgnoreTimestamp())
	restored := logs.FilterMessage("Restored the runs saved before the restart").All()
	require.Len(t, restored, 1)
	assert.Equal(t, int64(10), restored[0].ContextMap()["runs"])
}

// run_idle_timeout runs on across a restart: a run that idled past it while the collector was down
// ends abandoned at the start, one that did not is held and judged on.
func TestRestoredRunsIdleOut(t *testing.T) {
	for _, down := range []time.Duration{time.Minute, 11 * time.Minute} {
		t.Run(fmt.Sprint("down ", down), func(t *testing.T) {
			ext, now := statestoretest.New(), time.Date(2026, 3, 17, 9, 0, 0, 0, time.UTC)
			g, _, _ := startGuard(t, storageConfig(), ext, &now)
			openRuns(t, g, 1, &now)
			require.NoError(t, g.shutdown(context.Background()))

			now = now.Add(down)
			g, tel, _ := startGuard(t, storageConfig(), ext, &now)
			defer func() { require.NoError(t, g.shutdown(context.Background())) }()
			idledOut := down > storageConfig().RunIdleTimeout
			assert.Equal(t, count(!idledOut), g.runs.active(now))
			finished := counts(t, tel, "otelcol_processor_agentguard_runs_finished")
			if !idledOut {
				assert.Empty(t, finished, "the run is still in flight")
				return
			}
			assert.Equal(t, map[string]int64{"gen_ai.agent.name=research-service,outcome=abandoned": 1}, finished)
			assert.Equal(t, map[string]int64{"reason=idle": 1}, counts(t, tel, "otelcol_processor_agentguard_runs_evicted"))
		})
	}
}

// Saved state that cannot be read is an error in the log and a fresh start, never a crash: a payload
// cut short, garbage in a valid frame, and a value of another format version.
func TestUnreadableStateIsAFreshStart(t *testing.T) {
	valid := func() []byte {
		ext, now := statestoretest.New(), time.Date(2026, 3, 17, 9, 0, 0, 0, time.UTC)
		g, _, _ := startGuard(t, storageConfig(), ext, &now)
		openRuns(t, g, 3, &now)
		require.NoError(t, g.shutdown(context.Background()))
		return g.runs.encode()
	}()
	cases := map[string]struct {
		payload []byte
		version uint16
		want    string
	}{
		"truncated":     {valid[:len(valid)/2], stateVersion, "cut short"},
		"garbage":       {[]byte("{\"runs\": [\"not ours\"]}"), stateVersion, "a count of 123"},
		"other version": {valid, stateVersion + 1, fmt.Sprintf("version %d; this build reads version %d", stateVersion+1, stateVersion)},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			ext, now := statestoretest.New(), time.Date(2026, 3, 17, 9, 30, 0, 0, time.UTC)
			writeState(t, ext, c.version, c.payload)
			g, _, logs := startGuard(t, storageConfig(), ext, &now)
			defer func() { require.NoError(t, g.shutdown(context.Background())) }()
			assert.Equal(t, 0, g.runs.active(now), "a fresh start")
			entries := logs.FilterMessage("Saved state is unreadable; starting fresh").All()
			require.Len(t, entries, 1, "logged %v", logs.All())
			assert.Contains(t, entries[0].ContextMap()["error"], c.want)
			openRuns(t, g, 1, &now)
			assert.Equal(t, 1, g.runs.active(now), "and it serves")
		})
	}
}

// writeState saves payload as the agentguard processor's state of format version, through the store
// the processor reads it with.
func writeState(t *testing.T, ext *statestoretest.Extension, version uint16, payload []byte) {
	t.Helper()
	s, err := statestore.Open(context.Background(), hostOf(ext), storageID, component.NewID(metadata.Type), version, zap.NewNop())
	require.NoError(t, err)
	require.NoError(t, s.Save(context.Background(), payload))
	require.NoError(t, s.Close(context.Background()))
}

// A storage: that names no extension fails the start, naming it.
func TestStorageNamesAMissingExtension(t *testing.T) {
	g, err := newGuard(metadatatest.NewSettings(componenttest.NewTelemetry()), storageConfig())
	require.NoError(t, err)
	assert.ErrorContains(t, g.start(context.Background(), componenttest.NewNopHost()), `"file_storage"`)
	require.NoError(t, g.shutdown(context.Background()))
}

// Whatever the payload, decodeRuns does not panic, and state it accepts serves a batch.
func FuzzDecodeState(f *testing.F) {
	cfg := seedConfig()
	cfg.MaxRuns = 16
	g, err := newGuard(metadatatest.NewSettings(componenttest.NewTelemetry()), cfg)
	if err != nil {
		f.Fatal(err)
	}
	for i := range 3 {
		run, err := agentgen.Generate("research", agentgen.Options{Seed: uint64(i)})
		if err != nil {
			f.Fatal(err)
		}
		withoutRoot(run.Traces)
		if _, err := g.processTraces(context.Background(), run.Traces); err != nil {
			f.Fatal(err)
		}
		f.Add(g.runs.encode())
	}
	var empty statecodec.Encoder
	newRuns(cfg, policyOf(cfg)).encode(&empty)
	f.Add(empty.Data())
	batch, err := agentgen.Generate("docs", agentgen.Options{Seed: 9})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		g, err := newGuard(metadatatest.NewSettings(componenttest.NewTelemetry()), cfg)
		require.NoError(t, err)
		if g.runs.restore(payload, cfg) != nil {
			return
		}
		td := ptrace.NewTraces()
		batch.Traces.CopyTo(td)
		_, err = g.processTraces(context.Background(), td)
		require.NoError(t, err)
		g.runs.active(time.Now().Add(time.Hour))
	})
}

// Checkpoints run beside batches (the race detector watches the run table's lock), and the save at
// shutdown is the last: a new processor holds the runs the old one held when it stopped.
func TestCheckpointsBesideBatches(t *testing.T) {
	cfg := storageConfig()
	cfg.CheckpointInterval = time.Millisecond
	ext, now := statestoretest.New(), time.Now()
	g, _, _ := startGuard(t, cfg, ext, &now)
	runs := agentgen.Mix(64, agentgen.Options{Seed: 5})
	done := make(chan struct{})
	for w := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := w; i < len(runs); i += 4 {
				withoutRoot(runs[i].Traces)
				_, err := g.processTraces(context.Background(), runs[i].Traces)
				assert.NoError(t, err)
			}
		}()
	}
	for range 4 {
		<-done
	}
	held := heldRuns(g)
	require.NotEmpty(t, held)
	require.NoError(t, g.shutdown(context.Background()))

	g, _, _ = startGuard(t, cfg, ext, &now)
	defer func() { require.NoError(t, g.shutdown(context.Background())) }()
	assert.Equal(t, held, heldRuns(g))
}
