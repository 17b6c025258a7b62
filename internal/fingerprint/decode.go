// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"bytes"
	"math"
	"sort"
	"unicode/utf8"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// maxEscapeLen is the longest escape sequence: a surrogate pair, \uD83D\uDE00.
const maxEscapeLen = 12

// maxLevels is how many times a text is decoded: a leaf JSON-encoded once (a string in a JSON
// document), twice (that document held as a string in another) or three times is found.
const maxLevels = 3

// A view is a text with one more level of JSON string escapes decoded, and a record of every
// escape sequence decoding replaced, so a range of the view maps back to the bytes it came from.
type view struct {
	text    []byte
	escapes []escape
}

// An escape is one escape sequence: src[src:srcEnd] of the source decoded to text[dst:dstEnd].
// Escaped text can hold one every few bytes, hence 32-bit offsets; find decodes no text longer
// than maxDecodedLen.
type escape struct {
	src, srcEnd, dst, dstEnd int32
}

// maxDecodedLen bounds the texts find decodes, so that escape offsets fit.
const maxDecodedLen = math.MaxInt32

// decode sets v to src with its escape sequences decoded, reusing v's buffers. Escapes are read
// as JSON reads them (a surrogate pair is one character, an unpaired surrogate U+FFFD); a
// backslash that starts no valid escape is kept as a plain byte. Any bytes decode: the text
// need not be a JSON string, and decoding never lengthens it.
func (v *view) decode(src []byte) {
	v.text, v.escapes = v.text[:0], v.escapes[:0]
	for i := 0; i < len(src); {
		// Escapes come in runs in encoded text, so look a few bytes ahead before paying for a
		// call that searches far.
		k := i
		for k < len(src) && k < i+16 && src[k] != '\\' {
			k++
		}
		if k == i+16 {
			if j := bytes.IndexByte(src[k:], '\\'); j >= 0 {
				k += j
			} else {
				k = len(src)
			}
		}
		v.text = append(v.text, src[i:k]...)
		if i = k; i == len(src) {
			return
		}
		r, size := jsonraw.DecodeEscape(src[i:])
		if size == 0 {
			v.text = append(v.text, '\\')
			i++
			continue
		}
		dst := len(v.text)
		if r < utf8.RuneSelf {
			v.text = append(v.text, byte(r))
		} else {
			v.text = utf8.AppendRune(v.text, r)
		}
		v.escapes = append(v.escapes, escape{src: int32(i), srcEnd: int32(i + size), dst: int32(dst), dstEnd: int32(len(v.text))})
		i += size
	}
}

// source returns the source range that decoded into the view's bytes [start, end) (start < end),
// widened to whole escape sequences.
func (v *view) source(start, end int) (int, int) {
	first, _ := v.unit(start)
	_, last := v.unit(end - 1)
	return first, last
}

// unit returns the source range that decoded into the view's byte at pos: an escape sequence, or
// the one byte that was copied.
func (v *view) unit(pos int) (int, int) {
	// The first escape that ends after pos either holds pos or follows it.
	i := sort.Search(len(v.escapes), func(i int) bool { return int(v.escapes[i].dstEnd) > pos })
	if i < len(v.escapes) && int(v.escapes[i].dst) <= pos {
		return int(v.escapes[i].src), int(v.escapes[i].srcEnd)
	}
	src := pos
	if i > 0 {
		prev := v.escapes[i-1]
		src = int(prev.srcEnd) + pos - int(prev.dstEnd)
	}
	return src, src + 1
}

// decodedUpTo returns how many bytes of the view were decoded from units of the source that
// start before pos: the decoding of src[:pos], as far as it does not depend on what follows.
func (v *view) decodedUpTo(pos int) int {
	// The first escape that ends after pos either holds pos or follows it.
	i := sort.Search(len(v.escapes), func(i int) bool { return int(v.escapes[i].srcEnd) > pos })
	if i < len(v.escapes) && int(v.escapes[i].src) < pos {
		return int(v.escapes[i].dstEnd)
	}
	if i == 0 {
		return pos
	}
	prev := v.escapes[i-1]
	return int(prev.dstEnd) + pos - int(prev.srcEnd)
}

// escapeAt returns the escape sequence of the source that pos is strictly inside, if any.
func (v *view) escapeAt(pos int) (escape, bool) {
	i := sort.Search(len(v.escapes), func(i int) bool { return int(v.escapes[i].srcEnd) > pos })
	if i < len(v.escapes) && int(v.escapes[i].src) < pos {
		return v.escapes[i], true
	}
	return escape{}, false
}
