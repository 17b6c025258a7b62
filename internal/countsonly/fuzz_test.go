// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package countsonly

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"unicode/utf8"
)

// FuzzAppendJSON feeds arbitrary bytes: AppendJSON must never panic, must accept exactly the
// documents encoding/json accepts (restricted to UTF-8), must leave dst alone on error, and on
// success must produce valid JSON that matches the reference implementation.
func FuzzAppendJSON(f *testing.F) {
	for _, seed := range []string{
		`{"query":"acme","rows":[{"name":"Ada"}],"total":2}`, `{"st\u0061tus":"ok","x":{"y":[1,[2]]}}`,
		`[]`, `{}`, `"abc"`, `-0.5e-3`, `true`, `null`, `{"a":01}`, `[1,]`, `"\ud800"`, `{"title":"\u00e9 😀"}`,
		" {\n\"a\" : [ ] } ", `{"a":"\x"}`, "\"\xff\"",
	} {
		f.Add([]byte(seed))
	}
	f.Add(customerSearchResult(2, 2))
	// encoding/json.Valid allows nesting up to 10000; matching that lets the two agree exactly.
	s := New(DefaultKeptKeys(), Limits{MaxDepth: 10000})
	f.Fuzz(func(t *testing.T, data []byte) {
		out, _, err := s.AppendJSON([]byte(prefix), data)
		valid := json.Valid(data) && utf8.Valid(data)
		if err != nil {
			if string(out) != prefix {
				t.Fatalf("error %v but dst changed to %q", err, out)
			}
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrDepth) {
				t.Fatalf("unexpected error kind %v", err)
			}
			if valid {
				t.Fatalf("rejected valid JSON %q: %v", data, err)
			}
			return
		}
		if !valid {
			t.Fatalf("accepted invalid JSON %q, produced %q", data, out)
		}
		got := out[len(prefix):]
		if !json.Valid(got) {
			t.Fatalf("output %q is not valid JSON", got)
		}
		assertEquivalent(t, s, data, got)
	})
}

// FuzzNoLeak derives a well-formed document from the fuzz input, with string contents taken from
// the input, and checks the property the package exists for: no 8-byte run of a withheld string
// (one not directly under a kept key, or anywhere inside an array) appears in the output unless
// it also appears in material that is legitimately emitted. That material is the generator's own
// expected output (keys, kept strings, numbers, literals, the withheld markers and the structure
// between them), built independently of the Shaper; keys come from a small fixed pool so that
// fuzzed content does not collide with them.
func FuzzNoLeak(f *testing.F) {
	f.Add([]byte("\x00\x03\x03\x20secret customer data 12345\x11\x02\x1bAda Lovelace, 1 Acme Street"))
	f.Add([]byte("\x08\x02\x0b\x28ada.lovelace@example.com plus a long tail\x01\x03\x27withheld\"inside\\an array"))
	f.Add([]byte("\x00\x04\x00\x01\x00\x02\x0b\x1f\x02\xff\xfe\xc3\xa9\xf0\x9f\x98\x80 raw bytes and more"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := leakGen{src: data}
		g.value(0, true, false)
		doc := g.doc.Bytes()
		if !json.Valid(doc) {
			t.Fatalf("generator produced invalid JSON %q", doc)
		}
		out, _, err := defaultShaper.AppendJSON(nil, doc)
		if err != nil {
			t.Fatalf("AppendJSON(%q): %v", doc, err)
		}
		want := g.want.Bytes()
		for _, w := range g.withheld {
			for i := 0; i+8 <= len(w); i++ {
				run := w[i : i+8]
				if bytes.Contains(out, run) && !bytes.Contains(want, run) {
					t.Fatalf("withheld run %q leaked\n doc %s\n out %s", run, doc, out)
				}
			}
		}
		if !bytes.Equal(out, want) {
			t.Fatalf("doc %s\n got %s\nwant %s", doc, out, want)
		}
	})
}

// leakGenKeys is the fixed key pool; kept says whether the decoded key is a default kept key.
var leakGenKeys = []struct {
	raw  string
	kept bool
}{
	{`query`, true}, {`status`, true}, {`title`, true}, {`error`, true}, {`description`, true},
	{`st\u0061tus`, true}, {`\u0071uery`, true}, {`k0`, false}, {`k1`, false}, {`k2`, false},
	{`Status`, false}, {`k\u0030`, false},
}

