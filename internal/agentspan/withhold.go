// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"bytes"
	"cmp"
	"slices"
	"unsafe"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/message"
	"github.com/agentotel/agentotel/internal/ownerattr"
)

// Policy decides whose data must not show. owner is what the caller passed to Add: the trace (or run)
// a record belongs to, which is the scope call ids are unique in. Names arrive as the transcript
// spells them (the policy normalises them); ids arrive trimmed of surrounding spaces.
type Policy interface {
	// ToolShaped reports whether a tool's data is withheld, by its name.
	ToolShaped(name []byte) bool
	// CallShaped reports whether the owner's call with this id was found data-class before.
	CallShaped(owner int32, id []byte) bool
	// TraceShaped reports whether the owner has carried data-class data before.
	TraceShaped(owner int32) bool
	// Remember records a data-class call (id may be empty: the owner then carried data-class data),
	// so later batches withhold its results and its own span.
	Remember(owner int32, id []byte)
	// AnyShaped reports whether any tool is data-class at all.
	AnyShaped() bool
}

// Remember says what of a shaped value is known to be a data-class call's data, to be found again by
// content later.
type Remember uint8

const (
	// RememberAll: a data-class call's result, its every withheld leaf.
	RememberAll Remember = iota
	// RememberJSON: a data-class call's arguments: their JSON leaves. Arguments that are not JSON (a
	// language's printed dict) have no leaves to tell apart, and would hit the prompt that quotes them.
	RememberJSON
	// RememberNothing: withheld without being the tool's data: model text withheld by taint.
	RememberNothing
)

// Shaper reduces a value to its shape. owner is what the caller passed to Add for the record the
// value belongs to, so the shaper can remember what it withholds per trace or run.
type Shaper interface {
	// ShapeJSON appends the shaped form of raw, one JSON value from a transcript, as one JSON value,
	// and reports whether shaping withheld anything: a value left as it was is not written back.
	ShapeJSON(dst, raw []byte, owner int32, r Remember) ([]byte, bool)
	// ShapeValue shapes an OTLP value in place and reports whether it withheld anything.
	ShapeValue(v pcommon.Value, owner int32, r Remember) bool
	// Unreadable returns what a transcript that cannot be read becomes: it might hold anything.
	Unreadable(text string, owner int32) string
}

// Rewrite counts what Apply changed.
type Rewrite struct {
	// Payloads is how many tool arguments, results and model texts shaping changed, and unreadable
	// transcripts withheld whole. A payload whose every leaf is kept (an argument under a kept key)
	// is not counted, nor its record marked changed.
	Payloads int
}

// Withholder finds the tool traffic in a batch's transcripts and shapes what the policy withholds,
// in three steps: Add every record of the batch, Resolve against the policy, Apply a shaper. Reading
// the whole batch before deciding lets a result be matched to a call that arrives later in the batch
// (a log record before the span, a tool span after the model span). It keeps its buffers from batch
// to batch; it is not safe for concurrent use.
type Withholder struct {
	reg *Registry
	// Taint also withholds what a model wrote after a withheld result entered its transcript.
	Taint bool
	// requestOnly reads a record's request and not its reply: its declared output transcripts are
	// passed over (RequestReader).
	requestOnly bool

	records []record
	docs    []doc
	items   []item
	nodes   []message.Node // payloads of items, item.first .. first+n
	cands   []int32        // candidate calls of anonymous results
	arena   []byte         // decoded ids and names
	calls   map[callRef]bool
	edits   []edit
	out     []byte
	// repeats are the payloads validated in this batch: each model call's transcript repeats the
	// results before it, and a copy is passed over by its bytes.
	repeats jsonraw.Repeats
	// unread are the declared transcripts AddUnread validated last, by owner and attribute: a model
	// call's transcript is the one before it and a few more messages, and is read only past them.
	unread ownerattr.Table[jsonraw.Growing]
	// walked are the declared JSON transcripts Add walked last, by owner and attribute, for the next
	// one to take the elements they share from (walk_resume.go).
	walked ownerattr.Table[walkedArray]

	// walk state of the document being read; inEvent: it is a per-message event's; walkAll: an
	// object is being read again, payloads and all (walk_json.go).
	rec, doc, turn int32
	inEvent        bool
	walkAll        bool
	role           message.Node
	objects        message.Objects
	// pending are the calls recorded so far; those from pendingStart on are the latest message's that
	// made calls (of turn pendingTurn), which an anonymous result may answer.
	pending      []int32
	pendingStart int
	pendingTurn  int32
	flat         flatState
	// outputs are a record's declared output transcripts, read after its inputs.
	outputs []output
}

