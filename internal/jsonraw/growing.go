// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import "bytes"

// Growing validates JSON arrays that grow at their end, as an agent's transcript does: each model call
// carries the messages of the calls before it and a few more, so validating every transcript whole
// reads a run's first messages once per model call after them. Growing remembers the array it validated
// last and where its last element ends; an array that begins with the same bytes up to there is in the
// same state at that point (inside the top-level array, just past an element) when the next byte
// closes that element, so only what follows is read. A byte comparison costs a fraction of validating.
//
// It views the arrays it is given without copying them: they must not change while it remembers them
// (until the next Valid or Reset). The zero value is ready to use.
type Growing struct {
	// MaxDepth bounds the nesting Valid accepts, as for ValidDepth.
	MaxDepth int

	last []byte
	end  int // last[:end] is last up to and including its last element; 0 when nothing is remembered
}

// Valid reports what ValidDepth(doc, g.MaxDepth) reports. A non-empty array it validates is
// remembered, in place of the one before.
func (g *Growing) Valid(doc []byte) bool {
	l := NewLexer(doc, g.MaxDepth)
	l.SkipSpace()
	if l.Peek() != '[' {
		return ValidDepth(doc, g.MaxDepth)
	}
	// Past the elements it shares with the array validated before, if it shares some.
	if SharesElements(g.last, g.end, doc) {
		l.pos = g.end
	} else {
		g.Reset()
		empty, f := l.Open(1)
		if f != NoFault {
			return false
		}
		if empty {
			return l.AtEnd()
		}
		if l.SkipValue(1) != NoFault {
			return false
		}
	}
	end := l.pos
	for {
		more, ok := l.More(']')
		if !ok {
			return false
		}
		if !more {
			break
		}
		if l.SkipValue(1) != NoFault {
			return false
		}
		end = l.pos
	}
	if !l.AtEnd() {
		return false
	}
	g.last, g.end = doc, end
	return true
}

// A growing transcript is resumed by one of two readings of "the part it shares with the one before".
// The searches (for tool names and for withheld values) read bytes and need no element boundaries:
// they resume at SharedPrefix. Validation and the transcript walk must resume in a known lexer state,
// just past an element: they resume at SharesElements' end. Each consumer keeps what it found in the
// earlier string (clean or not, the hits, the walk's records) beside it, since what it may skip depends
// on what it found there. The rule is in
// docs/design.md#4-structure-first-internalagentspan-processorshapeonly.

// SharedPrefix is how many bytes text shares with the string its attribute held before, prev, as a
// transcript shares them with the one before it: all of prev but its last byte (the closing bracket),
// or 0.
func SharedPrefix(prev, text []byte) int {
	if shared := len(prev) - 1; shared > 0 && len(text) > shared && bytes.Equal(text[:shared], prev[:shared]) {
		return shared
	}
	return 0
}

// SharesElements reports whether doc begins with the elements of the array prev up to end, where one of
// them ends (as a pass over prev found it), and goes on as an array goes on after an element: those
// elements are doc's too, and a pass over doc may take what it found in them from the pass over prev.
// A byte after the shared part that cannot follow an element would extend the last one: a number is
// not closed by its last digit ("[1,2]" then "[1,20]").
func SharesElements(prev []byte, end int, doc []byte) bool {
	return end > 0 && len(doc) > end && endsElement(doc[end]) && bytes.Equal(doc[:end], prev[:end])
}

// endsElement reports whether c can follow an array's element: a comma, the closing bracket or space.
func endsElement(c byte) bool { return c == ',' || c == ']' || isSpace(c) }

// Reset forgets the array remembered.
func (g *Growing) Reset() { g.last, g.end = nil, 0 }
