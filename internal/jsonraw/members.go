// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

// Member is one object member: Key is the raw quoted key, Value the raw value, both slices of the
// input, and ValueStart the value's offset in the object passed to Members.
type Member struct {
	Key, Value []byte
	ValueStart int
}

// Members calls fn for each member of the object obj (which must start with '{') until fn returns
// false. It validates the whole object even when fn stops early, so callers can trust obj afterwards.
func Members(obj []byte, fn func(Member) bool) error {
	l, empty, err := openTopLevel(obj, '{')
	if err != nil || empty {
		return err
	}
	call := true
	for {
		keyStart := l.pos
		keyEnd, _, ok := l.Key()
		if !ok {
			return l.Err(FaultSyntax)
		}
		valStart := l.pos
		if f := l.SkipValue(1); f != NoFault {
			return l.Err(f)
		}
		if call {
			call = fn(Member{Key: obj[keyStart:keyEnd], Value: obj[valStart:l.pos], ValueStart: valStart})
		}
		if more, err := l.moreAtTopLevel('}'); !more {
			return err
		}
	}
}

// openTopLevel enters the container that doc, after whitespace, must start with (opening is '{'
// or '['). An empty container must be all of doc.
func openTopLevel(doc []byte, opening byte) (l Lexer, empty bool, err error) {
	l = NewLexer(doc, DefaultMaxDepth)
	l.SkipSpace()
	if l.Peek() != opening {
		return l, false, l.Err(FaultSyntax)
	}
	empty, f := l.Open(1)
	if f != NoFault {
		return l, false, l.Err(f)
	}
	if empty {
		return l, true, l.trailing()
	}
	return l, false, nil
}

// moreAtTopLevel is More for the container a whole document holds: after its closing bracket only
// whitespace may follow. err is set when more is false and the document is not well formed.
func (l *Lexer) moreAtTopLevel(closing byte) (more bool, err error) {
	more, ok := l.More(closing)
	switch {
	case !ok:
		return false, l.Err(FaultSyntax)
	case more:
		return true, nil
	}
	return false, l.trailing()
}

// trailing reports an error unless only whitespace follows the cursor.
func (l *Lexer) trailing() error {
	if !l.AtEnd() {
		return l.Err(FaultSyntax)
	}
	return nil
}

// Field returns the raw value at a dotted path of object members ("status", "build.status") in the
// JSON document doc.
func Field(doc []byte, path string) ([]byte, bool) {
	for {
		name, rest, nested := cut(path)
		var found []byte
		if err := Members(doc, func(m Member) bool {
			if StringIs(m.Key, name) {
				found = m.Value
				return false
			}
			return true
		}); err != nil || found == nil {
			return nil, false
		}
		if !nested {
			return found, true
		}
		doc, path = found, rest
	}
}

func cut(path string) (head, tail string, ok bool) {
	for i := 0; i < len(path); i++ {
		if path[i] == '.' {
			return path[:i], path[i+1:], true
		}
	}
	return path, "", false
}

// Text returns a scalar JSON value as text: a string decoded, a number or literal as written.
func Text(raw []byte) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	switch raw[0] {
	case '"':
		return Unquote(raw)
	case '{', '[':
		return "", false
	}
	return string(raw), true
}