// output is a declared output transcript, its value and its attribute.
type output struct {
	v   pcommon.Value
	t   Transcript
	key string
}

// NewWithholder returns a Withholder reading transcripts as the registry declares them.
func NewWithholder(reg *Registry) *Withholder {
	return &Withholder{reg: reg, calls: map[callRef]bool{}}
}

type record struct {
	owner   int32
	tainted bool
	// changed: Apply shaped something in the record.
	changed bool
}

// doc is one transcript document: a JSON text in an attribute, or an OTLP value (raw nil).
type doc struct {
	value pcommon.Value
	raw   []byte
	// whole: the document is a declared transcript that cannot be read, withheld whole.
	whole bool
	rec   int32
}

type itemKind uint8

const (
	itemCall itemKind = iota + 1
	itemResult
	itemText
)

// ref is a decoded id or name in the arena.
type ref struct{ off, n int32 }

type item struct {
	kind       itemKind
	rec, doc   int32
	first, n   int32 // payload nodes
	cand, nc   int32 // candidate calls of an anonymous result
	ids        [message.MaxIDs]ref
	names      [message.MaxNames]ref
	nID, nName uint8
	dc         bool
	// event: a result carried by a per-message event (gen_ai.tool.message), which names nothing but
	// its call id.
	event bool
}

// edit replaces doc[start:end] with out[from:to].
type edit struct{ start, end, from, to int }

// Reset forgets the previous batch.
func (w *Withholder) Reset() {
	w.records, w.docs, w.items, w.nodes, w.cands, w.arena = w.records[:0], w.docs[:0], w.items[:0], w.nodes[:0], w.cands[:0], w.arena[:0]
	w.pending, w.pendingStart = w.pending[:0], 0
	clear(w.calls)
	w.unread.Reset(nil)
	w.walked.Reset(nil)
	w.repeats.Reset()
}

// Add reads one record's transcripts: its attributes (inputs before outputs), a per-message event's
// message, and body (a log record's; pass an empty value for spans and span events). owner is the
// trace or run the record belongs to, as the caller numbers them. It returns the record's number.
func (w *Withholder) Add(owner int32, s Span, body pcommon.Value) int32 {
	w.rec = int32(len(w.records))
	w.records = append(w.records, record{owner: owner})
	rec := w.rec
	if role, ok := w.reg.eventRoles[s.Name]; ok {
		w.addMessageEvent(role, s.Attrs, body)
		return rec
	}
	// Inputs before outputs, in one pass over the attributes: a flattened transcript spans thousands,
	// and each pass over them costs. The inputs are read as they come, the declared outputs and the
	// flattened transcripts' entries gathered to be read after them.
	w.flat.beginFlat(len(w.reg.flat))
	w.outputs = w.outputs[:0]
	s.Attrs.Range(func(k string, v pcommon.Value) bool {
		w.collectFlat(k, v)
		// A structural attribute holds names and ids, never messages.
		r, known := w.reg.reading[k]
		switch t := r.transcript; {
		case !known:
			w.addValue(v)
		case !r.declared:
		case t.Output:
			w.outputs = append(w.outputs, output{v: v, t: t, key: k})
		case t.MayBeText:
			w.addValue(v)
		default:
			w.addTranscript(owner, k, v, t)
		}
		return true
	})
	w.addFlat(false)
	if w.requestOnly {
		return rec
	}
	for _, o := range w.outputs {
		if o.t.MayBeText {
			w.addValue(o.v)
		} else {
			w.addTranscript(owner, o.key, o.v, o.t)
		}
	}
	w.addFlat(true)
	if body.Type() != pcommon.ValueTypeEmpty {
		w.addValue(body)
	}
	return rec
}

