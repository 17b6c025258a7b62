// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/message"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// The walkers read every object of a transcript once, JSON text and OTLP values alike, and hand each
// to the message formats (internal/message). A call or result is recorded and not looked into; anything
// else is looked into, knowing whose message it is.

// visitOTLP reads an OTLP value; a string that holds a JSON container is read as a document of its own.
func (r *TranscriptReader) visitOTLP(v pcommon.Value, ctx message.Context) {
	switch v.Type() {
	case pcommon.ValueTypeMap, pcommon.ValueTypeSlice:
		r.visit(message.OTLPNode(v), ctx)
	case pcommon.ValueTypeStr:
		b := zerocopy.Bytes(v.Str())
		if jsonraw.IsContainer(b) {
			// A document of its own, inside this one: this one's walk resumes where it was.
			doc, role, m := r.doc, r.role, r.mark()
			r.walkJSON(v, b, walkedArray{})
			r.doc, r.role = doc, role
			r.pending, r.pendingStart, r.turn, r.pendingTurn = r.pending[:m.pending], m.pendingStart, m.turn, m.pendingTurn
		}
	}
}

func (r *TranscriptReader) visit(n message.Node, ctx message.Context) {
	switch n.Kind() {
	case message.KindArray:
		message.EachElement(n, func(e message.Node) { r.visit(e, message.InNone) })
	case message.KindObject:
		r.visitObject(n, ctx)
	case message.KindString:
		if n.IsOTLP() {
			r.visitOTLP(n.Value(), ctx)
		}
	}
}

// inner is a container member kept from the first pass over an object, so the walk down need not find
// it again.
type inner struct {
	n   message.Node
	ctx message.Context
}

func (r *TranscriptReader) visitObject(n message.Node, ctx message.Context) {
	o := r.objects.Push()
	defer r.objects.Pop()
	var kept [8]inner
	count := 0
	o.Self = n
	message.EachMember(n, func(key []byte, v message.Node) {
		o.Read(key, v)
		count = keep(&kept, count, key, v)
	})
	r.dispatch(o, ctx, kept[:], count, func() {
		message.EachMember(n, func(key []byte, v message.Node) { r.visit(v, message.ContextOf(key)) })
	})
}

// keep notes a member worth looking into: a container, or an OTLP string that may hold JSON.
func keep(kept *[8]inner, count int, key []byte, v message.Node) int {
	if k := v.Kind(); k == message.KindObject || k == message.KindArray || v.IsOTLP() && k == message.KindString {
		if count < len(kept) {
			kept[count] = inner{n: v, ctx: message.ContextOf(key)}
		}
		count++
	}
	return count
}

// dispatch records a call or result, or looks inside the object. kept holds the first of its count
// containers; past that, again visits them all.
func (r *TranscriptReader) dispatch(o *message.Object, ctx message.Context, kept []inner, count int, again func()) {
	switch o.Classify(ctx) {
	case message.ShapeCall:
		r.addCall(o)
		return
	case message.ShapeResult:
		r.addResult(o)
		return
	case message.ShapeLangChain:
		r.visitObject(o.Kwargs, message.InResult)
		return
	}
	if o.Text.Kind() == message.KindString {
		r.addReAct(o.Text)
	}
	if r.ModelText && o.IsModelText(r.role) {
		r.addText(o.Text)
	}
	if o.Role.OK() {
		outer := r.role
		r.role = o.Role
		r.turn++
		defer func() { r.role = outer }()
	}
	if count <= len(kept) {
		for _, c := range kept[:count] {
			r.visit(c.n, c.ctx)
		}
		return
	}
	again()
}
