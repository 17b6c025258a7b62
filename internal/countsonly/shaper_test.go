// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package countsonly

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

var defaultShaper = New(DefaultKeptKeys(), Limits{})

const prefix = "PREFIX|"

// shapeString runs AppendJSON onto a non-empty dst and checks the append contract: the prefix
// survives, and on error nothing at all was appended.
func shapeString(t *testing.T, s *Shaper, in string) (string, Stats, error) {
	t.Helper()
	dst := []byte(prefix)
	out, st, err := s.AppendJSON(dst, []byte(in))
	if !bytes.HasPrefix(out, []byte(prefix)) {
		t.Fatalf("AppendJSON(%q) lost the dst prefix: %q", in, out)
	}
	if err != nil {
		if string(out) != prefix || len(out) != len(prefix) {
			t.Fatalf("AppendJSON(%q) failed with %v but appended %q", in, err, out[len(prefix):])
		}
		if st != (Stats{}) {
			t.Fatalf("AppendJSON(%q) failed with %v but returned stats %+v", in, err, st)
		}
		return "", st, err
	}
	got := out[len(prefix):]
	if !json.Valid(got) {
		t.Fatalf("AppendJSON(%q) produced invalid JSON %q", in, got)
	}
	return string(got), st, nil
}

func TestAppendJSON(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		want  string
		stats Stats
	}{
		// The examples in docs/design.md#2-countsonly-internalcountsonly.
		{"seed search result",
			`{"query":"acme corp","rows":[{"name":"Ada","email":"ada@example.com"},{"name":"Bob"}],"total":2}`,
			`{"query":"acme corp","rows":"[2 withheld]","total":2}`, Stats{Arrays: 1}},
		{"seed customer record",
			`{"status":"ok","customer":{"name":"Ada Lovelace","phone":"+44 20 7946 0958","vip":true,"balance":-12.5,"notes":null}}`,
			`{"status":"ok","customer":{"name":"[withheld]","phone":"[withheld]","vip":true,"balance":-12.5,"notes":null}}`,
			Stats{Strings: 2}},
		{"seed error",
			`{"error":"customer not found","kind":"lookup","id":"cus_123"}`,
			`{"error":"customer not found","kind":"lookup","id":"[withheld]"}`, Stats{Strings: 1}},

		{"nested objects",
			`{"a":{"b":{"c":"deep","d":1}},"e":"x"}`,
			`{"a":{"b":{"c":"[withheld]","d":1}},"e":"[withheld]"}`, Stats{Strings: 2}},
		{"array of objects is counted, not emitted",
			`{"rows":[{"status":"kept-if-emitted"},{},{"a":[1,2,3]}]}`,
			`{"rows":"[3 withheld]"}`, Stats{Arrays: 1}},
		{"only top-level elements are counted",
			`{"m":[[1,2],[3,[4,5,6]],{"x":[7]}]}`,
			`{"m":"[3 withheld]"}`, Stats{Arrays: 1}},
		{"empty array", `{"rows":[]}`, `{"rows":"[0 withheld]"}`, Stats{Arrays: 1}},
		{"empty object", `{}`, `{}`, Stats{}},
		{"empty nested object", `{"a":{}}`, `{"a":{}}`, Stats{}},
		{"kept keys inside nested objects",
			`{"result":{"title":"Q3 report","body":"secret","meta":{"source":"drive","owner":"bob"}}}`,
			`{"result":{"title":"Q3 report","body":"[withheld]","meta":{"source":"drive","owner":"[withheld]"}}}`,
			Stats{Strings: 2}},
		{"kept key with array value",
			`{"status":["a","b"]}`, `{"status":"[2 withheld]"}`, Stats{Arrays: 1}},
		{"kept key with object value shapes by inner keys",
			`{"status":{"code":"E1","title":"t"}}`, `{"status":{"code":"[withheld]","title":"t"}}`, Stats{Strings: 1}},
		{"kept key with scalar values",
			`{"status":200,"error":false,"kind":null,"query":-1.5e3}`,
			`{"status":200,"error":false,"kind":null,"query":-1.5e3}`, Stats{}},
		{"keys are case-sensitive", `{"Status":"x","STATUS":"y"}`,
			`{"Status":"[withheld]","STATUS":"[withheld]"}`, Stats{Strings: 2}},
		{"prefix of a kept key", `{"stat":"x","statuses":"y"}`,
			`{"stat":"[withheld]","statuses":"[withheld]"}`, Stats{Strings: 2}},
		{"escaped key is compared decoded and copied raw",
			`{"st\u0061tus":"ok","\u0071uery":"q"}`, `{"st\u0061tus":"ok","\u0071uery":"q"}`, Stats{}},
		{"escaped key that decodes to something else",
			`{"st\"atus":"x","status\n":"y","stat\\us":"z","st\u0061tu":"p","\u0071uerys":"q"}`,
			`{"st\"atus":"[withheld]","status\n":"[withheld]","stat\\us":"[withheld]","st\u0061tu":"[withheld]","\u0071uerys":"[withheld]"}`,
			Stats{Strings: 5}},
		{"kept string is copied raw with escapes",
			`{"query":"a\"b\\c\/d\n\u00e9\ud83d\ude00"}`, `{"query":"a\"b\\c\/d\n\u00e9\ud83d\ude00"}`, Stats{}},
		{"unicode", `{"title":"Grüße 日本 😀","name":"Zoë 😀"}`,
			`{"title":"Grüße 日本 😀","name":"[withheld]"}`, Stats{Strings: 1}},
		{"unicode key", `{"名前":"山田","title":"é"}`, `{"名前":"[withheld]","title":"é"}`, Stats{Strings: 1}},
		{"lone surrogate escapes are valid JSON",
			`{"query":"\ud800","x":"\udc00","\udbff":1}`, `{"query":"\ud800","x":"[withheld]","\udbff":1}`,
			Stats{Strings: 1}},
		{"whitespace everywhere",
			" \t\r\n{ \"query\" \n:\t\"q\" , \"a\" : [ 1 , 2 ] ,\"b\":{ } , \"c\" : { \"d\" : true } } \n\t",
			`{"query":"q","a":"[2 withheld]","b":{},"c":{"d":true}}`, Stats{Arrays: 1}},
		{"numbers of every form",
			`{"a":0,"b":-0,"c":1e10,"d":1.5E-3,"e":-12.34e+56,"f":123456789012345678901234567890,"g":0.0,"h":1E0,"i":-0.5e-0}`,
			`{"a":0,"b":-0,"c":1e10,"d":1.5E-3,"e":-12.34e+56,"f":123456789012345678901234567890,"g":0.0,"h":1E0,"i":-0.5e-0}`,
			Stats{}},
		{"duplicate keys are kept in order",
			`{"a":"1","a":2,"query":"x","query":"y"}`, `{"a":"[withheld]","a":2,"query":"x","query":"y"}`,
			Stats{Strings: 1}},

		// Top-level scalars are allowed and shaped the same way.
		{"top-level string has no key", `"abc"`, `"[withheld]"`, Stats{Strings: 1}},
		{"top-level empty string", `""`, `"[withheld]"`, Stats{Strings: 1}},
		{"top-level number", ` 12 `, `12`, Stats{}},
		{"top-level negative zero", `-0`, `-0`, Stats{}},
		{"top-level true", `true`, `true`, Stats{}},
		{"top-level false", `false`, `false`, Stats{}},
		{"top-level null", `null`, `null`, Stats{}},
		{"top-level array", `[1,"a",{"b":[]}]`, `"[3 withheld]"`, Stats{Arrays: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, st, err := shapeString(t, defaultShaper, tc.in)
			if err != nil {
				t.Fatalf("AppendJSON(%q) error: %v", tc.in, err)
			}
			if got != tc.want {
				t.Errorf("AppendJSON(%q)\n got %s\nwant %s", tc.in, got, tc.want)
			}
			if st != tc.stats {
				t.Errorf("AppendJSON(%q) stats = %+v, want %+v", tc.in, st, tc.stats)
			}
		})
	}
}

