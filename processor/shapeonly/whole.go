// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/zerocopy"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/withhold"
)

// A data-class record is withheld whole: a tool's span, a wrapper that declares its class, a record
// that names a data-class tool in its values (docs/design.md#3-which-data-is-withheld-processorshapeonly).
// What shaping it withholds is remembered, so the content search finds it again elsewhere
// (docs/design.md#5-then-content-internalfingerprint-processorshapeonly), for the record's owner, or
// for nobody on a trace past its fingerprint bound.

// rememberFor is whom shaping remembers what it withholds for: an owner of the batch, or nobody.
type rememberFor struct {
	owner agentspan.Owner
	ok    bool
}

func forOwner(owner agentspan.Owner) rememberFor { return rememberFor{owner: owner, ok: true} }

// nobody remembers nothing: a saturated trace's values, withheld without being a call's data.
var nobody rememberFor

// shapeWhole shapes every attribute of a record but the structural ones, its events but agentguard's
// stuck event, and its body. What is remembered, for to, is what is known to be the
// call's data: a tool call's arguments and result, on its attributes or on the events its convention
// writes them on, or, where the convention does not say where they are, every value it withholds; a
// wrapper that declares its class, or a record that names a data-class tool in its values, all it
// carries (but, on the latter, the configured tool names that say which tool it ran).
func (b *batch) shapeWhole(r *record, to rememberFor) {
	located := r.isTool && (r.argsKey != "" || r.resultKey != "" || b.onToolEvents(r))
	b.values.toolNamesKept = r.namesTool != namesNone
	defer func() { b.values.toolNamesKept = false }()
	r.attrs.Range(func(k string, v pcommon.Value) bool {
		if _, keep := b.p.structural[k]; keep {
			return true
		}
		remember := withhold.RememberAll
		switch {
		case !to.ok:
			remember = withhold.RememberNothing
		case located && k == r.argsKey:
			remember = withhold.RememberJSON
			if r.conv != nil && r.conv.UnwrapArgs != nil && v.Type() == pcommon.ValueTypeStr {
				if args, ok := r.conv.UnwrapArgs(zerocopy.Bytes(v.Str()), b.p.cfg.MaxDepth); ok {
					// The arguments inside the call's envelope: its ids and names are not the data.
					b.values.rememberText(to.owner, args, withhold.RememberJSON)
					remember = withhold.RememberNothing
				}
			}
		case located && k == r.resultKey && r.unwrap != nil && v.Type() == pcommon.ValueTypeStr:
			if e, ok := r.unwrap(zerocopy.Bytes(v.Str()), b.p.cfg.MaxDepth); ok {
				// The result inside its envelope: the envelope's ids and names are not the data.
				b.values.rememberText(to.owner, e.Result, withhold.RememberAll)
				b.values.rememberText(to.owner, e.Artifact, withhold.RememberAll)
				remember = withhold.RememberNothing
			}
		case located && k != r.resultKey:
			remember = withhold.RememberNothing
		}
		b.values.shapeAttr(k, v, to.owner, remember)
		return true
	})
	for j := 0; j < r.events.Len(); j++ {
		e := r.events.At(j)
		switch te := r.conv.ToolEvent(e.Name()); {
		case e.Name() == annotation.StuckEvent:
		case te != nil && r.isTool:
			b.shapeToolEvent(e.Attributes(), te, to)
		default:
			b.shapeAttrs(e.Attributes(), to, located)
		}
	}
	if r.body.Type() != pcommon.ValueTypeEmpty && (r.conv == nil || !r.conv.BodyLabel) {
		remember := withhold.RememberAll
		if !to.ok {
			remember = withhold.RememberNothing
		}
		b.values.shapeAttr("", r.body, to.owner, remember)
	}
	r.shaped = true
}

// shapeAttrs shapes an event's attributes; they are remembered unless the record's arguments and
// result are known to be elsewhere.
func (b *batch) shapeAttrs(attrs pcommon.Map, to rememberFor, located bool) {
	remember := withhold.RememberAll
	if located || !to.ok {
		remember = withhold.RememberNothing
	}
	attrs.Range(func(k string, v pcommon.Value) bool {
		if _, keep := b.p.structural[k]; !keep {
			b.values.shapeAttr(k, v, to.owner, remember)
		}
		return true
	})
}

// onToolEvents reports whether a tool span carries its call on events its convention names.
func (b *batch) onToolEvents(r *record) bool {
	for j := 0; j < r.events.Len(); j++ {
		if r.conv.ToolEvent(r.events.At(j).Name()) != nil {
			return true
		}
	}
	return false
}

// shapeToolEvent shapes an event a tool span carries its call on, all of it but the call id and the
// structural attributes, and remembers for to the call's arguments and result it holds. Where they are
// GenAI parts and cannot be read, the whole attribute is remembered.
func (b *batch) shapeToolEvent(attrs pcommon.Map, te *agentspan.ToolEvent, to rememberFor) {
	attrs.Range(func(k string, v pcommon.Value) bool {
		if _, keep := b.p.structural[k]; keep || k == te.CallID {
			return true
		}
		remember := withhold.RememberNothing
		if to.ok && (k == te.Arguments || k == te.Result) {
			if k == te.Result {
				remember = withhold.RememberAll
			} else {
				remember = withhold.RememberJSON
			}
			if te.Parts {
				if payload, ok := te.Payload(v, k == te.Result, b.p.cfg.MaxDepth); ok {
					b.values.rememberText(to.owner, payload, remember)
					remember = withhold.RememberNothing
				} else {
					remember = withhold.RememberAll
				}
			}
		}
		b.values.shapeAttr(k, v, to.owner, remember)
		return true
	})
}
