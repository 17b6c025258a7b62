// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package pyliteral

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/agentotel/agentotel/internal/pyliteral/pyliteraltest"
)

// TestToJSON: what Python's repr writes, as the Python SDKs' str(result) reports a tool's result.
func TestToJSON(t *testing.T) {
	for _, tt := range []struct{ py, json string }{
		{`{'status': 'queued', 'jobs': '0/4', 'done': False, 'eta': None, 'n': 3, 'p': 0.5}`,
			`{"status":"queued","jobs":"0/4","done":false,"eta":null,"n":3,"p":0.5}`},
		{`{'rows': [{'id': 'cus_1', 'name': "O'Brien"}], 'total': 1}`, `{"rows":[{"id":"cus_1","name":"O'Brien"}],"total":1}`},
		{`['a', ("b", 2), (3,), ()]`, `["a",["b",2],[3],[]]`},
		{`{1: 'one', True: 'yes', None: 'none', (1, 2): 'pair'}`, `{"1":"one","true":"yes","null":"none","[1,2]":"pair"}`},
		{`{1, 2}`, `[1,2]`},
		{`{}`, `{}`},
		{`'tab\there \'q\' "d" \\ \x01 \u2028 \U0001f600 ü'`, `"tab\there 'q' \"d\" \\ \u0001 ` + "\u2028 😀 ü" + `"`},
		{`1e-05`, `1e-05`},
		{`[1.0, 1e+16, -0.5, 0]`, `[1.0,1e+16,-0.5,0]`},
		{`-12345678901234567890`, `-12345678901234567890`},
		{` [ 1 , 2 ] `, `[1,2]`},
	} {
		got, ok := ToJSON(nil, []byte(tt.py), 64)
		if !ok || string(got) != tt.json {
			t.Errorf("ToJSON(%s) = %s (%v), want %s", tt.py, got, ok, tt.json)
		}
		if ok && !json.Valid(got) {
			t.Errorf("ToJSON(%s) = %s is not JSON", tt.py, got)
		}
	}
	for _, py := range []string{
		`datetime.datetime(2026, 1, 1, 0, 0)`, `{'at': datetime.date(2026, 1, 1)}`, `b'bytes'`, `inf`, `[nan]`, `{'a': -inf}`,
		`{'a' 1}`, `{'a': 1,, }`, `[1, 2`, `'unterminated`, `'bad \q escape'`, `'\ud800'`, "'line\nbreak'", `Truex`, `{'a': 1} x`,
		`[[[[1]]]]`, "'\xff'", `00`, `1j`, `1.`, `.5`, `1e`, `[1, 2.5.1]`,
	} {
		if got, ok := ToJSON(nil, []byte(py), 3); ok {
			t.Errorf("ToJSON(%q) = %s, want it unread", py, got)
		}
	}
}

// TestNestingIsReadOnce: each level of a nested literal is read and written once, so a text as deep as
// the depth limit allows takes time in proportion to its length: a dict's first element is not read
// again once a colon shows it a key, and a key's JSON, which becomes a string, cannot hold another
// key's, since a dict, a set or a list cannot be one (read again, or escaped again, at every level, 60
// levels would take 2^60 steps).
func TestNestingIsReadOnce(t *testing.T) {
	const depth = 60
	for src, want := range map[string]string{
		strings.Repeat("{'k': [", depth/2) + "'a'" + strings.Repeat("]}", depth/2):          strings.Repeat(`{"k":[`, depth/2) + `"a"` + strings.Repeat("]}", depth/2),
		"{" + strings.Repeat("(", depth-1) + "'a'" + strings.Repeat(",)", depth-1) + ": 1}": `{"` + strings.Repeat("[", depth-1) + `\"a\"` + strings.Repeat("]", depth-1) + `":1}`,
	} {
		if got, ok := ToJSON(nil, []byte(src), 64); !ok || string(got) != want {
			t.Fatalf("ToJSON(%s) = %s (%v), want %s", src, got, ok, want)
		}
	}
	// A dict, a set or a list as a key or a set element is unhashable: no literal.
	for _, src := range []string{
		strings.Repeat("{", depth) + "'a'" + strings.Repeat(": 1}", depth),
		strings.Repeat("{", depth) + "'a'" + strings.Repeat("}", depth),
		`{{'a': 1}}`, `{[1]: 2}`, `{(1, [2]): 3}`, `{1, {2}}`,
	} {
		if _, ok := ToJSON(nil, []byte(src), 64); ok {
			t.Fatalf("ToJSON(%s): an unhashable key or set element", src)
		}
	}
}