func TestAppendJSONMalformed(t *testing.T) {
	inputs := []string{
		"", " ", "\n\t",
		// truncated
		`{`, `{"a"`, `{"a":`, `{"a":1`, `{"a":1,`, `[`, `[1,2`, `"abc`, `"abc\`, `"\u00`, `tru`, `nul`, `fals`, `-`,
		`{"rows":[1,2`, `{"a":{"b":`,
		// trailing commas and missing separators
		`{"a":1,}`, `[1,]`, `{"rows":[1,]}`, `{,}`, `[,]`, `[,1]`, `{"a":1 "b":2}`, `[1 2]`, `{"a" 1}`, `{"a"::1}`,
		`{"a":1,,"b":2}`,
		// mismatched brackets
		`{"a":[}`, `{"a":{]}`, `[}`, `{]`, `{"rows":[{]}`,
		// keys
		`{a:1}`, `{'a':1}`, `{1:2}`, `{null:1}`, `{"a"}`,
		// strings
		`"\x"`, `"\u12"`, `"\u12g4"`, `"\u123x"`, `"\u00G0"`, `"\uz000"`, `"\U0041"`, `'a'`, "\"a\tb\"", "\"a\nb\"", "\"\x00\"", "\"\x1f\"",
		"\"\xff\"", "\"\xc3\"", "\"\xed\xa0\x80\"", "{\"\xff\":1}", `{"rows":["\q"]}`, "[\"\x01\"]",
		// numbers
		`01`, `-01`, `00`, `1.`, `.5`, `-.5`, `1e`, `1e+`, `1E-`, `+1`, `--1`, `1.5e3.2`, `0x10`, `1_000`, `NaN`,
		`Infinity`, `-Infinity`, `{"a":01}`, `[1.]`, `{"a":.1}`,
		// literals
		`truex`, `True`, `nulll`, `falsey`, `[tru]`, `{"a":nul}`,
		// trailing garbage
		`{"a":1}x`, `{"a":1} {}`, `{}{}`, `[] []`, `"a" "b"`, `1 2`, `{}]`, `{}}`, "{}\x00",
		// a byte-order mark is not JSON whitespace
		"\xef\xbb\xbf{}",
	}
	for _, in := range inputs {
		_, _, err := shapeString(t, defaultShaper, in)
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("AppendJSON(%q) error = %v, want ErrSyntax", in, err)
		}
	}
}

