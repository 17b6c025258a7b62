// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/pyliteral"
	"github.com/agentotel/agentotel/internal/zerocopy"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/withhold"
)

// valueShaper shapes the values of one batch, remembers the leaves it withholds in the memory of the
// trace and run they belong to, and counts what it withheld. It belongs to one batch, so counting
// needs no lock; the counts go to telemetry when the batch is done.
type valueShaper struct {
	b        *batch
	buf      []byte
	withheld int
	failed   int
	// A model span carries the transcript so far, so each result arrives again on every later model
	// call of its trace. remembered are the texts already remembered in this batch (remembering is
	// the dearest step of shaping), shaped the raw values already shaped, by their keys as JSON texts
	// (keyOf), their shaped forms in shapedOut.
	remembered map[rememberedText]struct{}
	shaped     map[textKey]shapedValue
	shapedOut  []byte
	// shapedAt finds a value shaped before by where its bytes are: a transcript's copy of a result is
	// handed over as its original's bytes (agentspan passes copies over by comparing them), and is
	// known again without hashing them.
	shapedAt map[zerocopy.At]shapedValue
	// listed is what shaping the last raw value withheld; shapedLeaves keeps it for each value in
	// shaped, so that remembering a value does not read it again.
	listed       countsonly.Leaves
	shapedLeaves []countsonly.Leaf
	// nesting is how deep shapeAttr is in one value; leaves are the leaves of that value, remembered
	// together when it is done.
	nesting int
	leaves  [][]byte
	// toolNamesKept: the record being shaped is withheld for naming a data-class tool in its values,
	// and a string that is a configured tool's name says which tool it ran (naming.go).
	toolNamesKept bool
}

// shapedValue is what shaping a raw value gave: shapedOut[from:to], and its counts; key is the raw
// value's as a JSON text (keyOf), for remembering its copies without hashing each again; when listed,
// shapedLeaves[leavesFrom:leavesTo] are the strings it withheld, and nesting how deep it nests.
type shapedValue struct {
	from, to             int
	stats                countsonly.Stats
	err                  error
	key                  textKey
	leavesFrom, leavesTo int
	listed               bool
	nesting              int
}

// A listing is the strings shaping withheld from a JSON text, when it listed them all (complete).
type listing struct {
	leaves   []countsonly.Leaf
	complete bool
}

func (s *valueShaper) listingOf(done shapedValue) listing {
	return listing{leaves: s.shapedLeaves[done.leavesFrom:done.leavesTo], complete: done.listed}
}

// rememberedText is a text remembered for an owner.
type rememberedText struct {
	owner agentspan.Owner
	text  textKey
}

// remember adds the leaves of text, a JSON document's or the text as one leaf, to the fingerprints of
// an owner's trace and run, unless the same text was remembered for the owner the same way in this
// batch: what a text adds is the same every time. The scopes themselves know the texts they were
// given in earlier batches.
func (s *valueShaper) remember(owner agentspan.Owner, json bool, text []byte) {
	if !json {
		s.rememberKeyed(owner, keyOf(false, text), text, listing{})
		return
	}
	if done, shaped := s.shapedAt[zerocopy.AtOf(text)]; shaped {
		s.rememberKeyed(owner, done.key, text, s.listingOf(done))
		return
	}
	key := keyOf(true, text)
	if done, shaped := s.shaped[key]; shaped {
		s.rememberKeyed(owner, key, text, s.listingOf(done))
		return
	}
	s.rememberKeyed(owner, key, text, listing{})
}

// rememberKeyed is remember for a text whose key is known, and, for a JSON text shaping listed, what
// it withheld.
func (s *valueShaper) rememberKeyed(owner agentspan.Owner, textKey textKey, text []byte, l listing) {
	key := rememberedText{owner: owner, text: textKey}
	if _, done := s.remembered[key]; done {
		return
	}
	s.remembered[key] = struct{}{}
	o := &s.b.owners[owner]
	for _, sc := range [2]*scope{o.trace, o.run} {
		if sc != nil {
			sc.add(s.b.p.setBounds, key.text, text, s.b.p.keptKey, l)
		}
	}
}

// rememberJSON remembers the leaves of a JSON document, or the document as one leaf when it is not
// valid JSON.
func (s *valueShaper) rememberJSON(owner agentspan.Owner, doc []byte) { s.remember(owner, true, doc) }

// rememberLeaf remembers a withheld text as one leaf. Inside a structured value it waits for the
// value's other leaves, so that they go to the fingerprints together (flushLeaves): one lock, one sizing
// of the table and one rebuild of the prefilter for all of them. Such leaves are short and adding one
// again adds nothing, so they are not looked up in remembered first: hashing each would cost more.
func (s *valueShaper) rememberLeaf(owner agentspan.Owner, leaf []byte) {
	if s.nesting == 0 {
		s.remember(owner, false, leaf)
		return
	}
	s.leaves = append(s.leaves, leaf)
}

