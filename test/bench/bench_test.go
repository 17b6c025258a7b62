// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package bench measures what shapeonly costs on one realistic batch against the anchors a reader can
// judge it by, in the same run: a bare attribute walk (the floor), a jsontext tokenizer pass over the
// JSON the batch holds, an encoding/json round trip of the same JSON, and the contrib redaction and
// transform processors doing PII redaction by regex. docs/benchmarks.md has the figures and the
// commands. The processors' module does not depend on any of this: contrib processors and the
// go-json-experiment module are this module's requirements only.
package bench

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/open-telemetry/opentelemetry-collector-contrib/processor/redactionprocessor"
	"github.com/open-telemetry/opentelemetry-collector-contrib/processor/transformprocessor"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processortest"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/agentotel/agentotel/internal/leakcheck"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/processor/shapeonly"
)

// piiPatterns are the usual PII regexes, used alike by redaction (blocked_values) and OTTL
// (replace_all_patterns). Character classes stand in for \d and \. so the same text is valid in an
// OTTL string literal.
var piiPatterns = []string{
	`[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+[.][a-zA-Z]{2,}`,                       // email
	`(?:[0-9][ -]?){12,15}[0-9]`,                                            // card number
	`[0-9]{3}-[0-9]{2}-[0-9]{4}`,                                            // US SSN
	`(?:[+]?[0-9]{1,3}[ .-]?)?[(]?[0-9]{3}[)]?[ .-]?[0-9]{3}[ .-]?[0-9]{4}`, // phone
}

func newShapeonly(tb testing.TB) processor.Traces {
	p, _ := newObservedShapeonly(tb)
	return p
}

// newObservedShapeonly is newShapeonly with its telemetry readable.
func newObservedShapeonly(tb testing.TB) (processor.Traces, *componenttest.Telemetry) {
	f := shapeonly.NewFactory()
	return startObserved(tb, f, config(tb, f, map[string]any{"tools": map[string]any{customerTool: "customer"}}))
}

func newRedaction(tb testing.TB) processor.Traces {
	f := redactionprocessor.NewFactory()
	return start(tb, f, config(tb, f, map[string]any{"allow_all_keys": true, "blocked_values": piiPatterns}))
}

func newTransform(tb testing.TB) processor.Traces {
	f := transformprocessor.NewFactory()
	var statements []any
	for _, p := range piiPatterns {
		statements = append(statements, fmt.Sprintf(`replace_all_patterns(span.attributes, "value", %q, "[withheld]")`, p))
	}
	return start(tb, f, config(tb, f, map[string]any{
		"error_mode":       "ignore",
		"trace_statements": []any{map[string]any{"context": "span", "statements": statements}},
	}))
}

// config decodes settings over the factory's defaults as the collector does, and validates them.
func config(tb testing.TB, f processor.Factory, settings map[string]any) component.Config {
	tb.Helper()
	cfg := f.CreateDefaultConfig()
	require.NoError(tb, confmap.NewFromStringMap(settings).Unmarshal(cfg))
	require.NoError(tb, cfg.(interface{ Validate() error }).Validate())
	return cfg
}

func start(tb testing.TB, f processor.Factory, cfg component.Config) processor.Traces {
	p, _ := startObserved(tb, f, cfg)
	return p
}

// startObserved creates and starts a processor as a collector does, with the OpenTelemetry SDK behind
// its telemetry: a collector's processors record their metrics into one, and a no-op meter would leave
// that cost out. It returns the telemetry, to read what the processor recorded.
func startObserved(tb testing.TB, f processor.Factory, cfg component.Config) (processor.Traces, *componenttest.Telemetry) {
	tb.Helper()
	tel := componenttest.NewTelemetry()
	tb.Cleanup(func() { require.NoError(tb, tel.Shutdown(context.Background())) })
	set := processortest.NewNopSettings(f.Type())
	set.ID = component.NewIDWithName(f.Type(), "bench")
	set.TelemetrySettings = tel.NewTelemetrySettings()
	p, err := f.CreateTraces(context.Background(), set, cfg, consumertest.NewNop())
	require.NoError(tb, err)
	require.NoError(tb, p.Start(context.Background(), componenttest.NewNopHost()))
	tb.Cleanup(func() { require.NoError(tb, p.Shutdown(context.Background())) })
	return p, tel
}

func processed(tb testing.TB, p processor.Traces) ptrace.Traces {
	return processedOf(tb, p, theBatch())
}

func processedOf(tb testing.TB, p processor.Traces, b costBatch) ptrace.Traces {
	td := ptrace.NewTraces()
	b.traces.CopyTo(td)
	require.NoError(tb, p.ConsumeTraces(context.Background(), td))
	return td
}

