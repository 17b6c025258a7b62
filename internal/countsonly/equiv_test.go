// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package countsonly

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// The reference implementation: countsOnly as docs/design.md#2-countsonly-internalcountsonly defines
// it, written the slow, obvious way over encoding/json, with a Token walk so that key order survives
// decoding.

// member and object keep an object's keys in document order, which map[string]any would lose.
type member struct {
	key string
	val any
}
type object []member

// decodeOrdered decodes one JSON document into object, []any, string, json.Number, bool or nil.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after document: %v", err)
	}
	return v, nil
}

func readValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch delim {
	case '{':
		obj := object{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := readValue(dec)
			if err != nil {
				return nil, err
			}
			obj = append(obj, member{k.(string), v})
		}
		_, err := dec.Token()
		return obj, err
	case '[':
		arr := []any{}
		for dec.More() {
			v, err := readValue(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.Token()
		return arr, err
	}
	return nil, errors.New("unexpected delimiter")
}

// holdsDocument: the string is a JSON object or array, stringified.
func holdsDocument(v string) bool {
	t := strings.TrimLeft(v, " \t\r\n")
	return (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(v))
}

// countsOnly is the definition in docs/design.md#2-countsonly-internalcountsonly; underKey is false
// only for the top-level value.
func countsOnly(v any, key string, underKey bool, kept func(string) bool, st *Stats) any {
	switch v := v.(type) {
	case []any:
		st.Arrays++
		return fmt.Sprintf("[%d withheld]", len(v))
	case string:
		if underKey && kept(key) && !holdsDocument(v) {
			return v
		}
		st.Strings++
		return Withheld
	case object:
		out := object{}
		for _, m := range v {
			out = append(out, member{m.key, countsOnly(m.val, m.key, true, kept, st)})
		}
		return out
	}
	return v
}

// assertEquivalent checks that out, the shaped form of src, means what the reference says it
// should.
func assertEquivalent(t testing.TB, s *Shaper, src, out []byte) {
	t.Helper()
	in, err := decodeOrdered(src)
	if err != nil {
		t.Fatalf("reference cannot decode input %q: %v", src, err)
	}
	var wantStats Stats
	want := countsOnly(in, "", false, s.Kept, &wantStats)
	got, err := decodeOrdered(out)
	if err != nil {
		t.Fatalf("output %q does not decode: %v", out, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("input  %s\noutput %s\nwant   %#v", src, out, want)
	}
	if _, gotStats, _ := s.AppendJSON(nil, src); gotStats != wantStats {
		t.Fatalf("input %s: stats %+v, reference counts %+v", src, gotStats, wantStats)
	}
}

func TestEquivalentToReference(t *testing.T) {
	shapers := []*Shaper{defaultShaper, New([]string{"name", "é", "😀", ""}, Limits{})}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		var b strings.Builder
		genValue(rng, &b, 0)
		doc := []byte(b.String())
		if !json.Valid(doc) {
			t.Fatalf("generator produced invalid JSON: %s", doc)
		}
		s := shapers[i%len(shapers)]
		out, _, err := s.AppendJSON(nil, doc)
		if err != nil {
			t.Fatalf("AppendJSON(%s): %v", doc, err)
		}
		assertEquivalent(t, s, doc, out)
	}
}

// Pools the generator draws from: kept keys (plain and escaped), ordinary keys, and string
// fragments that exercise every escape, multi-byte UTF-8 and surrogate handling.
var (
	genKeys = []string{
		`query`, `status`, `title`, `error`, `kind`, `st\u0061tus`, `\u0071uery`, `\u0074itle`, `name`, `email`,
		`rows`, `id`, ``, `é`, `\u00e9`, `😀`, `\ud83d\ude00`, `\ud83d`, `a\"b`, `tab\tkey`, `Status`, `queries`,
	}
	genFragments = []string{
		`a`, `Ada`, ` `, `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u0000`, `\u001f`, `\u00e9`, `é`, `日本`,
		`😀`, `\ud83d\ude00`, `\uD83D\uDE00`, `\ud800`, `\udfff`, `[withheld]`, `{`, `]`, `,`, `:`, `0`, `\u20ac`,
	}
	genNumbers = []string{
		`0`, `-0`, `1`, `-1`, `42`, `1e10`, `1E+2`, `1.5E-3`, `-12.34e+56`, `0.0`, `3.14159`, `1e-0`,
		`123456789012345678901234567890`, `-0.5e-10`,
	}
	genSpace = []string{``, ``, ``, ` `, "\n", "\t", "\r\n  "}
)

func genValue(rng *rand.Rand, b *strings.Builder, depth int) {
	ws := func() { b.WriteString(genSpace[rng.IntN(len(genSpace))]) }
	ws()
	kind := rng.IntN(10)
	if depth >= 6 && kind < 4 {
		kind += 4
	}
	switch kind {
	case 0, 1:
		b.WriteByte('{')
		for i := range rng.IntN(6) {
			if i > 0 {
				b.WriteByte(',')
			}
			ws()
			b.WriteString(`"` + genKeys[rng.IntN(len(genKeys))] + `"`)
			ws()
			b.WriteByte(':')
			genValue(rng, b, depth+1)
		}
		ws()
		b.WriteByte('}')
	case 2, 3:
		b.WriteByte('[')
		for i := range rng.IntN(5) {
			if i > 0 {
				b.WriteByte(',')
			}
			genValue(rng, b, depth+1)
		}
		ws()
		b.WriteByte(']')
	case 4, 5, 6:
		b.WriteByte('"')
		for range rng.IntN(8) {
			b.WriteString(genFragments[rng.IntN(len(genFragments))])
		}
		b.WriteByte('"')
	case 7, 8:
		b.WriteString(genNumbers[rng.IntN(len(genNumbers))])
	default:
		b.WriteString([]string{`true`, `false`, `null`}[rng.IntN(3)])
	}
	ws()
}
