// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"fmt"
	"sort"
	"unsafe"

	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/jsonraw"
)

// RedactJSON appends doc, a JSON document, to dst with every value that holds a withheld region
// replaced by "[withheld]", and reports whether it replaced any. The document is searched once,
// as RedactText searches text (verbatim, decoded up to three times, and read from inside
// escapes), and each region withholds the values it falls in: strings, object keys and numbers.
// A region that runs across values withholds each of them. A string directly under a key that
// kept reports true (kept sees the key decoded; nil keeps none) is left as it is, as the shaping
// leaves it. A string that itself holds a JSON
// object or array (a document stringified into another) is redacted inside by the same rules and
// encoded again, rather than withheld whole.
//
// If nothing is replaced, dst holds doc unchanged; otherwise the objects and arrays that held a
// region are written compact, and everything else as it was.
// A document that is not valid JSON (or nests deeper than jsonraw.DefaultMaxDepth) returns an
// error and dst unchanged: the caller can fall back to RedactText or withhold it whole.
func (sc *Scanner) RedactJSON(dst []byte, sets []*Set, doc []byte, kept func(key []byte) bool) ([]byte, bool, error) {
	if err := validate(doc); err != nil {
		return dst, false, err
	}
	if !sc.find(sets, doc, search{}) {
		return append(dst, doc...), false, nil
	}
	dst, changed := sc.redactFoundJSON(dst, sets, doc, kept)
	return dst, changed, nil
}

// Redacted returns text with what it holds of sets withheld, in a new buffer: a JSON object or
// array as RedactJSON rewrites it (kept as there), any other text, and a document that is not
// valid JSON, as RedactText rewrites it. It returns nil and false when nothing is replaced. The
// text is searched once, and copied only when something in it is withheld: most text a batch
// searches holds nothing, and searching it first to decide (Hit) would read it twice.
func (sc *Scanner) Redacted(sets []*Set, text []byte, kept func(key []byte) bool) ([]byte, bool) {
	if !jsonraw.IsContainer(text) {
		return sc.RedactedText(sets, text)
	}
	if !sc.find(sets, text, search{}) {
		return nil, false
	}
	if validate(text) != nil {
		// Searched again, as text: only a broken document that holds a region pays for that.
		return sc.RedactedText(sets, text)
	}
	out, changed := sc.redactFoundJSON(redactBuffer(text), sets, text, kept)
	if !changed {
		return nil, false
	}
	return out, true
}

// redactFoundJSON is RedactJSON for a valid document in which find has just found the regions
// in sc.spans.
func (sc *Scanner) redactFoundJSON(dst []byte, sets []*Set, doc []byte, kept func([]byte) bool) ([]byte, bool) {
	// The regions go on a stack in the Scanner: a stringified document inside is searched with
	// the same Scanner, and pushes its own above these.
	base := len(sc.docSpans)
	sc.docSpans = append(sc.docSpans, sc.spans...)
	defer func() { sc.docSpans = sc.docSpans[:base] }()
	spans := mergeSpans(sc.docSpans[base:])
	r := jsonRedactor{sc: sc, sets: sets, kept: kept, doc: doc, spans: spans}
	start := len(dst)
	dst, changed := r.value(dst, doc[jsonraw.SkipSpace(doc, 0):], false)
	if !changed {
		return append(dst[:start], doc...), false
	}
	return dst, true
}

// redactBuffer is a buffer for the redacted copy of text that Redacted and RedactedText return:
// a marker is at most a few bytes longer than the region it replaces.
func redactBuffer(text []byte) []byte { return make([]byte, 0, len(text)+64) }

// validate returns nil if doc is exactly one JSON value, nested no deeper than
// jsonraw.DefaultMaxDepth.
func validate(doc []byte) error {
	l := jsonraw.NewLexer(doc, jsonraw.DefaultMaxDepth)
	l.SkipSpace()
	return documentError(&l, l.SkipValue(0))
}