// survivors are the customer values still whole in td, as they are or JSON-escaped once or twice.
// (Fragments and every other encoding are the leak tests' job; this checks the comparison is fair.)
func survivors(td ptrace.Traces, values []string) []string {
	var text strings.Builder
	for _, v := range leakcheck.SpanValues("", td) {
		text.WriteString(v.AsString())
		text.WriteByte(0)
	}
	all := text.String()
	var found []string
	for _, v := range values {
		for _, form := range leakcheck.Forms(v, 2) {
			if strings.Contains(all, form) {
				found = append(found, v)
				break
			}
		}
	}
	return found
}

// TestCostBatch checks the batch is the one the figures describe, and that what is compared does the
// job: shapeonly leaves no customer value; the PII regexes hide what they describe (emails, phones,
// card and tax numbers) and leave names, notes and streets. shapeonly leaves none of the long-run
// batch's either.
func TestCostBatch(t *testing.T) {
	b := theBatch()
	count := map[string]int{}
	for _, s := range b.traces.ResourceSpans().At(0).ScopeSpans().At(0).Spans().All() {
		op, _ := s.Attributes().Get("gen_ai.operation.name")
		count[op.Str()]++
	}
	require.Equal(t, map[string]int{"execute_tool": 100, "chat": 100, "": 100}, count)
	require.InDelta(t, 862_000, b.jsonBytes, 50_000, "JSON bytes in the batch")

	require.Len(t, survivors(b.traces, b.secrets), len(b.secrets), "the input holds every customer value")
	if left := survivors(processed(t, newShapeonly(t)), b.secrets); len(left) > 0 {
		t.Fatalf("shapeonly leaves %d of %d customer values, e.g. %q", len(left), len(b.secrets), left[0])
	}
	for _, redact := range []func(testing.TB) processor.Traces{newRedaction, newTransform} {
		left := survivors(processed(t, redact(t)), b.secrets)
		require.Subset(t, left, b.regexFree, "no PII regex describes names, notes or streets")
		require.Less(t, len(left), len(b.secrets), "the PII regexes hide nothing: the comparison is off")
	}

	long := theLongBatch()
	require.Equal(t, b.traces.SpanCount(), long.traces.SpanCount(), "the long-run batch has as many spans")
	require.Greater(t, long.jsonBytes, 2*b.jsonBytes, "and longer transcripts")
	if left := survivors(processedOf(t, newShapeonly(t), long), long.secrets); len(left) > 0 {
		t.Fatalf("shapeonly leaves %d of %d customer values of the long runs, e.g. %q", len(left), len(long.secrets), left[0])
	}
}

// BenchmarkCost puts the batch through each contender, in the same run. Bytes are the batch's JSON,
// so MB/s compare the passes over it; ns/span is per span of the batch. A contender that changes
// the batch gets a fresh copy per iteration, made with the timer stopped; its allocations are left
// out of B/span and allocs/span.
func BenchmarkCost(b *testing.B) { benchmarkCost(b, theBatch(), true) }

// BenchmarkCostLongRuns is BenchmarkCost on the same 300 spans written by 5 runs of 20 rounds, as an agent
// that calls its tool again and again writes them: each transcript is longer, and repeats more of the
// run's results. The regex processors, whose cost per byte the short runs show, are left out.
func BenchmarkCostLongRuns(b *testing.B) { benchmarkCost(b, theLongBatch(), false) }

func benchmarkCost(b *testing.B, data costBatch, regexes bool) {
	ctx := context.Background()
	walkSink := 0
	for _, c := range []struct {
		name    string
		consume func(b *testing.B) func(ptrace.Traces)
		// changes: the contender rewrites the batch, so each iteration needs a fresh copy.
		changes bool
	}{
		// The floor: visit every attribute value of every span and read its length.
		{"attribute-walk", func(*testing.B) func(ptrace.Traces) {
			return func(td ptrace.Traces) {
				for _, s := range td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().All() {
					for _, v := range s.Attributes().All() {
						walkSink += len(v.Str())
					}
				}
			}
		}, false},
		// A tokenizer pass: every token of every JSON value, read and validated, nothing written.
		{"jsontext-tokens", func(b *testing.B) func(ptrace.Traces) {
			r := strings.NewReader("")
			dec := jsontext.NewDecoder(r)
			return func(ptrace.Traces) {
				for _, s := range data.jsonValues {
					r.Reset(s)
					dec.Reset(r)
					for {
						if _, err := dec.ReadToken(); err == io.EOF {
							break
						} else if err != nil {
							b.Fatal(err)
						}
					}
				}
			}
		}, false},
		// What a processor that decodes and re-encodes each value would pay.
		{"encoding-json-roundtrip", func(b *testing.B) func(ptrace.Traces) {
			return func(ptrace.Traces) {
				for _, s := range data.jsonValues {
					var v any
					if err := json.Unmarshal([]byte(s), &v); err != nil {
						b.Fatal(err)
					}
					if _, err := json.Marshal(v); err != nil {
						b.Fatal(err)
					}
				}
			}
		}, false},
		{"shapeonly", shapeonlyFull(ctx, data), true},
		{"redaction-pii", processorPass(ctx, newRedaction), true},
		{"transform-ottl", processorPass(ctx, newTransform), true},
	} {
		if !regexes && (c.name == "redaction-pii" || c.name == "transform-ottl") {
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			perSpan(b, data, c.consume(b), c.changes)
		})
	}
}

