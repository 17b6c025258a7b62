// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

// Lexer is a validating cursor over one JSON document, for callers that turn JSON into something
// else in one pass. It moves token by token: SkipSpace, String, Number, Literal, Key (a string and
// its colon), Open and More (container punctuation), and SkipValue and SkipArray for whole values
// the caller only needs validated. Each call either moves the cursor past what it scanned or
// reports failure with the cursor at the offending byte, so callers can report an offset.
//
// A Lexer is a small value, made by NewLexer, meant to live on the caller's stack for one
// document; it allocates nothing but what RecordStrings asks it to record.
type Lexer struct {
	src      []byte
	pos      int
	maxDepth int
	// deepest is the deepest nesting a container entered so far had.
	deepest int
	// strings, when set, receives the string values SkipValue passes over.
	strings *[]Span
}

// A Span is where a string token is in a Lexer's source, quotes included: src[Start:End]. Escaped
// reports whether it holds a backslash.
type Span struct {
	Start, End int
	Escaped    bool
}

// RecordStrings has SkipValue and SkipArray append every string value they pass over (not object
// keys) to dst, until it is called again with nil: a caller that withholds a value whole learns its
// strings in the pass that validates it.
func (l *Lexer) RecordStrings(dst *[]Span) { l.strings = dst }

// NewLexer returns a Lexer at the start of src that refuses containers nested deeper than
// maxDepth (a top-level container is depth 1); zero or negative means DefaultMaxDepth.
func NewLexer(src []byte, maxDepth int) Lexer {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	return Lexer{src: src, maxDepth: maxDepth}
}

// Deepest is the deepest nesting of the containers entered so far (0: none).
func (l *Lexer) Deepest() int { return l.deepest }

// Pos is the cursor: the offset of the next byte to scan, or of the offending byte after a failure.
func (l *Lexer) Pos() int { return l.pos }

// Seek moves the cursor to pos, where the caller knows a value of src ends: an element of a container
// whose bytes up to there an earlier pass read, as a walk of a growing document resumes.
func (l *Lexer) Seek(pos int) { l.pos = pos }

// Peek returns the byte at the cursor, or 0 (never valid JSON where a token is expected) at the end.
func (l *Lexer) Peek() byte {
	if l.pos < len(l.src) {
		return l.src[l.pos]
	}
	return 0
}

// SkipSpace moves the cursor past JSON whitespace.
func (l *Lexer) SkipSpace() { l.pos = SkipSpace(l.src, l.pos) }

// SkipSpace returns the index of the first non-whitespace byte at or after i. Compact input has no
// whitespace, and every byte that can follow whitespace is above ' ', so one comparison is the
// common exit.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && isSpace(b[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// AtEnd skips whitespace and reports whether nothing follows: a document is one value.
func (l *Lexer) AtEnd() bool {
	l.SkipSpace()
	return l.pos == len(l.src)
}

// Key scans an object key and the colon after it, leaving the cursor at the value. The key,
// quotes included, ends at end; escaped reports whether it has a backslash.
func (l *Lexer) Key() (end int, escaped, ok bool) {
	end, next, escaped, ok := scanString(l.src, l.pos, true)
	l.pos = next
	return end, escaped, ok
}

// Open enters the object or array whose bracket is at the cursor, itself at nesting depth,
// leaving the cursor at its first member or element. An empty container is consumed whole and
// reported as empty.
func (l *Lexer) Open(depth int) (empty bool, f Fault) {
	var closing byte
	switch l.Peek() {
	case '{':
		closing = '}'
	case '[':
		closing = ']'
	default:
		return false, FaultSyntax
	}
	if depth > l.maxDepth {
		return false, FaultDepth
	}
	l.deepest = max(l.deepest, depth)
	l.pos++
	l.SkipSpace()
	if l.Peek() == closing {
		l.pos++
		return true, NoFault
	}
	return false, NoFault
}

// More scans what follows a member or element of a container that ends with closing ('}' or
// ']'): a comma (more is true, the cursor at the next item) or the closing bracket (more is
// false, the cursor past it).
func (l *Lexer) More(closing byte) (more, ok bool) {
	l.SkipSpace()
	switch l.Peek() {
	case ',':
		l.pos++
		l.SkipSpace()
		return true, true
	case closing:
		l.pos++
		return false, true
	}
	return false, false
}

// Err returns f as ErrSyntax or ErrDepth wrapped with the cursor's offset, or nil for NoFault.
func (l *Lexer) Err(f Fault) error {
	if f == NoFault {
		return nil
	}
	return errAt(f, l.pos)
}
