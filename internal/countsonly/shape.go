// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package countsonly

import (
	"bytes"
	"strconv"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// scanner is the state of one shaping call, on the caller's stack: the lexer's cursor over src,
// the kept keys and what has been withheld so far.
type scanner struct {
	jsonraw.Lexer
	src   []byte
	kept  *keptSet
	stats Stats
	// leaves, when set, lists what is withheld.
	leaves *Leaves
	// maxDepth bounds a document stringified under a kept key, read to tell it from text.
	maxDepth int
}

// fail turns a lexer fault into its error (ErrSyntax or ErrDepth), at the cursor's offset.
func (s *scanner) fail(f jsonraw.Fault) error { return s.Err(f) }

// shapeValue appends the shaped form of the value at the cursor. keep reports whether the
// value sits directly under a kept key; depth is the nesting of the container holding it.
// Arrays are withheld whole, yet everything inside them is validated all the same: output is
// produced only for a document that is valid JSON from end to end.
func (s *scanner) shapeValue(dst []byte, keep bool, depth int) ([]byte, error) {
	start := s.Pos()
	switch s.Peek() {
	case '{':
		return s.shapeObject(dst, depth+1)
	case '[':
		s.leaves.recordArray(&s.Lexer)
		n, f := s.SkipArray(depth + 1)
		s.leaves.array(&s.Lexer)
		if f != jsonraw.NoFault {
			return dst, s.fail(f)
		}
		s.stats.Arrays++
		dst = append(dst, `"[`...)
		dst = strconv.AppendInt(dst, int64(n), 10)
		return append(dst, ` withheld]"`...), nil
	case '"':
		escaped, ok := s.String()
		if !ok {
			return dst, s.fail(jsonraw.FaultSyntax)
		}
		if keep && !s.holdsDocument(s.src[start:s.Pos()], escaped) {
			// Raw bytes, escapes intact: already valid JSON, and no re-encoding to get wrong.
			return append(dst, s.src[start:s.Pos()]...), nil
		}
		s.stats.Strings++
		s.leaves.add(jsonraw.Span{Start: start, End: s.Pos(), Escaped: escaped})
		return append(dst, `"`+Withheld+`"`...), nil
	}
	if !s.Scalar() {
		return dst, s.fail(jsonraw.FaultSyntax)
	}
	return append(dst, s.src[start:s.Pos()]...), nil
}

// holdsDocument reports whether a string, raw and valid JSON, holds a JSON document: a kept key keeps
// text (a query, a status), not the data a document stringified under it carries, which is withheld
// as any other string is.
func (s *scanner) holdsDocument(raw []byte, escaped bool) bool {
	text := raw[1 : len(raw)-1]
	if !LooksLikeJSON(text) && !(escaped && bytes.HasPrefix(bytes.TrimLeft(text, " "), []byte{'\\'})) {
		return false // text, the common case, is told apart without decoding it
	}
	if escaped {
		text, _ = jsonraw.AppendUnquote(nil, raw)
	}
	return LooksLikeJSON(text) && jsonraw.ValidDepth(text, s.maxDepth)
}

// shapeObject appends the object at the cursor (itself at nesting depth) with the same keys in
// the same order, each value shaped under its own key.
func (s *scanner) shapeObject(dst []byte, depth int) ([]byte, error) {
	empty, f := s.Open(depth)
	if f != jsonraw.NoFault {
		return dst, s.fail(f)
	}
	if empty {
		return append(dst, '{', '}'), nil
	}
	dst = append(dst, '{')
	for {
		start := s.Pos()
		end, escaped, ok := s.Key()
		if !ok {
			return dst, s.fail(jsonraw.FaultSyntax)
		}
		dst = append(dst, s.src[start:end]...)
		dst = append(dst, ':')
		var err error
		if dst, err = s.shapeValue(dst, s.kept.has(s.src[start:end], escaped), depth); err != nil {
			return dst, err
		}
		more, ok := s.More('}')
		if !ok {
			return dst, s.fail(jsonraw.FaultSyntax)
		}
		if !more {
			return append(dst, '}'), nil
		}
		dst = append(dst, ',')
	}
}
