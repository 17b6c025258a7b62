package shapeonly

import (
	"strconv"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/jsonraw"
)

// valueShaper shapes the values of one batch and counts what it withheld. It is not shared between
// batches, so counting needs no lock; the counts go to telemetry when the batch is done.
type valueShaper struct {
	shaper   *countsonly.Shaper
	buf      []byte
	withheld int
	failed   int
}

// shapeAttr shapes one attribute value in place; key is its attribute or map key.
func (s *valueShaper) shapeAttr(key string, v pcommon.Value) {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		str := v.Str()
		if countsonly.LooksLikeJSON(jsonraw.StringBytes(str)) {
			v.SetStr(s.ShapeText(str))
			return
		}
		if !s.shaper.Kept(key) {
			v.SetStr(countsonly.Withheld)
			s.withheld++
		}
	case pcommon.ValueTypeSlice:
		v.SetStr(arrayPlaceholder(v.Slice().Len()))
		s.withheld++
	case pcommon.ValueTypeMap:
		v.Map().Range(func(k string, inner pcommon.Value) bool {
			s.shapeAttr(k, inner)
			return true
		})
	case pcommon.ValueTypeBytes:
		v.SetStr(countsonly.Withheld)
		s.withheld++
	}
}

// ShapeText shapes a string that may hold JSON; text that is not JSON carries no key, so it is withheld.
func (s *valueShaper) ShapeText(str string) string {
	b := jsonraw.StringBytes(str)
	if !countsonly.LooksLikeJSON(b) {
		s.withheld++
		return countsonly.Withheld
	}
	out, stats, err := s.shaper.AppendJSON(s.buf[:0], b)
	s.buf = out[:0]
	if err != nil {
		s.failed++
		s.withheld++
		return countsonly.Withheld
	}
	s.withheld += stats.Withheld()
	return string(out)
}

// ShapeJSON appends the shaped form of one raw JSON value from a transcript. A result is often a JSON
// string that itself holds JSON (SDKs stringify tool output); that string is shaped as JSON and
// written back as a string.
func (s *valueShaper) ShapeJSON(dst, raw []byte) []byte {
	if len(raw) > 0 && raw[0] == '"' {
		text, ok := jsonraw.Unquote(raw)
		if !ok {
			s.failed++
			s.withheld++
			return jsonraw.AppendString(dst, countsonly.Withheld)
		}
		return jsonraw.AppendString(dst, s.ShapeText(text))
	}
	out, stats, err := s.shaper.AppendJSON(dst, raw)
	if err != nil {
		s.failed++
		s.withheld++
		return jsonraw.AppendString(dst, countsonly.Withheld)
	}
	s.withheld += stats.Withheld()
	return out
}

func arrayPlaceholder(n int) string {
	return "[" + strconv.Itoa(n) + " withheld]"
}
