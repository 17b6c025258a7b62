// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// The walkers read every object of a transcript once, JSON text and OTLP values alike, and hand each
// to the message formats (messages.go). A call or result is recorded and not looked into; anything
// else is looked into, knowing whose message it is.

// visitOTLP reads an OTLP value; a string that holds a JSON container is read as a document of its own.
func (w *Withholder) visitOTLP(v pcommon.Value, ctx context) {
	switch v.Type() {
	case pcommon.ValueTypeMap, pcommon.ValueTypeSlice:
		w.visit(otlpNode(v), ctx)
	case pcommon.ValueTypeStr:
		b := jsonraw.StringBytes(v.Str())
		if jsonraw.IsContainer(b) {
			// A document of its own, inside this one: this one's walk resumes where it was.
			doc, role, m := w.doc, w.role, w.mark()
			w.walkJSON(v, b, walkedArray{})
			w.doc, w.role = doc, role
			w.pending, w.pendingStart, w.turn, w.pendingTurn = w.pending[:m.pending], m.pendingStart, m.turn, m.pendingTurn
		}
	}
}

func (w *Withholder) visit(n node, ctx context) {
	switch n.kind() {
	case kindArray:
		eachElementOf(n, func(e node) { w.visit(e, inNone) })
	case kindObject:
		w.visitObject(n, ctx)
	case kindString:
		if n.otlp {
			w.visitOTLP(n.pv, ctx)
		}
	}
}

// inner is a container member kept from the first pass over an object, so the walk down need not find
// it again.
type inner struct {
	n   node
	ctx context
}

func (w *Withholder) visitObject(n node, ctx context) {
	o := w.objects.push()
	defer w.objects.pop()
	var kept [8]inner
	count := 0
	o.self = n
	eachMemberOf(n, func(key []byte, v node) {
		o.read(key, v)
		count = keep(&kept, count, key, v)
	})
	w.dispatch(o, ctx, kept[:], count, func() {
		eachMemberOf(n, func(key []byte, v node) { w.visit(v, contextOf(key)) })
	})
}

// keep notes a member worth looking into: a container, or an OTLP string that may hold JSON.
func keep(kept *[8]inner, count int, key []byte, v node) int {
	if k := v.kind(); k == kindObject || k == kindArray || v.otlp && k == kindString {
		if count < len(kept) {
			kept[count] = inner{n: v, ctx: contextOf(key)}
		}
		count++
	}
	return count
}

// dispatch records a call or result, or looks inside the object. kept holds the first of its count
// containers; past that, again visits them all.
func (w *Withholder) dispatch(o *object, ctx context, kept []inner, count int, again func()) {
	switch o.classify(ctx) {
	case shapeCall:
		w.addCall(o)
		return
	case shapeResult:
		w.addResult(o)
		return
	case shapeLangChain:
		w.visitObject(o.kwargs, inResult)
		return
	}
	if o.text.kind() == kindString {
		w.addReAct(o.text)
	}
	if w.Taint && o.isModelText(w.role) {
		w.addText(o.text)
	}
	if o.role.ok() {
		outer := w.role
		w.role = o.role
		w.turn++
		defer func() { w.role = outer }()
	}
	if count <= len(kept) {
		for _, c := range kept[:count] {
			w.visit(c.n, c.ctx)
		}
		return
	}
	again()
}

// readObject reads an object node's members into o.
func readObject(n node, o *object) {
	o.self = n
	eachMemberOf(n, o.read)
}

// eachMemberOf calls fn with each member of an object node, its key decoded. The JSON is already
// validated.
func eachMemberOf(n node, fn func(key []byte, v node)) {
	if n.otlp {
		n.pv.Map().Range(func(k string, v pcommon.Value) bool {
			fn(jsonraw.StringBytes(k), otlpNode(v))
			return true
		})
		return
	}
	jsonraw.EachMember(n.raw, func(m jsonraw.Member) {
		fn(jsonKey(m.Key), jsonNode(m.Value, n.start+m.ValueStart))
	})
}

// eachElementOf calls fn with each element of an array node.
func eachElementOf(n node, fn func(node)) {
	if n.otlp {
		s := n.pv.Slice()
		for i := 0; i < s.Len(); i++ {
			fn(otlpNode(s.At(i)))
		}
		return
	}
	jsonraw.EachElement(n.raw, func(elem []byte, start int) { fn(jsonNode(elem, n.start+start)) })
}

// eachElement calls fn with each element of a valid JSON array.
func eachElement(arr []byte, fn func(elem []byte, start int)) { jsonraw.EachElement(arr, fn) }
