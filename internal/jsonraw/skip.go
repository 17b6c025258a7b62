// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

// SkipValue validates the value at the cursor and moves past it; depth is the nesting of the
// container holding it (0 at the top level).
func (l *Lexer) SkipValue(depth int) Fault {
	switch l.Peek() {
	case '{':
		return l.skipObject(depth + 1)
	case '[':
		_, f := l.SkipArray(depth + 1)
		return f
	case '"':
		start := l.pos
		escaped, ok := l.String()
		if !ok {
			return FaultSyntax
		}
		if l.strings != nil {
			*l.strings = append(*l.strings, Span{Start: start, End: l.pos, Escaped: escaped})
		}
		return NoFault
	}
	if !l.Scalar() {
		return FaultSyntax
	}
	return NoFault
}

// SkipArray validates the array at the cursor, itself at nesting depth, moves past it and
// returns its number of elements.
func (l *Lexer) SkipArray(depth int) (elements int, f Fault) {
	empty, f := l.Open(depth)
	if f != NoFault || empty {
		return 0, f
	}
	for {
		if f := l.SkipValue(depth); f != NoFault {
			return 0, f
		}
		elements++
		more, ok := l.More(']')
		if !ok {
			return 0, FaultSyntax
		}
		if !more {
			return elements, NoFault
		}
	}
}

// skipObject validates the object at the cursor, itself at nesting depth, and moves past it.
func (l *Lexer) skipObject(depth int) Fault {
	empty, f := l.Open(depth)
	if f != NoFault || empty {
		return f
	}
	for {
		if _, _, ok := l.Key(); !ok {
			return FaultSyntax
		}
		if f := l.SkipValue(depth); f != NoFault {
			return f
		}
		more, ok := l.More('}')
		if !ok {
			return FaultSyntax
		}
		if !more {
			return NoFault
		}
	}
}

// Valid reports whether b is exactly one JSON value with optional surrounding whitespace, nested
// no deeper than DefaultMaxDepth.
func Valid(b []byte) bool { return ValidDepth(b, DefaultMaxDepth) }

// ValidDepth is Valid for containers nested no deeper than maxDepth (DefaultMaxDepth when it is
// zero or negative).
func ValidDepth(b []byte, maxDepth int) bool {
	l := NewLexer(b, maxDepth)
	l.SkipSpace()
	return l.SkipValue(0) == NoFault && l.AtEnd()
}
