// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/statestore/statestoretest"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/processor/agentguard/internal/metadatatest"
)

// benchBatch is a realistic batch: 40 mixed runs, results of a few hundred bytes to a few kilobytes.
func benchBatch(tb testing.TB) (ptrace.Traces, [][]byte) {
	td := ptrace.NewTraces()
	var results [][]byte
	for _, run := range agentgen.Mix(40, agentgen.Options{Seed: 3}) {
		run.Traces.ResourceSpans().MoveAndAppendTo(td.ResourceSpans())
	}
	for _, span := range walk.Spans(td) {
		if r, ok := span.Attributes().Get("gen_ai.tool.call.result"); ok {
			results = append(results, []byte(r.Str()))
		}
	}
	require.NotEmpty(tb, results)
	return td, results
}

func newBenchGuard(tb testing.TB, cfg *Config) *guard {
	tel := componenttest.NewTelemetry()
	tb.Cleanup(func() { _ = tel.Shutdown(context.Background()) })
	g, err := newGuard(metadatatest.NewSettings(tel), cfg)
	require.NoError(tb, err)
	return g
}

// BenchmarkStep is agentguard's whole per-batch work divided by the tool calls judged: recognition,
// digests of arguments and results, the state machine and the span annotations.
func BenchmarkStep(b *testing.B) {
	td, results := benchBatch(b)
	g := newBenchGuard(b, seedConfig())
	b.ReportAllocs()
	var round uint64
	for b.Loop() {
		_, _ = g.processTraces(context.Background(), td)
		// The same batch again is the same runs under fresh trace ids: a run its root span ended is
		// remembered as ended, and its spans again would be late ones. The events it added must go,
		// or the batch would grow.
		b.StopTimer()
		round++
		for _, span := range walk.Spans(td) {
			span.Events().RemoveIf(func(e ptrace.SpanEvent) bool {
				return e.Name() == annotation.StuckEvent || e.Name() == annotation.StepEvent
			})
			id := span.TraceID()
			binary.LittleEndian.PutUint64(id[8:], round)
			span.SetTraceID(id)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(results)), "ns/step")
}

// BenchmarkFloorTokenizer is the floor agentguard is held to: one tokenizer pass over each result plus its
// sha256. The tokenizer is encoding/json's Decoder.Token (jsontext needs GOEXPERIMENT=jsonv2 here).
func BenchmarkFloorTokenizer(b *testing.B) {
	_, results := benchBatch(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range results {
			dec := json.NewDecoder(bytes.NewReader(r))
			for {
				if _, err := dec.Token(); err != nil {
					break
				}
			}
			_ = sha256.Sum256(r)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(results)), "ns/step")
}

// BenchmarkFloorValid is a stricter floor: json.Valid, which allocates nothing, plus sha256.
func BenchmarkFloorValid(b *testing.B) {
	_, results := benchBatch(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range results {
			_ = json.Valid(r)
			_ = sha256.Sum256(r)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(results)), "ns/step")
}

// BenchmarkMemoryPerRun holds 10 000 runs of five steps each and reports the heap they retain.
func BenchmarkMemoryPerRun(b *testing.B) {
	const runs, chunk = 10_000, 100
	var perRun float64
	for b.Loop() {
		cfg := seedConfig()
		cfg.MaxRuns = runs
		g := newBenchGuard(b, cfg)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := 0; i < runs; i += chunk {
			for _, td := range floodBatches(chunk, 5, i) {
				_, _ = g.processTraces(context.Background(), td)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		require.Equal(b, runs, g.runs.active(time.Now()))
		perRun = float64(after.HeapAlloc-before.HeapAlloc) / runs
		runtime.KeepAlive(g)
	}
	b.ReportMetric(perRun, "B/run")
}

// BenchmarkFloodOfRunIDs sends 1M distinct run ids, one tool call each, through a guard bounded to
// max_runs 10 000, and checks the bound held throughout.
func BenchmarkFloodOfRunIDs(b *testing.B) {
	const total, perBatch = 1_000_000, 1000
	for b.Loop() {
		cfg := seedConfig()
		cfg.MaxRuns = 10_000
		g := newBenchGuard(b, cfg)
		for i := 0; i < total; i += perBatch {
			for _, td := range floodBatches(perBatch, 1, i) {
				_, _ = g.processTraces(context.Background(), td)
			}
			if active := g.runs.active(time.Now()); active > cfg.MaxRuns {
				b.Fatalf("%d runs held, over max_runs %d", active, cfg.MaxRuns)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*total), "ns/run")
}

// floodBatches builds one batch of runs runs with steps tool calls each (no root span, so nothing
// ends the runs), numbering run ids from first.
func floodBatches(runs, steps, first int) []ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "flood")
	spans := rs.ScopeSpans().AppendEmpty().Spans()
	start := time.Date(2026, 3, 17, 9, 0, 0, 0, time.UTC)
	for r := range runs {
		var id [16]byte
		binary.BigEndian.PutUint64(id[8:], uint64(first+r+1))
		for s := range steps {
			span := spans.AppendEmpty()
			span.SetTraceID(pcommon.TraceID(id))
			span.SetParentSpanID(pcommon.SpanID{1})
			span.SetStartTimestamp(pcommon.NewTimestampFromTime(start.Add(time.Duration(s) * time.Second)))
			a := span.Attributes()
			a.PutStr("gen_ai.operation.name", "execute_tool")
			a.PutStr("gen_ai.tool.name", "search_docs")
			a.PutStr("gen_ai.tool.call.arguments", `{"q":"refund policy"}`)
			a.PutStr("gen_ai.tool.call.result", `{"results":[{"title":"Refunds","score":0.4}],"total":1}`)
		}
	}
	return []ptrace.Traces{td}
}

// checkpointRuns is a guard on in-memory storage holding 10,000 runs of 20 steps each: a full run
// table at a size a collector holds, for the cost of saving and loading it.
func checkpointRuns(b *testing.B) *guard {
	const runs, steps, chunk = 10_000, 20, 100
	cfg := storageConfig()
	cfg.MaxRuns = runs
	g := newBenchGuard(b, cfg)
	require.NoError(b, g.start(context.Background(), hostOf(statestoretest.New())))
	b.Cleanup(func() { require.NoError(b, g.shutdown(context.Background())) })
	for i := 0; i < runs; i += chunk {
		for _, td := range floodBatches(chunk, steps, i) {
			_, _ = g.processTraces(context.Background(), td)
		}
	}
	require.Equal(b, runs, g.runs.active(time.Now()))
	return g
}

// BenchmarkCheckpoint is one checkpoint of a full run table: the encoding, under the run table's lock
// (reported apart as ns-locked/op: what a batch may wait), and the write to the storage client (here
// in memory; file_storage adds its bbolt write). state-B is the size of the value written.
func BenchmarkCheckpoint(b *testing.B) {
	g := checkpointRuns(b)
	var locked time.Duration
	var size int
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		payload := g.runs.encode()
		locked += time.Since(start)
		size = len(payload)
		require.NoError(b, g.persist.store.Save(context.Background(), payload))
	}
	b.ReportMetric(float64(locked.Nanoseconds())/float64(b.N), "ns-locked/op")
	b.ReportMetric(float64(size), "state-B")
}

// BenchmarkRestore is the load of the same run table at start: decoding it and putting every run back.
func BenchmarkRestore(b *testing.B) {
	g := checkpointRuns(b)
	payload := g.runs.encode()
	b.ReportAllocs()
	for b.Loop() {
		require.NoError(b, g.runs.restore(payload, g.cfg))
	}
}