func processorPass(ctx context.Context, create func(testing.TB) processor.Traces) func(*testing.B) func(ptrace.Traces) {
	return func(b *testing.B) func(ptrace.Traces) {
		p := create(b)
		return func(td ptrace.Traces) {
			if err := p.ConsumeTraces(ctx, td); err != nil {
				b.Error(err) // not Fatal: BenchmarkMix calls this on a goroutine of its own
			}
		}
	}
}

// shapeonlyFull is processorPass for shapeonly with its memory full, as it is in a collector that has
// run for a while: before the timed batches, fresh batches go through it until it forgets traces to
// stay within max_fingerprints (about 170 of them with the defaults). From empty, the memory fills
// with a few hundred megabytes of fingerprints, and while it does the process's heap grows: timed from
// empty, the figure would depend on how many batches the run times (docs/benchmarks-log.md).
func shapeonlyFull(ctx context.Context, data costBatch) func(*testing.B) func(ptrace.Traces) {
	return func(b *testing.B) func(ptrace.Traces) {
		p, tel := newObservedShapeonly(b)
		consume := func(td ptrace.Traces) {
			if err := p.ConsumeTraces(ctx, td); err != nil {
				b.Fatal(err)
			}
		}
		const maxFill, checkEvery = 1000, 10
		for i := 0; i%checkEvery != 0 || !forgotForFingerprints(b, tel); i++ {
			if i == maxFill {
				b.Fatalf("shapeonly's memory is not full after %d batches", maxFill)
			}
			td := ptrace.NewTraces()
			data.traces.CopyTo(td)
			freshTraces(td, fillIterations+uint64(i))
			consume(td)
		}
		return consume
	}
}

// fillIterations offsets the iterations that fill a memory, so that their trace ids are none of the
// timed iterations'.
const fillIterations = 1 << 40

// forgotForFingerprints reports whether shapeonly has forgotten anything to stay within
// max_fingerprints.
func forgotForFingerprints(b *testing.B, tel *componenttest.Telemetry) bool {
	m, err := tel.GetMetric("otelcol_processor_shapeonly_memory_evicted")
	if err != nil {
		return false // nothing forgotten yet: the counter has no data point
	}
	sum, ok := m.Data.(metricdata.Sum[int64])
	if !ok {
		b.Fatalf("otelcol_processor_shapeonly_memory_evicted is a %T", m.Data)
	}
	for _, dp := range sum.DataPoints {
		if reason, _ := dp.Attributes.Value("reason"); reason.AsString() == "fingerprints" && dp.Value > 0 {
			return true
		}
	}
	return false
}

// perSpan runs consume over the batch b.N times. A contender that changes the batch gets a fresh copy
// each time; one that only reads it reads the same one, so the benchmark does not spend minutes
// copying for a pass that takes microseconds.
func perSpan(b *testing.B, data costBatch, consume func(ptrace.Traces), changes bool) {
	spans := data.traces.SpanCount()
	var before, after runtime.MemStats
	var mallocs, bytes uint64
	b.SetBytes(int64(data.jsonBytes))
	b.ResetTimer()
	b.StopTimer()
	for i := range b.N {
		td := data.traces
		if changes {
			td = ptrace.NewTraces()
			data.traces.CopyTo(td)
			freshTraces(td, uint64(i))
		}
		runtime.ReadMemStats(&before)
		b.StartTimer()
		consume(td)
		b.StopTimer()
		runtime.ReadMemStats(&after)
		mallocs += after.Mallocs - before.Mallocs
		bytes += after.TotalAlloc - before.TotalAlloc
	}
	n := float64(b.N) * float64(spans)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/span")
	b.ReportMetric(float64(bytes)/n, "B/span")
	b.ReportMetric(float64(mallocs)/n, "allocs/span")
}

// freshTraces gives every span of td a trace id of its own for iteration i, keeping which spans share
// one: each iteration is new runs, as every batch a collector receives is. A processor that remembers
// traces would otherwise meet the same ones again and again, which flatters it.
func freshTraces(td ptrace.Traces, i uint64) {
	for _, s := range walk.Spans(td) {
		id := s.TraceID()
		binary.BigEndian.PutUint64(id[8:], binary.BigEndian.Uint64(id[8:])^(i+1))
		s.SetTraceID(id)
	}
}