func TestAppendJSONErrorOffset(t *testing.T) {
	_, _, err := defaultShaper.AppendJSON(nil, []byte(`{"a":[1,2,]}`))
	if err == nil || !strings.HasSuffix(err.Error(), "at offset 10") {
		t.Fatalf("error = %v, want it to end with the offset of the ']' after the trailing comma (10)", err)
	}
}

// nest wraps inner in depth containers, alternating objects and arrays when mixed.
func nest(depth int, inner string, mixed bool) string {
	doc := inner
	for i := depth - 1; i >= 0; i-- {
		if mixed && i%2 == 1 {
			doc = `{"k":` + doc + `}`
		} else {
			doc = `[` + doc + `]`
		}
	}
	return doc
}

func nestObjects(depth int) string {
	return strings.Repeat(`{"a":`, depth-1) + `{"title":"t"}` + strings.Repeat(`}`, depth-1)
}

func TestAppendJSONDepth(t *testing.T) {
	cases := []struct {
		name string
		doc  func(depth int) string
	}{
		{"arrays", func(d int) string { return nest(d, "1", false) }},
		{"mixed", func(d int) string { return nest(d, `"x"`, true) }},
		{"objects", nestObjects},
		{"arrays under an object", func(d int) string { return `{"a":` + nest(d-2, "[]", false) + `}` }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := shapeString(t, defaultShaper, tc.doc(DefaultMaxDepth)); err != nil {
				t.Errorf("depth %d: unexpected error %v", DefaultMaxDepth, err)
			}
			if _, _, err := shapeString(t, defaultShaper, tc.doc(DefaultMaxDepth+1)); !errors.Is(err, ErrDepth) {
				t.Errorf("depth %d: error = %v, want ErrDepth", DefaultMaxDepth+1, err)
			}
		})
	}
	shallow := New(nil, Limits{MaxDepth: 2})
	if _, _, err := shapeString(t, shallow, `{"a":{"b":1}}`); err != nil {
		t.Errorf("MaxDepth 2, depth 2: %v", err)
	}
	if _, _, err := shapeString(t, shallow, `{"a":{"b":[]}}`); !errors.Is(err, ErrDepth) {
		t.Errorf("MaxDepth 2, depth 3: error = %v, want ErrDepth", err)
	}
	// Deep enough to overflow a small limit, yet syntactically broken after the limit: the
	// depth error is found first, and either way nothing is emitted.
	if _, _, err := shapeString(t, shallow, `[[[`); !errors.Is(err, ErrDepth) {
		t.Errorf("MaxDepth 2, `[[[`: error = %v, want ErrDepth", err)
	}
}

func TestAppendJSONTooLarge(t *testing.T) {
	small := New(nil, Limits{MaxBytes: 10})
	if got, _, err := shapeString(t, small, `[12345678]`); err != nil || got != `"[1 withheld]"` {
		t.Errorf("10 bytes at MaxBytes 10: got %q, %v", got, err)
	}
	if _, _, err := shapeString(t, small, `[123456789]`); !errors.Is(err, ErrTooLarge) {
		t.Errorf("11 bytes at MaxBytes 10: error = %v, want ErrTooLarge", err)
	}
	huge := `"` + strings.Repeat("a", DefaultMaxBytes-2) + `"`
	if _, _, err := shapeString(t, defaultShaper, huge); err != nil {
		t.Errorf("exactly DefaultMaxBytes: %v", err)
	}
	if _, _, err := shapeString(t, defaultShaper, huge+" "); !errors.Is(err, ErrTooLarge) {
		t.Errorf("DefaultMaxBytes+1: error = %v, want ErrTooLarge", err)
	}
}

