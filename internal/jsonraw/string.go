// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// Byte classes, built once so the hot loops are a single table load per byte.
var (
	// strPlain marks bytes that may stand in a string with no further check: printable ASCII
	// other than '"' and '\\'. Everything else ends the fast loop of a string scan.
	strPlain [256]bool
	// hexVal is the value of a hex digit, or 0xFF for any other byte.
	hexVal [256]byte
)

func init() {
	for c := 0x20; c < 0x80; c++ {
		strPlain[c] = c != '"' && c != '\\'
	}
	for c := range hexVal {
		switch {
		case '0' <= c && c <= '9':
			hexVal[c] = byte(c - '0')
		case 'a' <= c && c <= 'f':
			hexVal[c] = byte(c - 'a' + 10)
		case 'A' <= c && c <= 'F':
			hexVal[c] = byte(c - 'A' + 10)
		default:
			hexVal[c] = 0xFF
		}
	}
}

// HexValue is the value of a hex digit, or 0xFF for any other byte: the table the string scans use,
// for the other escapes a reader of JSON text meets (URL escapes, HTML character references).
func HexValue(c byte) byte { return hexVal[c] }

// String scans the string whose opening quote is at the cursor and moves past its closing
// quote. escaped reports whether it contains any backslash, so callers can use the raw bytes
// directly in the common case.
func (l *Lexer) String() (escaped, ok bool) {
	end, _, escaped, ok := scanString(l.src, l.pos, false)
	l.pos = end
	return escaped, ok
}

// scanString validates the string whose opening quote is at src[i]. It returns the index past the
// closing quote, or, when ok is false, the index of the offending byte. With key set the string
// must be followed by a colon, whitespace allowed around it, and next is the index past both;
// otherwise next is end. A key and its colon are one call because walks over the lexer make one
// per object member, and a second call there is measurable.
func scanString(src []byte, i int, key bool) (end, next int, escaped, ok bool) {
	if i >= len(src) || src[i] != '"' {
		return i, i, false, false
	}
	i++
	for {
		i = plainEnd(src, i)
		if i >= len(src) {
			return i, i, false, false
		}
		switch c := src[i]; {
		case c == '"':
			end = i + 1
			if !key {
				return end, end, escaped, true
			}
			if i = SkipSpace(src, end); i >= len(src) || src[i] != ':' {
				return i, i, false, false
			}
			return end, SkipSpace(src, i+1), escaped, true
		case c == '\\':
			escaped = true
			n := escapeLen(src[i+1:])
			if n == 0 {
				return i, i, false, false
			}
			i += 1 + n
		case c < 0x20:
			return i, i, false, false
		default: // c >= 0x80: must start a valid UTF-8 sequence
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 {
				return i, i, false, false
			}
			i += size
		}
	}
}

// plainEnd returns the index of the first byte at or after i that is not plain (see strPlain), or
// len(src): eight bytes at a time, then byte by byte for the last few.
func plainEnd(src []byte, i int) int {
	for ; i+8 <= len(src); i += 8 {
		if flags := nonPlainBytes(binary.LittleEndian.Uint64(src[i:])); flags != 0 {
			return i + bits.TrailingZeros64(flags)/8
		}
	}
	for i < len(src) && strPlain[src[i]] {
		i++
	}
	return i
}

// nonPlainBytes flags the bytes of w (little-endian) that are not plain string bytes (see
// strPlain), testing them at once: a byte below 0x20 (w-0x20), equal to '"' or '\\' (its xor
// with that byte, less one) or at or above 0x80 (w itself) sets its high bit in one of the terms.
// A borrow can only carry out of a byte that is itself flagged, into the bytes above it, so the
// lowest flag is exactly the first byte that is not plain, and no flag means none is.
func nonPlainBytes(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := w^(ones*'"'), w^(ones*'\\')
	return ((w - ones*0x20) | (quote - ones) | (backslash - ones) | w) & highs
}

// escapeLen returns how many bytes after a backslash form a valid escape, or 0 if none do.
// Unpaired surrogates such as \ud800 are valid JSON (RFC 8259 section 8.2) and are accepted.
func escapeLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	switch b[0] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 1
	case 'u':
		if len(b) < 5 || hexVal[b[1]]|hexVal[b[2]]|hexVal[b[3]]|hexVal[b[4]] == 0xFF {
			return 0
		}
		return 5
	}
	return 0
}
