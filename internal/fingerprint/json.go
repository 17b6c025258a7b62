package fingerprint

import (
	"fmt"
	"unsafe"

	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/jsonraw"
)

// RedactJSON appends doc, a JSON document, to dst with every value that holds a withheld region
// replaced by "[withheld]", and reports whether it replaced any. The values searched are the
// strings (by their encoded bytes, so a leaf JSON-encoded inside a string is found too), the
// object keys and the numbers; a string directly under a key that kept reports true is left as
// it is, as the shaping leaves it. A string that itself holds a JSON object or array (a document
// stringified into another) is redacted inside and encoded again rather than withheld whole.
//
// If nothing is replaced, dst holds doc unchanged; otherwise the document is written compact.
// A document that is not valid JSON (or nests deeper than jsonraw.DefaultMaxDepth) returns an
// error and dst unchanged: the caller can fall back to RedactText or withhold it whole.
//
// A region that spans two values (a leaf holding a quote and a comma, repeated across the
// structure) is not withheld: each value is judged on its own.
func (sc *Scanner) RedactJSON(dst []byte, sets []*Set, doc []byte, kept func(key []byte) bool) ([]byte, bool, error) {
	if err := validate(doc); err != nil {
		return dst, false, err
	}
	if !sc.Hit(sets, doc) {
		return append(dst, doc...), false, nil
	}
	start := len(dst)
	dst, changed := sc.redactValue(dst, sets, doc[jsonraw.SkipSpace(doc, 0):], kept, false)
	if !changed {
		return append(dst[:start], doc...), false, nil
	}
	return dst, true, nil
}

// validate returns nil if doc is exactly one JSON value, nested no deeper than
// jsonraw.DefaultMaxDepth.
func validate(doc []byte) error {
	end, err := jsonraw.Skip(doc, 0)
	if err != nil {
		return fmt.Errorf("fingerprint: %w", err)
	}
	if end = jsonraw.SkipSpace(doc, end); end != len(doc) {
		return fmt.Errorf("fingerprint: %w: data after the document at offset %d", jsonraw.ErrSyntax, end)
	}
	return nil
}

// redactValue appends the valid JSON value v, redacted; keep says it sits directly under a kept
// key.
func (sc *Scanner) redactValue(dst []byte, sets []*Set, v []byte, kept func([]byte) bool, keep bool) ([]byte, bool) {
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
			dst, c1 = sc.redactToken(dst, sets, m.Key, m.Key[1:len(m.Key)-1])
			dst = append(dst, ':')
			dst, c2 = sc.redactValue(dst, sets, m.Value, kept, kept != nil && kept(sc.keyText(m.Key)))
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
			dst, c = sc.redactValue(dst, sets, elem, kept, false)
			changed = changed || c
		})
		return append(dst, ']'), changed
	case '"':
		if keep {
			return append(dst, v...), false
		}
		return sc.redactString(dst, sets, v, kept)
	}
	return sc.redactToken(dst, sets, v, v) // a number or literal
}

// redactToken appends the raw token (a key, number or literal): as it is, or as the marker string
// if its text holds a withheld region.
func (sc *Scanner) redactToken(dst []byte, sets []*Set, raw, text []byte) ([]byte, bool) {
	if len(text) < WindowLen || !sc.Hit(sets, text) {
		return append(dst, raw...), false
	}
	return append(dst, `"`+countsonly.Withheld+`"`...), true
}

// redactString appends the string value raw (quotes included): as it is, as the marker, or, when
// it holds a JSON document, as that document redacted by the same rules and encoded again (or
// as it is, if no value inside it needed redacting).
func (sc *Scanner) redactString(dst []byte, sets []*Set, raw []byte, kept func([]byte) bool) ([]byte, bool) {
	body := raw[1 : len(raw)-1]
	if len(body) < WindowLen || !sc.Hit(sets, body) {
		return append(dst, raw...), false
	}
	// The decoded document and its redaction get their own buffers: the Scanner's are in use
	// further up, and this path only runs where something is withheld.
	inner, ok := jsonraw.AppendUnquote(nil, raw)
	if !ok || !jsonraw.IsContainer(inner) || validate(inner) != nil {
		return append(dst, `"`+countsonly.Withheld+`"`...), true
	}
	redacted, changed := sc.redactValue(nil, sets, inner[jsonraw.SkipSpace(inner, 0):], kept, false)
	if !changed {
		return append(dst, raw...), false
	}
	return jsonraw.AppendString(dst, unsafe.String(unsafe.SliceData(redacted), len(redacted))), true
}

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
