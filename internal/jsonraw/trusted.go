// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import "bytes"

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
