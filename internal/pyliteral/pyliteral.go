// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package pyliteral reads a Python literal as Python's repr() writes it, and writes it as JSON.
//
// Python agent SDKs often report a tool's result as str(result): a dict returned by a tool reaches
// the trace as {'status': 'queued', 'jobs': '0/4', 'done': False}, not as JSON. Read as JSON, such a
// result is text, whose fields cannot be read and whose volatile fields cannot be set aside; read
// as the literal it is, it is the same document its JSON would be.
//
// What repr writes for the built-in types is read: dicts, lists, tuples and sets (as arrays), strings
// in either quote with repr's escapes, ints, floats, True, False and None; a dict key or a set element
// must be hashable, as Python requires (no dict, set or list), and a key that is not a string becomes
// the string of its JSON. Anything else (an object's
// repr such as datetime.datetime(2026, 1, 1, 0, 0), bytes, inf and nan, which JSON cannot hold) makes
// the whole text unreadable: ToJSON reports false and the caller keeps the text as it was.
package pyliteral

import (
	"strconv"
	"unicode/utf8"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// LooksLikeRepr reports whether a text may be a Python dict, list or tuple as repr writes them: it
// opens one and its first string is in single quotes, which JSON never writes. It looks at a few bytes,
// so a caller can ask it of every result and read as a literal only those that pass.
func LooksLikeRepr(raw []byte) bool {
	i := 0
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	if i >= len(raw) || raw[i] != '{' && raw[i] != '[' && raw[i] != '(' {
		return false
	}
	for ; i < len(raw); i++ {
		switch raw[i] {
		case '{', '[', '(', ' ', '\t', '\n', '\r':
		case '\'':
			return true
		default:
			return false
		}
	}
	return false
}

// ToJSON appends to dst the JSON of the Python literal src and reports whether src is one, nested at
// most maxDepth deep. Dict keys that are not strings become the JSON strings of their literals.
func ToJSON(dst, src []byte, maxDepth int) ([]byte, bool) {
	p := parser{src: src, out: dst, maxDepth: maxDepth}
	p.space()
	if !p.value(0) {
		return dst, false
	}
	p.space()
	if p.pos != len(src) {
		return dst, false
	}
	return p.out, true
}

type parser struct {
	src      []byte
	pos      int
	out      []byte
	maxDepth int
	// hashable: reading a dict key or a set element, which Python requires to be hashable: no dict,
	// set or list, only scalars and tuples of them. A key's JSON becomes a string, so a dict inside a
	// key would be escaped again at every level.
	hashable bool
}

func (p *parser) space() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) bool {
	if p.pos >= len(p.src) {
		return false
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return depth < p.maxDepth && !p.hashable && p.dictOrSet(depth+1)
	case c == '[':
		return depth < p.maxDepth && !p.hashable && p.sequence(depth+1, ']')
	case c == '(':
		return depth < p.maxDepth && p.sequence(depth+1, ')')
	case c == '\'' || c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, w := range [...]struct{ py, json string }{{"True", "true"}, {"False", "false"}, {"None", "null"}} {
		if p.word(w.py) {
			p.out = append(p.out, w.json...)
			return true
		}
	}
	return false
}

// word consumes w when it stands at the cursor as a whole word.
func (p *parser) word(w string) bool {
	end := p.pos + len(w)
	if end > len(p.src) || string(p.src[p.pos:end]) != w || end < len(p.src) && isIdent(p.src[end]) {
		return false
	}
	p.pos = end
	return true
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// sequence reads a list or a tuple (a one-element tuple has a trailing comma) as an array.
func (p *parser) sequence(depth int, closing byte) bool {
	p.pos++
	p.out = append(p.out, '[')
	return p.elements(depth, closing, 0)
}

// elements reads the rest of a sequence after its first n elements, up to its closing bracket (a
// trailing comma allowed), and closes the array.
func (p *parser) elements(depth int, closing byte, n int) bool {
	for ; ; n++ {
		p.space()
		if n > 0 {
			if !p.skip(',') {
				return p.close(closing, ']')
			}
			p.space()
		}
		if p.skip(closing) {
			p.out = append(p.out, ']')
			return true
		}
		if n > 0 {
			p.out = append(p.out, ',')
		}
		if !p.value(depth) {
			return false
		}
	}
}

// close consumes closing and writes end, or reports that the cursor is not at closing.
func (p *parser) close(closing, end byte) bool {
	if !p.skip(closing) {
		return false
	}
	p.out = append(p.out, end)
	return true
}

// dictOrSet reads a dict as an object, or a set ({1, 2}) as an array: what follows the first element
// says which. The first element is read once whichever it is (read again, nested sets would take
// twice as long at each level).
func (p *parser) dictOrSet(depth int) bool {
	p.pos++
	p.space()
	if p.skip('}') {
		p.out = append(p.out, "{}"...)
		return true
	}
	mark := len(p.out)
	p.out = append(p.out, '[')
	if !p.hashableValue(depth) {
		return false
	}
	p.space()
	if p.pos >= len(p.src) || p.src[p.pos] != ':' {
		return p.setElements(depth)
	}
	p.out[mark] = '{'
	p.stringKey(mark + 1)
	return p.pairs(depth)
}

// pairs reads the rest of a dict from its first key's colon, up to its closing brace.
func (p *parser) pairs(depth int) bool {
	for n := 0; ; n++ {
		if n > 0 {
			p.space()
			if !p.skip(',') {
				return p.close('}', '}')
			}
			p.space()
			if p.skip('}') {
				p.out = append(p.out, '}')
				return true
			}
			p.out = append(p.out, ',')
			if !p.key(depth) {
				return false
			}
			p.space()
		}
		if !p.skip(':') {
			return false
		}
		p.out = append(p.out, ':')
		p.space()
		if !p.value(depth) {
			return false
		}
	}
}

// key reads a dict key: a string as it is, any other literal as the string of its JSON.
func (p *parser) key(depth int) bool {
	mark := len(p.out)
	if !p.hashableValue(depth) {
		return false
	}
	p.stringKey(mark)
	return true
}

// hashableValue reads a value that must be hashable: a dict key or a set element.
func (p *parser) hashableValue(depth int) bool {
	outer := p.hashable
	p.hashable = true
	defer func() { p.hashable = outer }()
	return p.value(depth)
}

// setElements reads the rest of a set after its first element; every element is hashable.
func (p *parser) setElements(depth int) bool {
	outer := p.hashable
	p.hashable = true
	defer func() { p.hashable = outer }()
	return p.elements(depth, '}', 1)
}

// stringKey makes the JSON written from mark on a string, when it is not one: a dict's key.
func (p *parser) stringKey(mark int) {
	if p.out[mark] != '"' {
		text := string(p.out[mark:])
		p.out = jsonraw.AppendString(p.out[:mark], text)
	}
}

// str reads a string in either quote with repr's escapes and writes it as a JSON string.
func (p *parser) str() bool {
	quote := p.src[p.pos]
	p.pos++
	p.out = append(p.out, '"')
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == quote:
			p.pos++
			p.out = append(p.out, '"')
			return true
		case c == '\\':
			if !p.escape() {
				return false
			}
		case c == '\n' || c == '\r':
			return false // repr escapes line breaks
		case c < 0x20:
			p.out = append(p.out, `\u00`...)
			p.out = append(p.out, hexDigits[c>>4], hexDigits[c&0xF])
			p.pos++
		case c == '"':
			p.out = append(p.out, '\\', '"')
			p.pos++
		case c < utf8.RuneSelf:
			p.out = append(p.out, c)
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.src[p.pos:])
			if r == utf8.RuneError && size == 1 {
				return false
			}
			p.out = append(p.out, p.src[p.pos:p.pos+size]...)
			p.pos += size
		}
	}
	return false
}

