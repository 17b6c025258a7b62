// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestNumberParts(t *testing.T) {
	cases := []struct {
		in   string
		want Number
		ok   bool
	}{
		{"0", Number{0, 1, 1, 1}, true},
		{"-12.5e+3,", Number{0, 3, 5, 8}, true},
		{"7E9]", Number{0, 1, 1, 3}, true},
		{"-0.001", Number{0, 2, 6, 6}, true},
		{"01", Number{0, 1, 1, 1}, true}, // the '1' is the caller's to reject
		{"-", Number{Start: 0, End: 1}, false},
		{".5", Number{Start: 0, End: 0}, false},
		{"1.", Number{Start: 0, End: 2}, false},
		{"1.e5", Number{Start: 0, End: 2}, false},
		{"1e", Number{Start: 0, End: 2}, false},
		{"1e+", Number{Start: 0, End: 3}, false},
		{"+1", Number{Start: 0, End: 0}, false},
	}
	for _, c := range cases {
		l := NewLexer([]byte(c.in), 0)
		got, ok := l.Number()
		if ok != c.ok || (ok && got != c.want) || l.Pos() != c.want.End {
			t.Errorf("Number(%q) = %+v, %v, cursor %d; want %+v, %v, cursor %d", c.in, got, ok, l.Pos(), c.want, c.ok, c.want.End)
		}
	}
}

func TestLiteral(t *testing.T) {
	for in, want := range map[string]int{"true": 4, "false,": 5, "null]": 4, "nul": -1, "True": -1, "t": -1, "": -1} {
		l := NewLexer([]byte(in), 0)
		ok := l.Literal()
		if ok != (want >= 0) || (ok && l.Pos() != want) {
			t.Errorf("Literal(%q) = %v at %d, want end %d", in, ok, l.Pos(), want)
		}
	}
}

