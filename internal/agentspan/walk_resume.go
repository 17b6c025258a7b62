// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/message"
)

// A model call's transcript is the one before it and a few more messages: the earlier call's array
// under the same attribute of the same trace, its closing bracket replaced by more elements. What the
// walk of the earlier array recorded for the elements they share is what a walk of the later one
// would record for them again: the same bytes at the same offsets, read from the same state, since a
// document's walk starts afresh and what an element records depends only on the elements before it.
// So the later array takes the calls, results and texts of the shared elements from the earlier one,
// and is walked only past them: each model call's transcript costs its new messages, not the whole
// run so far. The rule is in docs/design.md#4-structure-first-internalagentspan-processorshapeonly.

// walkedArray is a transcript array walked whole, up to where its last element ends.
type walkedArray struct {
	raw []byte
	// end is the offset past its last element (0: it had none); items is where its records begin,
	// and at the walk's state at end.
	end   int
	items int
	at    mark
}

// walkTranscript is walkJSON for a declared transcript, resuming past the elements it shares with the
// array the owner's attribute held when walked last.
func (r *TranscriptReader) walkTranscript(owner Owner, attr string, v pcommon.Value, b []byte) bool {
	last := r.walked.Get(int32(owner), attr)
	walked, ok := r.walkJSON(v, b, *last)
	if ok && walked.end > 0 {
		// walkJSON reads no other transcript, so last still points into the table.
		*last = walked
	}
	return ok
}

// lexElement reads one element of a top-level array and notes the walk's state past it.
func (r *TranscriptReader) lexElement(l *jsonraw.Lexer, walked *walkedArray) bool {
	if !r.lexValue(l, 1, message.InNone) {
		return false
	}
	walked.end, walked.at = l.Pos(), r.mark()
	return true
}

// lexElements reads the rest of a top-level array, from past an element to its closing bracket.
func (r *TranscriptReader) lexElements(l *jsonraw.Lexer, walked *walkedArray) bool {
	for {
		more, ok := l.More(']')
		if !ok {
			return false
		}
		if !more {
			return true
		}
		if !r.lexElement(l, walked) {
			return false
		}
	}
}

// takeShared records again, for the document being walked, what the walk of prev recorded up to its
// last element: its items, their payloads, the candidates of its anonymous results (items, so
// renumbered), and the calls a result after them may answer; and it restores the walk's state there.
// Payload nodes keep the earlier array's bytes, which are the same at the same offsets, and ids and
// names their place in the arena.
func (r *TranscriptReader) takeShared(prev walkedArray) {
	shift := int32(len(r.items) - prev.items)
	for i := prev.items; i < prev.at.items; i++ {
		it := r.items[i]
		it.rec, it.doc = r.rec, r.doc
		first := len(r.nodes)
		r.nodes = append(r.nodes, r.nodes[it.first:it.first+it.n]...)
		it.first = int32(first)
		if it.nc > 0 {
			cand := len(r.cands)
			for _, c := range r.cands[it.cand : it.cand+it.nc] {
				r.cands = append(r.cands, c+shift)
			}
			it.cand = int32(cand)
		}
		r.items = append(r.items, it)
	}
	// The document's calls begin past every call before it (beginDoc), and these are the first.
	for _, c := range r.pending[prev.at.pendingStart:prev.at.pending] {
		r.pending = append(r.pending, c+shift)
	}
	r.turn, r.pendingTurn = prev.at.turn, prev.at.pendingTurn
}
