// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"cmp"
	"encoding/hex"
	"slices"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/digest"
	"github.com/agentotel/agentotel/internal/progress"
	"github.com/agentotel/agentotel/internal/walk"
)

// runKey identifies a run within a batch without allocating: its trace, or the value of its run
// attribute.
type runKey struct {
	trace pcommon.TraceID
	attr  string
}

// String is the key of the run's state; it is built once per run and batch. A run keyed by attribute
// spans traces: its trace is not part of its key.
func (k runKey) String() string {
	if k.attr != "" {
		return "a:" + k.attr
	}
	return "t:" + string(k.trace[:])
}

// runBatch is one run's part of a batch.
type runBatch struct {
	key     runKey
	agent   string // from any span of the run in this batch
	service string // the fallback agent name
	id      string // the run or session id a span of the run in this batch named
	// root is the run's root span when it is in this batch: it ends the run (unless runs are keyed by
	// attribute, and span several traces).
	root        ptrace.Span
	hasRoot     bool
	first, last int64 // earliest start and latest end of the run's spans in the batch (UnixNano)
	events      []event
	nEvents     int // the run's tool and model calls in the batch, counted before they are read
	// Resolved under the lock: the counters of the agent's metric label, the run's name, and, when the
	// root span ended the run, its account.
	counters *agentCounters
	name     string
	ended    bool
	summary  progress.Summary
}

// event is a tool call or a model call of the run, in start order.
type event struct {
	span ptrace.Span
	// model: a model call; otherwise a tool step.
	model    bool
	tool     string
	calls    []series // the tool-call counters of the run's agent and this tool
	step     progress.Step
	verdict  progress.Verdict
	call     progress.ModelCall
	judgment progress.ModelVerdict
}

// seen is a span the first pass kept: a recognised agent span, or a root.
type seen struct {
	span    ptrace.Span
	res     pcommon.Map
	service string
	view    agentspan.View
	root    bool
	run     *runBatch
}

// buffers are one batch's reusable slices: the spans the first pass kept, and every run's events,
// cut from one array (appended run by run, each 300-byte event would be copied as the slices grow).
type buffers struct {
	seen   []seen
	events []event
	// fingerprints holds the units and items of the batch's steps.
	fingerprints []uint64
}

// release drops the batch's spans, so a pooled buffer does not keep a past batch alive, and an arena
// that one huge batch grew.
func (b *buffers) release() {
	clear(b.seen)
	clear(b.events)
	b.seen, b.events = b.seen[:0], b.events[:0]
	b.fingerprints = b.fingerprints[:0]
	if cap(b.fingerprints) > 1<<17 {
		b.fingerprints = nil
	}
}