// A caller that drives the lexer token by token sees each key, value and bracket once, and ends
// where the document ends.
func TestLexerWalksADocument(t *testing.T) {
	doc := []byte(` { "a" : [ 1 , "x" ] , "b\u0021" : { } , "c" : -2.5 } `)
	l := NewLexer(doc, 0)
	l.SkipSpace()
	var seen []string
	empty, f := l.Open(1)
	for more := !empty && f == NoFault; more; {
		start := l.Pos()
		end, escaped, ok := l.Key()
		if !ok {
			t.Fatalf("key at %d", start)
		}
		seen = append(seen, string(doc[start:end]))
		if escaped != strings.Contains(string(doc[start:end]), `\`) {
			t.Errorf("key %s: escaped = %v", doc[start:end], escaped)
		}
		valStart := l.Pos()
		if f := l.SkipValue(1); f != NoFault {
			t.Fatalf("value at %d: fault %d", valStart, f)
		}
		seen = append(seen, string(doc[valStart:l.Pos()]))
		if more, ok = l.More('}'); !ok {
			t.Fatalf("after value at %d", l.Pos())
		}
	}
	if !l.AtEnd() {
		t.Errorf("cursor %d, not at the end of %d bytes", l.Pos(), len(doc))
	}
	want := []string{`"a"`, `[ 1 , "x" ]`, `"b\u0021"`, `{ }`, `"c"`, `-2.5`}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Errorf("walked %q, want %q", seen, want)
	}
}

func TestFaultOffsets(t *testing.T) {
	cases := []struct {
		in     string
		offset int
		depth  bool
	}{
		{`{"a":[1,2,]}`, 10, false},
		{`[1 2]`, 3, false},
		{`{"a" 1}`, 5, false},
		{`"ab\x"`, 3, false},
		{"\"a\x01\"", 2, false},
		{"\"a\xff\"", 2, false},
		{`[tru]`, 1, false},
		{`{"a":1.}`, 7, false},
		{strings.Repeat("[", DefaultMaxDepth+1), DefaultMaxDepth, true},
	}
	for _, c := range cases {
		_, err := skip([]byte(c.in), 0)
		want := ErrSyntax
		if c.depth {
			want = ErrDepth
		}
		if !errors.Is(err, want) || !strings.HasSuffix(err.Error(), " at offset "+strconv.Itoa(c.offset)) {
			t.Errorf("skip(%.30q) = %v, want %v at offset %d", c.in, err, want, c.offset)
		}
	}
	shallow := NewLexer([]byte(`[[[`), 2)
	if _, f := shallow.SkipArray(1); f != FaultDepth || shallow.Pos() != 2 {
		t.Errorf("MaxDepth 2 on [[[: fault %d at %d, want FaultDepth at 2", f, shallow.Pos())
	}
}

// Everything without a configured limit nests DefaultMaxDepth deep and no deeper; a configured
// limit is honoured exactly, up to encoding/json's own 10000, where the two agree.
func TestDepthLimit(t *testing.T) {
	nested := func(depth int) []byte {
		return []byte(strings.Repeat(`{"a":[`, depth/2) + strings.Repeat(`]}`, depth/2))
	}
	if !Valid(nested(DefaultMaxDepth)) {
		t.Errorf("depth %d refused", DefaultMaxDepth)
	}
	if Valid(nested(DefaultMaxDepth + 2)) {
		t.Errorf("depth %d accepted", DefaultMaxDepth+2)
	}
	if _, err := skip(nested(DefaultMaxDepth+2), 0); !errors.Is(err, ErrDepth) {
		t.Errorf("Skip past the limit: %v, want ErrDepth", err)
	}
	if err := Members(nested(DefaultMaxDepth+2), func(Member) bool { return true }); !errors.Is(err, ErrDepth) {
		t.Errorf("Members past the limit: %v, want ErrDepth", err)
	}
	for _, depth := range []int{10000, 10002} {
		doc := nested(depth)
		if got, want := validWithin(doc, 10000), json.Valid(doc); got != want {
			t.Errorf("depth %d at limit 10000: valid = %v, encoding/json says %v", depth, got, want)
		}
	}
}

// TestSkipRepeatablePassesOverCopies: a copy of a remembered container is passed over by its bytes,
// not validated again (the remembered container below is planted, and invalid, to tell the two apart);
// a shorter container is not remembered, and one nested deeper than it was is validated again.
func TestSkipRepeatablePassesOverCopies(t *testing.T) {
	record := `{"id":"cus_0123456789","notes":"` + strings.Repeat("n", 300) + `"}`
	var r Repeats
	l := NewLexer([]byte(`[`+record+`]`), 0)
	l.pos = 1
	if _, f := l.SkipRepeatable(1, &r); f != NoFault || len(r.byStart) != 1 {
		t.Fatalf("fault %v, %d remembered", f, len(r.byStart))
	}
	planted := []byte(`{"id":"cus_0123456789",` + strings.Repeat("!", 300) + `}`)
	r.add(repeatKey(planted), planted, 1)
	l = NewLexer(append(planted, ",1]"...), 0)
	if copyOf, f := l.SkipRepeatable(1, &r); f != NoFault || l.Pos() != len(planted) || len(copyOf) == 0 || &copyOf[0] != &planted[0] {
		t.Errorf("a copy was validated again, or not said to be one: fault %v at %d", f, l.Pos())
	}
	l = NewLexer(planted, 2)
	if _, f := l.SkipRepeatable(2, &r); f == NoFault {
		t.Error("a copy nested past the lexer's limit was passed over")
	}
	r.Reset()
	l = NewLexer([]byte(`{"id":"cus_0123456789"}`), 0)
	if l.SkipRepeatable(0, &r); len(r.byStart) != 0 {
		t.Error("a short container was remembered")
	}
}

// TestRecordStrings: SkipValue records the string values it passes over, at any depth, and not the
// keys; nothing once recording is off.
func TestRecordStrings(t *testing.T) {
	doc := []byte(`[{"k":"v\n","n":1},["deep",{"x":["z"]}],"top"] "after"`)
	var got []Span
	l := NewLexer(doc, 0)
	l.RecordStrings(&got)
	if f := l.SkipValue(0); f != NoFault {
		t.Fatal(f)
	}
	l.RecordStrings(nil)
	l.SkipSpace()
	l.SkipValue(0)
	var texts []string
	for _, s := range got {
		texts = append(texts, fmt.Sprintf("%s %v", doc[s.Start:s.End], s.Escaped))
	}
	want := []string{`"v\n" true`, `"deep" false`, `"z" false`, `"top" false`}
	if !slices.Equal(texts, want) {
		t.Errorf("recorded %q, want %q", texts, want)
	}
}

// skip validates the value starting at b[i] (after optional whitespace) and returns the index just
// past it. Containers may nest DefaultMaxDepth deep.
func skip(b []byte, i int) (int, error) {
	l := Lexer{src: b, pos: SkipSpace(b, i), maxDepth: DefaultMaxDepth}
	if f := l.SkipValue(0); f != NoFault {
		return l.pos, l.Err(f)
	}
	return l.pos, nil
}
