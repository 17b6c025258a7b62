// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentotel/agentotel/internal/zerocopy"
)

// AppendUnquote appends the decoded content of raw, one quoted JSON string, to dst. Every escape
// is decoded, a \uXXXX surrogate pair as the one character it encodes; an unpaired surrogate
// becomes U+FFFD, as encoding/json decodes it. It validates as it decodes: if raw is not exactly
// one valid JSON string (UTF-8 included), it returns dst unchanged and false. It does not
// allocate when dst has room for the result, which is never longer than raw.
func AppendUnquote(dst, raw []byte) ([]byte, bool) {
	n := len(raw)
	if n < 2 || raw[0] != '"' || raw[n-1] != '"' {
		return dst, false
	}
	body := raw[1 : n-1]
	orig := len(dst)
	start, i := 0, 0 // body[start:i] is validated and not yet appended
	for {
		i = plainEnd(body, i)
		if i == len(body) {
			return append(dst, body[start:]...), true
		}
		switch c := body[i]; {
		case c == '\\':
			dst = append(dst, body[start:i]...)
			if i+1 < len(body) && shortEscape[body[i+1]] != 0 { // the common escapes, without a call
				dst = append(dst, shortEscape[body[i+1]])
				i += 2
			} else {
				r, size := DecodeEscape(body[i:])
				if size == 0 {
					return dst[:orig], false
				}
				dst = utf8.AppendRune(dst, r) // a lone surrogate is not a rune: AppendRune writes U+FFFD
				i += size
			}
			start = i
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 {
				return dst[:orig], false
			}
			i += size
		default: // a quote before the end, or a control byte
			return dst[:orig], false
		}
	}
}

// Unquote decodes a raw quoted JSON string, as AppendUnquote does, into a new string.
func Unquote(raw []byte) (string, bool) {
	if len(raw) < 2 {
		return "", false
	}
	// Decoding never lengthens a string, so one buffer of the raw length holds the result, and
	// since nothing else refers to that buffer it can become the string without a second copy.
	buf, ok := AppendUnquote(make([]byte, 0, len(raw)-2), raw)
	if !ok {
		return "", false
	}
	return zerocopy.String(buf), true
}

// DecodeEscape decodes the escape sequence at the start of esc (which begins with its backslash)
// and returns the character and the number of bytes it took; size is 0 if esc does not start
// with a valid escape. A \u escape for the high half of a surrogate pair followed by a \u escape
// for the low half is one character (size 12). A surrogate without its other half is returned
// as itself, a value in 0xD800-0xDFFF that is not a valid rune: utf8.AppendRune writes it as
// U+FFFD, and callers that must keep it distinct can spell it out again.
func DecodeEscape(esc []byte) (r rune, size int) {
	if len(esc) < 2 || esc[0] != '\\' {
		return 0, 0
	}
	if c := shortEscape[esc[1]]; c != 0 {
		return rune(c), 2
	}
	if esc[1] == 'u' {
		r, ok := hex4(esc[2:])
		if !ok {
			return 0, 0
		}
		if r >= 0xD800 && r < 0xDC00 && len(esc) >= 12 && esc[6] == '\\' && esc[7] == 'u' {
			if lo, ok := hex4(esc[8:]); ok && lo >= 0xDC00 && lo < 0xE000 {
				return utf16.DecodeRune(r, lo), 12
			}
		}
		return r, 6
	}
	return 0, 0
}

// shortEscape maps the byte after a backslash to the byte the two-byte escape stands for, or 0
// if it does not begin one.
var shortEscape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hex4 decodes the four hex digits at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 || hexVal[b[0]]|hexVal[b[1]]|hexVal[b[2]]|hexVal[b[3]] == 0xFF {
		return 0, false
	}
	return rune(hexVal[b[0]])<<12 | rune(hexVal[b[1]])<<8 | rune(hexVal[b[2]])<<4 | rune(hexVal[b[3]]), true
}

// StringIs reports whether the raw quoted JSON string raw decodes to s, without allocating.
// Strings without escapes, the usual case for keys and ids, are compared byte for byte.
func StringIs(raw []byte, s string) bool {
	if len(raw) < 2 || raw[0] != '"' {
		return false
	}
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body) == s
	}
	return raw[len(raw)-1] == '"' && decodesTo(body, s)
}

// decodesTo reports whether the string content body (between the quotes) decodes to want. It
// decodes as it compares, so no buffer is needed.
func decodesTo(body []byte, want string) bool {
	j := 0
	for i := 0; i < len(body); {
		if body[i] != '\\' {
			if j >= len(want) || want[j] != body[i] {
				return false
			}
			i++
			j++
			continue
		}
		r, size := DecodeEscape(body[i:])
		if size == 0 {
			return false
		}
		var buf [utf8.UTFMax]byte
		decoded := buf[:utf8.EncodeRune(buf[:], r)]
		if !strings.HasPrefix(want[j:], string(decoded)) {
			return false
		}
		i += size
		j += len(decoded)
	}
	return j == len(want)
}
