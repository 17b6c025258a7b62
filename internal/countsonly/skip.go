package countsonly

// The skipping walk. Arrays are withheld whole, yet everything inside them is validated all
// the same: output is produced only for a document that is valid JSON from end to end.

// skipValue validates the value at the cursor without emitting anything; depth is the nesting
// of the container holding it.
func (s *scanner) skipValue(depth int) error {
	switch s.peek() {
	case '{':
		return s.skipObject(depth + 1)
	case '[':
		_, err := s.skipArray(depth + 1)
		return err
	case '"':
		_, err := s.scanString()
		return err
	}
	return s.scanScalar()
}

// skipArray validates the array at the cursor (itself at nesting depth) and returns its number
// of elements.
func (s *scanner) skipArray(depth int) (n int, err error) {
	if depth > s.maxDepth {
		return 0, errAt(ErrDepth, s.pos)
	}
	s.pos++ // '['
	s.skipWS()
	if s.peek() == ']' {
		s.pos++
		return 0, nil
	}
	for {
		if err := s.skipValue(depth); err != nil {
			return 0, err
		}
		n++
		s.skipWS()
		switch s.peek() {
		case ',':
			s.pos++
			s.skipWS()
		case ']':
			s.pos++
			return n, nil
		default:
			return 0, s.syntaxErr()
		}
	}
}

// skipObject validates the object at the cursor (itself at nesting depth).
func (s *scanner) skipObject(depth int) error {
	if depth > s.maxDepth {
		return errAt(ErrDepth, s.pos)
	}
	s.pos++ // '{'
	s.skipWS()
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for {
		if _, _, _, err := s.scanKey(); err != nil {
			return err
		}
		if err := s.skipValue(depth); err != nil {
			return err
		}
		s.skipWS()
		switch s.peek() {
		case ',':
			s.pos++
			s.skipWS()
		case '}':
			s.pos++
			return nil
		default:
			return s.syntaxErr()
		}
	}
}