// AddUnread numbers a record as Add does, for a record the caller knows holds no data-class traffic
// in this batch: nothing of its owner is data-class, and none of its text names a data-class tool. Its
// transcripts are not walked, only checked, so that a declared transcript that cannot be read is still
// withheld whole. Reading it would find calls and results of tools that are not data-class, which
// decide nothing for any other record: a result is matched to calls of its own owner only, and one
// whose call is not found is withheld only for an owner that carried data-class data, or from a
// per-message event (so a record that is one is read).
func (w *Withholder) AddUnread(owner int32, s Span) int32 {
	if _, event := w.reg.eventRoles[s.Name]; event {
		return w.Add(owner, s, pcommon.NewValueEmpty())
	}
	w.rec = int32(len(w.records))
	w.records = append(w.records, record{owner: owner})
	s.Attrs.Range(func(k string, v pcommon.Value) bool {
		if !w.reg.checks(k) || v.Type() != pcommon.ValueTypeStr {
			return true
		}
		if b := jsonraw.StringBytes(v.Str()); len(b) == 0 || b[0] != '{' && b[0] != '[' || !w.validUnread(owner, k, b) {
			w.docs = append(w.docs, doc{value: v, whole: true, rec: w.rec})
		}
		return true
	})
	return w.rec
}

// validUnread validates a transcript AddUnread checks, reading it only past the messages it shares
// with the one the owner's attribute held before.
func (w *Withholder) validUnread(owner int32, attr string, b []byte) bool {
	g := w.unread.Get(owner, attr)
	g.MaxDepth = w.reg.maxDepth
	return g.Valid(b)
}

// AddValidated tells the Withholder of a JSON container the caller has validated (a tool's result it
// has shaped) that nests nesting levels deep: a transcript read later that repeats it passes over the
// copy by its bytes.
func (w *Withholder) AddValidated(raw []byte, nesting int) { w.repeats.Add(raw, nesting) }

// Changed reports whether Apply shaped something in the record Add numbered rec.
func (w *Withholder) Changed(rec int32) bool { return w.records[rec].changed }

// AddToolCall records a call known from its tool span. dc says the span classed it data-class; the
// caller shapes the span itself.
func (w *Withholder) AddToolCall(owner int32, id, name string, dc bool) {
	w.rec = int32(len(w.records))
	w.records = append(w.records, record{owner: owner})
	it := item{kind: itemCall, rec: w.rec, doc: -1, dc: dc}
	if id != "" {
		it.ids[0], it.nID = w.intern(jsonraw.StringBytes(id)), 1
	}
	if name != "" {
		it.names[0], it.nName = w.intern(jsonraw.StringBytes(name)), 1
	}
	w.items = append(w.items, it)
}

// addTranscript reads a declared transcript attribute. A declared JSON transcript that is not a JSON
// container from its first byte (a BOM, leading space, plain text, invalid JSON) cannot be read and is
// withheld whole.
func (w *Withholder) addTranscript(owner int32, attr string, v pcommon.Value, t Transcript) {
	switch {
	case t.Text:
		if w.Taint && v.Type() == pcommon.ValueTypeStr {
			w.beginDoc(v, nil)
			w.addText(message.OTLPNode(v))
		}
	case v.Type() == pcommon.ValueTypeStr:
		b := jsonraw.StringBytes(v.Str())
		if len(b) == 0 || b[0] != '{' && b[0] != '[' || !w.walkTranscript(owner, attr, v, b) {
			w.docs = append(w.docs, doc{value: v, whole: true, rec: w.rec})
		}
	default:
		w.addValue(v)
	}
}

// addValue reads any other value that may hold messages: JSON text, or an OTLP map or slice.
func (w *Withholder) addValue(v pcommon.Value) {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		b := jsonraw.StringBytes(v.Str())
		switch i := jsonraw.SkipSpace(b, 0); {
		case i < len(b) && (b[i] == '{' || b[i] == '['):
			w.walkJSON(v, b, walkedArray{})
		case bytes.Contains(b, reactObservation):
			// A prompt as plain text (OpenInference's input.value): a ReAct agent's scratchpad.
			w.beginDoc(v, nil)
			w.addReAct(message.OTLPNode(v))
		}
	case pcommon.ValueTypeMap, pcommon.ValueTypeSlice:
		w.beginDoc(v, nil)
		w.visitOTLP(v, message.InNone)
	}
}

