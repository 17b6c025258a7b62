// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package ackstream

import (
	"cmp"
	"slices"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/walk"
)

// Crossing is a stream whose runs cross its middle: the first half of each split run's spans, then
// whole runs (the filler), then the second halves. A split run's spans go one a request, in the order
// its spans end (the order an SDK's batch span processor exports them), the split runs interleaved;
// so a collector restarted during the filler judges each split run's second half on the state the
// first half left, or on none.
type Crossing struct {
	*Stream
	FirstHalves int // the stream's first requests: the split runs' first halves
	Filler      int // the whole runs that follow them, before the second halves
}

// NewCrossing lays out split runs of agentgen's mix split in two around filler whole runs, from seed.
func NewCrossing(split, filler int, seed uint64) *Crossing {
	runs := agentgen.Mix(split+filler, agentgen.Options{Seed: seed})
	halves := make([][2][]ptrace.Traces, split)
	for i, r := range runs[:split] {
		steps := SpanRequests(r.Traces)
		halves[i] = [2][]ptrace.Traces{steps[:len(steps)/2], steps[len(steps)/2:]}
	}
	c := &Crossing{Stream: &Stream{answered: NewProgress()}}
	interleave := func(half int) {
		for j := 0; ; j++ {
			added := false
			for _, h := range halves {
				if j < len(h[half]) {
					c.add(h[half][j])
					added = true
				}
			}
			if !added {
				return
			}
		}
	}
	interleave(0)
	c.FirstHalves = len(c.requests)
	for _, r := range runs[split:] {
		c.add(r.Traces)
	}
	c.Filler = filler
	interleave(1)
	return c
}

// SpanRequests splits td into one batch a span, with its resource and scope, in the order the spans end.
func SpanRequests(td ptrace.Traces) []ptrace.Traces {
	type ended struct {
		where walk.Where
		span  ptrace.Span
	}
	var spans []ended
	for where, span := range walk.Spans(td) {
		spans = append(spans, ended{where, span})
	}
	slices.SortStableFunc(spans, func(a, b ended) int { return cmp.Compare(a.span.EndTimestamp(), b.span.EndTimestamp()) })
	out := make([]ptrace.Traces, len(spans))
	for i, e := range spans {
		out[i] = ptrace.NewTraces()
		rs := out[i].ResourceSpans().AppendEmpty()
		e.where.Resource.CopyTo(rs.Resource())
		ss := rs.ScopeSpans().AppendEmpty()
		e.where.Scope.CopyTo(ss.Scope())
		e.span.CopyTo(ss.Spans().AppendEmpty())
	}
	return out
}
