// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"cmp"
	"slices"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/message"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// A flattened transcript spreads each message over indexed attributes ("<prefix><i>.<field>").
// Grouping them must stay linear in the number of attributes whatever their order: entries are
// gathered in the same pass over the attributes that reads the rest of the record, and bucketed by
// message index (a counting sort) when they did not arrive in message order; never searched for.

// flatField is what one attribute of a flattened message holds.
type flatField uint8

const (
	fieldRole flatField = iota
	fieldCallID
	fieldName
	fieldCall // of tool call sub: which of CallID, CallName, CallArgs is in part
	fieldContent
)

// legacyCall is the index a message's legacy function call takes among its tool calls: before them,
// and never one of theirs.
const legacyCall = -1

type flatPart uint8

const (
	partID flatPart = iota
	partName
	partArgs
)

type flatEntry struct {
	v     pcommon.Value
	msg   int32
	sub   int32 // the tool call's index, or the content's order
	field flatField
	part  flatPart
}

// flatState holds the grouping buffers, reused from record to record: per flattened transcript of
// the registry, the entries the record's attributes gave.
type flatState struct {
	of     []flatEntries
	sorted []flatEntry
	counts []int
}

// flatEntries are one flattened transcript's entries, in attribute order.
type flatEntries struct {
	entries []flatEntry
	// top is the highest message index; contents numbers the contents; byMessage: no entry came
	// after one of a later message.
	top, contents int32
	byMessage     bool
}

// beginFlat forgets the previous record's entries.
func (fs *flatState) beginFlat(transcripts int) {
	if len(fs.of) < transcripts {
		fs.of = make([]flatEntries, transcripts)
	}
	for i := range fs.of {
		fs.of[i] = flatEntries{entries: fs.of[i].entries[:0], top: -1, byMessage: true}
	}
}

// collectFlat notes an attribute that belongs to any of the flattened transcripts.
func (r *TranscriptReader) collectFlat(key string, v pcommon.Value) {
	for i := range r.reg.flat {
		f := &r.reg.flat[i]
		msg, rest, ok := indexed(key, f.prefix)
		if !ok {
			continue
		}
		field, call, part, ok := f.layout.classify(rest)
		if !ok {
			continue
		}
		fe := &r.flat.of[i]
		e := flatEntry{msg: int32(msg), v: v, field: field, sub: int32(call), part: part}
		if field == fieldContent {
			e.sub = fe.contents
			fe.contents++
		}
		fe.byMessage = fe.byMessage && e.msg >= fe.top
		fe.top = max(fe.top, e.msg)
		fe.entries = append(fe.entries, e)
	}
}

// addFlat reads the flattened transcripts collectFlat gathered, inputs or outputs.
func (r *TranscriptReader) addFlat(output bool) {
	for i := range r.reg.flat {
		if f := &r.reg.flat[i]; f.output == output && len(r.flat.of[i].entries) > 0 {
			r.readFlat(&r.flat.of[i], f.output)
		}
	}
}

func (r *TranscriptReader) readFlat(fe *flatEntries, output bool) {
	r.beginDoc(pcommon.NewValueEmpty(), nil)
	sorted := r.flat.sortEntries(fe)
	for start := 0; start < len(sorted); {
		end := start + 1
		for end < len(sorted) && sorted[end].msg == sorted[start].msg {
			end++
		}
		r.flatMessage(sorted[start:end], output)
		start = end
	}
}

// sortEntries orders the entries by message, and within a message by field and sub-index. Entries
// that came by message are only ordered within each; otherwise message indexes below the entry count
// are bucketed in linear time, and larger ones (no real transcript has them) fall back to a sort.
func (fs *flatState) sortEntries(fe *flatEntries) []flatEntry {
	entries := fe.entries
	n := len(entries)
	sorted := entries
	switch top := int(fe.top); {
	case fe.byMessage:
	case top < 4*n+16:
		fs.sorted = slices.Grow(fs.sorted[:0], n)[:n]
		sorted = fs.sorted
		fs.counts = slices.Grow(fs.counts[:0], top+2)[:top+2]
		clear(fs.counts)
		for _, e := range entries {
			fs.counts[e.msg+1]++
		}
		for i := 1; i < len(fs.counts); i++ {
			fs.counts[i] += fs.counts[i-1]
		}
		for _, e := range entries {
			sorted[fs.counts[e.msg]] = e
			fs.counts[e.msg]++
		}
	default:
		fs.sorted = append(fs.sorted[:0], entries...)
		sorted = fs.sorted
		slices.SortStableFunc(sorted, func(a, b flatEntry) int { return cmp.Compare(a.msg, b.msg) })
	}
	// Within a message: role and ids first, then calls by index, then contents in attribute order.
	for start := 0; start < n; {
		end := start + 1
		ordered := true
		for ; end < n && sorted[end].msg == sorted[start].msg; end++ {
			ordered = ordered && entryOrder(sorted[end-1], sorted[end]) <= 0
		}
		if !ordered {
			slices.SortStableFunc(sorted[start:end], entryOrder)
		}
		start = end
	}
	return sorted
}

// entryOrder orders a message's entries: by field, then by sub-index.
func entryOrder(a, b flatEntry) int {
	return cmp.Or(cmp.Compare(a.field, b.field), cmp.Compare(a.sub, b.sub))
}