// collect groups the batch's agent spans by run, with their steps and model calls already read, in
// start order. A run keyed by attribute is found through any span of its trace: GenAI and ADK tool
// spans carry no session id, their agent and model spans do.
func (g *guard) collect(td ptrace.Traces, buf *buffers) map[runKey]*runBatch {
	spans := buf.seen[:0]
	var traceRuns map[pcommon.TraceID]string
	// A resource's spans come one after another: its service name is read once, when the walk
	// reaches its first span.
	var (
		resource pcommon.Resource
		res      pcommon.Map
		service  string
	)
	for where, span := range walk.Spans(td) {
		if where.Resource != resource {
			resource, res, service = where.Resource, where.Resource.Attributes(), ""
			if v, ok := res.Get("service.name"); ok {
				service = v.AsString()
			}
		}
		root := span.ParentSpanID().IsEmpty()
		v := g.registry.Recognize(agentspan.Span{Scope: where.Scope.Name(), Name: span.Name(), Attrs: span.Attributes(), Root: root})
		if v.Role == agentspan.RoleOther && !root {
			continue
		}
		spans = append(spans, seen{span: span, res: res, service: service, view: v, root: root})
		if attr := g.runAttr(span.Attributes(), res); attr != "" {
			if traceRuns == nil {
				traceRuns = map[pcommon.TraceID]string{}
			}
			traceRuns[span.TraceID()] = attr
		}
	}
	buf.seen = spans
	if len(spans) == 0 {
		return nil
	}
	keys := g.runKeys(spans, traceRuns)
	batch := map[runKey]*runBatch{}
	events := 0
	for i := range spans {
		s := &spans[i]
		key := runKey{trace: s.span.TraceID()}
		if attr := keys[s.span.TraceID()]; attr != "" {
			key = runKey{attr: attr}
		}
		rb, ok := batch[key]
		if !ok {
			rb = &runBatch{key: key, service: s.service, first: int64(s.span.StartTimestamp())}
			batch[key] = rb
		}
		s.run = rb
		v := s.view
		// Some SDKs name the agent only on the run's root span: any span of the run in the batch may
		// name it for all.
		if rb.agent == "" || v.Role == agentspan.RoleAgent && v.Agent != "" {
			rb.agent = firstNonEmpty(v.Agent, rb.agent)
		}
		if rb.id == "" {
			rb.id = firstNonEmpty(v.RunID, g.registry.RunIDOf(s.span.Attributes()))
		}
		rb.first = min(rb.first, int64(s.span.StartTimestamp()))
		rb.last = max(rb.last, int64(s.span.EndTimestamp()))
		if v.Role == agentspan.RoleTool || v.Role == agentspan.RoleModel {
			rb.nEvents++
			events++
		}
		if s.root && !rb.hasRoot {
			rb.root, rb.hasRoot = s.span, true
		}
	}
	// Each run's events get their share of one array, so appending never copies.
	if cap(buf.events) < events {
		buf.events = make([]event, 0, events)
	}
	all := buf.events[:events]
	for _, rb := range batch {
		rb.events, all = all[:0:rb.nEvents], all[rb.nEvents:]
	}
	buf.events = buf.events[:events]
	scratch := g.scratch.Get().(*digest.Scratch)
	defer g.scratch.Put(scratch)
	for i := range spans {
		switch s := &spans[i]; s.view.Role {
		case agentspan.RoleTool:
			e := s.run.nextEvent(s.span)
			e.tool, e.step = s.view.Tool, g.stepOf(s.span, s.view, scratch, &buf.fingerprints)
		case agentspan.RoleModel:
			e := s.run.nextEvent(s.span)
			e.model, e.call = true, g.modelCallOf(s.span, s.view)
		}
	}
	for _, rb := range batch {
		// A run's calls mostly arrive in order: checking costs less than sorting 300-byte events.
		if !slices.IsSortedFunc(rb.events, byStart) {
			slices.SortStableFunc(rb.events, byStart)
		}
	}
	return batch
}

func byStart(a, b event) int { return cmp.Compare(a.span.StartTimestamp(), b.span.StartTimestamp()) }

// nextEvent is the run's next event, filled in place: it has room for all of them (collect), and an
// event built first and then appended would take its 300 bytes on the stack twice more, under the
// deepest calls of the pipeline (docs/benchmarks-log.md, "Stack growth").
func (rb *runBatch) nextEvent(span ptrace.Span) *event {
	rb.events = rb.events[:len(rb.events)+1]
	e := &rb.events[len(rb.events)-1]
	*e = event{span: span}
	return e
}

// runAttr is the first configured run attribute on the span or its resource.
func (g *guard) runAttr(attrs, res pcommon.Map) string {
	for _, key := range g.cfg.RunAttributes {
		for _, m := range [2]pcommon.Map{attrs, res} {
			if v, ok := m.Get(key); ok && v.AsString() != "" {
				return v.AsString()
			}
		}
	}
	return ""
}

// runKeys finds each trace's run attribute: the one a span of the trace carries in this batch, or
// carried before. A trace without one is its own run (keyed by its trace id).
func (g *guard) runKeys(spans []seen, traceRuns map[pcommon.TraceID]string) map[pcommon.TraceID]string {
	if len(g.cfg.RunAttributes) == 0 {
		return nil
	}
	keys := map[pcommon.TraceID]string{}
	now := g.now()
	g.runs.mu.Lock()
	defer g.runs.mu.Unlock()
	for _, s := range spans {
		trace := s.span.TraceID()
		if _, done := keys[trace]; !done {
			keys[trace] = g.runs.traceRun(trace[:], traceRuns[trace], now)
		}
	}
	return keys
}

// runName is what annotations call a run: its run attribute, a run or session id one of its spans
// named, or its trace id.
func runName(key runKey, id string) string {
	switch {
	case key.attr != "":
		return key.attr
	case id != "":
		return id
	}
	return hex.EncodeToString(key.trace[:])
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
