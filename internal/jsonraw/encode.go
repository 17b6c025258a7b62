// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import "unicode/utf8"

// IsContainer reports whether the value begins an object or an array.
func IsContainer(v []byte) bool {
	i := SkipSpace(v, 0)
	return i < len(v) && (v[i] == '{' || v[i] == '[')
}

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
