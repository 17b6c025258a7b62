package shapeonly

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/fingerprint"
	"github.com/agentotel/agentotel/internal/jsonraw"
)

// valueShaper shapes the values of one batch, remembers the leaves it withholds in the memory of the
// trace and run they belong to, and counts what it withheld. It belongs to one batch, so counting
// needs no lock; the counts go to telemetry when the batch is done.
type valueShaper struct {
	b        *batch
	buf      []byte
	withheld int
	failed   int
}

// remember adds what fn finds to the fingerprints of an owner's trace and run. Model text withheld
// by taint is not the tool's data and is not remembered (agentspan.NoOwner).
func (s *valueShaper) remember(owner int32, fn func(*fingerprint.Set) (int, bool)) {
	if owner < 0 {
		return
	}
	o := &s.b.owners[owner]
	for _, sc := range [2]*scope{o.trace, o.run} {
		if sc != nil {
			s.b.p.memory.account(sc, sc.add(s.b.p.cfg.MaxFingerprintsPerTrace, fn))
		}
	}
}

func (s *valueShaper) rememberJSON(owner int32, doc []byte) {
	s.remember(owner, func(set *fingerprint.Set) (int, bool) {
		added, full, _ := set.AddJSONLeaves(doc, s.b.p.keptKey)
		return added, full
	})
}

func (s *valueShaper) rememberLeaf(owner int32, leaf []byte) {
	s.remember(owner, func(set *fingerprint.Set) (int, bool) { return set.AddLeaf(leaf) })
}

// ShapeJSON implements agentspan.Shaper: one raw JSON value of a transcript.
func (s *valueShaper) ShapeJSON(dst, raw []byte, owner int32) []byte {
	s.rememberJSON(owner, raw)
	out, stats, err := s.b.p.shaper.AppendValue(dst, raw)
	s.count(stats, err)
	return out
}

// ShapeValue implements agentspan.Shaper: an OTLP value, in place.
func (s *valueShaper) ShapeValue(v pcommon.Value, owner int32) { s.shapeAttr("", v, owner) }

// Unreadable implements agentspan.Shaper: a transcript that cannot be read is withheld whole, as the
// JSON string "[withheld]" so readers that parse the attribute still can.
func (s *valueShaper) Unreadable(string, int32) string {
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
// is remembered for owner.
func (s *valueShaper) shapeAttr(key string, v pcommon.Value, owner int32) {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		text := jsonraw.StringBytes(v.Str())
		if !countsonly.LooksLikeJSON(text) && s.b.p.shaper.Kept(key) {
			return
		}
		s.rememberJSONOrText(owner, text)
		out, stats, err := s.b.p.shaper.AppendText(s.buf[:0], text)
		s.buf = out[:0]
		s.count(stats, err)
		v.SetStr(string(out))
	case pcommon.ValueTypeSlice:
		s.rememberAll(owner, v)
		v.SetStr(countsonly.WithheldArray(v.Slice().Len()))
		s.withheld++
	case pcommon.ValueTypeMap:
		v.Map().Range(func(k string, inner pcommon.Value) bool {
			s.shapeAttr(k, inner, owner)
			return true
		})
	case pcommon.ValueTypeBytes:
		s.rememberLeaf(owner, v.Bytes().AsRaw())
		v.SetStr(countsonly.Withheld)
		s.withheld++
	}
}

// rememberJSONOrText remembers a text value's withheld leaves: its JSON leaves, or the whole text.
func (s *valueShaper) rememberJSONOrText(owner int32, text []byte) {
	if countsonly.LooksLikeJSON(text) {
		s.rememberJSON(owner, text)
		return
	}
	s.rememberLeaf(owner, text)
}

// rememberAll remembers every string inside a value withheld whole (an array: what it holds is
// withheld, kept keys or not).
func (s *valueShaper) rememberAll(owner int32, v pcommon.Value) {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		s.rememberJSONOrText(owner, jsonraw.StringBytes(v.Str()))
	case pcommon.ValueTypeBytes:
		s.rememberLeaf(owner, v.Bytes().AsRaw())
	case pcommon.ValueTypeSlice:
		for i := 0; i < v.Slice().Len(); i++ {
			s.rememberAll(owner, v.Slice().At(i))
		}
	case pcommon.ValueTypeMap:
		v.Map().Range(func(_ string, inner pcommon.Value) bool {
			s.rememberAll(owner, inner)
			return true
		})
	}
}

var _ agentspan.Shaper = (*valueShaper)(nil)