// flushLeaves remembers the leaves a structured value gathered.
func (s *valueShaper) flushLeaves(owner agentspan.Owner) {
	if len(s.leaves) == 0 {
		return
	}
	o := &s.b.owners[owner]
	for _, sc := range [2]*scope{o.trace, o.run} {
		if sc != nil {
			sc.addLeaves(s.b.p.setBounds, s.leaves)
		}
	}
	clear(s.leaves)
	s.leaves = s.leaves[:0]
}

// forget drops what was remembered and shaped in this batch.
func (s *valueShaper) forget() {
	clear(s.remembered)
	clear(s.shaped)
	clear(s.shapedAt)
	s.shapedOut, s.shapedLeaves = s.shapedOut[:0], s.shapedLeaves[:0]
}

// ShapeJSON implements withhold.Shaper: one raw JSON value of a transcript. A value shaped before
// in the batch is written as it was shaped then.
func (s *valueShaper) ShapeJSON(dst, raw []byte, owner agentspan.Owner, r withhold.Remember) ([]byte, bool) {
	done := s.shapeOnce(raw)
	s.rememberRaw(owner, raw, done, r)
	s.count(done.stats, done.err)
	return append(dst, s.shapedOut[done.from:done.to]...), withheldAny(done.stats, done.err)
}

// shapeOnce returns what shaping a raw value gave, shaping it if it was not shaped before in the batch.
// raw is a record's own bytes, which do not change while the batch is shaped.
func (s *valueShaper) shapeOnce(raw []byte) shapedValue {
	at := zerocopy.AtOf(raw)
	if done, ok := s.shapedAt[at]; ok {
		return done
	}
	key := keyOf(true, raw)
	done, ok := s.shaped[key]
	if !ok {
		done = s.shapeRaw(raw, key)
	}
	s.shapedAt[at] = done
	return done
}

// shapeRaw shapes a raw value not shaped before in the batch, into shapedOut; key is its keyOf.
func (s *valueShaper) shapeRaw(raw []byte, key textKey) shapedValue {
	from := len(s.shapedOut)
	out, scratch, stats, err := s.b.p.shaper.AppendValue(s.shapedOut, raw, s.buf, &s.listed)
	s.buf, s.shapedOut = scratch[:0], out
	done := shapedValue{from: from, to: len(out), stats: stats, err: err, key: key,
		leavesFrom: len(s.shapedLeaves), listed: s.listed.Complete, nesting: s.listed.Nesting}
	s.shapedLeaves = append(s.shapedLeaves, s.listed.List...)
	done.leavesTo = len(s.shapedLeaves)
	s.shaped[key] = done
	return done
}

// withheldAny reports whether shaping a value withheld something: a leaf, or the whole value when
// shaping failed.
func withheldAny(stats countsonly.Stats, err error) bool { return err != nil || stats.Withheld() > 0 }

// ShapeValue implements withhold.Shaper: an OTLP value, in place.
func (s *valueShaper) ShapeValue(v pcommon.Value, owner agentspan.Owner, r withhold.Remember) bool {
	before := s.withheld
	s.shapeAttr("", v, owner, r)
	return s.withheld != before
}

// rememberRaw remembers a raw JSON value's withheld leaves as r says; done is what shaping it gave. A
// JSON string that holds no JSON is one leaf of a result; an argument that is not JSON is not
// remembered.
func (s *valueShaper) rememberRaw(owner agentspan.Owner, raw []byte, done shapedValue, r withhold.Remember) {
	switch r {
	case withhold.RememberAll:
		s.rememberKeyed(owner, done.key, raw, s.listingOf(done))
	case withhold.RememberJSON:
		if len(raw) > 0 && raw[0] == '"' {
			holds, buf := s.b.p.shaper.StringHoldsDocument(raw, s.buf)
			if s.buf = buf; holds {
				s.rememberKeyed(owner, done.key, raw, s.listingOf(done))
			}
			return
		}
		s.rememberKeyed(owner, done.key, raw, s.listingOf(done))
	}
}

// Unreadable implements withhold.Shaper: a transcript that cannot be read is withheld whole, as the
// JSON string "[withheld]" so readers that parse the attribute still can.
func (s *valueShaper) Unreadable(string, agentspan.Owner) string {
	s.withheld++
	s.failed++
	return `"` + countsonly.Withheld + `"`
}

func (s *valueShaper) count(stats countsonly.Stats, err error) {
	s.withheld += stats.Withheld()
	if err != nil {
		s.failed++
	}
}

