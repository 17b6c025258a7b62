// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func FuzzSkip(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"c"}]}`, `[`, `"\u12`, `1e5`, `{"a":1,}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := Valid(b)
		// jsonraw rejects invalid UTF-8 in strings, where encoding/json lets it through: a transcript
		// that is not text is withheld rather than passed on.
		if !utf8.Valid(b) {
			return
		}
		want := json.Valid(b)
		// Nesting past DefaultMaxDepth is refused here and accepted by encoding/json up to 10000.
		if want && nesting(b) > DefaultMaxDepth {
			want = false
		}
		if got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}

// The trusted iterators see exactly what the validating ones see on valid documents.
func FuzzEachMatchesValidating(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"c\"]}"}],"d":-1e5,"e":{}}`, `[ "x" , [ ] , { "k" : null } ]`, `{}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !Valid(b) {
			return
		}
		type item struct {
			key, val string
			at       int
		}
		var strict, trusted []item
		i := SkipSpace(b, 0)
		doc := b[i:]
		switch {
		case len(doc) > 0 && doc[0] == '{':
			_ = Members(doc, func(m Member) bool {
				strict = append(strict, item{string(m.Key), string(m.Value), m.ValueStart})
				return true
			})
			EachMember(doc, func(m Member) { trusted = append(trusted, item{string(m.Key), string(m.Value), m.ValueStart}) })
		case len(doc) > 0 && doc[0] == '[':
			_ = elements(doc, func(e []byte, at int) bool { strict = append(strict, item{"", string(e), at}); return true })
			EachElement(doc, func(e []byte, at int) { trusted = append(trusted, item{"", string(e), at}) })
		}
		if len(strict) != len(trusted) {
			t.Fatalf("%q: %d items validating, %d trusted", b, len(strict), len(trusted))
		}
		for k := range strict {
			if strict[k] != trusted[k] {
				t.Fatalf("%q: item %d: %+v vs %+v", b, k, strict[k], trusted[k])
			}
		}
	})
}

// FuzzMatchesEncodingJSON holds the lexer to encoding/json, the reference: for any bytes, as a
// document and as the content of a string token. The differences are deliberate and exact:
//   - a string holding bytes that are not UTF-8 is invalid here and valid to encoding/json (which
//     decodes them as U+FFFD); outside strings such bytes are invalid to both;
//   - nesting is bounded by the lexer's limit; at encoding/json's own limit, 10000, the two agree.
func FuzzMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,{"b":"c"}],"d":-0.5e+10,"e":true,"f":null}`, ` [ "\u00e9\n" , false ] `, `"x"`, `0`, `-`,
		`"\ud83d\ude00"`, `"\ud800"`, `"\udc00\ud800"`, `"\ud800\u0041"`, `"\ud800\ud800\udc00"`, `"\u0000"`,
		`"\uD83D\uDE00"`, `"\/\b\f\r\t\"\\"`, "\"\xff\"", "\"\xed\xa0\x80\"", "\"a\x01\"", "\"\x7f\"",
		`{"a":01}`, `[1,]`, `1.`, `1e+`, `"\x"`, `"\u12g4"`, `{"a" 1}`, `[[[[]]]]`,
		// string contents, for the token half of the target
		`\ud83d\ude00`, `\ud800\ud800\udc00`, `\udc00`, `\ud800\u0041`, "é\\n\xff", `\u00`, `a\"b`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		std := json.Valid(b)
		ours := validWithin(b, 10000)
		switch {
		case std && !utf8.Valid(b):
			if ours {
				t.Fatalf("accepted %q, whose strings are not UTF-8", b)
			}
		case ours != std:
			t.Fatalf("valid = %v, encoding/json says %v, for %q", ours, std, b)
		}
		if got, want := Valid(b), ours && nesting(b) <= DefaultMaxDepth; got != want {
			t.Fatalf("Valid(%q) = %v, want %v", b, got, want)
		}

		// The same bytes as the content of one string token.
		tok := append(append([]byte{'"'}, b...), '"')
		end, _, _, scanned := scanString(tok, 0, false)
		scanned = scanned && end == len(tok)
		decoded, ok := AppendUnquote(nil, tok)
		if ok != scanned {
			t.Fatalf("AppendUnquote ok = %v, but the scanner says valid = %v, for %q", ok, scanned, tok)
		}
		var want string
		stdOK := json.Unmarshal(tok, &want) == nil && utf8.Valid(tok)
		if ok != stdOK {
			t.Fatalf("AppendUnquote ok = %v, encoding/json (UTF-8 only) says %v, for %q", ok, stdOK, tok)
		}
		if !ok {
			return
		}
		if string(decoded) != want {
			t.Fatalf("AppendUnquote(%q) = %q, encoding/json decodes %q", tok, decoded, want)
		}
		if s, _ := Unquote(tok); s != want {
			t.Fatalf("Unquote(%q) = %q, encoding/json decodes %q", tok, s, want)
		}
		if !StringIs(tok, want) {
			t.Fatalf("StringIs(%q, %q) = false", tok, want)
		}
	})
}