func (w *Withholder) beginDoc(v pcommon.Value, raw []byte) {
	w.doc = int32(len(w.docs))
	w.docs = append(w.docs, doc{value: v, raw: raw, rec: w.rec})
	// A document's calls are its own: an anonymous result answers none of another document's.
	w.turn, w.role, w.pendingStart, w.pendingTurn = 0, message.Node{}, len(w.pending), -1
}

// intern copies an id or name into the arena, trimmed.
func (w *Withholder) intern(b []byte) ref {
	off := int32(len(w.arena))
	w.arena = append(w.arena, b...)
	return ref{off: off, n: int32(len(w.arena)) - off}
}

func (w *Withholder) text(r ref) []byte { return w.arena[r.off : r.off+r.n] }

// internNode decodes a string node into the arena; ok is false for anything else or a blank string.
func (w *Withholder) internNode(n message.Node) (ref, bool) {
	off := len(w.arena)
	out, ok := n.AppendText(w.arena)
	if !ok || len(out) == off {
		w.arena = out[:off]
		return ref{}, false
	}
	w.arena = out
	return ref{off: int32(off), n: int32(len(out) - off)}, true
}

func (w *Withholder) addPayloads(it *item, payloads ...message.Node) {
	it.first = int32(len(w.nodes))
	for _, p := range payloads {
		if p.OK() {
			w.nodes = append(w.nodes, p)
		}
	}
	it.n = int32(len(w.nodes)) - it.first
}

// addCall records a tool call; the calls of one message are the candidates an anonymous result that
// follows may answer.
func (w *Withholder) addCall(o *message.Object) {
	it := item{kind: itemCall, rec: w.rec, doc: w.doc}
	w.readIDs(&it, o)
	args := o.Args()
	overflow := o.Overflow()
	if o.Function.OK() {
		fn := w.objects.Push()
		defer w.objects.Pop()
		message.ReadObject(o.Function, fn)
		for _, name := range fn.Names() {
			if it.nName >= message.MaxNames {
				break
			}
			if r, ok := w.internNode(name); ok {
				it.names[it.nName] = r
				it.nName++
			}
		}
		if len(fn.Args()) > 0 {
			args = fn.Args()
		}
		overflow = overflow || fn.Overflow()
	}
	if overflow {
		w.addPayloads(&it, o.Whole())
	} else {
		w.addPayloads(&it, args...)
	}
	if w.turn != w.pendingTurn {
		w.pendingStart, w.pendingTurn = len(w.pending), w.turn
	}
	w.pending = append(w.pending, int32(len(w.items)))
	w.items = append(w.items, it)
}

// addResult records a tool result. One that names neither its call nor its tool answers one of the
// calls of the latest message that made calls.
func (w *Withholder) addResult(o *message.Object) {
	it := item{kind: itemResult, rec: w.rec, doc: w.doc, event: w.inEvent}
	w.readIDs(&it, o)
	if o.Origin.OK() && it.nID == 0 && it.nName == 0 {
		// Haystack's result names its call only in "origin", a copy of the call.
		origin := w.objects.Push()
		message.ReadObject(o.Origin, origin)
		w.readIDs(&it, origin)
		w.objects.Pop()
	}
	if o.Overflow() {
		w.addPayloads(&it, o.Whole())
	} else {
		w.addPayloads(&it, o.Payloads()...)
	}
	if it.nID == 0 && it.nName == 0 {
		it.cand = int32(len(w.cands))
		latest := w.pending[w.pendingStart:]
		w.cands = append(w.cands, latest...)
		it.nc = int32(len(latest))
	}
	w.items = append(w.items, it)
}

func (w *Withholder) addText(n message.Node) {
	it := item{kind: itemText, rec: w.rec, doc: w.doc}
	w.addPayloads(&it, n)
	w.items = append(w.items, it)
}

