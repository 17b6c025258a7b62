// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package bench

import (
	"compress/gzip"
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// BenchmarkMixExport times what the export does with what each contender hands on: encode the mix's
// requests as OTLP protobuf and compress them with gzip at its default level, as the OTLP exporter's
// gRPC compressor does. BenchmarkMix times the processors; this times what they cost downstream, on
// every span they annotate or shorten, in a collector whose export compresses (half of a pass-through
// collector's CPU in the throughput test, docs/benchmarks.md). The anchor is the requests as received.
func BenchmarkMixExport(b *testing.B) {
	requests, spans := mixRequests(b, 2000)
	raw := encoded(b, requests)
	ctx := context.Background()
	agentguard, shapeonly := processorPass(ctx, newMixAgentguard), processorPass(ctx, newMixShapeonly)
	for _, c := range []struct {
		name    string
		through []func(*testing.B) func(ptrace.Traces)
	}{
		{"as-received", nil},
		{"after-agentguard", []func(*testing.B) func(ptrace.Traces){agentguard}},
		{"after-both", []func(*testing.B) func(ptrace.Traces){agentguard, shapeonly}},
	} {
		b.Run(c.name, func(b *testing.B) {
			out := freshCopies(b, raw, 1)
			for _, pass := range c.through {
				consume := pass(b)
				for _, td := range out {
					consume(td)
				}
			}
			var m ptrace.ProtoMarshaler
			zw, err := gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression)
			require.NoError(b, err)
			var buf []byte
			for b.Loop() {
				for _, td := range out {
					buf, err = m.MarshalTraces(td)
					require.NoError(b, err)
					zw.Reset(io.Discard)
					_, err = zw.Write(buf)
					require.NoError(b, err)
					require.NoError(b, zw.Close())
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*spans), "ns/span")
			b.ReportMetric(float64(protoSize(out))/float64(spans), "outB/span")
		})
	}
}
