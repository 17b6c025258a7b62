// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package toolname

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/agentotel/agentotel/internal/ascii"
	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// The matchers below take names as the Set holds them: normalised (Normal), so lower-case. Every one
// finds the places a text holds a name with eachFold, ASCII letters in either case, and differs only in
// what it asks of the bytes around each place.

// eachFold calls at with each place text holds name (a lower-case string; ASCII letters of text
// compare in either case), those spelt with its first letter in lower case first, until at returns
// true, and reports whether it did.
func eachFold(text []byte, name string, at func(start int) bool) bool {
	first := name[0]
	upper := first
	if 'a' <= first && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	for _, c := range [2]byte{first, upper} {
		for from := 0; from+len(name) <= len(text); {
			i := bytes.IndexByte(text[from:len(text)-len(name)+1], c)
			if i < 0 {
				break
			}
			start := from + i
			if ascii.EqualFold(text[start:start+len(name)], name) && at(start) {
				return true
			}
			from = start + 1
		}
		if upper == first {
			break
		}
	}
	return false
}

// Contains reports whether text holds name, a lower-case ASCII string, with ASCII letters in either
// case.
func Contains(text []byte, name string) bool {
	return eachFold(text, name, func(int) bool { return true })
}

// boundary is how the characters around a name are read to tell whether it stands as a word.
type boundary uint8

const (
	// decoded: the text is a normalised name (a span's, an attribute's): the characters either side
	// are decoded, and a letter or digit of any script continues the name.
	decoded boundary = iota
	// bytewise: the text is a value of unknown encoding: any byte outside ASCII continues the name, as
	// it may be part of a letter.
	bytewise
)

// holdsWord reports whether text holds name as a word: at some place neither the character before it
// nor the one after continues a name (a letter, a digit, '_' or '-'; see boundary). A name that begins
// or ends with another character needs no boundary there; an empty name is nowhere. The rule is
// docs/design.md#1-recognition-internalagentspan's, "What names a tool in a text".
func holdsWord(text []byte, name string, b boundary) bool {
	if name == "" {
		return false
	}
	n := zerocopy.Bytes(name)
	return eachFold(text, name, func(start int) bool {
		end := start + len(name)
		return (start == 0 || !continuesAt(n, 0, b, false) || !continuesAt(text, start, b, true)) &&
			(end == len(text) || !continuesAt(n, len(n), b, true) || !continuesAt(text, end, b, false))
	})
}

// continuesAt reports whether the character of s right before i (before) or at i continues a name.
func continuesAt(s []byte, i int, b boundary, before bool) bool {
	if b == bytewise {
		if before {
			i--
		}
		c := s[i]
		return c == '_' || c == '-' || c >= utf8.RuneSelf || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z'
	}
	if before {
		r, _ := utf8.DecodeLastRune(s[:i])
		return continuesRune(r)
	}
	r, _ := utf8.DecodeRune(s[i:])
	return continuesRune(r)
}

func continuesRune(r rune) bool {
	return r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// holdsAlone reports whether text holds name (lower-case) as the whole text or between two quotes,
// with spaces either side of it; ASCII letters of text compare in either case.
func holdsAlone(text []byte, name string) bool {
	return eachFold(text, name, func(start int) bool { return alone(text, start, start+len(name)) })
}

// alone reports whether text[start:end] is all of text or quoted, spaces aside.
func alone(text []byte, start, end int) bool {
	for start > 0 && isSpace(text[start-1]) {
		start--
	}
	for end < len(text) && isSpace(text[end]) {
		end++
	}
	if start == 0 && end == len(text) {
		return true
	}
	return start > 0 && end < len(text) && isQuote(text[start-1]) && isQuote(text[end])
}

// notInToken are the bytes a token does not hold: spaces make a text prose, quotes and brackets a
// document.
var notInToken = func() (set [256]bool) {
	for _, c := range []byte(" \t\r\n\"'`{}[]") {
		set[c] = true
	}
	return set
}()

func isToken(t []byte) bool {
	for _, c := range t {
		if notInToken[c] {
			return false
		}
	}
	return true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// MayName reports whether text holds one of names, ASCII letters compared case-insensitively; a \u or
// \/ escape, which could spell a name without its letters; or one of the two characters outside ASCII
// that lower-case into it, as tool names are compared: the Kelvin sign (to k) and the capital I with a
// dot (to i).
func MayName(text []byte, names []string) bool {
	return SpellingEscape(text) || MayNameLiterally(text, names)
}

// MayNameLiterally is MayName but for escapes.
func MayNameLiterally(text []byte, names []string) bool {
	if bytes.Contains(text, []byte("\u212a")) || bytes.Contains(text, []byte("\u0130")) {
		return true
	}
	for _, n := range names {
		if Contains(text, n) {
			return true
		}
	}
	return false
}

// SpellingEscape reports whether text holds a backslash right before a u or a slash (one pass over its
// backslashes): a \u or \/ escape, which could spell a name without its letters, or, where the backslash
// is itself escaped (\\u), one that decoding the text once more would make, as a document stringified
// inside a string writes it. Decoding makes a backslash only of an escaped one, so a text with no such
// pair spells no name through escapes at any depth.
func SpellingEscape(text []byte) bool {
	for t := text; ; {
		i := bytes.IndexByte(t, '\\')
		if i < 0 || i+1 >= len(t) {
			return false
		}
		if c := t[i+1]; c == 'u' || c == '/' {
			return true
		}
		t = t[i+1:]
	}
}

// Searchable reports whether a name is written in JSON as it is, letters that fold as ASCII: it is
// printable ASCII but for the quote and the backslash, so a text that holds it in no case, escapes
// aside, holds it nowhere.
func Searchable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return s != ""
}

// unescapeAll appends src to dst with every JSON escape in it decoded, wherever it is: src need not be
// one JSON string, nor valid JSON at all. A backslash that begins no escape stays as it is.
func unescapeAll(dst, src []byte) []byte {
	for {
		i := bytes.IndexByte(src, '\\')
		if i < 0 {
			return append(dst, src...)
		}
		dst = append(dst, src[:i]...)
		r, size := jsonraw.DecodeEscape(src[i:])
		if size == 0 {
			dst, src = append(dst, '\\'), src[i+1:]
			continue
		}
		dst, src = utf8.AppendRune(dst, r), src[i+size:]
	}
}
