// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

// Number is where the parts of a number token lie in the input: the token is src[Start:End]; after
// an optional '-', its integer digits end at IntEnd; if FracEnd > IntEnd, a '.' and the fraction
// digits follow up to FracEnd; if End > FracEnd, an exponent follows: 'e' or 'E', an optional
// sign and digits. Callers that compute with a number read its parts without parsing it again.
type Number struct {
	Start, IntEnd, FracEnd, End int
}

// Number scans the number at the cursor against the RFC 8259 grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? and moves past it. What follows is the caller's
// to check, so "01" fails there, at the '1'.
func (l *Lexer) Number() (Number, bool) {
	n, ok := scanNumber(l.src, l.pos)
	l.pos = n.End
	return n, ok
}

// scanNumber locates the number at src[i]; when ok is false, End is the offending byte.
func scanNumber(src []byte, i int) (n Number, ok bool) {
	n.Start = i
	if i < len(src) && src[i] == '-' {
		i++
	}
	switch {
	case i < len(src) && src[i] == '0':
		i++
	case i < len(src) && '1' <= src[i] && src[i] <= '9':
		i = skipDigits(src, i+1)
	default:
		n.End = i
		return n, false
	}
	n.IntEnd, n.FracEnd = i, i
	if i < len(src) && src[i] == '.' {
		j := skipDigits(src, i+1)
		if j == i+1 {
			n.End = j
			return n, false
		}
		i, n.FracEnd = j, j
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		j := skipDigits(src, i)
		if j == i {
			n.End = j
			return n, false
		}
		i = j
	}
	n.End = i
	return n, true
}

// skipDigits returns the offset of the first non-digit at or after i.
func skipDigits(src []byte, i int) int {
	for i < len(src) && '0' <= src[i] && src[i] <= '9' {
		i++
	}
	return i
}

// Literal scans the literal (true, false or null) at the cursor and moves past it.
func (l *Lexer) Literal() bool {
	var lit string
	switch l.Peek() {
	case 't':
		lit = "true"
	case 'f':
		lit = "false"
	case 'n':
		lit = "null"
	default:
		return false
	}
	if len(l.src)-l.pos < len(lit) || string(l.src[l.pos:l.pos+len(lit)]) != lit {
		return false
	}
	l.pos += len(lit)
	return true
}

// Scalar scans the number or literal at the cursor and moves past it.
func (l *Lexer) Scalar() bool {
	switch l.Peek() {
	case 't', 'f', 'n':
		return l.Literal()
	}
	_, ok := l.Number()
	return ok
}
