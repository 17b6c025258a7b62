// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/fingerprint"
	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/ownerattr"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// The content search: once the structure has been shaped, every string of a record whose trace or run
// withheld something (in this batch or an earlier one) is searched for what was withheld, whatever
// format holds it: attributes at any depth, span names, status messages, events, links, log bodies,
// and the resource and scope attributes around them. Values under kept keys, and the ids users group
// and search by, are left alone. The rules are in
// docs/design.md#5-then-content-internalfingerprint-processorshapeonly.

// contentSearch searches one batch's values for the fingerprints of what their owners withheld, and
// redacts what it finds. It belongs to one batch; matched counts what it redacted.
type contentSearch struct {
	p       *shapeOnly
	scanner fingerprint.Scanner
	// searched are the long string attributes searched last, by owner and attribute, and what was
	// found in them; forgotten when the batch has been searched.
	searched ownerattr.Table[searched]
	matched  int
}

// done forgets the strings searched in the batch.
func (c *contentSearch) done() { c.searched.Reset(forgetText) }

// record searches a record's attributes, events (names and attributes) and body.
func (c *contentSearch) record(r *record, sets []*fingerprint.Set) bool {
	changed := c.attributes(r.attrs, sets, r.owner, true)
	for j := 0; j < r.events.Len(); j++ {
		e := r.events.At(j)
		if name, ok := c.text(sets, e.Name()); ok {
			e.SetName(name)
			changed = true
		}
		changed = c.attrMap(e.Attributes(), sets) || changed
	}
	if r.body.Type() != pcommon.ValueTypeEmpty {
		changed = c.value(c.p.shaper.Kept(""), r.body, sets) || changed
	}
	return changed
}

// searchRule is how the content search treats an attribute. The zero rule searches the attribute's
// name and every string its value holds, at any depth: a name the search does not know may be data
// (an SDK that flattens a record into attributes names them by its values).
type searchRule uint8

const (
	// searchKeptStrings: a kept key; a string directly under it is left alone.
	searchKeptStrings searchRule = iota + 1
	// searchNone: an id users group and search by, left alone whatever it holds.
	searchNone
	// searchValueOnly: a name a convention or the configuration defines (structural attributes): the
	// value is searched, the name is vocabulary.
	searchValueOnly
)

// attrMap searches every attribute but the protected ids, and the names the search does not know:
// the attributes of an event, a link, a resource or a scope, which no owner's earlier string begins.
func (c *contentSearch) attrMap(attrs pcommon.Map, sets []*fingerprint.Set) bool {
	return c.attributes(attrs, sets, 0, false)
}

// attributes is attrMap for a map of attributes; own says they are the record's own, those of owner:
// a long string that begins with all but the last byte of the one the same attribute of the owner
// held before (a transcript repeats the one before it, and a few messages more) takes what the search
// found in those bytes from that search, and is searched past them.
func (c *contentSearch) attributes(attrs pcommon.Map, sets []*fingerprint.Set, owner agentspan.Owner, own bool) bool {
	changed := false
	var named []string
	attrs.Range(func(k string, v pcommon.Value) bool {
		rule := c.p.searchRules[k]
		if rule == searchNone {
			return true
		}
		if c.p.unknownName(k, rule) && c.scanner.Hit(sets, zerocopy.Bytes(k)) {
			named = append(named, k)
		}
		if own && rule != searchKeptStrings && v.Type() == pcommon.ValueTypeStr && len(v.Str()) >= minRemembered {
			changed = c.growing(owner, k, v, sets) || changed
		} else {
			changed = c.value(rule == searchKeptStrings, v, sets) || changed
		}
		return true
	})
	return c.matchNames(attrs, named) || changed
}

// searched is the last long string an owner's attribute held, and what the search found in it.
type searched struct {
	text     []byte
	verbatim fingerprint.Verbatim
}

// forgetText forgets the string searched, keeping the buffer of what was found in it for the next.
func forgetText(s *searched) { s.text = nil }

// growing searches a long string attribute, from where it parts from the owner's previous one.
func (c *contentSearch) growing(owner agentspan.Owner, attr string, v pcommon.Value, sets []*fingerprint.Set) bool {
	text := zerocopy.Bytes(v.Str())
	last := c.searched.Get(int32(owner), attr)
	out, changed := c.scanner.Redacted(sets, text, fingerprint.Redaction{Kept: c.p.keptKey, Verbatim: &last.verbatim, Known: jsonraw.SharedPrefix(last.text, text)})
	last.text = text
	if changed {
		v.SetStr(zerocopy.String(out)) // the redacted copy's buffer is its own
		c.matched++
	}
	return changed
}

// value searches one value, at any depth: JSON text leaf by leaf (a leaf that holds a withheld value
// becomes "[withheld]"), other text occurrence by occurrence. kept says the value sits directly under a
// kept key: a string there is left alone.
func (c *contentSearch) value(kept bool, v pcommon.Value, sets []*fingerprint.Set) bool {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		if kept {
			return false
		}
		out, changed := c.scanner.Redacted(sets, zerocopy.Bytes(v.Str()), fingerprint.Redaction{Kept: c.p.keptKey})
		if changed {
			v.SetStr(zerocopy.String(out)) // the redacted copy's buffer is its own
			c.matched++
		}
		return changed
	case pcommon.ValueTypeSlice:
		changed := false
		kept := c.p.shaper.Kept("")
		for i := 0; i < v.Slice().Len(); i++ {
			changed = c.value(kept, v.Slice().At(i), sets) || changed
		}
		return changed
	case pcommon.ValueTypeMap:
		changed := false
		var named []string
		v.Map().Range(func(k string, inner pcommon.Value) bool {
			kept := c.p.shaper.Kept(k)
			if !kept && c.scanner.Hit(sets, zerocopy.Bytes(k)) {
				named = append(named, k)
			}
			changed = c.value(kept, inner, sets) || changed
			return true
		})
		return c.matchNames(v.Map(), named) || changed
	case pcommon.ValueTypeBytes:
		if c.scanner.Hit(sets, v.Bytes().AsRaw()) {
			v.SetStr(countsonly.Withheld)
			c.matched++
			return true
		}
	}
	return false
}

// text redacts a plain string (a span, event or log event name, a status message, a severity text).
func (c *contentSearch) text(sets []*fingerprint.Set, s string) (string, bool) {
	out, changed := c.scanner.Redacted(sets, zerocopy.Bytes(s), fingerprint.Redaction{Text: true})
	if !changed {
		return s, false
	}
	c.matched++
	return zerocopy.String(out), true // the redacted copy's buffer is its own
}

// matchNames renames the names of m that hold a withheld value, and reports whether there were any.
// named lists them, found by the caller's pass over m's values.
func (c *contentSearch) matchNames(m pcommon.Map, named []string) bool {
	if len(named) == 0 {
		return false
	}
	renameKeys(m, named)
	c.matched += len(named)
	return true
}

// scope redacts what an instrumentation scope's name and version hold of the values its records'
// traces withheld.
func (c *contentSearch) scope(sc pcommon.InstrumentationScope, sets []*fingerprint.Set) {
	if name, ok := c.text(sets, sc.Name()); ok {
		sc.SetName(name)
	}
	if version, ok := c.text(sets, sc.Version()); ok {
		sc.SetVersion(version)
	}
}

// appendSets adds the sets not yet in dst.
func appendSets(dst, sets []*fingerprint.Set) []*fingerprint.Set {
	for _, s := range sets {
		found := false
		for _, d := range dst {
			found = found || d == s
		}
		if !found {
			dst = append(dst, s)
		}
	}
	return dst
}
