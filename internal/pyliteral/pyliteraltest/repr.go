// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package pyliteraltest writes values as Python's repr() writes them, for tests of what reads them.
package pyliteraltest

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Repr writes v (what encoding/json decodes into an any, or an int64) as Python's repr does: dicts
// and lists with ", " and ": ", strings in single quotes unless they hold one and no double quote,
// non-printable characters escaped, floats with a point.
func Repr(v any) string {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = reprStr(k) + ": " + Repr(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = Repr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e16 {
			return strconv.FormatFloat(x, 'f', 1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		if x {
			return "True"
		}
		return "False"
	case nil:
		return "None"
	case string:
		return reprStr(x)
	}
	panic(fmt.Sprintf("%T", v))
}

func reprStr(s string) string {
	quote := '\''
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		quote = '"'
	}
	var b strings.Builder
	b.WriteRune(quote)
	for _, c := range s {
		switch {
		case c == quote || c == '\\':
			b.WriteRune('\\')
			b.WriteRune(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c < 0x100 && !unicode.IsPrint(c):
			fmt.Fprintf(&b, `\x%02x`, c)
		case c < 0x10000 && !unicode.IsPrint(c):
			fmt.Fprintf(&b, `\u%04x`, c)
		case !utf8.ValidRune(c) || !unicode.IsPrint(c):
			fmt.Fprintf(&b, `\U%08x`, c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteRune(quote)
	return b.String()
}
