// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"bytes"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/ascii"
	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/ownerattr"
)

// Most traces carry no data-class traffic, yet every JSON value of theirs would be walked to find
// the calls and results in it. A trace's records are walked only when something could make one of
// them data-class: the trace (or its run) carried data-class data before; a tool span or wrapper of
// it in this batch is data-class; it has span events or log records, whose results are withheld when
// nothing attributes them; it belongs to a run, which another trace of the batch may make data-class;
// or one of its strings names a data-class tool (compared as tool names are, case-insensitively), or
// holds an escape that could spell one. Other traces' records are only checked, so that a transcript
// that cannot be read is still withheld whole: walking them would find only calls and results of tools
// that are not data-class, which withhold nothing. The rule is in docs/design.md, section 4.

// maxNamesSearched bounds the data-class tool names searched for in a trace's strings; with more
// (tools learnt from many span attributes), every trace is walked.
const maxNamesSearched = 32

// markWalked marks the owners whose records are walked, looking at the records decide is to read
// (b.toRead).
func (b *batch) markWalked() {
	names, searchable := b.shapedNames()
	for i := range b.owners {
		o := &b.owners[i]
		o.walk = o.walk || b.logs || !searchable || o.runID != "" || b.TraceShaped(int32(i))
	}
	b.search.reset(names)
	for _, i := range b.toRead {
		r := &b.records[i]
		o := &b.owners[r.owner]
		if !o.walk && (hasEvents(r) || b.search.record(r.owner, r.attrs)) {
			o.walk = true
		}
	}
	b.search.reset(nil)
}

// shapedNames are the data-class tool names, normalised, and whether they can be searched for: at
// most maxNamesSearched, each of printable ASCII (a name compares case-insensitively, and ASCII
// letters are all the search folds) but for the quote and the backslash, which JSON writes escaped.
func (b *batch) shapedNames() ([]string, bool) {
	names := b.names[:0]
	for name, shaped := range b.p.tools {
		if shaped {
			names = append(names, name)
		}
	}
	names, ok := b.p.memory.learntTools(names, maxNamesSearched)
	b.names = names
	if !ok || len(names) > maxNamesSearched {
		return nil, false
	}
	for _, n := range names {
		if !searchableName(n) {
			return nil, false
		}
	}
	return names, true
}

// searchableName reports whether a name is written in JSON as it is, letters that fold as ASCII: it is
// printable ASCII but for the quote and the backslash.
func searchableName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return s != ""
}

// hasEvents reports whether a span has events but agentguard's stuck event.
func hasEvents(r *record) bool {
	for j := 0; j < r.events.Len(); j++ {
		if r.events.At(j).Name() != annotation.StuckEvent {
			return true
		}
	}
	return false
}

// nameSearch looks for data-class tool names in records' attributes. A model call's transcript is the
// one before it and a few messages more: a string attribute is searched only past the part it shares
// with the string the same attribute of the same owner held last, when that one named no tool.
type nameSearch struct {
	names []string
	// shortest is the length of the shortest name: a text with fewer bytes cannot spell one, in any
	// encoding, since each letter takes a byte at least.
	shortest int
	// overlap is how far before the shared part ends a name or a character that lower-cases into one
	// of its letters may start and still end past it.
	overlap int
	// clean are the strings found to name no tool, by owner and attribute.
	clean ownerattr.Table[[]byte]
}

// minRemembered is the length from which a string is remembered: a shorter one costs less to search
// whole than to look up.
const minRemembered = 512

// sharedPrefix is how many bytes a string shares with the one its attribute held before, prev, as a
// transcript shares them with the one before it: all of prev but its last byte (the closing bracket),
// or 0.
func sharedPrefix(prev, text []byte) int {
	if shared := len(prev) - 1; shared > 0 && len(text) > shared && bytes.Equal(text[:shared], prev[:shared]) {
		return shared
	}
	return 0
}

// reset readies the search for names; the strings remembered are forgotten.
func (n *nameSearch) reset(names []string) {
	n.names, n.overlap, n.shortest = names, 2, 0 // the Kelvin sign is three bytes long
	for i, name := range names {
		n.overlap = max(n.overlap, len(name)-1)
		if i == 0 || len(name) < n.shortest {
			n.shortest = len(name)
		}
	}
	n.clean.Reset(nil)
}

