// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAppendUnquote(t *testing.T) {
	valid := map[string]string{
		`""`:                      "",
		`"plain"`:                 "plain",
		`"é✓ 😀"`:                  "é✓ 😀",
		`"a\"b\\c\/d"`:            `a"b\c/d`,
		`"\b\f\n\r\t"`:            "\b\f\n\r\t",
		`"\u0041\u00e9\u20AC"`:    "Aé€",
		`"\u0000"`:                "\x00",
		`"\ud83d\ude00"`:          "😀",
		`"\uD83D\uDE00x"`:         "😀x",
		`"\ud800"`:                "\ufffd",
		`"\udc00\ud800"`:          "\ufffd\ufffd",
		`"\ud800\u0041"`:          "\ufffdA",
		`"\ud800\ud800\udc00"`:    "\ufffd\U00010000",
		`"{\"rows\":[1,\"x\"]}"`:  `{"rows":[1,"x"]}`,
		"\"long plain run é\\n\"": "long plain run é\n",
		`"\udbff\udfff"`:          "\U0010FFFF",
		`"\udc00"`:                "\ufffd",
	}
	for raw, want := range valid {
		var std string
		if err := json.Unmarshal([]byte(raw), &std); err != nil || std != want {
			t.Fatalf("test case %s: encoding/json decodes %q, %v; the table says %q", raw, std, err, want)
		}
		got, ok := AppendUnquote([]byte("prefix:"), []byte(raw))
		if !ok || string(got) != "prefix:"+want {
			t.Errorf("AppendUnquote(%s) = %q, %v; want %q", raw, got, ok, "prefix:"+want)
		}
		if s, ok := Unquote([]byte(raw)); !ok || s != want {
			t.Errorf("Unquote(%s) = %q, %v; want %q", raw, s, ok, want)
		}
	}
	for _, raw := range []string{
		``, `"`, `x`, `"abc`, `abc"`, `"a"b"`, `"\"`, `"\x"`, `"\u12"`, `"\u12g4"`, `"\U0041"`, "\"a\tb\"",
		"\"\x00\"", "\"\xff\"", "\"\xc3\"", "\"\xed\xa0\x80\"", `"a" `, ` "a"`,
	} {
		got, ok := AppendUnquote([]byte("prefix:"), []byte(raw))
		if ok || string(got) != "prefix:" {
			t.Errorf("AppendUnquote(%q) = %q, %v; want dst unchanged and false", raw, got, ok)
		}
		if s, ok := Unquote([]byte(raw)); ok || s != "" {
			t.Errorf("Unquote(%q) = %q, %v; want false", raw, s, ok)
		}
	}
}

func TestDecodeEscape(t *testing.T) {
	cases := []struct {
		in   string
		r    rune
		size int
	}{
		{`\n rest`, '\n', 2},
		{`\/`, '/', 2},
		{`\u00e9`, 'é', 6},
		{`\ud83d\ude00`, '😀', 12},
		{`\ud83d`, 0xd83d, 6},       // lone high surrogate, returned as itself
		{`\ude00\ud83d`, 0xde00, 6}, // a low surrogate never starts a pair
		{`\ud83d\u0041`, 0xd83d, 6}, // not followed by a low half
		{`\ud83d\ude0`, 0xd83d, 6},  // the low half is cut short
		{`\x`, 0, 0},
		{`\u00e`, 0, 0},
		{`\`, 0, 0},
		{`n`, 0, 0},
	}
	for _, c := range cases {
		if r, size := DecodeEscape([]byte(c.in)); r != c.r || size != c.size {
			t.Errorf("DecodeEscape(%s) = %U, %d; want %U, %d", c.in, r, size, c.r, c.size)
		}
	}
}

func TestStringIs(t *testing.T) {
	cases := []struct {
		raw, s string
		want   bool
	}{
		{`"status"`, "status", true},
		{`"st\u0061tus"`, "status", true},
		{`"st\u0061tus"`, "statu", false},
		{`"st\u0061tus"`, "statuss", false},
		{`"\ud83d\ude00"`, "😀", true},
		{`"\ud800"`, "\ufffd", true},
		{`"a\"b"`, `a"b`, true},
		{`"a\"b"`, `a\"b`, false},
		{`"a\qb"`, "aqb", false},
		{`"st\u0061tus`, "status", false},
		{`status`, "status", false},
	}
	for _, c := range cases {
		if got := StringIs([]byte(c.raw), c.s); got != c.want {
			t.Errorf("StringIs(%s, %q) = %v, want %v", c.raw, c.s, got, c.want)
		}
	}
}

// The transcript walk decodes escaped keys and ids on every span: with a reused buffer that
// costs no allocation, and Unquote, which must return a new string, costs exactly one.
func TestUnquoteAllocations(t *testing.T) {
	raw := []byte(stringifiedToolResult(20))
	dst := make([]byte, 0, len(raw))
	if n := testing.AllocsPerRun(100, func() { dst, _ = AppendUnquote(dst[:0], raw) }); n != 0 {
		t.Errorf("AppendUnquote with room in dst: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = Unquote(raw) }); n != 1 {
		t.Errorf("Unquote: %v allocations, want 1", n)
	}
	key := []byte(`"tool_c\u0061ll_id"`)
	if n := testing.AllocsPerRun(100, func() { StringIs(key, "tool_call_id") }); n != 0 {
		t.Errorf("StringIs on an escaped key: %v allocations, want 0", n)
	}
}

// stringifiedToolResult is a tool result as SDKs put it in a transcript: JSON text inside a JSON
// string, so every quote is escaped, with some non-ASCII text and a \u escape.
func stringifiedToolResult(rows int) string {
	var b strings.Builder
	b.WriteString(`{"rows":[`)
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":"cus_00` + string(rune('0'+i%10)) + `","name":"Ada Lovelace","city":"Zürich",` +
			`"note":"prefers email \u2014 café owner","tags":["vip","b2b"],"balance":120.5}`)
	}
	b.WriteString(`],"total":` + string(rune('0'+rows%10)) + `}`)
	raw, _ := json.Marshal(b.String())
	return string(raw)
}