func (w *Withholder) readIDs(it *item, o *message.Object) {
	for _, id := range o.CallIDs() {
		if r, ok := w.internNode(id); ok && it.nID < message.MaxIDs {
			it.ids[it.nID] = r
			it.nID++
		}
	}
	for _, name := range o.Names() {
		if r, ok := w.internNode(name); ok && it.nName < message.MaxNames {
			it.names[it.nName] = r
			it.nName++
		}
	}
}

// callRef is a call's key in the batch: its owner and its id. The id views the arena, which nothing
// writes to while the batch is resolved, and Reset forgets the keys before the arena is written again.
type callRef struct {
	owner int32
	id    string
}

func (w *Withholder) callRef(owner int32, id ref) callRef {
	b := w.text(id)
	return callRef{owner: owner, id: unsafe.String(unsafe.SliceData(b), len(b))}
}

// Resolve decides which calls and results are data-class. Calls first, over the whole batch, so a
// result finds its call wherever the call was; then results and model text in reading order.
func (w *Withholder) Resolve(p Policy) {
	for i := range w.items {
		it := &w.items[i]
		if it.kind != itemCall {
			continue
		}
		owner := w.records[it.rec].owner
		for _, n := range it.names[:it.nName] {
			it.dc = it.dc || p.ToolShaped(w.text(n))
		}
		for _, id := range it.ids[:it.nID] {
			it.dc = it.dc || p.CallShaped(owner, w.text(id))
		}
		for _, id := range it.ids[:it.nID] {
			key := w.callRef(owner, id)
			w.calls[key] = w.calls[key] || it.dc
			if it.dc {
				p.Remember(owner, w.text(id))
			}
		}
		if it.dc && it.nID == 0 {
			p.Remember(owner, nil)
		}
	}
	for i := range w.items {
		it := &w.items[i]
		rec := &w.records[it.rec]
		switch it.kind {
		case itemResult:
			it.dc = w.resultShaped(it, rec.owner, p)
			rec.tainted = rec.tainted || it.dc
		case itemText:
			it.dc = rec.tainted
		}
	}
}

// resultShaped decides one result. A result found by id belongs to its call; one that names its tool
// is judged by the name; one that says neither answers the calls of the message before it, and is
// withheld if any of them is data-class. A result whose call cannot be found and which names no tool
// is withheld when its owner carries data-class data: it might be that call's; so is a tool-message
// event's (it can name nothing else) whenever any tool is data-class. What is withheld for want of an
// attribution is remembered like any result: it may be the customer's.
func (w *Withholder) resultShaped(it *item, owner int32, p Policy) bool {
	for _, n := range it.names[:it.nName] {
		if p.ToolShaped(w.text(n)) {
			return true
		}
	}
	if it.nID > 0 {
		known := false
		for _, id := range it.ids[:it.nID] {
			dc, ok := w.calls[w.callRef(owner, id)]
			if dc || p.CallShaped(owner, w.text(id)) {
				return true
			}
			known = known || ok
		}
		// A result that names its tool is that tool's, whether or not its call is found.
		if known || it.nName > 0 {
			return false
		}
		return p.TraceShaped(owner) || it.event && p.AnyShaped()
	}
	if it.nName > 0 {
		return false
	}
	if it.nc == 0 {
		return p.TraceShaped(owner)
	}
	for _, c := range w.cands[it.cand : it.cand+it.nc] {
		if w.items[c].dc {
			return true
		}
	}
	return false
}

// ShapedCallIn reports whether Resolve found a data-class call in records first to last.
func (w *Withholder) ShapedCallIn(first, last int32) bool {
	for i := w.firstItemOf(first); i < len(w.items) && w.items[i].rec <= last; i++ {
		if it := &w.items[i]; it.kind == itemCall && it.dc {
			return true
		}
	}
	return false
}

// Withdraw leaves records first to last to the caller, which withholds them whole: Apply changes
// nothing in them.
func (w *Withholder) Withdraw(first, last int32) {
	for i := w.firstItemOf(first); i < len(w.items) && w.items[i].rec <= last; i++ {
		w.items[i].dc = false
	}
	d, _ := slices.BinarySearchFunc(w.docs, first, func(dc doc, rec int32) int { return cmp.Compare(dc.rec, rec) })
	for ; d < len(w.docs) && w.docs[d].rec <= last; d++ {
		w.docs[d].whole = false
	}
}

