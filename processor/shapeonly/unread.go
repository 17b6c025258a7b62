// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"bytes"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/jsonraw"
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
	for _, i := range b.toRead {
		r := &b.records[i]
		o := &b.owners[r.owner]
		if !o.walk && (hasEvents(r) || b.namesTool(r.attrs, names)) {
			o.walk = true
		}
	}
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

// namesTool reports whether a record's attributes may name a data-class tool: one of their strings,
// at any depth of a map or list (keys too), holds one of names or an escape that could spell one.
func (b *batch) namesTool(attrs pcommon.Map, names []string) bool {
	found := false
	attrs.Range(func(_ string, v pcommon.Value) bool {
		found = valueNames(v, names)
		return !found
	})
	return found
}

func valueNames(v pcommon.Value, names []string) bool {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		return mayName(jsonraw.StringBytes(v.Str()), names)
	case pcommon.ValueTypeSlice:
		for i := 0; i < v.Slice().Len(); i++ {
			if valueNames(v.Slice().At(i), names) {
				return true
			}
		}
	case pcommon.ValueTypeMap:
		found := false
		v.Map().Range(func(k string, inner pcommon.Value) bool {
			found = mayName(jsonraw.StringBytes(k), names) || valueNames(inner, names)
			return !found
		})
		return found
	}
	return false
}

// mayName reports whether text holds one of names, ASCII letters compared case-insensitively; a \u or
// \/ escape, which could spell a name without its letters; or one of the two characters outside ASCII
// that lower-case into it, as tool names are compared: the Kelvin sign (to k) and the capital I with a
// dot (to i).
func mayName(text []byte, names []string) bool {
	if spellingEscape(text) || bytes.Contains(text, []byte("\u212a")) || bytes.Contains(text, []byte("\u0130")) {
		return true
	}
	for _, n := range names {
		if containsFold(text, n) {
			return true
		}
	}
	return false
}

// spellingEscape reports whether text holds a \u or \/ escape (one pass over its backslashes).
func spellingEscape(text []byte) bool {
	for t := text; ; {
		i := bytes.IndexByte(t, '\\')
		if i < 0 || i+1 >= len(t) {
			return false
		}
		if c := t[i+1]; c == 'u' || c == '/' {
			return true
		}
		t = t[i+2:]
	}
}

// containsFold reports whether text holds name, a lower-case ASCII string, with ASCII letters in
// either case.
func containsFold(text []byte, name string) bool {
	first := name[0]
	upper := first
	if 'a' <= first && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	for _, c := range [2]byte{first, upper} {
		for t := text; len(t) >= len(name); {
			i := bytes.IndexByte(t[:len(t)-len(name)+1], c)
			if i < 0 {
				break
			}
			if equalFoldASCII(t[i:i+len(name)], name) {
				return true
			}
			t = t[i+1:]
		}
		if upper == first {
			break
		}
	}
	return false
}

// equalFoldASCII reports whether b is name, a lower-case ASCII string, but for the case of its letters.
func equalFoldASCII(b []byte, name string) bool {
	for j := range len(name) {
		c := b[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != name[j] {
			return false
		}
	}
	return true
}
