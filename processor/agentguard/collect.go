// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"slices"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
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
	key runKey
	// state is the key of the run's state, key.String(), built once.
	state   string
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
	// late: the run's root span ended it before this batch (peek). idles: the run is keyed by its
	// convention's run key, and no root span ends it.
	late, idles bool
	// Resolved under the lock: the counters of the agent's metric label, the run's name, and, when the
	// root span ended the run, its account.
	counters *agentCounters
	name     string
	ended    bool
	summary  progress.Summary
}

// eventKind is what an event is.
type eventKind uint8

const (
	eventTool    eventKind = iota // a tool call
	eventModel                    // a model call, with its request
	eventRequest                  // a model call's request alone: its per-message log records
)

// event is a tool call, a model call or a request of the run, in start order.
type event struct {
	carrier
	kind  eventKind
	start pcommon.Timestamp
	// id is the identity by which another sighting of the same call is known (internal/ledger): a
	// tool call's call id, else its span; a model call's span. Zero: none.
	id uint64
	// The request's latest round, read where the run needs it: its steps are buffers.rounds[from:to].
	// request: the event carries a request (known where the run asked: guard.request).
	from, to int32
	request  bool
	// records are a request event's per-message log records: buffers.records[first:first+n].
	firstRecord, nRecords int32
	// skip: another sighting of a call already judged; pend: held until its result is read.
	skip, pend bool
	tool       string
	calls      []series // the tool-call counters of the run's agent and this tool
	step       progress.Step
	verdict    progress.Verdict
	call       progress.ModelCall
	judgment   progress.ModelVerdict
}

// roundStep is a step read from a request's latest round.
type roundStep struct {
	id     uint64
	callID string
	// record is which record of a request event carried it (its annotations go there).
	record  int32
	step    progress.Step
	judged  bool
	verdict progress.Verdict
	calls   []series
}

// seen is a span or record the first pass kept: a recognised agent span or record, a root, or the
// first per-message record of a request.
type seen struct {
	carrier
	trace   pcommon.TraceID
	res     pcommon.Map
	service string
	view    agentspan.View
	root    bool
	kind    eventKind
	// attr is the run attribute the span or record itself carries; idles: it is its convention's run
	// key, and the run ends by idling (agentspan.Convention.RunKey).
	attr  string
	idles bool
	// choice: a record carrying a model's reply (gen_ai.choice).
	choice bool
	// request: a request event's records, buffers.records[firstRecord:firstRecord+nRecords].
	firstRecord, nRecords int32
	run                   *runBatch
}

// buffers are one batch's reusable slices: the spans and records the first pass kept, and every
// run's events, cut from one array (appended run by run, each 480-byte event would be copied as the
// slices grow).
type buffers struct {
	seen   []seen
	events []event
	// fingerprints holds the units and items of the batch's steps.
	fingerprints []uint64
	rounds       []roundStep
	records      []plog.LogRecord
	reader       *agentspan.RequestReader
	// given are steps the ledger gave up, judged unread; waiting is the one it hands back.
	given   []progress.Step
	waiting progress.Step
}

// release drops the batch's spans, so a pooled buffer does not keep a past batch alive, and an arena
// that one huge batch grew.
func (b *buffers) release() {
	clear(b.seen)
	clear(b.events)
	clear(b.rounds)
	clear(b.records)
	clear(b.given)
	b.seen, b.events, b.rounds, b.records, b.given = b.seen[:0], b.events[:0], b.rounds[:0], b.records[:0], b.given[:0]
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
	var resources resourceReader
	for where, span := range walk.Spans(td) {
		res, service := resources.read(where.Resource)
		root := span.ParentSpanID().IsEmpty()
		v := g.registry.Recognize(agentspan.Span{Scope: where.Scope.Name(), Name: span.Name(), Attrs: span.Attributes(), Root: root})
		// A root span ends its trace's run, and may name its agent; a convention whose traces do not
		// each hold a run (its run key) has no root that ends one.
		if v.Role == agentspan.RoleOther && (!root || v.Convention != nil && len(v.Convention.RunKey) > 0) {
			continue
		}
		spans = append(spans, seen{carrier: spanCarrier(span), trace: span.TraceID(), res: res, service: service, view: v, root: root, kind: kindOf(v.Role)})
		if attr, byConvention := g.runAttr(span.Attributes(), res, v); attr != "" {
			spans[len(spans)-1].attr, spans[len(spans)-1].idles = attr, byConvention
			if traceRuns == nil {
				traceRuns = map[pcommon.TraceID]string{}
			}
			traceRuns[span.TraceID()] = attr
		}
	}
	buf.seen = spans
	return g.group(buf, traceRuns)
}

