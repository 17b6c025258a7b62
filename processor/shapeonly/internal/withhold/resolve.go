// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package withhold

import (
	"cmp"
	"slices"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// callRef is a call's key in the batch: its owner and its id. The id views the reader's arena, which
// nothing writes to while the batch is resolved, and Reset forgets the keys before the arena is
// written again.
type callRef struct {
	owner agentspan.Owner
	id    string
}

func (w *Withholder) callRef(owner agentspan.Owner, id agentspan.Ref) callRef {
	b := w.r.Text(id)
	return callRef{owner: owner, id: zerocopy.String(b)}
}

// Resolve decides which calls and results are data-class. Calls first, over the whole batch, so a
// result finds its call wherever the call was; then results and model text in reading order.
func (w *Withholder) Resolve(p Policy) {
	w.sync()
	items := w.r.Items()
	unnamed := false
	for i := range items {
		it := &items[i]
		if it.Kind() != agentspan.ItemCall {
			continue
		}
		owner := w.r.Owner(it.Record())
		dc := w.dc[i]
		for _, n := range it.Names() {
			dc = dc || p.ToolShaped(w.r.Text(n))
		}
		for _, id := range it.IDs() {
			dc = dc || p.CallShaped(owner, w.r.Text(id))
		}
		w.classCall(p, i, owner, dc)
		unnamed = unnamed || !dc && len(it.Names()) == 0
	}
	if unnamed {
		w.resolveUnnamed(p, items)
	}
	for i := range items {
		it := &items[i]
		rec := &w.records[it.Record()]
		switch it.Kind() {
		case agentspan.ItemResult:
			w.dc[i] = w.resultShaped(it, w.r.Owner(it.Record()), p)
			rec.tainted = rec.tainted || w.dc[i]
		case agentspan.ItemText:
			w.dc[i] = rec.tainted
		}
	}
}

// classCall records whether call item i is data-class, for each of its ids, and remembers a
// data-class one.
func (w *Withholder) classCall(p Policy, i int, owner agentspan.Owner, dc bool) {
	it := &w.r.Items()[i]
	for _, id := range it.IDs() {
		key := w.callRef(owner, id)
		c := w.calls[key]
		c.dc, c.named = c.dc || dc, c.named || len(it.Names()) > 0
		w.calls[key] = c
		if dc {
			p.Remember(owner, w.r.Text(id))
		}
	}
	if dc && len(it.IDs()) == 0 {
		p.Remember(owner, nil)
	}
	w.dc[i] = dc
}

// resolveUnnamed classes data-class, in an owner whose memory forgot which of its calls were, each
// call that names no tool and whose ids no call of the batch names a tool for: it may be one of the
// forgotten calls, and only a call of a tool known not to be data-class has results that stay.
func (w *Withholder) resolveUnnamed(p Policy, items []agentspan.Item) {
	for i := range items {
		it := &items[i]
		if it.Kind() != agentspan.ItemCall || w.dc[i] || len(it.Names()) > 0 {
			continue
		}
		owner := w.r.Owner(it.Record())
		named := false
		for _, id := range it.IDs() {
			named = named || w.calls[w.callRef(owner, id)].named
		}
		if !named && p.Forgotten(owner) {
			w.classCall(p, i, owner, true)
		}
	}
}

// resultShaped decides one result. A result found by id belongs to its call; one that names its tool
// is judged by the name; one that says neither answers the calls of the message before it, and is
// withheld if any of them is data-class. A result whose call cannot be found and which names no tool
// is withheld when its owner carries data-class data: it might be that call's; so is a tool-message
// event's (it can name nothing else) whenever any tool is data-class. What is withheld for want of an
// attribution is remembered like any result: it may be the customer's.
func (w *Withholder) resultShaped(it *agentspan.Item, owner agentspan.Owner, p Policy) bool {
	for _, n := range it.Names() {
		if p.ToolShaped(w.r.Text(n)) {
			return true
		}
	}
	if ids := it.IDs(); len(ids) > 0 {
		known := false
		for _, id := range ids {
			c, ok := w.calls[w.callRef(owner, id)]
			if c.dc || p.CallShaped(owner, w.r.Text(id)) {
				return true
			}
			known = known || ok
		}
		// A result that names its tool is that tool's, whether or not its call is found.
		if known || len(it.Names()) > 0 {
			return false
		}
		return p.TraceShaped(owner) || it.FromEvent() && p.AnyShaped()
	}
	if len(it.Names()) > 0 {
		return false
	}
	cands := w.r.Candidates(it)
	if len(cands) == 0 {
		return p.TraceShaped(owner)
	}
	for _, c := range cands {
		if w.dc[c] {
			return true
		}
	}
	return false
}

// ShapedCallIn reports whether Resolve found a data-class call in records first to last.
func (w *Withholder) ShapedCallIn(first, last int32) bool {
	w.sync()
	items := w.r.Items()
	for i := w.firstItemOf(first); i < len(items) && items[i].Record() <= last; i++ {
		if items[i].Kind() == agentspan.ItemCall && w.dc[i] {
			return true
		}
	}
	return false
}

// Withdraw leaves records first to last to the caller, which withholds them whole: Apply changes
// nothing in them.
func (w *Withholder) Withdraw(first, last int32) {
	w.sync()
	items := w.r.Items()
	for i := w.firstItemOf(first); i < len(items) && items[i].Record() <= last; i++ {
		w.dc[i] = false
	}
	for rec := max(first, 0); rec <= last && int(rec) < len(w.records); rec++ {
		w.records[rec].withdrawn = true
	}
}

// firstItemOf is the index of the first item of record rec or a later one. Items, like documents, are
// recorded in the order of their records.
func (w *Withholder) firstItemOf(rec int32) int {
	i, _ := slices.BinarySearchFunc(w.r.Items(), rec, func(it agentspan.Item, rec int32) int { return cmp.Compare(it.Record(), rec) })
	return i
}
