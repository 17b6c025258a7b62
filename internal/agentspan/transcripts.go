// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"bytes"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/message"
	"github.com/agentotel/agentotel/internal/ownerattr"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// Owner numbers what a record belongs to, as the caller numbers them: the trace (or run) whose call
// ids are unique, so a result is matched to the calls of its own owner only.
type Owner int32

// TranscriptReader finds the tool traffic in the transcripts of a batch's records: the calls, the
// results and (ModelText) the text a model wrote, each an Item with the ids and tool names it gives
// and the payload nodes that hold its data, in the order the records were added. It reads and changes
// nothing: shapeonly decides from the items what to withhold and rewrites the documents they point
// into; RequestReader reads a model call's latest round from them. It keeps its buffers from batch to
// batch; it is not safe for concurrent use.
type TranscriptReader struct {
	reg *Registry
	// ModelText also records the text a model wrote (ItemText items): assistant messages and text
	// parts, and the declared plain-text outputs.
	ModelText bool
	// requestOnly reads a record's request and not its reply: its declared output transcripts are
	// passed over (RequestReader).
	requestOnly bool

	owners []Owner // per record: the owner Add was given
	docs   []Document
	items  []Item
	nodes  []message.Node // payloads of items, item.first .. first+n
	cands  []int32        // candidate calls of anonymous results
	arena  []byte         // decoded ids and names
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

// NewTranscriptReader returns a reader of transcripts as the registry declares them.
func NewTranscriptReader(reg *Registry) *TranscriptReader {
	return &TranscriptReader{reg: reg}
}

// Document is one transcript document: a JSON text in an attribute, or an OTLP value (Raw nil).
type Document struct {
	value pcommon.Value
	raw   []byte
	// unreadable: the document is a declared transcript that cannot be read.
	unreadable bool
	rec        int32
}

// Value is the attribute, map or slice that holds the document.
func (d *Document) Value() pcommon.Value { return d.value }

// Raw is a JSON document's text, which its payload nodes view; nil for an OTLP value.
func (d *Document) Raw() []byte { return d.raw }

// Unreadable reports whether the document is a declared transcript that cannot be read (not a JSON
// container from its first byte, invalid, nested too deep): it might hold anything.
func (d *Document) Unreadable() bool { return d.unreadable }

// Record is the number of the record that holds the document.
func (d *Document) Record() int32 { return d.rec }

// ItemKind is what an item is.
type ItemKind uint8

const (
	// ItemCall is a tool call; its payloads are its arguments.
	ItemCall ItemKind = iota + 1
	// ItemResult is a tool result; its payloads are what the tool returned.
	ItemResult
	// ItemText is text a model wrote (read with ModelText); its payload is the text.
	ItemText
)

// Ref is a decoded id or name: Text gives its bytes.
type Ref struct{ off, n int32 }

// Item is a call, a result or a model's text found in a transcript.
type Item struct {
	kind       ItemKind
	rec, doc   int32
	first, n   int32 // payload nodes
	cand, nc   int32 // candidate calls of an anonymous result
	ids        [message.MaxIDs]Ref
	names      [message.MaxNames]Ref
	nID, nName uint8
	// event: a result carried by a per-message event (gen_ai.tool.message), which names nothing but
	// its call id.
	event bool
}

// Kind is what the item is.
func (it *Item) Kind() ItemKind { return it.kind }

// Record is the number of the record the item was found in.
func (it *Item) Record() int32 { return it.rec }

// Doc is the index in Documents of the document the item was found in; -1 for a call AddCall
// recorded.
func (it *Item) Doc() int32 { return it.doc }

// IDs are the call ids the item gives, trimmed of surrounding spaces.
func (it *Item) IDs() []Ref { return it.ids[:it.nID] }

// Names are the tool names the item gives, as the transcript spells them, trimmed.
func (it *Item) Names() []Ref { return it.names[:it.nName] }

// FromEvent reports whether the item is a result carried by a per-message event
// (gen_ai.tool.message), which can name nothing but its call id.
func (it *Item) FromEvent() bool { return it.event }

// Reset forgets the previous batch.
func (r *TranscriptReader) Reset() {
	r.owners, r.docs, r.items, r.nodes, r.cands, r.arena = r.owners[:0], r.docs[:0], r.items[:0], r.nodes[:0], r.cands[:0], r.arena[:0]
	r.pending, r.pendingStart = r.pending[:0], 0
	r.unread.Reset(nil)
	r.walked.Reset(nil)
	r.repeats.Reset()
}

// Items are the calls, results and texts read since Reset, by record in the order the records were
// added, and within a record in reading order. The slice and what it views are the reader's: read
// them, and only until the next Add or Reset.
func (r *TranscriptReader) Items() []Item { return r.items }

// Documents are the documents read since Reset, by record; the unreadable ones among them.
func (r *TranscriptReader) Documents() []Document { return r.docs }

// Text is the bytes of a decoded id or name.
func (r *TranscriptReader) Text(x Ref) []byte { return r.arena[x.off : x.off+x.n] }

// Payloads are the nodes holding an item's data: a call's arguments, a result's payloads, a model's
// text; the whole object when its members could not be told apart. A JSON node views its document.
func (r *TranscriptReader) Payloads(it *Item) []message.Node {
	return r.nodes[it.first : it.first+it.n]
}

// Candidates are the items, as indexes into Items, a result that names neither its call nor its tool
// may answer: the calls of the latest message before it that made calls, in its document.
func (r *TranscriptReader) Candidates(it *Item) []int32 { return r.cands[it.cand : it.cand+it.nc] }

// Records is how many records were added since Reset.
func (r *TranscriptReader) Records() int { return len(r.owners) }

// Owner is what the caller passed to Add for record rec.
func (r *TranscriptReader) Owner(rec int32) Owner { return r.owners[rec] }

// Add reads one record's transcripts: its attributes (inputs before outputs), a per-message event's
// message, and body (a log record's; pass an empty value for spans and span events). owner is the
// trace or run the record belongs to, as the caller numbers them. It returns the record's number.
func (r *TranscriptReader) Add(owner Owner, s Span, body pcommon.Value) int32 {
	r.rec = int32(len(r.owners))
	r.owners = append(r.owners, owner)
	rec := r.rec
	if role, ok := r.reg.eventRoles[s.Name]; ok {
		r.addMessageEvent(role, s.Attrs, body)
		return rec
	}
	// Inputs before outputs, in one pass over the attributes: a flattened transcript spans thousands,
	// and each pass over them costs. The inputs are read as they come, the declared outputs and the
	// flattened transcripts' entries gathered to be read after them.
	r.flat.beginFlat(len(r.reg.flat))
	r.outputs = r.outputs[:0]
	s.Attrs.Range(func(k string, v pcommon.Value) bool {
		r.collectFlat(k, v)
		// A structural attribute holds names and ids, never messages.
		reading, known := r.reg.reading[k]
		switch t := reading.transcript; {
		case !known:
			r.addValue(v)
		case !reading.declared:
		case t.Output:
			r.outputs = append(r.outputs, output{v: v, t: t, key: k})
		case t.MayBeText:
			r.addValue(v)
		default:
			r.addTranscript(owner, k, v, t)
		}
		return true
	})
	r.addFlat(false)
	if r.requestOnly {
		return rec
	}
	for _, o := range r.outputs {
		if o.t.MayBeText {
			r.addValue(o.v)
		} else {
			r.addTranscript(owner, o.key, o.v, o.t)
		}
	}
	r.addFlat(true)
	if body.Type() != pcommon.ValueTypeEmpty {
		r.addValue(body)
	}
	return rec
}

// AddUnread numbers a record as Add does, for a record the caller knows holds no data-class traffic
// in this batch: nothing of its owner is data-class, and none of its text names a data-class tool. Its
// transcripts are not walked, only checked, so that a declared transcript that cannot be read is still
// found unreadable. Reading it would find calls and results of tools that are not data-class, which
// decide nothing for any other record: a result is matched to calls of its own owner only, and one
// whose call is not found is withheld only for an owner that carried data-class data, or from a
// per-message event (so a record that is one is read).
func (r *TranscriptReader) AddUnread(owner Owner, s Span) int32 {
	if _, event := r.reg.eventRoles[s.Name]; event {
		return r.Add(owner, s, pcommon.NewValueEmpty())
	}
	r.rec = int32(len(r.owners))
	r.owners = append(r.owners, owner)
	s.Attrs.Range(func(k string, v pcommon.Value) bool {
		if !r.reg.checks(k) || v.Type() != pcommon.ValueTypeStr {
			return true
		}
		if b := zerocopy.Bytes(v.Str()); len(b) == 0 || b[0] != '{' && b[0] != '[' || !r.validUnread(owner, k, b) {
			r.docs = append(r.docs, Document{value: v, unreadable: true, rec: r.rec})
		}
		return true
	})
	return r.rec
}

// validUnread validates a transcript AddUnread checks, reading it only past the messages it shares
// with the one the owner's attribute held before.
func (r *TranscriptReader) validUnread(owner Owner, attr string, b []byte) bool {
	g := r.unread.Get(int32(owner), attr)
	g.MaxDepth = r.reg.maxDepth
	return g.Valid(b)
}

// AddValidated tells the reader of a JSON container the caller has validated (a tool's result it has
// shaped) that nests nesting levels deep: a transcript read later that repeats it passes over the copy
// by its bytes.
func (r *TranscriptReader) AddValidated(raw []byte, nesting int) { r.repeats.Add(raw, nesting) }

// AddCall records, as a record of its own, a call known from its tool span rather than read in a
// transcript, and returns its item's index in Items. It is in no document and has no payloads.
func (r *TranscriptReader) AddCall(owner Owner, id, name string) int {
	r.rec = int32(len(r.owners))
	r.owners = append(r.owners, owner)
	it := Item{kind: ItemCall, rec: r.rec, doc: -1}
	if id != "" {
		it.ids[0], it.nID = r.intern(zerocopy.Bytes(id)), 1
	}
	if name != "" {
		it.names[0], it.nName = r.intern(zerocopy.Bytes(name)), 1
	}
	r.items = append(r.items, it)
	return len(r.items) - 1
}

// addTranscript reads a declared transcript attribute. A declared JSON transcript that is not a JSON
// container from its first byte (a BOM, leading space, plain text, invalid JSON) cannot be read.
func (r *TranscriptReader) addTranscript(owner Owner, attr string, v pcommon.Value, t Transcript) {
	switch {
	case t.Text:
		if r.ModelText && v.Type() == pcommon.ValueTypeStr {
			r.beginDoc(v, nil)
			r.addText(message.OTLPNode(v))
		}
	case v.Type() == pcommon.ValueTypeStr:
		b := zerocopy.Bytes(v.Str())
		if len(b) == 0 || b[0] != '{' && b[0] != '[' || !r.walkTranscript(owner, attr, v, b) {
			r.docs = append(r.docs, Document{value: v, unreadable: true, rec: r.rec})
		}
	default:
		r.addValue(v)
	}
}

// addValue reads any other value that may hold messages: JSON text, or an OTLP map or slice.
func (r *TranscriptReader) addValue(v pcommon.Value) {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		b := zerocopy.Bytes(v.Str())
		switch i := jsonraw.SkipSpace(b, 0); {
		case i < len(b) && (b[i] == '{' || b[i] == '['):
			r.walkJSON(v, b, walkedArray{})
		case bytes.Contains(b, reactObservation):
			// A prompt as plain text (OpenInference's input.value): a ReAct agent's scratchpad.
			r.beginDoc(v, nil)
			r.addReAct(message.OTLPNode(v))
		}
	case pcommon.ValueTypeMap, pcommon.ValueTypeSlice:
		r.beginDoc(v, nil)
		r.visitOTLP(v, message.InNone)
	}
}

