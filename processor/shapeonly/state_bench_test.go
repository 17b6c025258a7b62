// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"context"
	"fmt"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentgen"
)

// BenchmarkMemoryCheckpoint is what a checkpoint costs (encode: the memory's lock is held only to list
// what it holds), and what loading it at start costs (restore: decode and load), for the memory left
// by agentgen's mixed runs (a twentieth of them touch customer data), and for a full memory: max_traces
// (100,000) single-call traces of a data-class tool, each one customer record. The bounds are the
// defaults; the forgotten-id filter (max_forgotten 1,000,000: 4 MB) is a fixed part of every
// checkpoint. state-B is the saved value's size, traces the traces and runs the memory held.
// docs/benchmarks.md has the figures.
func BenchmarkMemoryCheckpoint(b *testing.B) {
	for _, fill := range []struct {
		name string
		send func(p *shapeOnly)
	}{
		{"mix=20000", func(p *shapeOnly) {
			for _, run := range agentgen.Mix(20_000, agentgen.Options{Seed: 11}) {
				send(b, p, run.Traces)
			}
		}},
		{"full", func(p *shapeOnly) {
			for first := 0; first < p.cfg.MaxTraces; first += 500 {
				td := ptrace.NewTraces()
				for i := first; i < first+500; i++ {
					inTrace(spans(customerSpan("find_customer", map[string]any{"gen_ai.tool.call.id": fmt.Sprintf("call_%d", i)})),
						floodTrace(i)).ResourceSpans().MoveAndAppendTo(td.ResourceSpans())
				}
				send(b, p, td)
			}
		}},
	} {
		p := newBenchProcessor(b)
		fill.send(p)
		name := fill.name
		held := p.memory.traces.Len() + p.memory.runs.Len()
		payload := p.memory.encode()
		b.Run(name+"/encode", func(b *testing.B) {
			for b.Loop() {
				payload = p.memory.encode()
			}
			b.ReportMetric(float64(len(payload)), "state-B")
			b.ReportMetric(float64(held), "traces")
		})
		b.Run(name+"/restore", func(b *testing.B) {
			for b.Loop() {
				r, err := decodeMemory(payload, p.cfg, p.setBounds)
				if err != nil {
					b.Fatal(err)
				}
				newMemory(p.cfg).load(r)
			}
		})
	}
}

func send(b *testing.B, p *shapeOnly, td ptrace.Traces) {
	if _, err := p.processTraces(context.Background(), td); err != nil {
		b.Fatal(err)
	}
}
