// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"fmt"
	"sort"

	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// redactJSON appends doc, a JSON document, to dst with every value that holds a withheld region
// replaced by "[withheld]", and reports whether it replaced any. The document is searched once,
// as redactText searches text (verbatim, decoded up to three times, and read from inside
// escapes), and each region withholds the values it falls in: strings, object keys and numbers.
// A region that runs across values withholds each of them. A string of text directly under a key
// that kept reports true (kept sees the key decoded; nil keeps none) is left as it is, as the
// shaping leaves it. A string that itself holds a JSON object or array (a document stringified into
// another), under a kept key or not, is redacted inside by the same rules and encoded again,
// rather than withheld whole.
//
// If nothing is replaced, dst holds doc unchanged; otherwise the objects and arrays that held a
// region are written compact, and everything else as it was.
// A document that is not valid JSON (or nests deeper than sc.MaxDepth) returns an
// error and dst unchanged: the caller can fall back to redactText or withhold it whole.
func (sc *Scanner) redactJSON(dst []byte, sets []*Set, doc []byte, kept func(key []byte) bool) ([]byte, bool, error) {
	if !sc.find(sets, doc, search{}) {
		if err := validate(doc, sc.MaxDepth); err != nil {
			return dst, false, err
		}
		return append(dst, doc...), false, nil
	}
	return sc.redactFoundJSON(dst, sets, doc, kept)
}

// Redaction says how Redacted reads a text.
type Redaction struct {
	// Kept reports whether a JSON key is kept: a string directly under it is left as it is (see
	// redactJSON). Nil keeps none.
	Kept func(key []byte) bool
	// Text reads the text as plain text even when it is a JSON document: a name, a status message.
	Text bool
	// Verbatim and Known resume a search: the text's first Known bytes are those of the text the last
	// search with the same Verbatim read, with the same sets, and the windows within them are taken
	// from it rather than looked up again. An agent's transcript is the one before it and a few
	// messages more, and would otherwise be searched again from its start at every model call. On
	// return Verbatim holds what a search of a text that follows needs. Decoded views of the text are
	// searched whole. With Known 0, what Verbatim held is not used.
	Verbatim *Verbatim
	Known    int
}

// Redacted returns text with what it holds of sets withheld, in a new buffer: a JSON object or
// array as redactJSON rewrites it, any other text, a document that is not valid JSON, and any text
// read as Text, as redactText rewrites it. It returns nil and false when nothing is replaced. The
// text is searched once, and copied only when something in it is withheld: most text a batch
// searches holds nothing, and searching it first to decide (Hit) would read it twice.
func (sc *Scanner) Redacted(sets []*Set, text []byte, r Redaction) ([]byte, bool) {
	s := search{verbatim: r.Verbatim, known: r.Known}
	if r.Text || !jsonraw.IsContainer(text) {
		s.widen = true
		if !sc.find(sets, text, s) {
			return nil, false
		}
		return sc.redactFoundText(redactBuffer(text), sets, text), true
	}
	if !sc.find(sets, text, s) {
		return nil, false
	}
	out, changed, err := sc.redactFoundJSON(redactBuffer(text), sets, text, r.Kept)
	switch {
	case err != nil:
		// Searched again, as text: only a broken document that holds a region pays for that.
		return sc.Redacted(sets, text, Redaction{Text: true})
	case !changed:
		return nil, false
	}
	return out, true
}

// redactFoundJSON is redactJSON for a document in which find has just found the regions in
// sc.spans. It validates the document as it writes it, in the one pass: the values no region
// falls in are validated and copied as they are, and only those that hold one are read again, to
// be written member by member.
func (sc *Scanner) redactFoundJSON(dst []byte, sets []*Set, doc []byte, kept func([]byte) bool) ([]byte, bool, error) {
	// The regions go on a stack in the Scanner: a stringified document inside is searched with
	// the same Scanner, and pushes its own above these.
	base := len(sc.docSpans)
	sc.docSpans = append(sc.docSpans, sc.spans...)
	defer func() { sc.docSpans = sc.docSpans[:base] }()
	spans := mergeSpans(sc.docSpans[base:])
	r := jsonRedactor{sc: sc, sets: sets, kept: kept, doc: doc, spans: spans}
	start := len(dst)
	l := jsonraw.NewLexer(doc, sc.MaxDepth)
	l.SkipSpace()
	v := doc[l.Pos():] // the document's value and the whitespace after it
	var changed bool
	var f jsonraw.Fault
	if r.holds(v) && jsonraw.IsContainer(v) {
		dst, changed, l, f = r.container(dst, l, doc, 0)
	} else if f = l.SkipValue(0); f == jsonraw.NoFault {
		dst, changed = r.value(dst, v, false)
	}
	if err := documentError(&l, f); err != nil {
		return dst[:start], false, err
	}
	if !changed {
		return append(dst[:start], doc...), false, nil
	}
	return dst, true, nil
}

