// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/jsonraw"
)

// FuzzInvariant checks the promise: once a leaf is added, a text that holds it verbatim, or
// JSON-encoded up to three times with any mix of escapes, anywhere among any bytes, comes back
// without the leaf and without that encoding of it. So does one that holds it URL-encoded or
// HTML-escaped (and then perhaps JSON-encoded), after a byte that ends any escape before it ('='
// here, as in a query string): a '%' right before a value that begins with hex digits would make an
// escape of them, as would a '&' before one that begins "amp;".
func FuzzInvariant(f *testing.F) {
	for _, seed := range []struct {
		leaf, prefix, suffix string
		levels               uint8
	}{
		{"Jane Roe-Whitfield", "hello ", " has one order", 0},
		{"Zoë Whitfield", `{"name": "`, `"}`, 1},
		{`n"ice day`, `\`, ``, 1},
		{"12 Acme St", `\u00`, `!`, 2},
		{"tab\there \"q\" \\ 😀", `\\\`, `\`, 3},
		{"]Zzzzzzz", "", "Zzzzzzz", 0},
		{"jane.roe@example-mail.test", "https://api.example/send?to", "&n=1", 4},
		{"Zoë Roe-Whitfield", "?name", "", 9},
		{"ab 12 cd+ef", "%", "%4", 8},
		{`Zoë O'Brien <vip> & "co"`, "<p>Dear", ",</p>", 13},
	} {
		f.Add([]byte(seed.leaf), []byte(seed.prefix), []byte(seed.suffix), uint64(len(seed.prefix)), seed.levels)
	}
	f.Fuzz(func(t *testing.T, leaf, prefix, suffix []byte, seed uint64, levels uint8) {
		// A leaf that is part of the marker cannot be made absent: the marker is what replaces it.
		if len(leaf) < WindowLen || bytes.Contains([]byte(countsonly.Withheld), leaf) {
			return
		}
		enc := leaf
		r := rand.New(rand.NewPCG(seed, ^seed))
		switch mode := levels / (maxLevels + 1) % 4; {
		case mode == 1 || mode == 2:
			enc = encodeURL(r, enc, mode == 2)
		case mode == 3 && utf8.Valid(enc):
			enc = encodeHTML(r, enc)
		}
		if !bytes.Equal(enc, leaf) {
			prefix = append(prefix[:len(prefix):len(prefix)], '=') // a copy: the fuzzer's arguments may share memory
		}
		if utf8.Valid(enc) { // an encoder can only write text
			for range levels % (maxLevels + 1) {
				enc = encodeJSON(r, enc)
			}
		}
		text := append(append(append([]byte(nil), prefix...), enc...), suffix...)
		sets := []*Set{setOf(leaf)}
		var sc Scanner
		if !sc.Hit(sets, text) {
			t.Fatalf("Hit found no %q in %q", leaf, text)
		}
		got, changed := sc.redactText(nil, sets, text)
		if !changed || bytes.Contains(got, leaf) || bytes.Contains(got, enc) {
			t.Fatalf("leaf %q as %q in %q\nredacted to %q", leaf, enc, text, got)
		}
	})
}

// FuzzUnrelatedText checks the other half: text that shares no 8-byte window with any leaf, and
// has no escapes that could hide one (JSON's backslash, URL's '%' and '+', HTML's '&'), comes back
// byte for byte.
func FuzzUnrelatedText(f *testing.F) {
	f.Add([]byte("Jane Roe-Whitfield"), []byte("Dr. Whitfield, Jane Roe and Roe-Whitfield"))
	f.Add([]byte("jane.roe@example.com"), []byte("see www.example.com"))
	f.Fuzz(func(t *testing.T, leaf, text []byte) {
		for _, escape := range []string{`\`, "%", "+", "&"} {
			text = bytes.ReplaceAll(text, []byte(escape), nil)
		}
		for i := 0; i+WindowLen <= len(text); i++ {
			if bytes.Contains(leaf, text[i:i+WindowLen]) {
				return
			}
		}
		sets := []*Set{setOf(leaf)}
		var sc Scanner
		if got, changed := sc.redactText(nil, sets, text); changed || !bytes.Equal(got, text) {
			t.Fatalf("leaf %q: %q rewritten to %q", leaf, text, got)
		}
	})
}

// FuzzRedact feeds arbitrary bytes, remembered in part as leaves, to every entry point: nothing
// panics, redactText reports every change, redactJSON accepts exactly the valid documents, leaves
// dst alone on error, writes valid JSON, and leaves no key, number or plain string that still
// holds a withheld region. Hit on a whole document finds whatever holds a region in one of its
// strings, which is what lets redactJSON return early.
func FuzzRedact(f *testing.F) {
	f.Add([]byte(`{"name":"Jane Roe-Whitfield","c":"{\"n\":\"Jane Roe-Whitfield\"}","p":5550100123}`), uint8(5))
	f.Add([]byte(`["\\u004aane Roe", "Jane Roe!", "\u00e9\u00e9\u00e9\u00e9"]`), uint8(2))
	f.Add([]byte("\\\\\\n\x00\xff{"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, cuts uint8) {
		s := NewSet(4096)
		s.AddJSONLeaves(data, nil)
		if len(data) > 0 {
			for i := range int(cuts % 8) {
				from := (i * 37) % len(data)
				s.AddLeaf(data[from:min(len(data), from+8+i*5)])
			}
		}
		s.Build()
		sets := []*Set{s}
		var sc Scanner
		text, changed := sc.redactText(nil, sets, data)
		if !changed && !bytes.Equal(text, data) {
			t.Fatalf("redactText changed %q to %q without saying so", data, text)
		}
		checkRedacted(t, &sc, sets, data, text, changed)
		out, _, err := sc.redactJSON([]byte("x"), sets, data, nil)
		if valid := jsonraw.Valid(data); err != nil || !valid {
			if err == nil || valid || string(out) != "x" {
				t.Fatalf("redactJSON(%q): err %v, valid %v, dst %q", data, err, valid, out)
			}
			return
		}
		if !jsonraw.Valid(out[1:]) {
			t.Fatalf("redactJSON(%q) wrote invalid JSON %q", data, out[1:])
		}
		out = out[1:]
		checkNoRegionLeft(t, &sc, sets, out[jsonraw.SkipSpace(out, 0):], data)
	})
}

// checkRedacted holds Redacted, as JSON and as Text, which searches once, to what Hit and then
// redactJSON or redactText give; asText and textChanged are what redactText gave for data.
func checkRedacted(t *testing.T, sc *Scanner, sets []*Set, data, asText []byte, textChanged bool) {
	t.Helper()
	kept := keptKeys("id")
	want, wantChanged := []byte(nil), false
	if sc.Hit(sets, data) {
		want, wantChanged = asText, textChanged
		if jsonraw.IsContainer(data) {
			if out, changed, err := sc.redactJSON(nil, sets, data, kept); err == nil {
				want, wantChanged = out, changed
			}
		}
	}
	if !wantChanged {
		want = nil
	}
	if got, changed := sc.Redacted(sets, data, Redaction{Kept: kept}); changed != wantChanged || !bytes.Equal(got, want) {
		t.Fatalf("Redacted(%q) = %q, %v; want %q, %v", data, got, changed, want, wantChanged)
	}
	if !textChanged {
		asText = nil
	}
	if got, changed := sc.Redacted(sets, data, Redaction{Text: true}); changed != textChanged || !bytes.Equal(got, asText) {
		t.Fatalf("Redacted(%q, Text) = %q, %v; want %q, %v", data, got, changed, asText, textChanged)
	}
}

// checkNoRegionLeft walks the redacted document v, and the documents stringified in it, and fails
// where a key, number or string still holds a withheld region (the marker itself aside: a fuzzed
// leaf may be part of it). Where redactJSON returned early because Hit found nothing in
// the whole document, this checks the document itself.
func checkNoRegionLeft(t *testing.T, sc *Scanner, sets []*Set, v, doc []byte) {
	t.Helper()
	holds := func(b []byte) bool { return !bytes.Equal(b, []byte(countsonly.Withheld)) && sc.Hit(sets, b) }
	switch v[0] {
	case '{':
		jsonraw.EachMember(v, func(m jsonraw.Member) {
			if holds(m.Key[1 : len(m.Key)-1]) {
				t.Fatalf("key %s of %q still holds a leaf", m.Key, doc)
			}
			checkNoRegionLeft(t, sc, sets, m.Value, doc)
		})
	case '[':
		jsonraw.EachElement(v, func(e []byte, _ int) { checkNoRegionLeft(t, sc, sets, e, doc) })
	case '"':
		inner, _ := jsonraw.AppendUnquote(nil, v)
		if jsonraw.IsContainer(inner) && jsonraw.Valid(inner) {
			checkNoRegionLeft(t, sc, sets, inner[jsonraw.SkipSpace(inner, 0):], doc)
			return
		}
		if holds(v[1 : len(v)-1]) {
			t.Fatalf("string %s of %q still holds a leaf", v, doc)
		}
	default:
		if holds(v) {
			t.Fatalf("number %s of %q still holds a leaf", v, doc)
		}
	}
}

// FuzzRedactedResumed: a text that begins with all but the last byte of the text searched before it is
// redacted, taking the windows within those bytes from that search, exactly as it is redacted whole;
// and a third text after it, likewise. The leaves are cut from the texts themselves, so that the new
// part often completes one that the shared part begins.
func FuzzRedactedResumed(f *testing.F) {
	f.Add([]byte(`[{"role":"user","content":"hi"}]`), []byte(`,{"role":"tool","content":"Jane Roe-Whitfield"}]`), uint8(40), uint8(18))
	f.Add([]byte(`["call me, Jane R]`), []byte(`oe-Whitfield"]`), uint8(9), uint8(18))
	f.Add([]byte(`["Jane Roe-Whitfield]`), []byte(`", "Jane Roe-Whitfield"]`), uint8(2), uint8(18))
	f.Add([]byte(`["\u004aane Roe]`), []byte(`-Whitfield"]`), uint8(2), uint8(20))
	f.Add([]byte("plain text about Ja]"), []byte("ne Roe-Whitfield and more"), uint8(17), uint8(20))
	f.Fuzz(func(t *testing.T, first, suffix []byte, at, n uint8) {
		if len(first) < 2 {
			return
		}
		second := append(append([]byte{}, first[:len(first)-1]...), suffix...)
		third := append(append([]byte{}, second[:len(second)-1]...), suffix...)
		from := int(at) % len(second)
		leaf := second[from:min(len(second), from+int(n))]
		s := NewSet(1 << 16)
		s.AddLeaf(leaf)
		s.AddLeaf(suffix)
		s.Build()
		sets := []*Set{s}

		var sc, whole Scanner
		var v Verbatim
		sc.Redacted(sets, first, Redaction{Verbatim: &v, Known: 0})
		for _, step := range [][2][]byte{{first, second}, {second, third}} {
			prev, text := step[0], step[1]
			got, gotChanged := sc.Redacted(sets, text, Redaction{Verbatim: &v, Known: len(prev) - 1})
			want, wantChanged := whole.Redacted(sets, text, Redaction{})
			if !bytes.Equal(got, want) || gotChanged != wantChanged {
				t.Fatalf("leaf %q, %q after %q: (%q, %v), searched whole (%q, %v)", leaf, text, prev, got, gotChanged, want, wantChanged)
			}
		}
	})
}
