// Package jsonraw navigates JSON bytes without decoding them: it finds where each value starts and
// ends, validating the grammar on the way, so callers can look at a few members of an object and
// copy everything else through untouched. Nothing here allocates except Unquote on escaped strings.
package jsonraw

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
	"unsafe"
)

// ErrSyntax reports bytes that are not JSON.
var ErrSyntax = errors.New("invalid JSON")

// ErrDepth reports nesting deeper than the caller allowed.
var ErrDepth = errors.New("JSON nested too deeply")

// MaxDepth bounds nesting so hostile input cannot exhaust the stack.
const MaxDepth = 128

func syntaxAt(i int) error { return fmt.Errorf("%w at offset %d", ErrSyntax, i) }

// SkipSpace returns the index of the first non-whitespace byte at or after i.
func SkipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// Skip validates the value starting at b[i] (after optional whitespace) and returns the index just
// past it.
func Skip(b []byte, i int) (int, error) { return skip(b, SkipSpace(b, i), 0) }

func skip(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return i, syntaxAt(i)
	}
	switch c := b[i]; {
	case c == '"':
		return SkipString(b, i)
	case c == '{':
		return skipObject(b, i, depth+1)
	case c == '[':
		return skipArray(b, i, depth+1)
	case c == 't':
		return skipLiteral(b, i, "true")
	case c == 'f':
		return skipLiteral(b, i, "false")
	case c == 'n':
		return skipLiteral(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return SkipNumber(b, i)
	}
	return i, syntaxAt(i)
}

func skipLiteral(b []byte, i int, lit string) (int, error) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, syntaxAt(i)
	}
	return i + len(lit), nil
}

func skipObject(b []byte, i, depth int) (int, error) {
	if depth > MaxDepth {
		return i, fmt.Errorf("%w at offset %d", ErrDepth, i)
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, syntaxAt(i)
		}
		var err error
		if i, err = SkipString(b, i); err != nil {
			return i, err
		}
		i = SkipSpace(b, i)
		if i >= len(b) || b[i] != ':' {
			return i, syntaxAt(i)
		}
		if i, err = skip(b, SkipSpace(b, i+1), depth); err != nil {
			return i, err
		}
		i = SkipSpace(b, i)
		if i >= len(b) {
			return i, syntaxAt(i)
		}
		switch b[i] {
		case ',':
			i = SkipSpace(b, i+1)
		case '}':
			return i + 1, nil
		default:
			return i, syntaxAt(i)
		}
	}
}

func skipArray(b []byte, i, depth int) (int, error) {
	if depth > MaxDepth {
		return i, fmt.Errorf("%w at offset %d", ErrDepth, i)
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = skip(b, i, depth); err != nil {
			return i, err
		}
		i = SkipSpace(b, i)
		if i >= len(b) {
			return i, syntaxAt(i)
		}
		switch b[i] {
		case ',':
			i = SkipSpace(b, i+1)
		case ']':
			return i + 1, nil
		default:
			return i, syntaxAt(i)
		}
	}
}

// SkipString validates the string starting at the quote b[i] and returns the index past its closing
// quote.
func SkipString(b []byte, i int) (int, error) {
	start := i
	i++
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			return i + 1, nil
		case c == '\\':
			if i+1 >= len(b) {
				return i, syntaxAt(i)
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
					return i, syntaxAt(i)
				}
				i += 6
			default:
				return i, syntaxAt(i)
			}
		case c < 0x20:
			return i, syntaxAt(i)
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return i, syntaxAt(i)
			}
			i += size
		}
	}
	return start, syntaxAt(start)
}

func isHex4(h []byte) bool {
	for _, c := range h {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// SkipNumber validates the RFC 8259 number starting at b[i] and returns the index past it.
func SkipNumber(b []byte, i int) (int, error) {
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return start, syntaxAt(start)
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return start, syntaxAt(start)
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return start, syntaxAt(start)
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	return i, nil
}

// Member is one object member: Key is the raw quoted key, Value the raw value, both slices of the
// input, and ValueStart the value's offset in the object passed to Members.
type Member struct {
	Key, Value []byte
	ValueStart int
}

// Members calls fn for each member of the object obj (which must start with '{') until fn returns
// false. It validates the whole object even when fn stops early, so callers can trust obj afterwards.
func Members(obj []byte, fn func(Member) bool) error {
	i := SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return syntaxAt(i)
	}
	i = SkipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return trailing(obj, i+1)
	}
	more := true
	for {
		if i >= len(obj) || obj[i] != '"' {
			return syntaxAt(i)
		}
		keyEnd, err := SkipString(obj, i)
		if err != nil {
			return err
		}
		key := obj[i:keyEnd]
		i = SkipSpace(obj, keyEnd)
		if i >= len(obj) || obj[i] != ':' {
			return syntaxAt(i)
		}
		valStart := SkipSpace(obj, i+1)
		valEnd, err := skip(obj, valStart, 1)
		if err != nil {
			return err
		}
		if more {
			more = fn(Member{Key: key, Value: obj[valStart:valEnd], ValueStart: valStart})
		}
		i = SkipSpace(obj, valEnd)
		if i >= len(obj) {
			return syntaxAt(i)
		}
		switch obj[i] {
		case ',':
			i = SkipSpace(obj, i+1)
		case '}':
			return trailing(obj, i+1)
		default:
			return syntaxAt(i)
		}
	}
}