// firstItemOf is the index of the first item of record rec or a later one. Items, like documents, are
// recorded in the order of their records.
func (w *Withholder) firstItemOf(rec int32) int {
	i, _ := slices.BinarySearchFunc(w.items, rec, func(it item, rec int32) int { return cmp.Compare(it.rec, rec) })
	return i
}

// Apply shapes every data-class payload and withholds unreadable transcripts whole.
func (w *Withholder) Apply(s Shaper) Rewrite {
	var rw Rewrite
	for d := range w.docs {
		if dc := &w.docs[d]; dc.whole {
			dc.value.SetStr(s.Unreadable(dc.value.Str(), w.records[dc.rec].owner))
			w.records[dc.rec].changed = true
			rw.Payloads++
		}
	}
	cur := int32(-1)
	for i := range w.items {
		it := &w.items[i]
		if !it.dc || it.n == 0 {
			continue
		}
		owner := w.records[it.rec].owner
		remember := RememberAll
		switch it.kind {
		case itemText:
			remember = RememberNothing
		case itemCall:
			remember = RememberJSON
		}
		if it.doc != cur {
			w.flush(cur)
			cur = it.doc
		}
		for _, n := range w.nodes[it.first : it.first+it.n] {
			if it.kind == itemResult {
				n = typedValue(n)
			}
			var changed bool
			if n.IsOTLP() {
				changed = s.ShapeValue(n.Value(), owner, remember)
			} else {
				from := len(w.out)
				w.out, changed = s.ShapeJSON(w.out, n.Raw(), owner, remember)
				if changed {
					w.edits = append(w.edits, edit{start: n.Start(), end: n.Start() + len(n.Raw()), from: from, to: len(w.out)})
				} else {
					w.out = w.out[:from]
				}
			}
			if changed {
				w.records[it.rec].changed = true
				rw.Payloads++
			}
		}
	}
	w.flush(cur)
	return rw
}

// flush writes the edits gathered for a JSON document back into its attribute.
func (w *Withholder) flush(d int32) {
	if d < 0 || len(w.edits) == 0 {
		w.edits, w.out = w.edits[:0], w.out[:0]
		return
	}
	dc := &w.docs[d]
	raw := dc.raw
	size := len(raw)
	for _, e := range w.edits {
		size += (e.to - e.from) - (e.end - e.start)
	}
	buf := make([]byte, 0, max(size, 0))
	last := 0
	for _, e := range w.edits {
		if e.start < last {
			continue // inside a payload already replaced
		}
		buf = append(buf, raw[last:e.start]...)
		buf = append(buf, w.out[e.from:e.to]...)
		last = e.end
	}
	buf = append(buf, raw[last:]...)
	// buf is the attribute's new value and nothing writes to it again: it becomes the string as it is.
	dc.value.SetStr(unsafe.String(unsafe.SliceData(buf), len(buf)))
	w.edits, w.out = w.edits[:0], w.out[:0]
}

// typedValue returns the "value" (AI SDK) or "text" (OpenAI Agents) member of a typed wrapper such as
// {"type":"json","value":...}, so the wrapper stays readable; any other node is returned as it is.
func typedValue(n message.Node) message.Node {
	if n.Kind() != message.KindObject || !n.IsOTLP() && !mayHoldTypeKey(n.Raw()) {
		return n
	}
	var typed bool
	var value message.Node
	message.EachMember(n, func(key []byte, v message.Node) {
		switch string(key) {
		case "type":
			typed = true
		case "value", "text":
			value = v
		}
	})
	if typed && value.OK() {
		return value
	}
	return n
}

// mayHoldTypeKey reports whether the JSON object raw may have a member named "type". Such a key
// shows as "type", quotes included, unless an escape spells it; a result that holds neither (most
// do not) is no typed wrapper, and its members, often kilobytes of them, need not be read. The
// search is for ype" alone: bytes.Index runs from the needle's first byte, and a quote, which JSON
// is full of, made it several times slower.
func mayHoldTypeKey(raw []byte) bool {
	return bytes.Contains(raw, []byte(`ype"`)) || bytes.IndexByte(raw, '\\') >= 0
}
