package countsonly

import (
	"encoding/binary"
	"unicode/utf8"
)

// scanner is the validating cursor shared by the shaping walk (shape.go) and the skipping walk
// (skip.go); this file holds the token-level scanning both rely on. It lives on the caller's
// stack for one call.
type scanner struct {
	src      []byte
	pos      int
	maxDepth int
	kept     *keptSet
	stats    Stats
}

// Byte classes, built once so the hot loops are a single table load per byte.
var (
	// strPlain marks bytes that may stand in a string with no further check: printable ASCII
	// other than '"' and '\\'. Everything else ends the fast loop in scanString.
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

// syntaxErr reports a syntax error at the cursor.
func (s *scanner) syntaxErr() error { return errAt(ErrSyntax, s.pos) }

// skipWS advances past JSON whitespace. Compact input has none, and every byte that can
// follow whitespace is above ' ', so one comparison is the common exit.
func (s *scanner) skipWS() {
	for s.pos < len(s.src) && s.src[s.pos] <= ' ' && isSpace(s.src[s.pos]) {
		s.pos++
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// peek returns the byte at the cursor, or 0 (never valid JSON at that point) at the end.
func (s *scanner) peek() byte {
	if s.pos < len(s.src) {
		return s.src[s.pos]
	}
	return 0
}

// scanString validates the string whose opening quote is at the cursor and moves past its
// closing quote. escaped reports whether it contains any backslash, so callers can compare
// the raw bytes directly in the common case.
func (s *scanner) scanString() (escaped bool, err error) {
	src := s.src
	i := s.pos + 1
	for {
		for i+8 <= len(src) && plainWord(binary.LittleEndian.Uint64(src[i:])) {
			i += 8
		}
		for i < len(src) && strPlain[src[i]] {
			i++
		}
		if i >= len(src) {
			s.pos = i
			return false, s.syntaxErr()
		}
		switch c := src[i]; {
		case c == '"':
			s.pos = i + 1
			return escaped, nil
		case c == '\\':
			escaped = true
			n := escapeLen(src[i+1:])
			if n == 0 {
				s.pos = i
				return false, s.syntaxErr()
			}
			i += 1 + n
		case c < 0x20:
			s.pos = i
			return false, s.syntaxErr()
		default: // c >= 0x80: must start a valid UTF-8 sequence
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 {
				s.pos = i
				return false, s.syntaxErr()
			}
			i += size
		}
	}
}

// plainWord reports whether all eight bytes of w are plain string bytes (see strPlain), testing
// them at once: a byte below 0x20, equal to '"' or '\\', or at or above 0x80 sets its high bit in
// one of the terms. Borrows can only flag bytes beyond one already flagged, so the answer for
// the word as a whole is exact.
func plainWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := w^(ones*'"'), w^(ones*'\\')
	control := (w - ones*0x20) &^ w
	return (control|(quote-ones)&^quote|(backslash-ones)&^backslash|w)&highs == 0
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

// scanNumber validates the number at the cursor against the RFC 8259 grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? and moves past it. What follows is checked by
// the caller, so "01" fails there, at the '1'.
func (s *scanner) scanNumber() error {
	src := s.src
	i := s.pos
	if i < len(src) && src[i] == '-' {
		i++
	}
	switch {
	case i < len(src) && src[i] == '0':
		i++
	case i < len(src) && '1' <= src[i] && src[i] <= '9':
		i = skipDigits(src, i+1)
	default:
		s.pos = i
		return s.syntaxErr()
	}
	if i < len(src) && src[i] == '.' {
		j := skipDigits(src, i+1)
		if j == i+1 {
			s.pos = j
			return s.syntaxErr()
		}
		i = j
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		j := skipDigits(src, i)
		if j == i {
			s.pos = j
			return s.syntaxErr()
		}
		i = j
	}
	s.pos = i
	return nil
}

// skipDigits returns the offset of the first non-digit at or after i.
func skipDigits(src []byte, i int) int {
	for i < len(src) && '0' <= src[i] && src[i] <= '9' {
		i++
	}
	return i
}

// scanLiteral moves past lit (true, false or null) if it is at the cursor.
func (s *scanner) scanLiteral(lit string) error {
	if len(s.src)-s.pos < len(lit) || string(s.src[s.pos:s.pos+len(lit)]) != lit {
		return s.syntaxErr()
	}
	s.pos += len(lit)
	return nil
}

// scanScalar validates the number or literal at the cursor, moving past it.
func (s *scanner) scanScalar() error {
	switch s.peek() {
	case 't':
		return s.scanLiteral("true")
	case 'f':
		return s.scanLiteral("false")
	case 'n':
		return s.scanLiteral("null")
	}
	return s.scanNumber()
}

// scanKey validates an object key and the colon after it, leaving the cursor at the value.
// The key, quotes included, is src[start:end]; escaped reports whether it has a backslash.
func (s *scanner) scanKey() (start, end int, escaped bool, err error) {
	start = s.pos
	if s.peek() != '"' {
		return 0, 0, false, s.syntaxErr()
	}
	if escaped, err = s.scanString(); err != nil {
		return 0, 0, false, err
	}
	end = s.pos
	s.skipWS()
	if s.peek() != ':' {
		return 0, 0, false, s.syntaxErr()
	}
	s.pos++
	s.skipWS()
	return start, end, escaped, nil
}
