// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"bytes"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/message"
)

// A model call's request carries the conversation so far: every tool result the run has had, each
// once more. What it brings that the call before it did not is the latest round: the results that
// follow the last message that made calls. Those are a run's steps when its tool calls carry no
// readable result of their own (no tool span, a truncated one, a tool record without its output).
// Finding them by position, not by comparing with the request before, holds when an agent trims or
// compacts its history, and when the request before was never seen.

// Exchange is one result of a request's latest round, with the call it answers. Its byte slices view
// the reader's buffers and the record's values: valid until the reader is begun again.
type Exchange struct {
	// CallID is the call id the result or its call names, or nil; Tool the tool's name as the
	// result or its call spells it, or nil.
	CallID, Tool []byte
	// Args are the call's arguments, when its call is in the request (HasArgs).
	Args    []byte
	HasArgs bool
	// Result is what the tool returned: a string's text, or any other value as JSON.
	Result []byte
	// Round is the number of its round in the conversation the request carries (the how-manieth
	// message that made calls it answers, from 1), and Ordinal the result's place in its round, from
	// 0: the same result in the next request, which repeats the conversation, has the same Round and
	// Ordinal, so a result without a call id is still known again.
	Round, Ordinal int
	// Record is which of the records added since Begin carried the result, from 0 in the order they
	// were added (a span's events count one each).
	Record int
}

// RequestReader reads the latest round of model calls' requests, in the message formats the
// TranscriptReader reads (internal/message). Begin a request, add the records that carry it (a span's or log
// record's input transcripts, or the per-message events of one request), then take Latest. It keeps
// its buffers from request to request; it is not safe for concurrent use.
type RequestReader struct {
	tr *TranscriptReader
	// first is the first item of the request being read; segments number the documents whose rounds
	// are found apart (each transcript attribute) or together (one request's per-message events).
	first    int
	segments []int32 // per document: its segment
	events   int32   // the segment of the request's per-message events, -1 before the first
	out      []Exchange
	buf      []byte
}

// NewRequestReader returns a reader of requests as the registry declares them.
func (r *Registry) NewRequestReader() *RequestReader {
	tr := NewTranscriptReader(r)
	tr.requestOnly = true
	return &RequestReader{tr: tr}
}

// Begin starts a request, forgetting the one before.
func (rr *RequestReader) Begin() {
	rr.tr.Reset()
	rr.first, rr.segments, rr.events = 0, rr.segments[:0], -1
	rr.out, rr.buf = rr.out[:0], rr.buf[:0]
}

// AddSpanEvents reads a model span's events that may carry its request (a per-message event, an
// operation-details event), each as AddRecord would; the reply's events are passed over.
func (rr *RequestReader) AddSpanEvents(events ptrace.SpanEventSlice) {
	for i := 0; i < events.Len(); i++ {
		if e := events.At(i); !rr.tr.reg.choiceEvents[e.Name()] {
			rr.AddRecord(Span{Name: e.Name(), Attrs: e.Attributes()}, pcommon.NewValueEmpty())
		}
	}
}

// AddRecord reads a span's or log record's request transcripts (its declared outputs, the reply, are
// not read) and the message a per-message event carries; body is a log record's (empty for spans).
// The per-message events of one request are one conversation: their latest round is found across
// them.
func (rr *RequestReader) AddRecord(s Span, body pcommon.Value) {
	docs := len(rr.tr.docs)
	_, event := rr.tr.reg.eventRoles[s.Name]
	rr.tr.Add(0, s, body)
	for d := docs; d < len(rr.tr.docs); d++ {
		switch {
		case !event:
			rr.segments = append(rr.segments, int32(d))
		default:
			if rr.events < 0 {
				rr.events = int32(d)
			}
			rr.segments = append(rr.segments, rr.events)
		}
	}
}

// IsRequestEvent reports whether a span event or log record of that name is a per-message event of a
// request (gen_ai.tool.message), not the reply (gen_ai.choice).
func (r *Registry) IsRequestEvent(name string) bool {
	_, ok := r.eventRoles[name]
	return ok && !r.choiceEvents[name]
}

