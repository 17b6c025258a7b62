// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// A JSON transcript is read in one pass over the lexer, validating as it goes: every byte is scanned
// once, however deep the document. An object's members are read, and its containers looked into,
// before the object is classified; when it turns out to be a call or a result, what was recorded
// inside it is rolled back and the call or result recorded instead (its payloads are not looked
// into). A document that turns out invalid is rolled back whole.

// mark is the Withholder's recording state at one point of the walk, to roll back to.
type mark struct {
	items, nodes, cands, arena, pending, pendingStart int
	turn, pendingTurn                                 int32
}

func (w *Withholder) mark() mark {
	return mark{items: len(w.items), nodes: len(w.nodes), cands: len(w.cands), arena: len(w.arena),
		pending: len(w.pending), pendingStart: w.pendingStart, turn: w.turn, pendingTurn: w.pendingTurn}
}

// rollback forgets what was recorded since m, the calls pending since among it.
func (w *Withholder) rollback(m mark) {
	w.items, w.nodes, w.cands, w.arena = w.items[:m.items], w.nodes[:m.nodes], w.cands[:m.cands], w.arena[:m.arena]
	w.pending, w.pendingStart = w.pending[:m.pending], m.pendingStart
	w.turn, w.pendingTurn = m.turn, m.pendingTurn
}

// walkJSON reads a JSON document; false when it is not valid JSON (nothing of it is then recorded).
func (w *Withholder) walkJSON(v pcommon.Value, b []byte) bool {
	l := jsonraw.NewLexer(b, jsonraw.DefaultMaxDepth)
	l.SkipSpace()
	m := w.mark()
	docs := len(w.docs)
	w.beginDoc(v, b)
	if !w.lexValue(&l, 0, inNone) || !l.AtEnd() {
		w.rollback(m)
		w.docs = w.docs[:docs]
		return false
	}
	return true
}

// lexValue reads the value at the cursor; depth is the nesting of the container holding it.
func (w *Withholder) lexValue(l *jsonraw.Lexer, depth int, ctx context) bool {
	switch l.Peek() {
	case '{':
		return w.lexObject(l, depth+1, ctx)
	case '[':
		empty, f := l.Open(depth + 1)
		if f != jsonraw.NoFault {
			return false
		}
		for more := !empty; more; {
			if !w.lexValue(l, depth+1, inNone) {
				return false
			}
			var ok bool
			if more, ok = l.More(']'); !ok {
				return false
			}
		}
		return true
	case '"':
		_, ok := l.String()
		return ok
	}
	return l.Scalar()
}

// lexObject reads the object at the cursor, itself at nesting depth.
func (w *Withholder) lexObject(l *jsonraw.Lexer, depth int, ctx context) bool {
	doc := w.docs[w.doc].raw
	start := l.Pos()
	m := w.mark()
	outer := w.role
	defer func() { w.role = outer }()
	var o object
	empty, f := l.Open(depth)
	if f != jsonraw.NoFault {
		return false
	}
	for more := !empty; more; {
		keyStart := l.Pos()
		keyEnd, _, ok := l.Key()
		if !ok {
			return false
		}
		key := jsonKey(doc[keyStart:keyEnd])
		valStart := l.Pos()
		switch l.Peek() {
		case '{', '[':
			if !w.lexValue(l, depth, contextOf(key)) {
				return false
			}
		default:
			if !w.lexValue(l, depth, inNone) {
				return false
			}
		}
		hadRole := o.role.ok()
		// The node is built in the call's arguments: built in a local first, it was copied there
		// by wide loads of the narrow stores just made, a store-forwarding stall on every member.
		o.read(key, jsonNode(doc[valStart:l.Pos()], valStart))
		if !hadRole && o.role.ok() {
			// The members after the role are this message's: a new turn, and text read as its role.
			w.role = o.role
			w.turn++
		}
		if more, ok = l.More('}'); !ok {
			return false
		}
	}
	o.self = jsonNode(doc[start:l.Pos()], start)
	switch o.classify(ctx) {
	case shapeCall:
		w.rollback(m)
		w.addCall(&o)
	case shapeResult:
		w.rollback(m)
		w.addResult(&o)
	case shapeLangChain:
		w.rollback(m)
		w.visitObject(o.kwargs, inResult)
	default:
		if w.Taint && o.isModelText(outer) {
			w.addText(o.text)
		}
	}
	return true
}
