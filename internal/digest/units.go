// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import (
	"encoding/binary"
	"math/bits"
)

// Units: what a result puts into the context, piece by piece, so the progress state can tell whether
// any of it is new to the run, whatever tool brought it. Of lists one 64-bit fingerprint per unit in
// the Scratch (Scratch.Units):
//
//   - every line of a string (a text result, or a string member of a JSON result that holds a space
//     or a line break), trimmed, with volatile tokens masked and a leading line number dropped, so
//     the same line read whole, in a shifted chunk, or found by grep (path:12:line, 12→line, L12:
//     line) is one unit;
//   - every other leaf of a JSON result (a number, true, a string of one word) together with the
//     member name above it, so "passed": 10 and "failed": 10 are two units, and a poll whose status
//     moves from 1/4 to 2/4 brings a new one.
//
// Empty leaves (null, false, 0, "") and blank lines are no units. A result lists at most MaxUnits;
// the rest of it is not listed (so what it brings after that is never seen as known).

// MaxUnits bounds the units one result lists.
const MaxUnits = 4096

// Fingerprint seeds, one per kind of unit, so a line and a leaf with the same bytes differ.
const (
	seedLine = 0x243f6a8885a308d3
	seedLeaf = 0x13198a2e03707344
	seedItem = 0xa4093822299f31d0
)

// mix64 is a fast 64-bit hash of b (a multiply-fold over 8-byte words): fingerprints are compared
// within one run, never across processes, and need no cryptographic strength.
func mix64(seed uint64, b []byte) uint64 {
	const m1, m2 = 0xa0761d6478bd642f, 0xe7037ed1a0b428db
	h := seed ^ m1 ^ uint64(len(b))*m2
	for len(b) >= 8 {
		h = fold(h^binary.LittleEndian.Uint64(b), m2)
		b = b[8:]
	}
	var tail uint64
	for i, c := range b {
		tail |= uint64(c) << (8 * i)
	}
	return fold(h^tail, m1)
}

func fold(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// addUnit records a fingerprint, up to MaxUnits.
func (s *Scratch) addUnit(u uint64) {
	if len(s.units) < MaxUnits {
		s.units = append(s.units, u)
	}
}

// Units returns the unit fingerprints of the last result Of digested. The slice is valid until the
// Scratch is used again.
func (s *Scratch) Units() []uint64 { return s.units }

// oneWord reports whether canonical string content is a single word: no space and no escape.
func oneWord(c []byte) bool {
	if len(c) > 128 {
		return false
	}
	for _, b := range c {
		if b == ' ' || b == '\\' {
			return false
		}
	}
	return true
}

// leafUnit records a leaf with the member name above it (key: canonical key text, or nil).
func (s *Scratch) leafUnit(key, value []byte) {
	h := mix64(seedLeaf, key)
	s.addUnit(mix64(h, value))
	s.leaves++
}

// lineUnits records the lines of canonical string content (escapes still written: a line break is the
// two bytes \n).
func (s *Scratch) lineUnits(c []byte) {
	start := 0
	for i := 0; i < len(c); i++ {
		if c[i] != '\\' || i+1 >= len(c) {
			continue
		}
		if c[i+1] == 'n' || c[i+1] == 'r' {
			s.lineUnit(c[start:i])
			start = i + 2
		}
		i++ // an escape is at least two bytes; \u00xx needs no special case, it holds no backslash
	}
	s.lineUnit(c[start:])
}

func (s *Scratch) lineUnit(line []byte) {
	line = trimLine(line)
	line = trimLine(dropLineNumber(line))
	if len(line) > 0 {
		s.addUnit(mix64(seedLine, line))
		s.lines++
	}
}

// trimLine drops spaces and tab escapes (\t) at both ends of a line of canonical text.
func trimLine(l []byte) []byte {
	for {
		switch {
		case len(l) > 0 && l[0] == ' ':
			l = l[1:]
		case len(l) > 1 && l[0] == '\\' && l[1] == 't':
			l = l[2:]
		case len(l) > 0 && l[len(l)-1] == ' ':
			l = l[:len(l)-1]
		case len(l) > 1 && l[len(l)-2] == '\\' && l[len(l)-1] == 't' && (len(l) < 3 || l[len(l)-3] != '\\'):
			l = l[:len(l)-2]
		default:
			return l
		}
	}
}

// dropLineNumber removes a line number the line starts with, as grep -n, cat -n, editors' read tools
// and search tools write it: "12:", "12-", "12|", "12\t", "12→", "L12:", or a path before it
// ("src/a.go:12:", ".env:4:", and grep's context lines "src/a.go-13-"), and the number of an item
// in a numbered list ("3. ", "3) "), which says where the item stands, not what it is.
func dropLineNumber(l []byte) []byte {
	i := 0
	if len(l) > 0 && l[0] == 'L' {
		i = 1
	} else if n := pathPrefix(l); n > 0 {
		i = n + 1 // past the ':'
	} else if n := contextPathPrefix(l); n > 0 {
		i = n + 1 // past the '-'
	}
	n := digits(l, i, 7)
	if n == 0 {
		return l
	}
	j := i + n
	switch {
	case j < len(l) && (l[j] == ':' || l[j] == '-' || l[j] == '|'):
		return l[j+1:]
	case j+1 < len(l) && (l[j] == '.' || l[j] == ')') && l[j+1] == ' ' && i == 0 && n <= 3:
		return l[j+2:]
	case j+1 < len(l) && l[j] == '\\' && l[j+1] == 't' && i == 0:
		return l[j+2:]
	case j+2 < len(l) && l[j] == 0xe2 && l[j+1] == 0x86 && l[j+2] == 0x92 && i == 0: // →
		return l[j+3:]
	}
	return l
}

// pathPrefix returns the length of a file path the line starts with, up to a ':' that a digit
// follows, or 0: no spaces, no quotes, and at least one byte.
func pathPrefix(l []byte) int {
	for i, c := range l {
		switch {
		case c == ':':
			if i > 0 && i+1 < len(l) && isDigit(l[i+1]) {
				return i
			}
			return 0
		case c == ' ' || c == '\\' || c == '"':
			return 0
		}
	}
	return 0
}

// contextPathPrefix returns the length of a file path the line starts with, up to a '-' that digits
// and another '-' follow (grep's context lines), or 0.
func contextPathPrefix(l []byte) int {
	for i, c := range l {
		switch {
		case c == '-' && i > 0:
			if n := digits(l, i+1, 7); n > 0 && i+1+n < len(l) && l[i+1+n] == '-' {
				return i
			}
		case c == ' ' || c == '\\' || c == '"' || c == ':':
			return 0
		}
	}
	return 0
}

// itemUnit is the fingerprint of an item a call names (see Call).
func itemUnit(value []byte) uint64 { return mix64(seedItem, value) }
