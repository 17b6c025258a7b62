// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/fingerprint"
	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/toolname"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/internal/zerocopy"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/withhold"
)

// batch is the work on one batch, in four steps: read every record (which are tool calls, of which
// trace and run), decide which are data-class and resolve the transcripts against that, shape, and
// search what is left for what was withheld. Reading the whole batch first lets a tool span later in
// the batch class a call an earlier model span showed.
type batch struct {
	p       *shapeOnly
	now     time.Time
	w       *withhold.Withholder
	values  valueShaper
	content contentSearch

	records []record
	owners  []owner
	// byTrace finds a record's owner; bySpan a span's record, for wrapper classes.
	byTrace map[pcommon.TraceID]agentspan.Owner
	bySpan  map[spanKey]int32
	// toolClass is whether a tool name, as a transcript spells it, is data-class, once asked.
	toolClass map[string]bool
	noBody    pcommon.Value
	// locked are the scopes held for reading while the batch is searched.
	locked []*scope
	// toRead are the records decide reads; nameSearch looks for the data-class tool names in them;
	// logs: the batch is log records.
	toRead     []int32
	nameSearch nameSearch
	// naming reads values for the data-class tools they name (naming.go).
	naming *toolname.Reader
	logs   bool
}

// owner is a trace, its run, and the memory that goes with them.
type owner struct {
	traceID    pcommon.TraceID
	runID      string
	trace, run *scope
	// forgotten: the trace or its run carried data-class data the memory has forgotten.
	forgotten bool
	// sets are the fingerprint sets searched for its records; saturated: one of them is full.
	sets      []*fingerprint.Set
	saturated bool
	// walk: its records' values are walked for tool traffic (see walked.go).
	walk bool
}

type spanKey struct {
	trace pcommon.TraceID
	span  pcommon.SpanID
}

// record is one span or log record.
type record struct {
	attrs  pcommon.Map
	events ptrace.SpanEventSlice
	body   pcommon.Value
	scope  string
	name   string
	owner  agentspan.Owner
	parent spanKey
	tool   string
	callID string
	// argsKey and resultKey hold a tool call's arguments and result; unwrap, when set, opens the
	// convention's envelope around the result; conv is the convention that claimed the record, which
	// may say which of its events carry the call (agentspan.ToolEvent).
	argsKey, resultKey string
	unwrap             func([]byte, int) (agentspan.Envelope, bool)
	conv               *agentspan.Convention
	// isTool: a tool call; classed: it carries a shaped data class; dc: its data is withheld whole.
	isTool, classed, dc bool
	// namesTool: no convention claims it, and how its values name a data-class tool (naming.go).
	namesTool naming
	// wrec..wlast are its records in the withholder, its events' after its own (-1: not read there);
	// shaped: something in it was withheld.
	wrec, wlast int32
	shaped      bool
}

func newBatch(p *shapeOnly) *batch {
	b := &batch{
		p:         p,
		w:         withhold.New(p.registry, p.cfg.TaintOutputs),
		byTrace:   map[pcommon.TraceID]agentspan.Owner{},
		bySpan:    map[spanKey]int32{},
		toolClass: map[string]bool{},
		noBody:    pcommon.NewValueEmpty(),
		naming:    toolname.NewReader(p.shaped, p.cfg.MaxDepth),
	}
	b.content.p = p
	b.content.scanner.MaxDepth = p.cfg.MaxDepth
	b.values.b = b
	b.values.remembered = map[rememberedText]struct{}{}
	b.values.shaped = map[textKey]shapedValue{}
	b.values.shapedAt = map[zerocopy.At]shapedValue{}
	return b
}

func (b *batch) start(now time.Time) {
	b.now = now
	b.p.memory.begin(now)
	b.w.Reset()
	b.records, b.owners = b.records[:0], b.owners[:0]
	clear(b.byTrace)
	clear(b.bySpan)
	clear(b.toolClass)
	b.values.withheld, b.values.failed, b.content.matched = 0, 0, 0
}

func (b *batch) readSpans(td ptrace.Traces) {
	b.logs = false
	for where, span := range walk.Spans(td) {
		r := record{attrs: span.Attributes(), events: span.Events(), body: b.noBody, scope: where.Scope.Name(), name: span.Name(),
			parent: spanKey{span.TraceID(), span.ParentSpanID()}}
		b.bySpan[spanKey{span.TraceID(), span.SpanID()}] = int32(len(b.records))
		b.add(r, span.TraceID(), where.Resource.Attributes(), span.ParentSpanID().IsEmpty())
	}
	b.resolveRuns()
}

func (b *batch) readLogs(ld plog.Logs) {
	b.logs = true
	for where, lr := range walk.Logs(ld) {
		r := record{attrs: lr.Attributes(), events: ptrace.NewSpanEventSlice(), body: lr.Body(), scope: where.Scope.Name(), name: agentspan.RecordName(lr)}
		b.add(r, lr.TraceID(), where.Resource.Attributes(), false)
	}
	b.resolveRuns()
}

