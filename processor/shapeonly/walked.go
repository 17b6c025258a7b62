// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/ownerattr"
	"github.com/agentotel/agentotel/internal/toolname"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// Most traces carry no data-class traffic, yet every JSON value of theirs would be walked to find
// the calls and results in it. A trace's records are walked only when something could make one of
// them data-class: the trace (or its run) carried data-class data before, remembered or forgotten
// since (memory.go); a tool span or wrapper of it in this batch is data-class; it has span events or
// log records, whose results are withheld when nothing attributes them; it belongs to a run, which
// another trace of the batch may make data-class; or one of its strings names a data-class tool
// (compared as tool names are, case-insensitively), or holds an escape that could spell one. Other
// traces' records are only checked, so that a transcript that cannot be read is still withheld whole:
// walking them would find only calls and results of tools that are not data-class, which withhold
// nothing. The rule is in docs/design.md#4-structure-first-internalagentspan-processorshapeonly.

// maxNamesSearched bounds the data-class tool names searched for in a trace's strings; with more
// (tools learnt from many span attributes), every trace is walked.
const maxNamesSearched = 32

// markWalked marks the owners whose records are walked, looking at the records decide is to read
// (b.toRead). The names searched for are the data-class tools', configured and learnt (see
// maxNamesSearched); the search keeps their list, which the next batch fills again.
func (b *batch) markWalked() {
	names, allLearnt := b.p.memory.learntTools(append(b.nameSearch.names[:0], b.p.shaped.Names()...), maxNamesSearched)
	searchable := b.nameSearch.reset(names) && allLearnt
	for i := range b.owners {
		o := &b.owners[i]
		o.walk = o.walk || b.logs || !searchable || o.runID != "" || b.TraceShaped(agentspan.Owner(i))
	}
	for _, i := range b.toRead {
		r := &b.records[i]
		o := &b.owners[r.owner]
		if !o.walk && (hasEvents(r) || b.nameSearch.record(r.owner, r.attrs)) {
			o.walk = true
		}
	}
	b.nameSearch.forget()
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
	// names are the names searched for, normalised.
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

// reset readies the search for names, normalised, which it keeps, and reports whether it can search
// for them: at most maxNamesSearched, each of printable ASCII (a name compares case-insensitively, and
// ASCII letters are all the search folds) but for the quote and the backslash, which JSON writes
// escaped. The strings remembered are forgotten.
func (n *nameSearch) reset(names []string) bool {
	n.names, n.overlap, n.shortest = names, 2, 0 // the Kelvin sign is three bytes long
	searchable := len(names) <= maxNamesSearched
	for i, name := range names {
		n.overlap = max(n.overlap, len(name)-1)
		if i == 0 || len(name) < n.shortest {
			n.shortest = len(name)
		}
		searchable = searchable && toolname.Searchable(name)
	}
	n.forget()
	return searchable
}

// forget drops the strings remembered: they are the batch's.
func (n *nameSearch) forget() { n.clean.Reset(nil) }

// record reports whether a record's attributes may name a data-class tool: one of their strings, at
// any depth of a map or list (keys too), holds one of the names or an escape that could spell one.
func (n *nameSearch) record(owner agentspan.Owner, attrs pcommon.Map) bool {
	found := false
	attrs.Range(func(k string, v pcommon.Value) bool {
		if v.Type() == pcommon.ValueTypeStr && len(v.Str()) >= minRemembered {
			found = n.attribute(owner, k, zerocopy.Bytes(v.Str()))
		} else {
			found = n.value(v)
		}
		return !found
	})
	return found
}

// attribute is toolname.MayName for a string attribute. When the owner's same attribute held a string that
// named no tool and this one begins with all of it but its last byte (a transcript's closing bracket),
// names and characters are looked for from overlap bytes before that point, and escapes from the byte
// right before it (a backslash there and a u after it).
func (n *nameSearch) attribute(owner agentspan.Owner, attr string, text []byte) bool {
	if len(text) < n.shortest {
		return false // and not remembered: what it holds was not looked at
	}
	clean := n.clean.Get(int32(owner), attr)
	shared := jsonraw.SharedPrefix(*clean, text)
	from, escapesFrom := max(0, shared-n.overlap), max(0, shared-1)
	if toolname.SpellingEscape(text[escapesFrom:]) || toolname.MayNameLiterally(text[from:], n.names) {
		return true
	}
	*clean = text
	return false
}

// value reports whether a value may name a data-class tool, at any depth (keys too).
func (n *nameSearch) value(v pcommon.Value) bool {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		return n.text(zerocopy.Bytes(v.Str()))
	case pcommon.ValueTypeSlice:
		for i := 0; i < v.Slice().Len(); i++ {
			if n.value(v.Slice().At(i)) {
				return true
			}
		}
	case pcommon.ValueTypeMap:
		found := false
		v.Map().Range(func(k string, inner pcommon.Value) bool {
			found = n.text(zerocopy.Bytes(k)) || n.value(inner)
			return !found
		})
		return found
	}
	return false
}

// text is toolname.MayName for the names searched, but that a text shorter than every name names none.
func (n *nameSearch) text(text []byte) bool {
	return len(text) >= n.shortest && toolname.MayName(text, n.names)
}
