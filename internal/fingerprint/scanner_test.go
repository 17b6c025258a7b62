// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDecodedHitsMatchAFullSearch: taking the plain windows' hits from the level below gives the
// hits a search of the whole decoded text gives.
func TestDecodedHitsMatchAFullSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	leaves := customerLeaves(100)
	for range 100 {
		leaves = append(leaves, escapeLikeLeaf(r))
	}
	sets := []*Set{setOf(leaves[:150]...), setOf(leaves[100:]...)}
	var sc Scanner
	for i := range 3000 {
		var text []byte
		for len(text) < 300 {
			switch r.IntN(3) {
			case 0:
				text = append(text, randomBytes(r, 30)...)
			case 1:
				text = append(text, encodeJSON(r, leaves[r.IntN(len(leaves))])...)
			default:
				text = append(text, transcriptText(1+r.IntN(200))...)
			}
		}
		src := sc.hitsOf(sets, text, nil)
		var v view
		v.decode(text)
		want := sc.hitsOf(sets, v.text, nil)
		got := sc.hitsOfDecoded(sets, &v, src, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("text %d %q:\ndecoded %q\n got %v\nwant %v", i, text, v.text, got, want)
		}
	}
}

// TestNoAllocationsWithoutHits: a reused Scanner searches and copies text that holds no leaf
// without allocating, escapes and all.
func TestNoAllocationsWithoutHits(t *testing.T) {
	sets := []*Set{setOf(customerLeaves(100)...)}
	text := transcriptText(16 << 10)
	doc := []byte(`{"messages":[{"role":"tool","content":"{\"status\":\"ok\",\"note\":\"caf\u00e9\"}"}]}`)
	var sc Scanner
	dst := make([]byte, 0, 32<<10)
	run := func() {
		sc.Hit(sets, text)
		dst, _ = sc.redactText(dst[:0], sets, text)
		dst, _, _ = sc.redactJSON(dst[:0], sets, doc, nil)
	}
	run()
	if n := testing.AllocsPerRun(10, run); n != 0 {
		t.Errorf("%v allocations per search of text without leaves", n)
	}
}