func TestAppendJSONLargeDocument(t *testing.T) {
	doc := customerSearchResult(1100, 1000)
	if len(doc) < 1<<20 {
		t.Fatalf("test document is %d bytes, want at least 1 MiB", len(doc))
	}
	out, st, err := defaultShaper.AppendJSON(nil, doc)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(out) {
		t.Fatal("output is not valid JSON")
	}
	assertEquivalent(t, defaultShaper, doc, out)
	if !bytes.Contains(out, []byte(`"results":"[1100 withheld]"`)) {
		t.Errorf("results array not counted: %.200s", out)
	}
	if st.Arrays == 0 || st.Strings == 0 {
		t.Errorf("stats = %+v, want both strings and arrays withheld", st)
	}
	if len(out) >= len(doc)/2 {
		t.Errorf("output %d bytes for %d input bytes; the rows should have been withheld", len(out), len(doc))
	}
}

func TestAppendJSONAllocs(t *testing.T) {
	for _, doc := range [][]byte{customerSearchResult(8, 4), []byte(`{"st\u0061tus":"ok","x":[1,{"y":"z"}]}`)} {
		dst := make([]byte, 0, 2*len(doc)+64)
		allocs := testing.AllocsPerRun(100, func() {
			if _, _, err := defaultShaper.AppendJSON(dst, doc); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("AppendJSON allocated %v times per call on %d bytes, want 0", allocs, len(doc))
		}
	}
}

func TestShaperKept(t *testing.T) {
	for _, k := range DefaultKeptKeys() {
		if !defaultShaper.Kept(k) {
			t.Errorf("Kept(%q) = false for a default key", k)
		}
	}
	for _, k := range []string{"", "name", "Status", "queries", "email"} {
		if defaultShaper.Kept(k) {
			t.Errorf("Kept(%q) = true", k)
		}
	}
	if New(nil, Limits{}).Kept("status") {
		t.Error("New(nil) keeps status; nil must mean no kept keys")
	}
}

func TestKeptEscapedKeys(t *testing.T) {
	s := New([]string{"😀", "\uFFFD", "a/b", "tab\tkey"}, Limits{})
	for in, want := range map[string]string{
		`{"\ud83d\ude00":"kept"}`:          `{"\ud83d\ude00":"kept"}`,
		`{"\uD83D\uDE00":"kept"}`:          `{"\uD83D\uDE00":"kept"}`,
		`{"😀":"kept"}`:                     `{"😀":"kept"}`,
		`{"\ud83d":"kept"}`:                `{"\ud83d":"kept"}`, // a lone surrogate decodes to U+FFFD
		`{"\ud83d\u0041":"x"}`:             `{"\ud83d\u0041":"[withheld]"}`,
		`{"a\/b":"kept"}`:                  `{"a\/b":"kept"}`,
		`{"tab\tkey":"kept"}`:              `{"tab\tkey":"kept"}`,
		`{"tab\u0009key":"kept"}`:          `{"tab\u0009key":"kept"}`,
		`{"\ud83d\ude00\ud83d":"x"}`:       `{"\ud83d\ude00\ud83d":"[withheld]"}`,
		`{"\ud83d\ude00x":"x"}`:            `{"\ud83d\ude00x":"[withheld]"}`,
		`{"\u00f0\u009f\u0098\u0080":"x"}`: `{"\u00f0\u009f\u0098\u0080":"[withheld]"}`,
	} {
		got, _, err := shapeString(t, s, in)
		if err != nil || got != want {
			t.Errorf("AppendJSON(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
}

func TestStatsWithheld(t *testing.T) {
	if got := (Stats{Strings: 3, Arrays: 2}).Withheld(); got != 5 {
		t.Errorf("Withheld() = %d, want 5", got)
	}
}

func TestLooksLikeJSON(t *testing.T) {
	for in, want := range map[string]bool{
		`{}`: true, `[]`: true, " \n\t\r{": true, `  [1]`: true, `{not json`: true,
		``: false, `   `: false, `42`: false, `"x"`: false, `+44 20 7946 0958`: false, `null`: false,
		`true`: false, "\u00a0{}": false, "\xef\xbb\xbf{}": false, `x{}`: false,
	} {
		if got := LooksLikeJSON([]byte(in)); got != want {
			t.Errorf("LooksLikeJSON(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestShaperConcurrentUse(t *testing.T) {
	docs := [][]byte{customerSearchResult(10, 3), []byte(`{"query":"q","a":[1]}`), []byte(`[`)}
	var want [][]byte
	for _, d := range docs {
		out, _, _ := defaultShaper.AppendJSON(nil, d)
		want = append(want, out)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			var dst []byte
			for i := range 200 {
				k := (g + i) % len(docs)
				out, _, _ := defaultShaper.AppendJSON(dst[:0], docs[k])
				if !bytes.Equal(out, want[k]) {
					t.Errorf("goroutine %d: doc %d shaped differently", g, k)
					return
				}
				dst = out
			}
		})
	}
	wg.Wait()
}

func ExampleShaper_AppendJSON() {
	s := New(DefaultKeptKeys(), Limits{})
	out, st, err := s.AppendJSON(nil, []byte(`{"query":"acme","rows":[{"name":"Ada"},{"name":"Bob"}],"owner":"Eve","total":2}`))
	fmt.Println(string(out), st.Withheld(), err)
	// Output: {"query":"acme","rows":"[2 withheld]","owner":"[withheld]","total":2} 2 <nil>
}

// Keys of 63 bytes and more share one bit of the kept-key filter; they must still be told apart.
func TestLongKeptKeys(t *testing.T) {
	long := strings.Repeat("k", 70)
	s := New([]string{long, strings.Repeat("k", 63)}, Limits{})
	for key, kept := range map[string]bool{
		long: true, long[:63]: true, long[:64]: false, long + "k": false, long[:62]: false,
		`k\u006b` + long[2:]: true,
	} {
		want := `{"` + key + `":"[withheld]"}`
		if kept {
			want = `{"` + key + `":"v"}`
		}
		if got, _, err := shapeString(t, s, `{"`+key+`":"v"}`); err != nil || got != want {
			t.Errorf("key of %d bytes: got %s, %v; want %s", len(key), got, err, want)
		}
	}
}

// TestIsDocument: a document is a container that is valid JSON within the Shaper's depth; a scalar,
// broken JSON or one nested deeper is text. A string holds a document when its content is one.
func TestIsDocument(t *testing.T) {
	s := New(nil, Limits{MaxDepth: 3, MaxBytes: 1 << 20})
	for text, want := range map[string]bool{
		` {"a":[1,2]} `:       true,
		`[[[1]]]`:             true,
		`[[[[1]]]]`:           false, // deeper than MaxDepth
		`{"a":1`:              false,
		`"{\"a\":1}"`:         false, // a string is not a container
		`42`:                  false,
		`Jane Roe, 12 Street`: false,
		``:                    false,
	} {
		if got := s.IsDocument([]byte(text)); got != want {
			t.Errorf("IsDocument(%q) = %v, want %v", text, got, want)
		}
	}
	for raw, want := range map[string]bool{
		`"{\"a\":[1,2]}"`:   true,
		`"[[[[1]]]]"`:       false,
		`"{\"a\":1"`:        false,
		`"plain text"`:      false,
		`{"a":1}`:           false, // not a string: the document itself, not one stringified
		`"\ud800{\"a\":1}"`: false,
		`"unterminated`:     false,
	} {
		got, scratch := s.StringHoldsDocument([]byte(raw), nil)
		if got != want || len(scratch) != 0 {
			t.Errorf("StringHoldsDocument(%q) = %v, %q; want %v and an empty scratch", raw, got, scratch, want)
		}
	}
}

// TestKeptKeyKeepsTextNotDocuments: a kept key keeps the text under it; a JSON document stringified
// under it (Gemini CLI writes a call's arguments into its display description) is data, withheld
// as any string is, escaped leading space or not.
func TestKeptKeyKeepsTextNotDocuments(t *testing.T) {
	s := New(DefaultKeptKeys(), Limits{})
	for _, tc := range []struct{ in, want string }{
		{`{"description":"Find a customer by name"}`, `{"description":"Find a customer by name"}`},
		{`{"description":"{\"customer_id\":\"cus_88421907\"}"}`, `{"description":"[withheld]"}`},
		{`{"query":"\n[\"Jane Roe\"]"}`, `{"query":"[withheld]"}`},
		{`{"status":"[1] see the docs"}`, `{"status":"[1] see the docs"}`},
	} {
		out, _, err := s.AppendJSON(nil, []byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != tc.want {
			t.Errorf("%s: got %s, want %s", tc.in, out, tc.want)
		}
	}
}