const hexDigits = "0123456789abcdef"

// escape reads one of repr's escapes and writes the character it stands for.
func (p *parser) escape() bool {
	if p.pos+1 >= len(p.src) {
		return false
	}
	c := p.src[p.pos+1]
	p.pos += 2
	switch c {
	case '\\':
		p.out = append(p.out, '\\', '\\')
	case '\'':
		p.out = append(p.out, '\'')
	case '"':
		p.out = append(p.out, '\\', '"')
	case 'n':
		p.out = append(p.out, '\\', 'n')
	case 'r':
		p.out = append(p.out, '\\', 'r')
	case 't':
		p.out = append(p.out, '\\', 't')
	case 'x', 'u', 'U':
		n := 2 // \xhh
		switch c {
		case 'u':
			n = 4
		case 'U':
			n = 8
		}
		if p.pos+n > len(p.src) {
			return false
		}
		v, err := strconv.ParseUint(string(p.src[p.pos:p.pos+n]), 16, 32)
		if err != nil || v > utf8.MaxRune || v >= 0xD800 && v < 0xE000 {
			return false
		}
		p.pos += n
		r := rune(v)
		if r < 0x20 || r == '"' || r == '\\' {
			p.out = append(p.out, `\u00`...)
			p.out = append(p.out, hexDigits[r>>4], hexDigits[r&0xF])
			return true
		}
		p.out = utf8.AppendRune(p.out, r)
	default:
		return false
	}
	return true
}

// number reads an int or a float as repr writes them (which JSON's grammar for numbers also holds:
// no leading zeros, digits after a point); inf and nan, which JSON cannot hold, and complex numbers are
// not read.
func (p *parser) number() bool {
	start := p.pos
	p.skip('-')
	switch {
	case p.skip('0'):
	case p.digits() == 0:
		return false
	}
	if p.skip('.') && p.digits() == 0 {
		return false
	}
	if p.skip('e') || p.skip('E') {
		if !p.skip('+') {
			p.skip('-')
		}
		if p.digits() == 0 {
			return false
		}
	}
	if p.pos < len(p.src) && (isIdent(p.src[p.pos]) || p.src[p.pos] == '.') {
		return false
	}
	p.out = append(p.out, p.src[start:p.pos]...)
	return true
}

// skip consumes c when it is at the cursor.
func (p *parser) skip(c byte) bool {
	if p.pos < len(p.src) && p.src[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// digits consumes a run of decimal digits and returns its length.
func (p *parser) digits() int {
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	return p.pos - start
}