// kindOf is the event a span or record of role makes, for the span walk and the record walk alike: a
// model call, a model call's request, or else a tool call.
func kindOf(role agentspan.Role) eventKind {
	switch role {
	case agentspan.RoleModel:
		return eventModel
	case agentspan.RoleRequest:
		return eventRequest
	}
	return eventTool
}

// resourceReader reads the resource a walk is in. A resource's spans, or its log records, come one
// after another, so its attributes and service name are read once, when the walk reaches its first.
type resourceReader struct {
	resource pcommon.Resource
	attrs    pcommon.Map
	service  string
}

// read returns the attributes and the service name of r, the resource of the span or record at hand.
func (rr *resourceReader) read(r pcommon.Resource) (pcommon.Map, string) {
	if r != rr.resource {
		rr.enter(r)
	}
	return rr.attrs, rr.service
}

// enter reads r, the resource the walk has just reached; kept apart from read so that read, called for
// every span and record, is inlined.
func (rr *resourceReader) enter(r pcommon.Resource) {
	rr.resource, rr.attrs, rr.service = r, r.Attributes(), serviceName(r)
}

func serviceName(r pcommon.Resource) string {
	if v, ok := r.Attributes().Get("service.name"); ok {
		return v.AsString()
	}
	return ""
}

// group sorts what the first pass kept into runs, and reads each event: a tool call's step, a model
// call's reply, and the latest round of a request where the run needs it.
func (g *guard) group(buf *buffers, traceRuns map[pcommon.TraceID]string) map[runKey]*runBatch {
	spans := buf.seen
	if len(spans) == 0 {
		return nil
	}
	keys := g.runKeys(spans, traceRuns)
	batch := map[runKey]*runBatch{}
	events := 0
	for i := range spans {
		s := &spans[i]
		key := runKey{trace: s.trace}
		if attr := keys[s.trace]; attr != "" {
			key = runKey{attr: attr}
		}
		if s.trace.IsEmpty() {
			key = runKey{attr: s.attr}
		}
		rb, ok := batch[key]
		if !ok {
			rb = &runBatch{key: key, state: key.String(), service: s.service, first: int64(s.start())}
			batch[key] = rb
		}
		rb.idles = rb.idles || s.idles && key.attr != ""
		s.run = rb
		v := s.view
		// Some SDKs name the agent only on the run's root span: any span of the run in the batch may
		// name it for all.
		if rb.agent == "" || v.Role == agentspan.RoleAgent && v.Agent != "" {
			rb.agent = firstNonEmpty(v.Agent, rb.agent)
		}
		if rb.id == "" {
			rb.id = firstNonEmpty(v.RunID, g.registry.RunIDOf(s.attrs()))
		}
		rb.first = min(rb.first, int64(s.start()))
		rb.last = max(rb.last, int64(s.end()))
		if v.Role == agentspan.RoleTool || v.Role == agentspan.RoleModel || s.kind == eventRequest {
			rb.nEvents++
			events++
		}
		if s.root && !s.isRecord && !rb.hasRoot {
			rb.root, rb.hasRoot = s.span, true
		}
	}
	g.peek(batch)
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
		s := &spans[i]
		switch {
		case s.kind == eventRequest:
			e := s.run.nextEvent(s.carrier, eventRequest)
			e.firstRecord, e.nRecords, e.request = s.firstRecord, s.nRecords, true
		case s.view.Role == agentspan.RoleTool:
			e := s.run.nextEvent(s.carrier, eventTool)
			e.tool = s.view.Tool
			g.stepOf(&e.step, s.carrier, s.view, scratch, &buf.fingerprints)
			e.id = g.callIdentity(s.view.CallID, s.carrier)
		case s.view.Role == agentspan.RoleModel:
			e := s.run.nextEvent(s.carrier, eventModel)
			if s.choice {
				e.call = modelCall(g.registry.ChoiceReply(s.attrs(), s.record.Body()), s.start())
			} else {
				e.call = g.modelCallOf(s.carrier, s.view)
			}
			e.call.Tokens = tokensOf(g.registry.Tokens(s.view, s.attrs()))
			e.id = identity(modelSalt, s.spanID())
		}
	}
	for _, rb := range batch {
		// A run's calls mostly arrive in order: checking costs less than sorting 480-byte events, and
		// reads their times in place (a comparison function takes two copies).
		if !inOrder(rb.events) {
			slices.SortStableFunc(rb.events, byStart)
		}
	}
	return batch
}

