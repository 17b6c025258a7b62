// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/processor/processortest"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/sharedcomponent"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/metadata"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/withhold"
)

// The value paths of a data-class span and of a transcript, per value size. The batch comparisons
// (shapeonly against a tokenizer pass, an encoding/json round trip and contrib's redaction and
// transform processors) are in test/bench, so this module does not require those processors;
// docs/benchmarks.md has the figures and the commands.

// valueDoc builds a JSON object of customer records of at least size bytes. Records are objects under
// their own keys, not array elements, so the shaped output grows with the input: an array would be
// withheld as one "[N withheld]" and hide any growth in what the shaper writes.
func valueDoc(size int) string {
	var sb strings.Builder
	sb.WriteString(`{"status":"ok","customers":{`)
	for i := 0; sb.Len() < size-2; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `"cus_%06d":{"name":"Ada Lovelace %d","email":"ada%d@example.com","plan":"annual","balance":%d.5,"vip":true,"notes":"prefers contact after 5pm; asked about the invoice"}`, i, i, i, i)
	}
	sb.WriteString(`}}`)
	return sb.String()
}

var valueSizes = []struct {
	name string
	size int
}{{"1KiB", 1 << 10}, {"16KiB", 16 << 10}, {"256KiB", 256 << 10}}

// BenchmarkShapeValue is the processor's value path for one attribute of a data-class span: the
// batch's valueShaper, which shapes with countsonly into the batch's reused buffer, remembers what it
// withholds in the trace's fingerprints, and writes the shaped string back. Allocations per op must not
// grow with the value.
func BenchmarkShapeValue(b *testing.B) {
	p := newBenchProcessor(b)
	for _, vs := range valueSizes {
		b.Run(vs.name, func(b *testing.B) {
			doc := valueDoc(vs.size)
			bt, owner := oneTraceBatch(p)
			v := pcommon.NewValueStr(doc)
			if bt.values.shapeAttr("gen_ai.tool.call.result", v, owner, withhold.RememberAll); bt.values.failed > 0 || !strings.Contains(v.Str(), `"name":"[withheld]"`) {
				b.Fatalf("not shaped: %.200s", v.Str())
			}
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				v.SetStr(doc)
				bt.values.shapeAttr("gen_ai.tool.call.result", v, owner, withhold.RememberAll)
				bt.values.forget() // each op is a batch: what one shaped, the next shapes again
			}
		})
	}
}

// BenchmarkWithholdTranscript is the value path for a model span: a GenAI transcript whose one
// customer result is of the given size, through the batch's withhold.Withholder with the processor's
// own policy and shaper. Each op first puts the original transcript back (one SetStr, as the
// processor's own SetStr of the result costs).
func BenchmarkWithholdTranscript(b *testing.B) {
	p := newBenchProcessor(b)
	for _, vs := range valueSizes {
		b.Run(vs.name, func(b *testing.B) {
			result := valueDoc(vs.size)
			transcript := `[{"role":"user","parts":[{"type":"text","content":"Refund Lovelace."}]},` +
				`{"role":"assistant","parts":[{"type":"tool_call","id":"call_7","name":"find_customer","arguments":{"query":"Lovelace"}}]},` +
				`{"role":"tool","parts":[{"type":"tool_call_response","id":"call_7","response":` + result + `}]}]`
			attrs := pcommon.NewMap()
			attrs.PutStr("gen_ai.input.messages", transcript)
			v, _ := attrs.Get("gen_ai.input.messages")
			bt, owner := oneTraceBatch(p)
			withhold := func() {
				bt.w.Reset()
				bt.w.Add(owner, agentspan.Span{Attrs: attrs}, bt.noBody)
				bt.w.Resolve(bt)
				bt.w.Apply(&bt.values)
				bt.values.forget() // each op is a batch: what one shaped, the next shapes again
			}
			if withhold(); strings.Contains(v.Str(), "Ada Lovelace") {
				b.Fatalf("not withheld: %.300s", v.Str())
			}
			b.SetBytes(int64(len(transcript)))
			b.ReportAllocs()
			for b.Loop() {
				v.SetStr(transcript)
				withhold()
			}
		})
	}
}

func newBenchProcessor(b *testing.B) *shapeOnly {
	cfg := createDefaultConfig()
	byName(cfg)
	set := processortest.NewNopSettings(metadata.Type)
	set.ID = component.NewIDWithName(metadata.Type, "bench")
	p, err := newShapeOnly(set, cfg, sharedcomponent.NewMap[*Config, *memory]())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = p.shutdown(context.Background()) })
	return p
}

// oneTraceBatch is a batch of the processor with one owner, a trace.
func oneTraceBatch(p *shapeOnly) (*batch, agentspan.Owner) {
	bt := newBatch(p)
	bt.start(time.Now())
	return bt, bt.ownerOf(pcommon.TraceID{1, 2, 3}, "", false)
}

// BenchmarkNameSearch is the search a trace that names no data-class tool is checked with (walked.go),
// over every string attribute of 200 of agentgen's mixed runs, each searched whole for find_customer (a
// transcript is not passed over where it repeats the one before it, as in a batch). found/op counts the
// strings that may name it: the support runs' calls, and any escape.
func BenchmarkNameSearch(b *testing.B) {
	var texts [][]byte
	size := 0
	for _, run := range agentgen.Mix(200, agentgen.Options{Seed: 3}) {
		for _, span := range walk.Spans(run.Traces) {
			span.Attributes().Range(func(_ string, v pcommon.Value) bool {
				if v.Type() == pcommon.ValueTypeStr {
					texts = append(texts, []byte(v.Str()))
					size += len(v.Str())
				}
				return true
			})
		}
	}
	var n nameSearch
	n.reset([]string{customerTool})
	b.SetBytes(int64(size))
	found := 0
	for b.Loop() {
		found = 0
		for _, text := range texts {
			if n.text(text) {
				found++
			}
		}
	}
	b.ReportMetric(float64(found), "found/op")
}