func (r *TranscriptReader) beginDoc(v pcommon.Value, raw []byte) {
	r.doc = int32(len(r.docs))
	r.docs = append(r.docs, Document{value: v, raw: raw, rec: r.rec})
	// A document's calls are its own: an anonymous result answers none of another document's.
	r.turn, r.role, r.pendingStart, r.pendingTurn = 0, message.Node{}, len(r.pending), -1
}

// intern copies an id or name into the arena, trimmed.
func (r *TranscriptReader) intern(b []byte) Ref {
	off := int32(len(r.arena))
	r.arena = append(r.arena, b...)
	return Ref{off: off, n: int32(len(r.arena)) - off}
}

// internNode decodes a string node into the arena; ok is false for anything else or a blank string.
func (r *TranscriptReader) internNode(n message.Node) (Ref, bool) {
	off := len(r.arena)
	out, ok := n.AppendText(r.arena)
	if !ok || len(out) == off {
		r.arena = out[:off]
		return Ref{}, false
	}
	r.arena = out
	return Ref{off: int32(off), n: int32(len(out) - off)}, true
}

func (r *TranscriptReader) addPayloads(it *Item, payloads ...message.Node) {
	it.first = int32(len(r.nodes))
	for _, p := range payloads {
		if p.OK() {
			r.nodes = append(r.nodes, p)
		}
	}
	it.n = int32(len(r.nodes)) - it.first
}

