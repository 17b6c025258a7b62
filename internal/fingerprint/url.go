// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"bytes"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// URL escapes. A value copied into a URL (an HTTP client span's url.full or url.query, a link in a
// message) is written with %XX for every byte a URL cannot hold as it is (RFC 3986), and with '+'
// for a space in the form encoding that HTML forms, Python's urlencode and JavaScript's
// URLSearchParams write.

// nextPercentEscape returns the offset of the first "%XX" at or after from, or len(src).
func nextPercentEscape(src []byte, from int) int {
	for from < len(src) {
		j := bytes.IndexByte(src[from:], '%')
		if j < 0 {
			return len(src)
		}
		from += j
		if from+2 < len(src) && jsonraw.HexValue(src[from+1]) != 0xFF && jsonraw.HexValue(src[from+2]) != 0xFF {
			return from
		}
		from++
	}
	return len(src)
}

// indexFrom returns the offset of the first c at or after from, or len(src).
func indexFrom(src []byte, from int, c byte) int {
	if j := bytes.IndexByte(src[from:], c); j >= 0 {
		return from + j
	}
	return len(src)
}

// decodeURL sets v to src with its URL escapes decoded, reusing v's buffers: "%XX" to the byte it
// stands for, and, with plusIsSpace, '+' to a space (a form's encoding; a path, or a query as RFC
// 3986 writes it, keeps '+' as it is). Any bytes decode (a '%' without two hex digits is kept), and
// decoding never lengthens the text. The bytes decoded need not be UTF-8: a name's "%C3%AB" decodes
// to the two bytes of "ë", as its remembered windows hold it.
func (v *view) decodeURL(src []byte, plusIsSpace bool) {
	v.text, v.escapes = v.text[:0], v.escapes[:0]
	percent, plus := nextPercentEscape(src, 0), len(src)
	if plusIsSpace {
		plus = indexFrom(src, 0, '+')
	}
	for i := 0; i < len(src); {
		if percent < i {
			percent = nextPercentEscape(src, i)
		}
		if plus < i && plusIsSpace {
			plus = indexFrom(src, i, '+')
		}
		k := min(percent, plus)
		v.text = append(v.text, src[i:k]...)
		if k == len(src) {
			return
		}
		dst := int32(len(v.text))
		size := 1
		if k == plus {
			v.text = append(v.text, ' ')
		} else {
			v.text = append(v.text, jsonraw.HexValue(src[k+1])<<4|jsonraw.HexValue(src[k+2]))
			size = 3
		}
		v.escapes = append(v.escapes, escape{src: int32(k), srcEnd: int32(k + size), dst: dst, dstEnd: dst + 1})
		i = k + size
	}
}