// redactBuffer is a buffer for the redacted copy of text that Redacted returns:
// a marker is at most a few bytes longer than the region it replaces.
func redactBuffer(text []byte) []byte { return make([]byte, 0, len(text)+64) }

// validate returns nil if doc is exactly one JSON value, nested no deeper than maxDepth (zero:
// jsonraw.DefaultMaxDepth).
func validate(doc []byte, maxDepth int) error {
	l := jsonraw.NewLexer(doc, maxDepth)
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

// jsonRedactor writes one document with the values that hold a region withheld.
type jsonRedactor struct {
	sc    *Scanner
	sets  []*Set
	kept  func([]byte) bool
	doc   []byte
	spans []span // the regions found in doc, sorted and disjoint
}

// value appends the value v (a slice of doc, valid JSON), redacted, unless it is an object or
// array that a region falls in (container writes those); keep says it sits directly under a kept
// key. A value no region falls in is copied as it is.
func (r *jsonRedactor) value(dst, v []byte, keep bool) ([]byte, bool) {
	switch {
	case !r.holds(v):
		return append(dst, v...), false
	case v[0] != '"':
		return r.token(dst, v)
	case keep && !holdsDocument(v):
		// A kept key keeps text; a document stringified under it is data, read by its own keys.
		return append(dst, v...), false
	}
	return r.str(dst, v)
}

// holdsDocument reports whether a JSON string, raw, holds a JSON object or array. It decodes the
// string: it runs only where a region falls in the string.
func holdsDocument(raw []byte) bool {
	inner, ok := jsonraw.AppendUnquote(nil, raw)
	return ok && jsonraw.IsContainer(inner) && jsonraw.Valid(inner)
}

// container writes the object or array at the cursor of l, a lexer over src (a slice of doc),
// which a region falls in: compact, its keys and values redacted, each value no region falls in
// as it is. depth is the nesting of what holds it. It validates as it reads, as the lexer's
// SkipValue does, and returns the lexer moved past the container, or at the fault it meets. A
// member value that a region falls in and that is itself an object or array is read twice: once
// to validate it and find its end, then to write it. (The lexer is passed by value: a pointer to
// a new one, passed down the recursion, would put each on the heap.)
func (r *jsonRedactor) container(dst []byte, l jsonraw.Lexer, src []byte, depth int) ([]byte, bool, jsonraw.Lexer, jsonraw.Fault) {
	object, closing := l.Peek() == '{', byte(']')
	if object {
		closing = '}'
	}
	dst = append(dst, l.Peek())
	empty, f := l.Open(depth + 1)
	if f != jsonraw.NoFault {
		return dst, false, l, f
	}
	changed := false
	for more := !empty; more; {
		var key []byte
		if object {
			keyStart := l.Pos()
			keyEnd, _, ok := l.Key()
			if !ok {
				return dst, false, l, jsonraw.FaultSyntax
			}
			key = src[keyStart:keyEnd]
			var c bool
			dst, c = r.token(dst, key)
			dst = append(dst, ':')
			changed = changed || c
		}
		valStart := l.Pos()
		if f := l.SkipValue(depth + 1); f != jsonraw.NoFault {
			return dst, false, l, f
		}
		v := src[valStart:l.Pos()]
		var c bool
		switch holds := r.holds(v); {
		case holds && jsonraw.IsContainer(v):
			dst, c, _, _ = r.container(dst, jsonraw.NewLexer(v, r.sc.MaxDepth), v, depth+1) // v is valid: no fault
		default:
			// Only a string a region falls in asks whether its key is kept.
			keep := holds && object && v[0] == '"' && r.kept != nil && r.kept(r.sc.keyText(key))
			dst, c = r.value(dst, v, keep)
		}
		changed = changed || c
		var ok bool
		if more, ok = l.More(closing); !ok {
			return dst, false, l, jsonraw.FaultSyntax
		}
		if more {
			dst = append(dst, ',')
		}
	}
	return append(dst, closing), changed, l, jsonraw.NoFault
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
	if !ok || !jsonraw.IsContainer(inner) || !r.sc.find(r.sets, inner, search{}) {
		return appendMarker(dst), true
	}
	redacted, changed, err := r.sc.redactFoundJSON(nil, r.sets, inner, r.kept)
	switch {
	case err != nil:
		return appendMarker(dst), true
	case !changed:
		return append(dst, raw...), false
	}
	start := len(dst)
	dst = jsonraw.AppendString(dst, zerocopy.String(redacted))
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