func byStart(a, b event) int { return cmp.Compare(a.start, b.start) }

func inOrder(events []event) bool {
	for i := 1; i < len(events); i++ {
		if events[i].start < events[i-1].start {
			return false
		}
	}
	return true
}

// nextEvent is the run's next event, filled in place: it has room for all of them (collect), and an
// event built first and then appended would take its 480 bytes on the stack twice more, under the
// deepest calls of the pipeline (docs/benchmarks-log.md, "Stack growth").
func (rb *runBatch) nextEvent(c carrier, kind eventKind) *event {
	rb.events = rb.events[:len(rb.events)+1]
	e := &rb.events[len(rb.events)-1]
	*e = event{}
	e.carrier, e.kind, e.start = c, kind, c.start()
	return e
}

// Identities are salted by what they name, so a call id and a span id never meet.
const (
	callSalt  = 0x9e3779b97f4a7c15
	spanSalt  = 0xc2b2ae3d27d4eb4f
	modelSalt = 0x165667b19e3779f9
	roundSalt = 0x27d4eb2f165667c5
)

// callIdentity is a tool call's identity: its call id, else its span's.
func (g *guard) callIdentity(callID string, c carrier) uint64 {
	if callID != "" {
		return hashString(callSalt, callID)
	}
	if c.isRecord {
		return 0
	}
	return identity(spanSalt, c.spanID())
}

// identity is a span's identity, salted; zero for no span.
func identity(salt uint64, id pcommon.SpanID) uint64 {
	if id.IsEmpty() {
		return 0
	}
	return binary.LittleEndian.Uint64(id[:])*0x100000001b3 ^ salt
}

// hashString is FNV-1a of s, salted.
func hashString(salt uint64, s string) uint64 {
	h := uint64(14695981039346656037) ^ salt
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// runAttr is the run a span or record names beyond its trace (agentspan.RunKeyOf).
func (g *guard) runAttr(attrs, res pcommon.Map, v agentspan.View) (attr string, byConvention bool) {
	return agentspan.RunKeyOf(g.cfg.RunAttributes, v, attrs, res)
}

// runKeys finds each trace's run attribute (a configured run attribute, or its convention's run key):
// the one a span or record of the trace carries in this batch, or carried before. A trace without one
// is its own run (keyed by its trace id).
func (g *guard) runKeys(spans []seen, traceRuns map[pcommon.TraceID]string) map[pcommon.TraceID]string {
	if len(g.cfg.RunAttributes) == 0 && len(traceRuns) == 0 {
		return nil
	}
	keys := map[pcommon.TraceID]string{}
	now := g.now()
	g.runs.update(func(r *runs) {
		for _, s := range spans {
			if s.trace.IsEmpty() {
				continue
			}
			if _, done := keys[s.trace]; !done {
				keys[s.trace] = r.traceRun(s.trace[:], traceRuns[s.trace], now)
			}
		}
	})
	return keys
}

// peek finds the runs of the batch that their root span ended already: only a logs pipeline brings
// their records after it.
func (g *guard) peek(batch map[runKey]*runBatch) {
	if !g.logs.Load() {
		return
	}
	now := g.now()
	g.runs.update(func(r *runs) {
		for _, rb := range batch {
			rb.late = r.hasEnded(rb.state, now)
		}
	})
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
