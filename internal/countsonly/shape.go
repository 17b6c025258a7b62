package countsonly

import "strconv"

// shapeValue appends the shaped form of the value at the cursor. keep reports whether the
// value sits directly under a kept key; depth is the nesting of the container holding it.
func (s *scanner) shapeValue(dst []byte, keep bool, depth int) ([]byte, error) {
	start := s.pos
	switch s.peek() {
	case '{':
		return s.shapeObject(dst, depth+1)
	case '[':
		n, err := s.skipArray(depth + 1)
		if err != nil {
			return dst, err
		}
		s.stats.Arrays++
		dst = append(dst, `"[`...)
		dst = strconv.AppendInt(dst, int64(n), 10)
		return append(dst, ` withheld]"`...), nil
	case '"':
		if _, err := s.scanString(); err != nil {
			return dst, err
		}
		if keep {
			// Raw bytes, escapes intact: already valid JSON, and no re-encoding to get wrong.
			return append(dst, s.src[start:s.pos]...), nil
		}
		s.stats.Strings++
		return append(dst, `"`+Withheld+`"`...), nil
	}
	if err := s.scanScalar(); err != nil {
		return dst, err
	}
	return append(dst, s.src[start:s.pos]...), nil
}

// shapeObject appends the object at the cursor (itself at nesting depth) with the same keys in
// the same order, each value shaped under its own key.
func (s *scanner) shapeObject(dst []byte, depth int) ([]byte, error) {
	if depth > s.maxDepth {
		return dst, errAt(ErrDepth, s.pos)
	}
	s.pos++ // '{'
	dst = append(dst, '{')
	s.skipWS()
	if s.peek() == '}' {
		s.pos++
		return append(dst, '}'), nil
	}
	for {
		start, end, escaped, err := s.scanKey()
		if err != nil {
			return dst, err
		}
		dst = append(dst, s.src[start:end]...)
		dst = append(dst, ':')
		dst, err = s.shapeValue(dst, s.kept.has(s.src[start+1:end-1], escaped), depth)
		if err != nil {
			return dst, err
		}
		s.skipWS()
		switch s.peek() {
		case ',':
			s.pos++
			dst = append(dst, ',')
			s.skipWS()
		case '}':
			s.pos++
			return append(dst, '}'), nil
		default:
			return dst, s.syntaxErr()
		}
	}
}
