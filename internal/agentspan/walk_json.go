// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/message"
)

// A JSON transcript is read in one pass over the lexer, validating as it goes: every byte is scanned
// once, however deep the document. An object's members are read, and its containers looked into,
// before the object is classified; when it turns out to be a call or a result, what was recorded
// inside it is rolled back and the call or result recorded instead (its payloads are not looked
// into). A document that turns out invalid is rolled back whole.

// mark is the reader's recording state at one point of the walk, to roll back to.
type mark struct {
	items, nodes, cands, arena, pending, pendingStart int
	turn, pendingTurn                                 int32
}

func (r *TranscriptReader) mark() mark {
	return mark{items: len(r.items), nodes: len(r.nodes), cands: len(r.cands), arena: len(r.arena),
		pending: len(r.pending), pendingStart: r.pendingStart, turn: r.turn, pendingTurn: r.pendingTurn}
}

// rollback forgets what was recorded since m, the calls pending since among it.
func (r *TranscriptReader) rollback(m mark) {
	r.items, r.nodes, r.cands, r.arena = r.items[:m.items], r.nodes[:m.nodes], r.cands[:m.cands], r.arena[:m.arena]
	r.pending, r.pendingStart = r.pending[:m.pending], m.pendingStart
	r.turn, r.pendingTurn = m.turn, m.pendingTurn
}

// walkJSON reads a JSON document; false when it is not valid JSON (nothing of it is then recorded). A
// top-level array is read element by element, and past the elements it shares with prev, an array
// walked before (walk_resume.go; the zero prev shares none); walked is where it ended.
func (r *TranscriptReader) walkJSON(v pcommon.Value, b []byte, prev walkedArray) (walked walkedArray, ok bool) {
	l := jsonraw.NewLexer(b, r.reg.maxDepth)
	l.SkipSpace()
	m := r.mark()
	docs := len(r.docs)
	r.beginDoc(v, b)
	walked = walkedArray{raw: b, items: len(r.items)}
	switch {
	case jsonraw.SharesElements(prev.raw, prev.end, b):
		r.takeShared(prev)
		walked.end, walked.at = prev.end, r.mark()
		l.Seek(prev.end)
		ok = r.lexElements(&l, &walked)
	case l.Peek() == '[':
		empty, f := l.Open(1)
		ok = f == jsonraw.NoFault && (empty || r.lexElement(&l, &walked) && r.lexElements(&l, &walked))
	default:
		ok = r.lexValue(&l, 0, message.InNone)
	}
	if !ok || !l.AtEnd() {
		r.rollback(m)
		r.docs = r.docs[:docs]
		return walkedArray{}, false
	}
	return walked, true
}

// lexValue reads the value at the cursor; depth is the nesting of the container holding it.
func (r *TranscriptReader) lexValue(l *jsonraw.Lexer, depth int, ctx message.Context) bool {
	switch l.Peek() {
	case '{':
		return r.lexObject(l, depth+1, ctx)
	case '[':
		empty, f := l.Open(depth + 1)
		if f != jsonraw.NoFault {
			return false
		}
		for more := !empty; more; {
			if !r.lexValue(l, depth+1, message.InNone) {
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

// lexObject reads the object at the cursor, itself at nesting depth. Once its first members show it
// to be a call or a result, its containers are its payload: they are validated and passed over, not
// walked, since whatever the walk recorded inside would be rolled back. If a later member shows it
// is neither after all, it is read again, containers walked, and so is everything inside it: read
// again with passing over allowed, each level of a document nested deep could read its inner levels
// twice, and the walk take time exponential in the depth.
func (r *TranscriptReader) lexObject(l *jsonraw.Lexer, depth int, ctx message.Context) bool {
	from := *l
	m := r.mark()
	outer := r.role
	o := r.objects.Push()
	defer func() { r.role = outer; r.objects.Pop() }()
	skipped, ok := r.readObject(l, depth, ctx, o)
	if !ok {
		return false
	}
	shape := o.Classify(ctx)
	if skipped && shape != message.ShapeResult && shape != message.ShapeCall {
		*l, r.role = from, outer
		r.rollback(m)
		*o = message.Object{}
		r.walkAll = true
		_, ok := r.readObject(l, depth, ctx, o)
		r.walkAll = false
		if !ok {
			return false
		}
		shape = o.Classify(ctx)
	}
	switch shape {
	case message.ShapeCall:
		r.rollback(m)
		r.addCall(o)
	case message.ShapeResult:
		r.rollback(m)
		r.addResult(o)
	case message.ShapeLangChain:
		r.rollback(m)
		r.visitObject(o.Kwargs, message.InResult)
	default:
		if o.Text.Kind() == message.KindString {
			r.addReAct(o.Text)
		}
		if r.ModelText && o.IsModelText(outer) {
			r.addText(o.Text)
		}
	}
	return true
}

// readObject reads the members of the object at the cursor into o; unless walkAll is set, the
// containers of an object already known to be a call or a result are passed over (skipped reports that
// one was).
func (r *TranscriptReader) readObject(l *jsonraw.Lexer, depth int, ctx message.Context, o *message.Object) (skipped, ok bool) {
	doc := r.docs[r.doc].raw
	start := l.Pos()
	empty, f := l.Open(depth)
	if f != jsonraw.NoFault {
		return false, false
	}
	for more := !empty; more; {
		keyStart := l.Pos()
		keyEnd, _, ok := l.Key()
		if !ok {
			return false, false
		}
		key := message.Key(doc[keyStart:keyEnd])
		valStart := l.Pos()
		var copyOf []byte
		switch l.Peek() {
		case '{', '[':
			if !r.walkAll && o.IsCallOrResult(ctx) {
				var f jsonraw.Fault
				if copyOf, f = l.SkipRepeatable(depth, &r.repeats); f != jsonraw.NoFault {
					return false, false
				}
				skipped = true
			} else if !r.lexValue(l, depth, message.ContextOf(key)) {
				return false, false
			}
		default:
			if !r.lexValue(l, depth, message.InNone) {
				return false, false
			}
		}
		hadRole := o.Role.OK()
		// The node is built in the call's arguments: built in a local first, it was copied there
		// by wide loads of the narrow stores just made, a store-forwarding stall on every member.
		raw := doc[valStart:l.Pos()]
		if copyOf != nil {
			// A copy's bytes are its original's, and the shaper knows the original by its address.
			raw = copyOf
		}
		o.Read(key, message.JSONNode(raw, valStart))
		if !hadRole && o.Role.OK() {
			// The members after the role are this message's: a new turn, and text read as its role.
			r.role = o.Role
			r.turn++
		}
		if more, ok = l.More('}'); !ok {
			return false, false
		}
	}
	o.Self = message.JSONNode(doc[start:l.Pos()], start)
	return skipped, true
}