// addCall records a tool call; the calls of one message are the candidates an anonymous result that
// follows may answer.
func (r *TranscriptReader) addCall(o *message.Object) {
	it := Item{kind: ItemCall, rec: r.rec, doc: r.doc}
	r.readIDs(&it, o)
	args := o.Args()
	overflow := o.Overflow()
	if o.Function.OK() {
		fn := r.objects.Push()
		defer r.objects.Pop()
		message.ReadObject(o.Function, fn)
		for _, name := range fn.Names() {
			if it.nName >= message.MaxNames {
				break
			}
			if ref, ok := r.internNode(name); ok {
				it.names[it.nName] = ref
				it.nName++
			}
		}
		if len(fn.Args()) > 0 {
			args = fn.Args()
		}
		overflow = overflow || fn.Overflow()
	}
	if overflow {
		r.addPayloads(&it, o.Whole())
	} else {
		r.addPayloads(&it, args...)
	}
	if r.turn != r.pendingTurn {
		r.pendingStart, r.pendingTurn = len(r.pending), r.turn
	}
	r.pending = append(r.pending, int32(len(r.items)))
	r.items = append(r.items, it)
}

// addResult records a tool result. One that names neither its call nor its tool answers one of the
// calls of the latest message that made calls.
func (r *TranscriptReader) addResult(o *message.Object) {
	it := Item{kind: ItemResult, rec: r.rec, doc: r.doc, event: r.inEvent}
	r.readIDs(&it, o)
	if o.Origin.OK() && it.nID == 0 && it.nName == 0 {
		// Haystack's result names its call only in "origin", a copy of the call.
		origin := r.objects.Push()
		message.ReadObject(o.Origin, origin)
		r.readIDs(&it, origin)
		r.objects.Pop()
	}
	if o.Overflow() {
		r.addPayloads(&it, o.Whole())
	} else {
		r.addPayloads(&it, o.Payloads()...)
	}
	if it.nID == 0 && it.nName == 0 {
		it.cand = int32(len(r.cands))
		latest := r.pending[r.pendingStart:]
		r.cands = append(r.cands, latest...)
		it.nc = int32(len(latest))
	}
	r.items = append(r.items, it)
}

func (r *TranscriptReader) addText(n message.Node) {
	it := Item{kind: ItemText, rec: r.rec, doc: r.doc}
	r.addPayloads(&it, n)
	r.items = append(r.items, it)
}

func (r *TranscriptReader) readIDs(it *Item, o *message.Object) {
	for _, id := range o.CallIDs() {
		if ref, ok := r.internNode(id); ok && it.nID < message.MaxIDs {
			it.ids[it.nID] = ref
			it.nID++
		}
	}
	for _, name := range o.Names() {
		if ref, ok := r.internNode(name); ok && it.nName < message.MaxNames {
			it.names[it.nName] = ref
			it.nName++
		}
	}
}
