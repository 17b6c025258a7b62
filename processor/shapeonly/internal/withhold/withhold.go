// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package withhold is shapeonly's transcript rewriter: in the transcripts a batch carries, it finds
// which tool calls and results are data-class and shapes their payloads, in place.
//
// It is built on agentspan's TranscriptReader, which finds the tool traffic (calls, results and a
// model's text, with their ids, tool names and payload nodes) in every message format and convention,
// and changes nothing. Here a Policy decides which calls are data-class and a Shaper reduces their
// payloads to their shape; Resolve matches each result to its call, wherever in the batch the call was,
// and Apply writes what the Shaper gave back into the records' attributes and bodies. The rules it
// follows are in docs/design.md#4-structure-first-internalagentspan-processorshapeonly.
package withhold

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentspan"
)

// Policy decides whose data must not show. owner is what the caller passed to Add: the trace (or run)
// a record belongs to, which is the scope call ids are unique in. Names arrive as the transcript
// spells them (the policy normalises them); ids arrive trimmed of surrounding spaces.
type Policy interface {
	// ToolShaped reports whether a tool's data is withheld, by its name.
	ToolShaped(name []byte) bool
	// CallShaped reports whether the owner's call with this id was found data-class before.
	CallShaped(owner agentspan.Owner, id []byte) bool
	// TraceShaped reports whether the owner has carried data-class data before.
	TraceShaped(owner agentspan.Owner) bool
	// Forgotten reports whether the owner carried data-class data the policy has since forgotten, and
	// with it which of the owner's calls were data-class.
	Forgotten(owner agentspan.Owner) bool
	// Remember records a data-class call (id may be empty: the owner then carried data-class data),
	// so later batches withhold its results and its own span.
	Remember(owner agentspan.Owner, id []byte)
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
	ShapeJSON(dst, raw []byte, owner agentspan.Owner, r Remember) ([]byte, bool)
	// ShapeValue shapes an OTLP value in place and reports whether it withheld anything.
	ShapeValue(v pcommon.Value, owner agentspan.Owner, r Remember) bool
	// Unreadable returns what a transcript that cannot be read becomes: it might hold anything.
	Unreadable(text string, owner agentspan.Owner) string
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
	r *agentspan.TranscriptReader

	// dc is, per item of the reader, whether it is data-class: its payloads are shaped.
	dc []bool
	// records are, per record of the reader, what Resolve and Apply found of it.
	records []record
	calls   map[callRef]call
	edits   []edit
	out     []byte
}

// call is what the batch says of a call id: whether a call with it is data-class, and whether one
// names its tool.
type call struct{ dc, named bool }

type record struct {
	tainted bool
	// withdrawn: the caller withholds the record whole, and Apply changes nothing in it.
	withdrawn bool
	// changed: Apply shaped something in the record.
	changed bool
}

// edit replaces doc[start:end] with out[from:to].
type edit struct{ start, end, from, to int }

// New returns a Withholder reading transcripts as the registry declares them. taint also withholds
// what a model wrote after a withheld result entered its transcript.
func New(reg *agentspan.Registry, taint bool) *Withholder {
	r := agentspan.NewTranscriptReader(reg)
	r.ModelText = taint
	return &Withholder{r: r, calls: map[callRef]call{}}
}

// Reset forgets the previous batch.
func (w *Withholder) Reset() {
	w.r.Reset()
	w.dc, w.records = w.dc[:0], w.records[:0]
	clear(w.calls)
}

// Add reads one record's transcripts: its attributes (inputs before outputs), a per-message event's
// message, and body (a log record's; pass an empty value for spans and span events). owner is the
// trace or run the record belongs to, as the caller numbers them. It returns the record's number.
func (w *Withholder) Add(owner agentspan.Owner, s agentspan.Span, body pcommon.Value) int32 {
	return w.r.Add(owner, s, body)
}

// AddUnread numbers a record as Add does, for a record the caller knows holds no data-class traffic
// in this batch; a declared transcript of it that cannot be read is still withheld whole
// (agentspan.TranscriptReader.AddUnread).
func (w *Withholder) AddUnread(owner agentspan.Owner, s agentspan.Span) int32 {
	return w.r.AddUnread(owner, s)
}

// AddValidated tells the Withholder of a JSON container the caller has validated (a tool's result it
// has shaped) that nests nesting levels deep: a transcript read later that repeats it passes over the
// copy by its bytes.
func (w *Withholder) AddValidated(raw []byte, nesting int) { w.r.AddValidated(raw, nesting) }

// AddToolCall records a call known from its tool span. dc says the span classed it data-class; the
// caller shapes the span itself.
func (w *Withholder) AddToolCall(owner agentspan.Owner, id, name string, dc bool) {
	i := w.r.AddCall(owner, id, name)
	w.sync()
	w.dc[i] = dc
}

// Changed reports whether Apply shaped something in the record Add numbered rec.
func (w *Withholder) Changed(rec int32) bool { return w.records[rec].changed }

// sync gives every item and record the reader found since the last sync its state here, none yet.
func (w *Withholder) sync() {
	if n := len(w.r.Items()); len(w.dc) < n {
		w.dc = append(w.dc, make([]bool, n-len(w.dc))...)
	}
	if n := w.r.Records(); len(w.records) < n {
		w.records = append(w.records, make([]record, n-len(w.records))...)
	}
}