// leakGen turns fuzz bytes into a JSON document, the shaped output it must produce, and the raw
// contents of every string that must not survive.
type leakGen struct {
	src      []byte
	nodes    int
	doc      bytes.Buffer
	want     bytes.Buffer
	withheld [][]byte
}

func (g *leakGen) next() byte {
	if len(g.src) == 0 {
		return 0
	}
	c := g.src[0]
	g.src = g.src[1:]
	return c
}

// space writes whitespace chosen by the high bits of op; it appears only in the document.
func (g *leakGen) space(op byte) {
	g.doc.WriteString([]string{"", "", "", "", " ", "\n", "\t ", "\r\n"}[op>>5])
}

// value generates one value. emit is false inside arrays, whose contents never reach the output;
// keep says the value sits directly under a kept key.
func (g *leakGen) value(depth int, emit, keep bool) {
	g.nodes++
	op := g.next()
	g.space(op)
	kind := op % 8
	if (len(g.src) == 0 || depth >= 8 || g.nodes > 300) && kind < 3 {
		kind += 3 // no more containers once the input or the budget runs out
	}
	switch kind {
	case 0, 1:
		g.doc.WriteByte('{')
		g.emit(emit, "{")
		for i := range int(g.next() % 5) {
			if i > 0 {
				g.doc.WriteByte(',')
				g.emit(emit, ",")
			}
			k := leakGenKeys[int(g.next())%len(leakGenKeys)]
			g.doc.WriteString(`"` + k.raw + `":`)
			g.emit(emit, `"`+k.raw+`":`)
			g.value(depth+1, emit, k.kept)
		}
		g.doc.WriteByte('}')
		g.emit(emit, "}")
	case 2:
		n := int(g.next() % 5)
		g.doc.WriteByte('[')
		for i := range n {
			if i > 0 {
				g.doc.WriteByte(',')
			}
			g.value(depth+1, false, false)
		}
		g.doc.WriteByte(']')
		g.emit(emit, `"[`+strconv.Itoa(n)+` withheld]"`)
	case 3, 4, 5:
		raw := g.stringContent()
		g.doc.WriteString(`"` + raw + `"`)
		switch {
		case emit && keep:
			g.emit(true, `"`+raw+`"`)
		case emit:
			g.emit(true, `"`+Withheld+`"`)
			g.withheld = append(g.withheld, []byte(raw))
		default:
			g.withheld = append(g.withheld, []byte(raw))
		}
	case 6:
		n := strconv.Itoa(int(g.next())<<8|int(g.next())) + []string{"", ".5", "e3", "E-2"}[op>>6]
		if op&0x20 != 0 {
			n = "-" + n
		}
		g.doc.WriteString(n)
		g.emit(emit, n)
	default:
		lit := []string{"true", "false", "null"}[int(op>>3)%3]
		g.doc.WriteString(lit)
		g.emit(emit, lit)
	}
	g.space(op << 3)
}

func (g *leakGen) emit(emit bool, s string) {
	if emit {
		g.want.WriteString(s)
	}
}

// stringContent takes up to 63 input bytes and writes them as the raw content of a JSON string,
// in one of three styles so that escapes, raw multi-byte UTF-8 and plain ASCII all occur.
func (g *leakGen) stringContent() string {
	ctl := g.next()
	n := min(int(ctl%64), len(g.src))
	content := g.src[:n]
	g.src = g.src[n:]
	var b []byte
	for len(content) > 0 {
		c := content[0]
		size := 1
		switch {
		case ctl>>6 == 1 || c < 0x20: // every byte as \u00XX
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x80:
			b = append(b, c)
		default: // keep valid UTF-8 as it is; turn a stray byte into the rune of the same value
			r, sz := utf8.DecodeRune(content)
			if r == utf8.RuneError && sz == 1 || ctl>>6 == 2 {
				r, sz = rune(c), 1
			}
			b = utf8.AppendRune(b, r)
			size = sz
		}
		content = content[size:]
	}
	return string(b)
}
