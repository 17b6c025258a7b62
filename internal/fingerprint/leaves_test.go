// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/jsonraw"
)

func TestAddJSONLeaves(t *testing.T) {
	doc := []byte(`{
		"query": "customers named Whitfield",
		"status": ["Jane Roe-Whitfield"],
		"rows": [{"name": "Zo\u00eb Whitfield", "query": "in the array: withheld"}],
		"note": "prefers email; disputes invoices",
		"raw": "{\"inner\":\"stringified leaf value\",\"query\":\"stringified kept value\"}",
		"customer@example.com": 5550100123,
		"short": "Ada"
	}`)
	s := NewSet(1000)
	if full, err := s.AddJSONLeaves(doc, keptKeys("query", "status")); err != nil || full {
		t.Fatalf("full %v, err %v", full, err)
	}
	s.Build()
	var sc Scanner
	for text, want := range map[string]bool{
		"Jane Roe-Whitfield":               true, // in an array under a kept key: arrays are withheld whole
		"Zoë Whitfield":                    true,
		"in the array: withheld":           true,
		"prefers email; disputes invoices": true,
		"stringified leaf value":           true,
		"customers named Whitfield":        false, // directly under a kept key
		"stringified kept value":           false,
		`{"inner":"stringified`:            false, // a stringified document is not itself a leaf
		"customer@example.com":             false, // keys are kept
		"5550100123":                       false, // numbers are kept
	} {
		if got := sc.Hit([]*Set{s}, []byte(text)); got != want {
			t.Errorf("Hit(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestAddJSONLeavesOfInvalidJSONAddsTheWholeText(t *testing.T) {
	doc := []byte(`{"name": "Jane Doe", oops}`)
	s := NewSet(1000)
	_, err := s.AddJSONLeaves(doc, nil)
	if added := s.Build(); !errors.Is(err, jsonraw.ErrSyntax) || added == 0 {
		t.Fatalf("added %d, err %v", added, err)
	}
	var sc Scanner
	if !sc.Hit([]*Set{s}, doc) {
		t.Error("the invalid document is not remembered")
	}
	if sc.Hit([]*Set{s}, []byte("Jane Doe")) {
		t.Error("a string inside the invalid document was remembered as a leaf of its own")
	}
}

// FuzzAddJSONLeaves holds AddJSONLeaves, which validates and collects in one pass, to the slow,
// obvious reading of its contract (referenceLeaves): the same error, the same counts, and a Set
// that holds the same fingerprints, filter and flags as adding the reference's leaves one by one,
// building after each (its table may be larger: Build reserves room for a bound on what it adds).
// A prefilled leaf and a small bound make leaves that are already held and Sets that fill up.
func FuzzAddJSONLeaves(f *testing.F) {
	for _, doc := range []string{
		`{"query":"customers named Whitfield","status":["Jane Roe-Whitfield"],"rows":[{"name":"Zo\u00eb Whitfield","query":"in the array: withheld"}]}`,
		`{"raw":"{\"inner\":\"stringified leaf value\",\"query\":\"stringified kept value\"}","n":5550100123}`,
		`["[withheld]","[not json at all","[\"array in a string\",{\"k\":\"{\\\"deeper\\\":\\\"three levels down\\\"}\"}]"]`,
		`{"name": "Jane Doe", oops}`,
		`{"raw":"{\"inner\":\"collected before the error\" oops}","after":"a leaf after it"}`,
		` {"a":"trailing data after the document"} x`,
		`{"query":{"nested":"under a kept key, but not a string"},"query2":"[1, 2]"}`,
		`"a whole document that is one string"`,
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["too deep"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	} {
		f.Add([]byte(doc), []byte("Jane Roe-Whitfield"), uint16(1000), uint8(0))
		f.Add([]byte(doc), []byte("Jane Roe-Whitfield"), uint16(8), uint8(5))
	}
	f.Fuzz(func(t *testing.T, doc, prefill []byte, maxEntries uint16, keepLen uint8) {
		var kept func([]byte) bool
		if keepLen%8 != 0 {
			kept = func(k []byte) bool { return len(k)%int(keepLen%8) == 0 }
		}
		got, want := NewSet(int(maxEntries)), NewSet(int(maxEntries))
		addBuilt(got, prefill)
		addBuilt(want, prefill)
		full, err := got.AddJSONLeaves(doc, kept)
		added := got.Build()

		leaves, wantErr := referenceLeaves(doc, kept)
		if wantErr != nil {
			leaves = [][]byte{doc}
		}
		wantAdded, wantFull := 0, false
		for _, leaf := range leaves {
			n, f := addBuilt(want, leaf)
			wantAdded += n
			wantFull = wantFull || f
		}
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || added != wantAdded || full != wantFull {
			t.Fatalf("AddJSONLeaves(%q) = %d, %v, %v; want %d, %v, %v", doc, added, full, err, wantAdded, wantFull, wantErr)
		}
		if diff := setDiff(got, want); diff != "" {
			t.Fatalf("AddJSONLeaves(%q): %s", doc, diff)
		}
	})
}

// TestAddLeavesAsOneByOne: AddLeaves and a Build hold what AddLeaf and a Build after each leaf hold,
// and say the same, in a Set with room for them all and in one that fills up part way.
func TestAddLeavesAsOneByOne(t *testing.T) {
	for _, n := range []int{1, 10, 1000} {
		for _, maxEntries := range []int{1 << 20, 40} {
			leaves := customerLeaves(n)
			got, want := NewSet(maxEntries), NewSet(maxEntries)
			addBuilt(got, []byte("Jane Roe-Whitfield"))
			addBuilt(want, []byte("Jane Roe-Whitfield"))
			full := got.AddLeaves(leaves)
			added := got.Build()
			wantAdded, wantFull := 0, false
			for _, leaf := range leaves {
				a, f := addBuilt(want, leaf)
				wantAdded += a
				wantFull = wantFull || f
			}
			if added != wantAdded || full != wantFull {
				t.Errorf("%d leaves, max %d: AddLeaves = %d, %v; one by one %d, %v", n, maxEntries, added, full, wantAdded, wantFull)
			}
			if diff := setDiff(got, want); diff != "" {
				t.Errorf("%d leaves, max %d: %s", n, maxEntries, diff)
			}
		}
	}
}

// referenceLeaves lists the leaves AddJSONLeaves remembers of doc, in order, or returns why doc
// is not valid JSON: it validates the whole document first, then walks it with jsonraw's
// iterators for valid JSON, and validates each stringified document before walking it.
func referenceLeaves(doc []byte, kept func([]byte) bool) ([][]byte, error) {
	if err := validate(doc, 0); err != nil {
		return nil, err
	}
	var leaves [][]byte
	var walk func(v []byte, keep, inArray bool)
	walk = func(v []byte, keep, inArray bool) {
		switch v[0] {
		case '{':
			jsonraw.EachMember(v, func(m jsonraw.Member) {
				key, _ := jsonraw.AppendUnquote(nil, m.Key)
				walk(m.Value, !inArray && kept != nil && kept(key), inArray)
			})
		case '[':
			jsonraw.EachElement(v, func(elem []byte, _ int) { walk(elem, false, true) })
		case '"':
			if keep {
				return
			}
			text, _ := jsonraw.AppendUnquote(nil, v)
			if jsonraw.IsContainer(text) && validate(text, 0) == nil {
				walk(text[jsonraw.SkipSpace(text, 0):], false, inArray)
				return
			}
			leaves = append(leaves, text)
		}
	}
	// The document without the whitespace around it: a top-level string is unquoted as it stands.
	walk(bytes.TrimRight(doc[jsonraw.SkipSpace(doc, 0):], " \t\r\n"), false, false)
	return leaves, nil
}

// setDiff describes how two Sets differ in what they hold, or returns "" if they do not.
func setDiff(a, b *Set) string {
	entries := func(s *Set) []uint64 {
		var out []uint64
		for _, e := range s.table {
			if e != 0 {
				out = append(out, e)
			}
		}
		slices.Sort(out)
		return out
	}
	switch {
	case !slices.Equal(entries(a), entries(b)) || a.entries != b.entries:
		return "different fingerprints"
	case !bytes.Equal(a.filter, b.filter) || a.windows != b.windows:
		return "different prefilters"
	case a.filterStale || b.filterStale:
		return "a prefilter left stale"
	case a.markerLike != b.markerLike || a.firstBytes != b.firstBytes:
		return "different flags"
	}
	return ""
}

// FuzzAddWithheldAsJSONLeaves: remembering what countsonly listed as withheld while shaping holds
// what AddJSONLeaves holds after reading the document itself, for every document countsonly shapes.
func FuzzAddWithheldAsJSONLeaves(f *testing.F) {
	for _, doc := range []string{
		`{"query":"customers named Whitfield","status":["Jane Roe-Whitfield"],"rows":[{"name":"Zo\u00eb Whitfield","query":"in the array: withheld"}]}`,
		`{"raw":"{\"inner\":\"stringified leaf value\",\"query\":\"stringified kept value\"}","n":5550100123}`,
		`["[withheld]","[not json at all","[\"array in a string\",{\"k\":\"{\\\"deeper\\\":\\\"three levels down\\\"}\"}]"]`,
		`{"q\u0075ery":"an escaped kept key","status":{"nested":"under a kept key, but an object"}}`,
		`"a whole document that is one string"`,
	} {
		f.Add([]byte(doc), uint8(3))
	}
	keys := []string{"query", "status", "k", "inner"}
	f.Fuzz(func(t *testing.T, doc []byte, keptMask uint8) {
		var keptKeys []string
		for i, k := range keys {
			if keptMask&(1<<i) != 0 {
				keptKeys = append(keptKeys, k)
			}
		}
		shaper := countsonly.New(keptKeys, countsonly.Limits{MaxDepth: jsonraw.DefaultMaxDepth, MaxBytes: 1 << 30})
		kept := func(k []byte) bool { return shaper.Kept(string(k)) }
		var leaves countsonly.Leaves
		if shaper.AppendValue(nil, doc, nil, &leaves); !leaves.Complete {
			return
		}
		got, want := NewSet(1<<16), NewSet(1<<16)
		got.AddWithheld(doc, leaves.List, kept)
		if _, err := want.AddJSONLeaves(doc, kept); err != nil {
			t.Fatalf("countsonly shaped %q, AddJSONLeaves says %v", doc, err)
		}
		if a, b := got.Build(), want.Build(); a != b {
			t.Fatalf("%q: AddWithheld added %d, AddJSONLeaves %d", doc, a, b)
		}
		if diff := setDiff(got, want); diff != "" {
			t.Fatalf("%q: %s", doc, diff)
		}
	})
}