// flatMessage records one message's calls, result or text.
func (r *TranscriptReader) flatMessage(entries []flatEntry, output bool) {
	r.turn = entries[0].msg + 1
	var o message.Object
	var contents []flatEntry
	for i := 0; i < len(entries); i++ {
		e := entries[i]
		switch e.field {
		case fieldRole:
			o.Role = message.OTLPNode(e.v)
		case fieldCallID:
			o.Read([]byte("tool_call_id"), message.OTLPNode(e.v))
		case fieldName:
			o.Read([]byte("name"), message.OTLPNode(e.v))
		case fieldCall:
			j := i
			var call message.Object
			for ; j < len(entries) && entries[j].field == fieldCall && entries[j].sub == e.sub; j++ {
				n := message.OTLPNode(entries[j].v)
				switch entries[j].part {
				case partID:
					call.Read([]byte("id"), n)
				case partName:
					call.Read([]byte("name"), n)
				case partArgs:
					call.Read([]byte("arguments"), n)
				}
			}
			i = j - 1
			r.addCall(&call)
		case fieldContent:
			contents = entries[i:]
			i = len(entries)
		}
	}
	isResult := o.HasResultRole() || o.HasID()
	if isResult {
		for _, c := range contents {
			o.AddPayload(message.OTLPNode(c.v))
		}
		if len(o.Payloads()) > 0 {
			r.addResult(&o)
		}
		return
	}
	modelText := output || o.Role.Is("assistant")
	for _, c := range contents {
		if c.v.Type() == pcommon.ValueTypeStr {
			r.addReAct(message.OTLPNode(c.v))
		}
		if r.ModelText && modelText && c.v.Type() == pcommon.ValueTypeStr {
			r.addText(message.OTLPNode(c.v))
		}
		// A content that is JSON holds content blocks (Anthropic's tool_use and tool_result).
		if c.v.Type() == pcommon.ValueTypeStr && jsonraw.IsContainer(zerocopy.Bytes(c.v.Str())) {
			r.visitOTLP(c.v, message.InNone)
		}
	}
}

func (l *FlatLayout) isContent(rest string) bool {
	for _, c := range l.Content {
		if rest == c || strings.HasSuffix(c, ".") && strings.HasPrefix(rest, c) && strings.HasSuffix(rest, ".text") {
			return true
		}
	}
	return false
}

// FlatField reports whether key names a field of a flattened transcript's message exactly as a
// registered convention lays it out: "<prefix><i>.<field>" or "<prefix><i>.<calls><j>.<part>", with
// an exact content field (a content prefix, as OpenInference's message.contents., leaves its parts
// open). Such a name holds the convention's words and indices and no value, so the content search
// need not read it.
func (r *Registry) FlatField(key string) bool {
	for i := range r.flat {
		if _, rest, ok := indexed(key, r.flat[i].prefix); ok && rest != "" && r.flat[i].layout.isField(rest) {
			return true
		}
	}
	return false
}

// isField reports whether rest, a non-empty name past a message's index, is one of the layout's fields:
// a finish reason, or what classify reads but a content under a content prefix.
func (l *FlatLayout) isField(rest string) bool {
	if rest == l.FinishReason {
		return true
	}
	field, _, _, ok := l.classify(rest)
	return ok && (field != fieldContent || !strings.HasSuffix(rest, ".") && slices.Contains(l.Content, rest))
}

// classify reads the field a name past a message's index holds: its role, the call id or tool name a
// tool message answers, a part of its call-th tool call, or a content.
func (l *FlatLayout) classify(rest string) (field flatField, call int, part flatPart, ok bool) {
	switch {
	case rest == l.Role:
		return fieldRole, 0, 0, true
	case slices.Contains(l.ToolCallID, rest):
		return fieldCallID, 0, 0, true
	case slices.Contains(l.Name, rest):
		return fieldName, 0, 0, true
	case rest == l.FunctionCallName && rest != "":
		return fieldCall, legacyCall, partName, true
	case rest == l.FunctionCallArgs && rest != "":
		return fieldCall, legacyCall, partArgs, true
	case l.Calls != "" && strings.HasPrefix(rest, l.Calls):
		j, sub, ok := indexed(rest, l.Calls)
		if !ok {
			return 0, 0, 0, false
		}
		switch sub {
		case l.CallID:
			return fieldCall, j, partID, true
		case l.CallName:
			return fieldCall, j, partName, true
		case l.CallArgs:
			return fieldCall, j, partArgs, true
		}
		return 0, 0, 0, false
	case l.isContent(rest):
		return fieldContent, 0, 0, true
	}
	return 0, 0, 0, false
}

// indexed splits "<prefix><n>.<rest>" into n, of one to nine digits, and rest. It runs on every
// attribute of every record for each flattened transcript, so it reads the digits itself.
func indexed(key, prefix string) (int, string, bool) {
	if !strings.HasPrefix(key, prefix) {
		return 0, "", false
	}
	n, i := 0, len(prefix)
	for ; i < len(key) && i-len(prefix) < 9 && '0' <= key[i] && key[i] <= '9'; i++ {
		n = n*10 + int(key[i]-'0')
	}
	if i == len(prefix) || i == len(key) || key[i] != '.' {
		return 0, "", false
	}
	return n, key[i+1:], true
}