// shapeAttr shapes one attribute value in place; key is its attribute or map key. What it withholds
// is remembered for owner as r says (owner is not read when r remembers nothing).
func (s *valueShaper) shapeAttr(key string, v pcommon.Value, owner agentspan.Owner, r withhold.Remember) {
	s.nesting++
	s.shapeIn(key, v, owner, r)
	if s.nesting--; s.nesting == 0 {
		s.flushLeaves(owner)
	}
}

// withhold shapes one attribute value in place, remembering nothing of it.
func (s *valueShaper) withhold(key string, v pcommon.Value) {
	s.shapeAttr(key, v, 0, withhold.RememberNothing)
}

// shapeIn is shapeAttr's work, inside the value being shaped.
func (s *valueShaper) shapeIn(key string, v pcommon.Value, owner agentspan.Owner, r withhold.Remember) {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		text := zerocopy.Bytes(v.Str())
		if !countsonly.LooksLikeJSON(text) && s.b.p.shaper.Kept(key) || s.toolNamesKept && s.b.p.known.IsName(text) {
			return
		}
		// Shaped first: shaping lists what it withholds, and remembering it then need not read it.
		out, stats, err := s.shapeText(text)
		s.count(stats, err)
		v.SetStr(string(out))
		s.rememberText(owner, text, r)
	case pcommon.ValueTypeSlice:
		s.rememberAll(owner, v, r)
		v.SetStr(countsonly.WithheldArray(v.Slice().Len()))
		s.withheld++
	case pcommon.ValueTypeMap:
		v.Map().Range(func(k string, inner pcommon.Value) bool {
			s.shapeAttr(k, inner, owner, r)
			return true
		})
	case pcommon.ValueTypeBytes:
		if r == withhold.RememberAll {
			s.rememberLeaf(owner, v.Bytes().AsRaw())
		}
		v.SetStr(countsonly.Withheld)
		s.withheld++
	}
}

// shapeText shapes a text value. A JSON text is shaped as a raw value, once in the batch: a tool's
// result arrives again in the transcript of the model's next call. Shaping a JSON value as text or as
// a raw value differs only where it fails, and then it is shaped as text.
func (s *valueShaper) shapeText(text []byte) ([]byte, countsonly.Stats, error) {
	if countsonly.LooksLikeJSON(text) {
		if done := s.shapeOnce(text); done.err == nil {
			return s.shapedOut[done.from:done.to], done.stats, nil
		}
	}
	out, stats, err := s.b.p.shaper.AppendText(s.buf[:0], text)
	s.buf = out[:0]
	return out, stats, err
}

// rememberText remembers a text value's withheld leaves as r says: its JSON leaves, or, for a result,
// the whole text.
func (s *valueShaper) rememberText(owner agentspan.Owner, text []byte, r withhold.Remember) {
	switch {
	case r == withhold.RememberNothing, len(text) == 0:
	case pyliteral.LooksLikeRepr(text):
		// A Python SDK's str(result) or printed arguments, the repr of a dict: its values, each a leaf
		// of its own, as its JSON would give them, so that one of them alone is found again. A result
		// that is no literal is one leaf; arguments that are none are not remembered, as any text.
		if doc, ok := pyliteral.ToJSON(nil, text, s.b.p.cfg.MaxDepth); ok {
			s.rememberJSON(owner, doc)
		} else if r == withhold.RememberAll {
			s.rememberLeaf(owner, text)
		}
	case r == withhold.RememberAll && countsonly.LooksLikeJSON(text):
		// Its leaves, or, when it is broken JSON, the whole text as one leaf: rememberJSON tells
		// them apart in the same pass.
		s.rememberJSON(owner, text)
	case s.b.p.shaper.IsDocument(text):
		s.rememberJSON(owner, text)
	case r == withhold.RememberAll:
		// A result that is not JSON is withheld whole: one leaf.
		s.rememberLeaf(owner, text)
	}
}

// rememberAll remembers every string inside a value withheld whole (an array: what it holds is
// withheld, kept keys or not).
func (s *valueShaper) rememberAll(owner agentspan.Owner, v pcommon.Value, r withhold.Remember) {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		s.rememberText(owner, zerocopy.Bytes(v.Str()), r)
	case pcommon.ValueTypeBytes:
		if r == withhold.RememberAll {
			s.rememberLeaf(owner, v.Bytes().AsRaw())
		}
	case pcommon.ValueTypeSlice:
		for i := 0; i < v.Slice().Len(); i++ {
			s.rememberAll(owner, v.Slice().At(i), r)
		}
	case pcommon.ValueTypeMap:
		v.Map().Range(func(_ string, inner pcommon.Value) bool {
			s.rememberAll(owner, inner, r)
			return true
		})
	}
}

var _ withhold.Shaper = (*valueShaper)(nil)