// add recognises a record and finds its owner.
func (b *batch) add(r record, trace pcommon.TraceID, res pcommon.Map, root bool) {
	v := b.p.registry.Recognize(agentspan.Span{Scope: r.scope, Name: r.name, Attrs: r.attrs, Root: root})
	r.isTool, r.tool, r.callID, r.wrec = v.Role == agentspan.RoleTool, v.Tool, v.CallID, -1
	r.argsKey, r.resultKey = v.ArgsKey, v.ResultKey
	if r.conv = v.Convention; r.conv != nil {
		r.unwrap = r.conv.Unwrap
	}
	if c, ok := r.attrs.Get(b.p.cfg.DataClassAttribute); ok && b.p.classShaped(c) {
		r.classed = true
	}
	// A record no convention reads as a tool or model call whose name holds a data-class tool's (an
	// SDK agentotel does not know names a tool's span after the tool) carries that tool's data, as a
	// wrapper declaring its class does: withheld whole, without knowing where its data is.
	if !r.classed && v.Role != agentspan.RoleTool && v.Role != agentspan.RoleModel && b.p.namesShapedTool(r.name) {
		r.classed = true
	}
	// One no convention claims at all may name such a tool in its values (naming.go); decide
	// withholds it whole unless the transcript walk finds the tool's calls in it.
	if !r.classed && v.Convention == nil {
		r.namesTool = b.namesShapedToolWithin(&r)
	}
	run, _ := agentspan.RunKeyOf(b.p.cfg.RunAttributes, v, r.attrs, res)
	r.owner = b.ownerOf(trace, run, b.logs)
	b.records = append(b.records, r)
}

// ownerOf returns the owner of a record: its trace. A run named by any span of a trace is the whole
// trace's run. A log record outside any trace is owned by its run (a session, a conversation), or,
// naming none, by itself alone: records of unrelated sessions never share a memory.
func (b *batch) ownerOf(trace pcommon.TraceID, run string, log bool) agentspan.Owner {
	if trace.IsEmpty() && log {
		trace = traceless(run, len(b.records), b.now)
	}
	if i, ok := b.byTrace[trace]; ok {
		if b.owners[i].runID == "" {
			b.owners[i].runID = run
		}
		return i
	}
	b.byTrace[trace] = agentspan.Owner(len(b.owners))
	b.owners = append(b.owners, owner{traceID: trace, runID: run})
	return agentspan.Owner(len(b.owners) - 1)
}

// traceless is the trace a record outside any trace is kept under: one derived from its run, or for a
// record naming no run one of its own, from the batch's time and the record's place in it.
func traceless(run string, record int, now time.Time) pcommon.TraceID {
	h := sha256.New()
	if run != "" {
		h.Write([]byte("run\x00" + run))
	} else {
		var b [16]byte
		binary.LittleEndian.PutUint64(b[:8], uint64(now.UnixNano()))
		binary.LittleEndian.PutUint64(b[8:], uint64(record))
		h.Write(b[:])
	}
	var id pcommon.TraceID
	copy(id[:], h.Sum(nil))
	return id
}

// resolveRuns finds each owner's memory: the run the trace was seen in before, when no span of it in
// this batch names one.
func (b *batch) resolveRuns() {
	for i := range b.owners {
		o := &b.owners[i]
		o.trace, o.run, o.forgotten = b.p.memory.scopes(o.traceID, o.runID, b.now, false)
	}
}

// withRun returns an owner, its run's memory looked up again if it had none: another trace of the run
// may have created it in this batch, and what that trace withheld concerns this one too.
func (b *batch) withRun(i agentspan.Owner) *owner {
	o := &b.owners[i]
	if o.run == nil && o.runID != "" {
		o.trace, o.run, o.forgotten = b.p.memory.scopes(o.traceID, o.runID, b.now, false)
	}
	return o
}

// scopes returns an owner's memory, creating it: something is about to be remembered.
func (b *batch) scopes(i agentspan.Owner) (*scope, *scope) {
	o := &b.owners[i]
	if o.trace == nil || (o.run == nil && o.runID != "") {
		o.trace, o.run, o.forgotten = b.p.memory.scopes(o.traceID, o.runID, b.now, true)
	}
	return o.trace, o.run
}

