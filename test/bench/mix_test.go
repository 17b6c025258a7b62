// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package bench

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/processor/agentguard"
	"github.com/agentotel/agentotel/processor/shapeonly"
)

// The mix: what the end-to-end throughput test sends (agentgen's mixed scenarios, ten runs per export
// request), through each processor in process, configured as deploy/scale/tier2.yaml configures them.
// The anchor is what a collector that forwards the same requests does to each at least: decode it
// from OTLP protobuf and encode it again. Each request is handed on on a goroutine of its own, as the
// OTLP receiver's gRPC server runs each export request: whatever stack a contender needs past a new
// goroutine's is grown, and copied, on every request. docs/benchmarks.md has the figures.

// mixRequests are n mixed runs in requests of ten, as agentgen -scenario mix -batch 10 sends them.
func mixRequests(tb testing.TB, n int) (requests []ptrace.Traces, spans int) {
	runs := agentgen.Mix(n, agentgen.Options{Seed: 3})
	for i := 0; i < len(runs); i += 10 {
		td := ptrace.NewTraces()
		for _, r := range runs[i:min(i+10, len(runs))] {
			r.Traces.ResourceSpans().MoveAndAppendTo(td.ResourceSpans())
		}
		spans += td.SpanCount()
		requests = append(requests, td)
	}
	require.NotZero(tb, spans)
	return requests, spans
}

func newMixAgentguard(tb testing.TB) processor.Traces {
	f := agentguard.NewFactory()
	return start(tb, f, config(tb, f, map[string]any{
		"no_progress_limit": 4,
		"volatile_fields":   []any{"served_at", "request_id", "etag", "latency_ms"},
		"run_budget":        "45m",
		"tools": map[string]any{
			"get_build_status": map[string]any{"kind": "wait", "progress_field": "status", "waiting_values": []any{"queued", "running"},
				"terminal_values": []any{"success", "failed", "cancelled", "timed_out"}, "max_wait": "20m", "min_interval": "5s"},
			"edit_file": map[string]any{"kind": "write", "state_field": "sha"},
		},
	}))
}

func newMixShapeonly(tb testing.TB) processor.Traces {
	f := shapeonly.NewFactory()
	return start(tb, f, config(tb, f, map[string]any{
		"tools":     map[string]any{customerTool: "customer"},
		"kept_keys": []any{"query", "question", "status", "source", "kind", "title", "description", "error"},
	}))
}

// BenchmarkMix reports each contender's time per span over the mix, and the protobuf bytes per span of
// what it hands on (the anchor hands on what it received). Every iteration gets fresh copies
// of the requests with fresh trace ids (made with the timer stopped), so every run is new to the
// processors' memory, as on a collector.
func BenchmarkMix(b *testing.B) {
	requests, spans := mixRequests(b, 2000)
	raw := encoded(b, requests)
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		consume func(b *testing.B) func(ptrace.Traces)
	}{
		{"otlp-proto-roundtrip", func(b *testing.B) func(ptrace.Traces) { return protoRoundTrip(b) }},
		{"agentguard", processorPass(ctx, newMixAgentguard)},
		{"shapeonly", processorPass(ctx, newMixShapeonly)},
	} {
		b.Run(c.name, func(b *testing.B) {
			consume := c.consume(b)
			out := 0 // the requests' protobuf size after the first iteration: what the export carries
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				fresh := freshCopies(b, raw, uint64(i))
				b.StartTimer()
				for _, td := range fresh {
					onItsOwnGoroutine(func() { consume(td) })
				}
				if i == 0 {
					b.StopTimer()
					out = protoSize(fresh)
					b.StartTimer()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*spans), "ns/span")
			b.ReportMetric(float64(out)/float64(spans), "outB/span")
		})
	}
}

// protoRoundTrip encodes a request as OTLP protobuf and decodes it again: the anchor. It reports
// errors without stopping, since it may run on a goroutine other than the test's.
func protoRoundTrip(tb testing.TB) func(ptrace.Traces) {
	var m ptrace.ProtoMarshaler
	var u ptrace.ProtoUnmarshaler
	return func(td ptrace.Traces) {
		raw, err := m.MarshalTraces(td)
		assert.NoError(tb, err)
		_, err = u.UnmarshalTraces(raw)
		assert.NoError(tb, err)
	}
}

// onItsOwnGoroutine runs f on a new goroutine and waits for it to return.
func onItsOwnGoroutine(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// protoSize is what the requests weigh as OTLP protobuf.
func protoSize(requests []ptrace.Traces) int {
	var m ptrace.ProtoMarshaler
	n := 0
	for _, td := range requests {
		n += m.TracesSize(td)
	}
	return n
}

// encoded is the requests as OTLP protobuf, as they reach a collector.
func encoded(tb testing.TB, requests []ptrace.Traces) [][]byte {
	var m ptrace.ProtoMarshaler
	raw := make([][]byte, len(requests))
	for j, td := range requests {
		var err error
		raw[j], err = m.MarshalTraces(td)
		require.NoError(tb, err)
	}
	return raw
}

// freshCopies decodes the requests, as a collector's receiver hands them on (a span's attributes
// with the room their decoding left), giving every trace a new id for iteration i.
func freshCopies(tb testing.TB, raw [][]byte, i uint64) []ptrace.Traces {
	var u ptrace.ProtoUnmarshaler
	out := make([]ptrace.Traces, len(raw))
	for j, b := range raw {
		td, err := u.UnmarshalTraces(b)
		require.NoError(tb, err)
		freshTraces(td, i)
		out[j] = td
	}
	return out
}