// record reports whether a record's attributes may name a data-class tool: one of their strings, at
// any depth of a map or list (keys too), holds one of the names or an escape that could spell one.
func (n *nameSearch) record(owner int32, attrs pcommon.Map) bool {
	found := false
	attrs.Range(func(k string, v pcommon.Value) bool {
		if v.Type() == pcommon.ValueTypeStr && len(v.Str()) >= minRemembered {
			found = n.attribute(owner, k, jsonraw.StringBytes(v.Str()))
		} else {
			found = n.value(v)
		}
		return !found
	})
	return found
}

// attribute is mayName for a string attribute. When the owner's same attribute held a string that
// named no tool and this one begins with all of it but its last byte (a transcript's closing bracket),
// names and characters are looked for from overlap bytes before that point, and escapes from the byte
// right before it (a backslash there and a u after it).
func (n *nameSearch) attribute(owner int32, attr string, text []byte) bool {
	if len(text) < n.shortest {
		return false // and not remembered: what it holds was not looked at
	}
	clean := n.clean.Get(owner, attr)
	shared := sharedPrefix(*clean, text)
	from, escapesFrom := max(0, shared-n.overlap), max(0, shared-1)
	if spellingEscape(text[escapesFrom:]) || mayNameLiterally(text[from:], n.names) {
		return true
	}
	*clean = text
	return false
}

// value reports whether a value may name a data-class tool, at any depth (keys too).
func (n *nameSearch) value(v pcommon.Value) bool {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		return n.text(jsonraw.StringBytes(v.Str()))
	case pcommon.ValueTypeSlice:
		for i := 0; i < v.Slice().Len(); i++ {
			if n.value(v.Slice().At(i)) {
				return true
			}
		}
	case pcommon.ValueTypeMap:
		found := false
		v.Map().Range(func(k string, inner pcommon.Value) bool {
			found = n.text(jsonraw.StringBytes(k)) || n.value(inner)
			return !found
		})
		return found
	}
	return false
}

// text is mayName for the names searched, but that a text shorter than every name names none.
func (n *nameSearch) text(text []byte) bool {
	return len(text) >= n.shortest && mayName(text, n.names)
}

// mayName reports whether text holds one of names, ASCII letters compared case-insensitively; a \u or
// \/ escape, which could spell a name without its letters; or one of the two characters outside ASCII
// that lower-case into it, as tool names are compared: the Kelvin sign (to k) and the capital I with a
// dot (to i).
func mayName(text []byte, names []string) bool {
	return spellingEscape(text) || mayNameLiterally(text, names)
}

// mayNameLiterally is mayName but for escapes.
func mayNameLiterally(text []byte, names []string) bool {
	if bytes.Contains(text, []byte("\u212a")) || bytes.Contains(text, []byte("\u0130")) {
		return true
	}
	for _, n := range names {
		if containsFold(text, n) {
			return true
		}
	}
	return false
}

// spellingEscape reports whether text holds a backslash right before a u or a slash (one pass over its
// backslashes): a \u or \/ escape, which could spell a name without its letters, or, where the backslash
// is itself escaped (\\u), one that decoding the text once more would make, as a document stringified
// inside a string writes it. Decoding makes a backslash only of an escaped one, so a text with no such
// pair spells no name through escapes at any depth.
func spellingEscape(text []byte) bool {
	for t := text; ; {
		i := bytes.IndexByte(t, '\\')
		if i < 0 || i+1 >= len(t) {
			return false
		}
		if c := t[i+1]; c == 'u' || c == '/' {
			return true
		}
		t = t[i+1:]
	}
}

// containsFold reports whether text holds name, a lower-case ASCII string, with ASCII letters in
// either case.
func containsFold(text []byte, name string) bool {
	return eachFold(text, name, func(int) bool { return true })
}

// eachFold calls at with each place text holds name (a lower-case string; ASCII letters of text
// compare in either case), those spelt with its first letter in lower case first, until at returns
// true, and reports whether it did.
func eachFold(text []byte, name string, at func(start int) bool) bool {
	first := name[0]
	upper := first
	if 'a' <= first && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	for _, c := range [2]byte{first, upper} {
		for from := 0; from+len(name) <= len(text); {
			i := bytes.IndexByte(text[from:len(text)-len(name)+1], c)
			if i < 0 {
				break
			}
			start := from + i
			if ascii.EqualFold(text[start:start+len(name)], name) && at(start) {
				return true
			}
			from = start + 1
		}
		if upper == first {
			break
		}
	}
	return false
}