// decide classes the tool calls, reads every other record's transcripts, and resolves them. The tool
// calls are classed first: what they learn decides which traces are walked.
func (b *batch) decide() {
	b.toRead = b.toRead[:0]
	for i := range b.records {
		r := &b.records[i]
		switch {
		case r.isTool:
			wrapped := !r.classed && b.wrapped(r)
			if r.classed || wrapped {
				b.p.memory.learnTool(normalName(r.tool), b.now)
			}
			// A tool call its convention does not name is named by its span, as a span no convention
			// reads as a call is; one whose span's name says nothing either (GenAI's bare execute_tool)
			// may be any tool's: while any tool is data-class it is withheld as one
			// (docs/design.md#4-structure-first-internalagentspan-processorshapeonly).
			named := r.tool != "" && b.p.toolShaped([]byte(r.tool), b.now) ||
				r.tool == "" && (b.p.namesShapedTool(r.name) || agentspan.NamesNoTool(r.name) && b.AnyShaped())
			r.dc = r.classed || wrapped || named || b.CallShaped(r.owner, []byte(r.callID))
			b.w.AddToolCall(r.owner, r.callID, r.tool, r.dc)
		case r.classed:
			// A wrapper that declares its data class carries that data itself: its trace carried
			// data-class data, and has a memory for what the wrapper's values are.
			r.dc = true
			b.Remember(r.owner, nil)
		}
		if r.dc {
			b.owners[r.owner].walk = true
			continue
		}
		if r.namesTool != namesNone {
			b.owners[r.owner].walk = true
		}
		b.toRead = append(b.toRead, int32(i))
	}
	b.shapeResultsFirst()
	b.markWalked()
	for _, i := range b.toRead {
		if r := &b.records[i]; b.owners[r.owner].walk {
			b.read(r)
		} else {
			r.wrec = b.w.AddUnread(r.owner, agentspan.Span{Scope: r.scope, Name: r.name, Attrs: r.attrs})
			r.wlast = r.wrec
		}
	}
	b.w.Resolve(b)
	// A transcript may have shown a tool span's call to be data-class.
	for i := range b.records {
		if r := &b.records[i]; r.isTool && !r.dc && r.callID != "" {
			r.dc = b.CallShaped(r.owner, []byte(r.callID))
		}
	}
	b.withholdNamingRecords()
}

// shapeResultsFirst shapes the JSON results of the data-class tool spans before the transcripts are
// read, and tells the withholder of them: a model's next call repeats each result in its transcript,
// and a copy of one shaped (so validated) already is passed over by its bytes instead of read again.
// What shaping gave is kept for the batch; the spans themselves are shaped as before.
func (b *batch) shapeResultsFirst() {
	for i := range b.records {
		r := &b.records[i]
		if !r.isTool || !r.dc || r.resultKey == "" || r.unwrap != nil {
			continue
		}
		v, ok := r.attrs.Get(r.resultKey)
		if !ok || v.Type() != pcommon.ValueTypeStr {
			continue
		}
		text := zerocopy.Bytes(v.Str())
		if !countsonly.LooksLikeJSON(text) {
			continue
		}
		if done := b.values.shapeOnce(text); done.err == nil && done.listed {
			b.w.AddValidated(bytes.TrimRight(text[jsonraw.SkipSpace(text, 0):], " \t\r\n"), done.nesting)
		}
	}
}

// read hands a record's attributes, events and body to the withholder.
func (b *batch) read(r *record) {
	r.wrec = b.w.Add(r.owner, agentspan.Span{Scope: r.scope, Name: r.name, Attrs: r.attrs}, r.body)
	r.wlast = r.wrec
	for j := 0; j < r.events.Len(); j++ {
		if e := r.events.At(j); e.Name() != annotation.StuckEvent {
			r.wlast = b.w.Add(r.owner, agentspan.Span{Scope: r.scope, Name: e.Name(), Attrs: e.Attributes()}, b.noBody)
		}
	}
}

// wrapped reports whether a span sits under a span of this batch that carries a shaped data class.
func (b *batch) wrapped(r *record) bool {
	parent := r.parent
	for depth := 0; depth < 64 && !parent.span.IsEmpty(); depth++ {
		i, ok := b.bySpan[parent]
		if !ok {
			return false
		}
		if b.records[i].classed {
			return true
		}
		parent = b.records[i].parent
	}
	return false
}

// shape shapes the transcripts' data-class payloads and every data-class record whole.
func (b *batch) shape() {
	b.w.Apply(&b.values)
	for i := range b.records {
		r := &b.records[i]
		for w := r.wrec; w >= 0 && w <= r.wlast && !r.shaped; w++ {
			r.shaped = b.w.Changed(w)
		}
		if r.dc {
			b.shapeWhole(r, forOwner(r.owner))
		}
	}
	b.values.forget()
	b.build()
}

// build makes what the batch remembered searchable, scope by scope, and counts it against the memory's
// bound. A run's scope shared by several traces is built by the first; the others find nothing new.
func (b *batch) build() {
	for i := range b.owners {
		for _, sc := range [2]*scope{b.owners[i].trace, b.owners[i].run} {
			if sc != nil {
				b.p.memory.account(sc, sc.build())
			}
		}
	}
}

func (b *batch) recordsShaped() int {
	n := 0
	for i := range b.records {
		if b.records[i].shaped {
			n++
		}
	}
	return n
}