// Elements calls fn with each element of the array arr (which must start with '['), and the element's
// offset in arr, until fn returns false.
func Elements(arr []byte, fn func(elem []byte, start int) bool) error {
	i := SkipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return syntaxAt(i)
	}
	i = SkipSpace(arr, i+1)
	if i < len(arr) && arr[i] == ']' {
		return trailing(arr, i+1)
	}
	more := true
	for {
		end, err := skip(arr, i, 1)
		if err != nil {
			return err
		}
		if more {
			more = fn(arr[i:end], i)
		}
		i = SkipSpace(arr, end)
		if i >= len(arr) {
			return syntaxAt(i)
		}
		switch arr[i] {
		case ',':
			i = SkipSpace(arr, i+1)
		case ']':
			return trailing(arr, i+1)
		default:
			return syntaxAt(i)
		}
	}
}

func trailing(b []byte, i int) error {
	if i = SkipSpace(b, i); i != len(b) {
		return syntaxAt(i)
	}
	return nil
}

// Valid reports whether b is exactly one JSON value with optional surrounding whitespace.
func Valid(b []byte) bool {
	end, err := Skip(b, 0)
	return err == nil && SkipSpace(b, end) == len(b)
}

// StringIs reports whether the raw quoted JSON string raw decodes to s. Strings without escapes,
// the usual case for keys and ids, are compared without allocating.
func StringIs(raw []byte, s string) bool {
	if len(raw) < 2 || raw[0] != '"' {
		return false
	}
	inner := raw[1 : len(raw)-1]
	if !hasEscape(inner) {
		return string(inner) == s
	}
	u, ok := Unquote(raw)
	return ok && u == s
}

// Unquote decodes a raw quoted JSON string.
func Unquote(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if !hasEscape(inner) {
		return string(inner), true
	}
	// Escaped strings are rare in ids and keys; the standard decoder gets every escape right.
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

func hasEscape(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}

// IsContainer reports whether the value begins an object or an array.
func IsContainer(v []byte) bool {
	i := SkipSpace(v, 0)
	return i < len(v) && (v[i] == '{' || v[i] == '[')
}

// StringBytes views a string's bytes without copying, for reading only. Attribute values arrive as
// strings, and transcripts of tens of kilobytes sit on every model span: copying them to scan them
// would cost more than the scan.
func StringBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// AppendString appends s as a JSON string. Bytes that are not valid UTF-8 become U+FFFD, so the
// output is always valid JSON and a valid OTLP string.
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '"')
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

// EachMember calls fn for each member of obj, an object already known to be valid JSON, without
// validating it again: walkers that look inside a document they have validated once use it.
func EachMember(obj []byte, fn func(Member)) {
	i := SkipSpace(obj, 0) + 1
	for {
		i = SkipSpace(obj, i)
		if i >= len(obj) || obj[i] == '}' {
			return
		}
		keyEnd := skipValid(obj, i)
		key := obj[i:keyEnd]
		i = SkipSpace(obj, keyEnd) + 1 // past ':'
		valStart := SkipSpace(obj, i)
		valEnd := skipValid(obj, valStart)
		fn(Member{Key: key, Value: obj[valStart:valEnd], ValueStart: valStart})
		i = SkipSpace(obj, valEnd)
		if i < len(obj) && obj[i] == ',' {
			i++
		}
	}
}

// EachElement calls fn for each element of arr, an array already known to be valid JSON, with its
// offset in arr.
func EachElement(arr []byte, fn func(elem []byte, start int)) {
	i := SkipSpace(arr, 0) + 1
	for {
		i = SkipSpace(arr, i)
		if i >= len(arr) || arr[i] == ']' {
			return
		}
		end := skipValid(arr, i)
		fn(arr[i:end], i)
		i = SkipSpace(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i++
		}
	}
}

// skipValid returns the end of the valid JSON value at b[i], trusting its grammar: strings end at the
// first unescaped quote, containers at their matching bracket, scalars at the next delimiter.
func skipValid(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		// Jump from quote to quote (IndexByte is vectorised); a quote is the end unless an odd run of
		// backslashes escapes it.
		for i++; ; {
			q := bytes.IndexByte(b[i:], '"')
			if q < 0 {
				return len(b)
			}
			i += q
			escapes := 0
			for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
				escapes++
			}
			if escapes%2 == 0 {
				return i + 1
			}
			i++
		}
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipValid(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return i
}