// validWithin is Valid with another depth limit.
func validWithin(b []byte, maxDepth int) bool {
	l := NewLexer(b, maxDepth)
	l.SkipSpace()
	return l.SkipValue(0) == NoFault && l.AtEnd()
}

// nesting returns the deepest nesting of containers in b, a document encoding/json accepts,
// counting brackets outside strings: an independent count to hold the lexer's limit to.
func nesting(b []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// FuzzSkipRepeatable: passing over a copy of a container validated before ends where validating
// it would, and fails where validating it would fail, whatever was remembered first, at whatever
// depths and nesting limits.
func FuzzSkipRepeatable(f *testing.F) {
	for _, s := range [][2]string{
		// Containers are found by their first 64 bytes: these inputs are longer.
		{`{"customer_id":"cus_0123456789","name":"Jane Roe-Whitfield","orders":[1,2,3]}`, `{"customer_id":"cus_0123456789","name":"Jane Roe-Whitfield","orders":[1,2,3]},"next"`},
		{`{"customer_id":"cus_0123456789","name":"Jane Roe-Whitfield","orders":[1,2,3]}`, `{"customer_id":"cus_0123456789","name":"Jane Roe-Whitfield","orders":[1,2,3`},
		{`[[[[[[[[[[[[[[[["sixteen deep, and long enough to be remembered by its first bytes"]]]]]]]]]]]]]]]]`, `[[[[[[[[[[[[[[[["sixteen deep, and long enough to be remembered by its first bytes"]]]]]]]]]]]]]]]]`},
		{`{"a":"\u00e9","b":[true,false,null],"c":"long enough to be remembered by its first bytes"}`, `{"a":"\u00e9","b":[true,false,null],"c":"long enough to be remembered by its first bytes",x}`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]), uint8(0), uint8(20), uint8(3), uint8(16))
	}
	f.Fuzz(func(t *testing.T, first, second []byte, depth1, max1, depth2, max2 uint8) {
		r := Repeats{minLen: 1}
		l := NewLexer(first, int(max1%40))
		l.SkipRepeatable(int(depth1%40), &r)

		got := NewLexer(second, int(max2%40))
		copyOf, gotF := got.SkipRepeatable(int(depth2%40), &r)
		want := NewLexer(second, int(max2%40))
		wantF := want.SkipValue(int(depth2 % 40))
		if gotF != wantF || gotF == NoFault && got.Pos() != want.Pos() {
			t.Fatalf("after %q: SkipRepeatable(%q) = %v at %d, SkipValue = %v at %d", first, second, gotF, got.Pos(), wantF, want.Pos())
		}
		if copyOf != nil && !bytes.Equal(copyOf, second[:got.Pos()]) {
			t.Fatalf("after %q: SkipRepeatable(%q) passed over %q as a copy of %q", first, second, second[:got.Pos()], copyOf)
		}
	})
}

// Growing says what Valid says of every array, whatever array it validated before: the second of two
// arrays is read from where the first's last element ended only when its bytes up to there are the
// same.
func FuzzGrowing(f *testing.F) {
	for _, s := range [][2]string{
		{`[{"role":"user","content":"hi"}]`, `[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}]`},
		{`[1,2]`, `[1,2,3]`}, {`[1,2]`, `[1,20]`}, {`[1,2]`, `[1,2 , ]`}, {`[1,2]`, `[1,2]]`}, {`[1,2]`, `[1,2,[[[`}, {` [ "a" ] `, ` [ "a" , "b" ] `},
		{`["a\"]`, `["a\"],"b"]`}, {`[]`, `[1]`}, {`[1]`, `[1`}, {`[1]`, `{}`}, {`[1,{"a":[2]}]`, `[1,{"a":[2]}]`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, first, second []byte) {
		var g Growing
		for _, doc := range [][]byte{first, second, second} {
			if got, want := g.Valid(doc), Valid(doc); got != want {
				t.Fatalf("after %q: Growing.Valid(%q) = %v, Valid says %v", first, doc, got, want)
			}
		}
	})
}

// elements, the validating counterpart of EachElement that FuzzEachMatchesValidating holds it to,
// calls fn with each element of the array arr (which must start with '['), and the element's offset
// in arr, until fn returns false.
func elements(arr []byte, fn func(elem []byte, start int) bool) error {
	l, empty, err := openTopLevel(arr, '[')
	if err != nil || empty {
		return err
	}
	call := true
	for {
		start := l.pos
		if f := l.SkipValue(1); f != NoFault {
			return l.Err(f)
		}
		if call {
			call = fn(arr[start:l.pos], start)
		}
		if more, err := l.moreAtTopLevel(']'); !more {
			return err
		}
	}
}