// TestLooksLikeRepr: a dict, list or tuple whose first string is single-quoted is worth reading as a
// literal; JSON, and text that opens no container, are not.
func TestLooksLikeRepr(t *testing.T) {
	for text, want := range map[string]bool{
		`{'a': 1}`: true, ` [{'a': 1}]`: true, `('a', 2)`: true, "[\n  'x']": true,
		`{"a": 1}`: false, `[1, 'a']`: false, `{}`: false, `'a'`: false, `plain text`: false, ``: false, `[[[`: false,
	} {
		if got := LooksLikeRepr([]byte(text)); got != want {
			t.Errorf("LooksLikeRepr(%q) = %v", text, got)
		}
	}
}

// TestToJSONRoundTrip: a value written as Python's repr would write it reads back as the same value.
func TestToJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		v := randomValue(r, 0)
		py := pyliteraltest.Repr(v)
		got, ok := ToJSON(nil, []byte(py), 64)
		if !ok {
			t.Fatalf("ToJSON(%s) unread", py)
		}
		var back any
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("ToJSON(%s) = %s: %v", py, got, err)
		}
		if want := jsonRoundTrip(t, v); !reflect.DeepEqual(back, want) {
			t.Fatalf("ToJSON(%s) = %s, want %v", py, got, want)
		}
	}
}

// FuzzToJSON: any bytes are read or refused without a panic, what is read is valid JSON, and its JSON
// is at most a dozen times as long as the text (an escape in a key is escaped again as the key becomes a
// string, once: no more).
func FuzzToJSON(f *testing.F) {
	for _, s := range []string{`{'a': [1, (2,), {3}], "b": None}`, `'\x00\u00e9\U0001F600'`, `{(1, 'x'): True}`, `-1.5e+10`, `[`,
		`{{{{'a': 1}: 1}: 1}: 1}`, `{((('\x01"',),),): 1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, ok := ToJSON(nil, []byte(s), 16)
		if ok && !json.Valid(out) {
			t.Fatalf("ToJSON(%q) = %q is not JSON", s, out)
		}
		if ok && len(out) > 12*len(s)+2 {
			t.Fatalf("ToJSON(%q) = %d bytes from %d", s, len(out), len(s))
		}
	})
}

func randomValue(r *rand.Rand, depth int) any {
	switch k := r.IntN(9); {
	case k == 0 && depth < 4:
		m := map[string]any{}
		for range r.IntN(4) {
			m[randomString(r)] = randomValue(r, depth+1)
		}
		return m
	case k == 1 && depth < 4:
		s := []any{}
		for range r.IntN(4) {
			s = append(s, randomValue(r, depth+1))
		}
		return s
	case k == 2:
		return r.Int64N(1<<40) - 1<<39
	case k == 3:
		return math.Round(r.NormFloat64()*1e6) / 1e3
	case k == 4:
		return r.IntN(2) == 0
	case k == 5:
		return nil
	}
	return randomString(r)
}

func randomString(r *rand.Rand) string {
	pool := []rune("abcXYZ09 '\"\\\t\n\x01\x7féü€😀\u2028_-:/")
	var b strings.Builder
	for range r.IntN(12) {
		b.WriteRune(pool[r.IntN(len(pool))])
	}
	return b.String()
}

func jsonRoundTrip(t *testing.T, v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back any
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	return back
}
