// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/zerocopy"
)

// A record no convention reads as a tool or model call may still be a data-class tool's: an SDK
// agentotel does not know may name a tool's span after the tool, or give it a generic name
// ("tool.execute", "ToolCall") and name the tool only in an attribute of its own,
// {"mysdk.tool_name": "find_customer"}, or inside a document it writes,
// {"tool":"find_customer","result":{..}}. Such a record carries that tool's data: it is withheld whole
// and remembered (docs/design.md#3-which-data-is-withheld-processorshapeonly). What names a tool in a
// value is internal/toolname's rule (toolname.Reader, docs/design.md#1-recognition-internalagentspan);
// here a record's attributes, events and body are read with it, and an attribute's, map key's or
// event's name holding a data-class tool as a word names it too (tool.find_customer.output).

// namesShapedTool reports whether a name (of a span no convention reads as a tool or model call, of a
// tool call its convention names no tool of, of a log record, an attribute or an event) holds a
// data-class tool's as a word (toolname.Set.InName), or behind a namespace as a word:
// "tool_call mcp__crm__find_customer".
func (p *shapeOnly) namesShapedTool(name string) bool {
	if p.shaped.Len() == 0 || name == "" || !p.shaped.MayBeIn(zerocopy.Bytes(name)) {
		return false
	}
	name = normalName(name)
	if p.shaped.InName(name) {
		return true
	}
	for word := range strings.FieldsSeq(name) {
		if t, ok := p.known.Resolve(word); ok && p.shaped.Has(t) {
			return true
		}
	}
	return false
}

// naming is how a record names a data-class tool.
type naming uint8

const (
	namesNone naming = iota
	// namesInside: only inside a value, a document or a nested map, where a message in a shape the
	// transcript walk knows may name it as the call it is.
	namesInside
	// namesOutright: an attribute's or event attribute's value is the name, or an attribute's or event's
	// name holds it: the record says it is the tool's, whatever messages it also holds.
	namesOutright
)

// namesShapedToolWithin reports how a record's attributes, events or body name a data-class tool.
func (b *batch) namesShapedToolWithin(r *record) naming {
	if b.p.shaped.Len() == 0 {
		return namesNone
	}
	found := b.attrsNameShapedTool(r.attrs)
	if found < namesOutright && b.valueNamesShapedTool(r.body, 0, false) {
		found = namesInside
	}
	for j := 0; j < r.events.Len() && found < namesOutright; j++ {
		e := r.events.At(j)
		if b.p.namesShapedTool(e.Name()) {
			return namesOutright
		}
		found = max(found, b.attrsNameShapedTool(e.Attributes()))
	}
	return found
}

// attrsNameShapedTool is namesShapedToolWithin for one map of attributes.
func (b *batch) attrsNameShapedTool(attrs pcommon.Map) naming {
	found := namesNone
	attrs.Range(func(k string, v pcommon.Value) bool {
		switch {
		case b.p.namesShapedTool(k), v.Type() == pcommon.ValueTypeStr && b.p.shaped.Token(zerocopy.Bytes(v.Str())):
			found = namesOutright
		case found == namesNone && b.valueNamesShapedTool(v, 0, false):
			found = namesInside
		}
		return found < namesOutright
	})
	return found
}

// mapNamesShapedTool reports whether a map nested in a value, depth deep, names a data-class tool by a
// key or a value.
func (b *batch) mapNamesShapedTool(m pcommon.Map, depth int) bool {
	found := false
	m.Range(func(k string, v pcommon.Value) bool {
		found = b.p.namesShapedTool(k) || b.valueNamesShapedTool(v, depth, false)
		return !found
	})
	return found
}

// valueNamesShapedTool reports whether a value names a data-class tool; listed: it is an element of a
// list. Past the configured depth a value is not read and names none: the record is bounded as every
// other walk of it is.
func (b *batch) valueNamesShapedTool(v pcommon.Value, depth int, listed bool) bool {
	if depth > b.p.cfg.MaxDepth {
		return false
	}
	switch v.Type() {
	case pcommon.ValueTypeStr:
		return b.naming.Names(zerocopy.Bytes(v.Str()), listed)
	case pcommon.ValueTypeMap:
		return b.mapNamesShapedTool(v.Map(), depth+1)
	case pcommon.ValueTypeSlice:
		for i := 0; i < v.Slice().Len(); i++ {
			if b.valueNamesShapedTool(v.Slice().At(i), depth+1, true) {
				return true
			}
		}
	}
	return false
}

// withholdNamingRecords withholds whole, and remembers, the records no convention claims whose values
// name a data-class tool, unless they name it only inside their values and the transcript walk found a
// data-class call in them: then the name is a message's (a log record or span event in a known message
// shape), and the walk withholds that call's arguments and results precisely.
func (b *batch) withholdNamingRecords() {
	for i := range b.records {
		r := &b.records[i]
		if r.namesTool == namesNone || r.dc || r.namesTool == namesInside && b.w.ShapedCallIn(r.wrec, r.wlast) {
			continue
		}
		b.w.Withdraw(r.wrec, r.wlast)
		r.dc = true
		b.Remember(r.owner, nil)
	}
}