// Latest returns the results of the latest round of the request read since Begin: in each segment,
// the results after its last call, each with the call it answers: the one with its id, else the
// calls of the last message that made calls, by the tool's name or, for a result that names neither,
// in order.
func (rr *RequestReader) Latest() []Exchange {
	tr := rr.tr
	items := tr.items[rr.first:]
	rounds := map[int32]round{}
	afterResult := map[int32]int{}
	number := map[int32]int{}
	for i := range items {
		it := &items[i]
		if it.doc < 0 {
			continue
		}
		seg := rr.segments[it.doc]
		switch it.kind {
		case ItemResult:
			afterResult[seg] = i + 1
		case ItemCall:
			r, ok := rounds[seg]
			if !ok || r.from != afterResult[seg] {
				number[seg]++
			}
			rounds[seg] = round{from: afterResult[seg], to: i}
		}
	}
	ordinal := map[int32]int{}
	used := map[int]bool{}
	for i := range items {
		it := &items[i]
		if it.kind != ItemResult || it.doc < 0 || it.n == 0 {
			continue
		}
		seg := rr.segments[it.doc]
		// A segment whose calls are not in it cannot say which of its results are the latest: it
		// brings none, rather than the whole history again.
		r, hasCalls := rounds[seg]
		if !hasCalls || i < r.to {
			continue
		}
		e := Exchange{Round: number[seg], Ordinal: ordinal[seg], Record: int(it.rec)}
		ordinal[seg]++
		if it.nID > 0 {
			e.CallID = tr.Text(it.ids[0])
		}
		if it.nName > 0 {
			e.Tool = tr.Text(it.names[0])
		}
		if c := rr.callOf(items, it, seg, r, used); c >= 0 {
			used[c] = true
			call := &items[c]
			if e.Tool == nil && call.nName > 0 {
				e.Tool = tr.Text(call.names[0])
			}
			if e.CallID == nil && call.nID > 0 {
				e.CallID = tr.Text(call.ids[0])
			}
			if call.n > 0 {
				e.Args, e.HasArgs = rr.payload(tr.nodes[call.first]), true
			}
		}
		e.Result = rr.payload(tr.nodes[it.first])
		// A result held as one content block ([{"type":"text","text":...}], an MCP tool's as Anthropic
		// and MCP clients send it) is what the block holds.
		if env, ok := unwrapContentBlock(e.Result, tr.reg.maxDepth); ok {
			e.Result = env.Result
		}
		rr.out = append(rr.out, e)
	}
	return rr.out
}

// round is a segment's last message that made calls: its calls are items[from:to+1] (the calls since
// the result before the last call); the results past it are the request's latest round.
type round struct{ from, to int }

// callOf finds the call a result answers, as an index into items, or -1: the call of its segment with
// its id; else, among the calls of the round's message not taken by an earlier result, the first
// with its tool's name, or for a result that names no tool the first.
func (rr *RequestReader) callOf(items []Item, res *Item, seg int32, r round, used map[int]bool) int {
	tr := rr.tr
	if res.nID > 0 {
		id := tr.Text(res.ids[0])
		for i := range items {
			c := &items[i]
			if c.kind != ItemCall || c.doc < 0 || rr.segments[c.doc] != seg {
				continue
			}
			for _, cid := range c.ids[:c.nID] {
				if bytes.Equal(tr.Text(cid), id) {
					return i
				}
			}
		}
		return -1
	}
	for i := r.from; i <= r.to; i++ {
		c := &items[i]
		if c.kind != ItemCall || used[i] || rr.segments[c.doc] != seg {
			continue
		}
		if res.nName == 0 || c.nName > 0 && bytes.EqualFold(tr.Text(c.names[0]), tr.Text(res.names[0])) {
			return i
		}
	}
	return -1
}

// payload is what a node holds: a string's text, trimmed, or any other value's JSON.
func (rr *RequestReader) payload(n message.Node) []byte {
	if n.Kind() == message.KindString {
		start := len(rr.buf)
		if out, ok := n.AppendText(rr.buf); ok {
			rr.buf = out
			return rr.buf[start:len(rr.buf):len(rr.buf)]
		}
		return nil
	}
	if n.IsOTLP() {
		return valueBytes(n.Value())
	}
	return bytes.TrimSpace(n.Raw())
}

// HasRequest reports whether a model call's span or record carries its request in a transcript the
// registry declares: its results may be read there.
func (r *Registry) HasRequest(attrs pcommon.Map) bool {
	found := false
	attrs.Range(func(k string, _ pcommon.Value) bool {
		if t, ok := r.reading[k]; ok && t.declared && !t.transcript.Output {
			found = true
		} else {
			for i := range r.flat {
				if f := &r.flat[i]; !f.output && strings.HasPrefix(k, f.prefix) {
					found = true
					break
				}
			}
		}
		return !found
	})
	return found
}

// IsChoiceEvent reports whether a span event or log record of that name carries a model's reply
// (gen_ai.choice).
func (r *Registry) IsChoiceEvent(name string) bool { return r.choiceEvents[name] }

// ChoiceReply reads the reply a choice event carries in its body ({index, finish_reason, message}).
func (r *Registry) ChoiceReply(attrs pcommon.Map, body pcommon.Value) Reply {
	rr := replyReaders.Get().(*replyReader)
	defer rr.release()
	rr.maxDepth = r.maxDepth
	rr.read(body, false)
	return rr.reply("", attrs)
}

// RecordName is what recognition calls a log record: its event name, or its event.name attribute
// where an older SDK writes it there.
func RecordName(lr plog.LogRecord) string {
	if name := lr.EventName(); name != "" {
		return name
	}
	if v, ok := lr.Attributes().Get("event.name"); ok {
		return v.AsString()
	}
	return ""
}
