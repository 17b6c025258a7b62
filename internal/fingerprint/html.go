// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"bytes"
	"unicode/utf8"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// HTML character references. A value copied into HTML or XML (an e-mail body a tool sends, a page
// it renders, a log of either) has its markup characters escaped: "O'Brien" becomes "O&#39;Brien"
// (Go's html package), "O&#x27;Brien" (Python's html.escape) or "O&apos;Brien" (XML), and an
// encoder may write any character as a numeric reference.

// namedReferences are the named references escapers write: XML's five and the no-break space.
var namedReferences = map[string]string{
	"amp": "&", "lt": "<", "gt": ">", "quot": `"`, "apos": "'", "nbsp": "\u00a0",
}

// maxReferenceLen is the longest reference decoded: "&#x10FFFF;" and "&#1114111;" are 10 bytes.
const maxReferenceLen = 10

// nextReference returns the offset of the first character reference at or after from, or
// len(src), and the character it stands for.
func nextReference(src []byte, from int) (at, size int, r rune) {
	for from < len(src) {
		j := bytes.IndexByte(src[from:], '&')
		if j < 0 {
			break
		}
		from += j
		if size, r := reference(src[from:]); size > 0 {
			return from, size, r
		}
		from++
	}
	return len(src), 0, 0
}

// reference decodes the character reference src begins with: its length and character, or 0.
func reference(src []byte) (int, rune) {
	end := bytes.IndexByte(src[:min(len(src), maxReferenceLen+1)], ';')
	if end < 2 {
		return 0, 0
	}
	body := src[1:end]
	if body[0] != '#' {
		if s, ok := namedReferences[string(body)]; ok {
			r, _ := utf8.DecodeRuneInString(s)
			return end + 1, r
		}
		return 0, 0
	}
	digits, base := body[1:], int64(10)
	if len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X') {
		digits, base = digits[1:], 16
	}
	if len(digits) == 0 {
		return 0, 0
	}
	var r int64 // at most 8 digits: no overflow
	for _, c := range digits {
		v := int64(jsonraw.HexValue(c))
		if v >= base {
			return 0, 0
		}
		r = r*base + v
	}
	if r > utf8.MaxRune {
		return 0, 0
	}
	return end + 1, rune(r)
}

// htmlEscaped reports whether text holds a character reference.
func htmlEscaped(text []byte) bool {
	at, _, _ := nextReference(text, 0)
	return at < len(text)
}

// decodeHTML sets v to src with its character references decoded, reusing v's buffers. A reference
// to a surrogate decodes to U+FFFD, as HTML reads it; decoding never lengthens the text (the
// shortest reference, "&#9;", is four bytes, and four bytes of UTF-8 take "&#65536;").
func (v *view) decodeHTML(src []byte) {
	v.text, v.escapes = v.text[:0], v.escapes[:0]
	for i := 0; i < len(src); {
		k, size, r := nextReference(src, i)
		v.text = append(v.text, src[i:k]...)
		if k == len(src) {
			return
		}
		dst := int32(len(v.text))
		v.text = utf8.AppendRune(v.text, r)
		v.escapes = append(v.escapes, escape{src: int32(k), srcEnd: int32(k + size), dst: dst, dstEnd: int32(len(v.text))})
		i = k + size
	}
}