// documentError is validate's error for a document whose value was scanned with l, ending in
// fault f: nil when there was no fault and only whitespace follows.
func documentError(l *jsonraw.Lexer, f jsonraw.Fault) error {
	switch {
	case f != jsonraw.NoFault:
		return fmt.Errorf("fingerprint: %w", l.Err(f))
	case !l.AtEnd():
		return fmt.Errorf("fingerprint: %w: data after the document at offset %d", jsonraw.ErrSyntax, l.Pos())
	}
	return nil
}

// jsonRedactor writes one validated document with the values that hold a region withheld.
type jsonRedactor struct {
	sc    *Scanner
	sets  []*Set
	kept  func([]byte) bool
	doc   []byte
	spans []span // the regions found in doc, sorted and disjoint
}

// value appends the value v (a slice of doc), redacted; keep says it sits directly under a kept
// key. A value no region falls in is copied as it is, without walking it.
func (r *jsonRedactor) value(dst, v []byte, keep bool) ([]byte, bool) {
	if !r.holds(v) {
		return append(dst, v...), false
	}
	switch v[0] {
	case '{':
		changed := false
		dst = append(dst, '{')
		n := 0
		jsonraw.EachMember(v, func(m jsonraw.Member) {
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			var c1, c2 bool
			dst, c1 = r.token(dst, m.Key)
			dst = append(dst, ':')
			dst, c2 = r.value(dst, m.Value, r.kept != nil && r.kept(r.sc.keyText(m.Key)))
			changed = changed || c1 || c2
		})
		return append(dst, '}'), changed
	case '[':
		changed := false
		dst = append(dst, '[')
		n := 0
		jsonraw.EachElement(v, func(elem []byte, _ int) {
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			var c bool
			dst, c = r.value(dst, elem, false)
			changed = changed || c
		})
		return append(dst, ']'), changed
	case '"':
		if keep {
			return append(dst, v...), false
		}
		return r.str(dst, v)
	}
	return r.token(dst, v)
}

// holds reports whether a region of the document falls in v, a slice of it.
func (r *jsonRedactor) holds(v []byte) bool {
	start := cap(r.doc) - cap(v) // v's offset in doc: a slice's capacity runs to the array's end
	i := sort.Search(len(r.spans), func(i int) bool { return r.spans[i].end > start })
	return i < len(r.spans) && r.spans[i].start < start+len(v)
}

// token appends a key, number or literal: as it is, or as the marker string if it holds a region.
func (r *jsonRedactor) token(dst, v []byte) ([]byte, bool) {
	if !r.holds(v) {
		return append(dst, v...), false
	}
	return appendMarker(dst), true
}

// str appends the string value raw (quotes included): as it is, as the marker, or, when it holds
// a JSON document, as that document redacted and encoded again (or as it is, if no value inside
// needs redacting but kept values or structure hold the region). A region that shows only in the
// encoded form (a leaf that holds an escape sequence itself) withholds the string whole.
func (r *jsonRedactor) str(dst, raw []byte) ([]byte, bool) {
	if !r.holds(raw) {
		return append(dst, raw...), false
	}
	// The decoded document and its redaction get their own buffers: this path only runs where
	// something is withheld.
	inner, ok := jsonraw.AppendUnquote(nil, raw)
	if !ok || !jsonraw.IsContainer(inner) || validate(inner) != nil || !r.sc.find(r.sets, inner, search{}) {
		return appendMarker(dst), true
	}
	redacted, changed := r.sc.redactFoundJSON(nil, r.sets, inner, r.kept)
	if !changed {
		return append(dst, raw...), false
	}
	start := len(dst)
	dst = jsonraw.AppendString(dst, unsafe.String(unsafe.SliceData(redacted), len(redacted)))
	if r.sc.Hit(r.sets, dst[start+1:len(dst)-1]) && !r.sc.Hit(r.sets, redacted) {
		return appendMarker(dst[:start]), true
	}
	return dst, true
}

func appendMarker(dst []byte) []byte { return append(dst, `"`+countsonly.Withheld+`"`...) }

// keyText is the decoded text of the raw key, for the kept test; it is valid until the next call.
func (sc *Scanner) keyText(raw []byte) []byte {
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c == '\\' {
			sc.key, _ = jsonraw.AppendUnquote(sc.key[:0], raw)
			return sc.key
		}
	}
	return body
}
