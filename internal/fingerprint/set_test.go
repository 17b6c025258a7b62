// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

func TestAddLeaf(t *testing.T) {
	s := NewSet(100)
	if added, full := addBuilt(s, []byte("Ada Lov")); added != 0 || full || s.Len() != 0 {
		t.Errorf("a 7-byte leaf was remembered: added %d, full %v, len %d", added, full, s.Len())
	}
	// 8 bytes: one window, both first and last, and the whole-leaf fingerprint.
	if added, _ := addBuilt(s, []byte("Jane Doe")); added != 2 {
		t.Errorf("8-byte leaf added %d fingerprints, want 2", added)
	}
	// 18 bytes: windows at 0, 4, 8 and 10 (the last); from minFragment bytes on, no whole-leaf
	// fingerprint (a repeat is withheld as a fragment).
	if added, _ := addBuilt(s, []byte("Jane Roe-Whitfield")); added != 4 {
		t.Errorf("18-byte leaf added %d fingerprints, want 4", added)
	}
	if added, full := addBuilt(s, []byte("Jane Roe-Whitfield")); added != 0 || full {
		t.Errorf("a leaf added twice added %d more, full %v", added, full)
	}
	if s.Len() != 6 {
		t.Errorf("Len = %d, want 6", s.Len())
	}
}

// TestVocabularyIsNotRemembered: a leaf Vocabulary reports adds nothing, whichever way it is added;
// another leaf still is.
func TestVocabularyIsNotRemembered(t *testing.T) {
	s := NewSet(100)
	s.Vocabulary = func(leaf []byte) bool { return string(leaf) == "find_customer" }
	if added, _ := addBuilt(s, []byte("find_customer")); added != 0 {
		t.Errorf("a word of the vocabulary added %d fingerprints", added)
	}
	if full := s.AddLeaves([][]byte{[]byte("find_customer"), []byte("Jane Roe-Whitfield")}); full || s.Build() != 4 {
		t.Errorf("of a word of the vocabulary and an 18-byte leaf, %d fingerprints were added, want 4", s.Len())
	}
	if full, err := s.AddJSONLeaves([]byte(`{"tool":"find_customer"}`), nil); full || err != nil || s.Build() != 0 {
		t.Errorf("a document holding only a word of the vocabulary added to the set (full %v, err %v)", full, err)
	}
}

// TestFullSet: when maxEntries runs out mid-leaf, the windows stored from the leaf's start still
// find a repeat of that part.
func TestFullSet(t *testing.T) {
	leaf := []byte("VIP since 2009; prefers email; disputes every invoice over 500 EUR")
	s := NewSet(3)
	added, full := addBuilt(s, leaf)
	if added != 3 || !full || s.Len() != 3 {
		t.Fatalf("added %d, full %v, len %d; want 3, true, 3", added, full, s.Len())
	}
	var sc Scanner
	got, _ := sc.redactText(nil, []*Set{s}, leaf)
	if want := "[withheld]" + string(leaf[16+stride-1:]); string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if added, full := addBuilt(NewSet(0), leaf); added != 0 || !full {
		t.Errorf("a Set of capacity 0 added %d, full %v", added, full)
	}
}

// TestSetHoldsNoText: the table and filter hold keyed hashes, not the leaf's bytes.
func TestSetHoldsNoText(t *testing.T) {
	leaf := []byte("Jane Roe-Whitfield")
	s := setOf(leaf)
	var raw []byte
	for _, e := range s.table {
		raw = binary.LittleEndian.AppendUint64(raw, e)
	}
	raw = append(raw, s.filter...)
	for i := 0; i+4 <= len(leaf); i++ {
		if bytes.Contains(raw, leaf[i:i+4]) {
			t.Fatalf("the Set's memory holds %q", leaf[i:i+4])
		}
	}
}

func TestSizeBytesGrowsWithLeaves(t *testing.T) {
	s := NewSet(1 << 20)
	empty := s.SizeBytes()
	s.AddLeaves(customerLeaves(1000))
	s.Build()
	if s.SizeBytes() <= empty || s.SizeBytes() > 512<<10 {
		t.Errorf("SizeBytes %d for 1,000 leaves (empty: %d)", s.SizeBytes(), empty)
	}
}

// TestMayOverlapMarker holds the one-word test to its definition: the window holds a bracket or
// is the marker's letters. The bytes next to the brackets' and letters' values (and the high
// bit set on them) are where a word-wide test would go wrong.
func TestMayOverlapMarker(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	near := []byte{'[', ']', 'Z', '\\', '^', '[' | 0x80, ']' | 0x80, 0, 0xff, 'w', 'd'}
	windows := [][]byte{[]byte("withheld"), []byte("withhelD"), []byte("[withhel"), []byte("ithheld]")}
	for range 100_000 {
		w := make([]byte, WindowLen)
		for i := range w {
			if r.IntN(3) == 0 {
				w[i] = near[r.IntN(len(near))]
			} else {
				w[i] = byte(r.Uint32())
			}
		}
		windows = append(windows, w)
	}
	for _, w := range windows {
		want := bytes.IndexByte(w, '[') >= 0 || bytes.IndexByte(w, ']') >= 0 || string(w) == "withheld"
		if got := mayOverlapMarker(window(w)); got != want {
			t.Fatalf("mayOverlapMarker(%q) = %v", w, got)
		}
	}
}

// TestFingerprintsOf holds the bound reserve is given to what AddLeaf stores.
func TestFingerprintsOf(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 13))
	for n := range 100 {
		leaf := make([]byte, n) // random bytes: no window repeats, so every fingerprint is new
		for i := range leaf {
			leaf[i] = byte(r.Uint32())
		}
		if added, _ := addBuilt(NewSet(1000), leaf); added != fingerprintsOf(n) {
			t.Errorf("a leaf of %d bytes added %d fingerprints, fingerprintsOf says %d", n, added, fingerprintsOf(n))
		}
	}
}

// addBuilt adds a leaf, builds the Set, and returns what AddLeaf and Build said.
func addBuilt(s *Set, leaf []byte) (added int, full bool) {
	full = s.AddLeaf(leaf)
	return s.Build(), full
}

// TestBuildMakesAddsSearchable: a search sees a Set as it was at its last Build.
func TestBuildMakesAddsSearchable(t *testing.T) {
	s := setOf([]byte("Jane Roe-Whitfield"))
	s.AddLeaf([]byte("prefers email; disputes invoices"))
	var sc Scanner
	if !sc.Hit([]*Set{s}, []byte("Jane Roe-Whitfield")) || sc.Hit([]*Set{s}, []byte("prefers email; disputes invoices")) {
		t.Fatal("a search saw the Set other than as it was built")
	}
	if added := s.Build(); added != fingerprintsOf(32) {
		t.Errorf("Build added %d, want %d", added, fingerprintsOf(32))
	}
	if !sc.Hit([]*Set{s}, []byte("prefers email; disputes invoices")) {
		t.Error("a leaf added before Build is not found after it")
	}
	if added := s.Build(); added != 0 {
		t.Errorf("a second Build added %d", added)
	}
}

// TestEveryLengthRepeatedWhole: a leaf of any length from WindowLen up, repeated whole inside other
// text, is withheld. Below minFragment bytes this rests on the whole-leaf fingerprint; from
// minFragment up, on the run of its windows being a fragment (needsWhole).
func TestEveryLengthRepeatedWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 17))
	for n := WindowLen; n <= 3*minFragment; n++ {
		leaf := make([]byte, n)
		for i := range leaf {
			leaf[i] = 'a' + byte(r.IntN(26))
		}
		s := setOf(leaf)
		var sc Scanner
		text := []byte("before -- " + string(leaf) + " -- after")
		got, changed := sc.redactText(nil, []*Set{s}, text)
		if !changed || bytes.Contains(got, leaf) {
			t.Errorf("a %d-byte leaf repeated whole in %q comes back as %q", n, text, got)
		}
	}
}

// TestReleasedBuffersComeBackEmpty: the buffers of a released Set, taken by the next Sets built, hold
// nothing of what the released one did, and the released Set is empty.
func TestReleasedBuffersComeBackEmpty(t *testing.T) {
	gone := customerLeaves(200)
	// Leaves of the same lengths, so the next Set takes buffers of the same sizes, that share no
	// window with them.
	other := make([][]byte, len(gone))
	for i, leaf := range gone {
		other[i] = bytes.Map(func(r rune) rune { return r ^ 0x40 }, leaf)
	}
	var sc Scanner
	for range 20 { // a pool may drop a buffer now and then: a few tries make one be reused
		old := setOf(gone...)
		old.Release()
		if old.Len() != 0 || sc.Hit([]*Set{old}, gone[0]) {
			t.Fatal("a released Set still holds its leaves")
		}
		fresh := setOf(other...)
		for _, leaf := range gone {
			if sc.Hit([]*Set{fresh}, leaf) {
				t.Fatalf("a Set built from released buffers finds %q, a leaf of the released Set", leaf)
			}
		}
	}
}

// TestFirstBuildFilterIsTheTables: the prefilter a Set's first Build makes from the windows it inserts
// is, bit for bit, the one rebuilt from the table; and after later Builds, which grow it from the
// table, every window of the table has its bit.
func TestFirstBuildFilterIsTheTables(t *testing.T) {
	for _, n := range []int{1, 10, 200, 2000} {
		leaves := customerLeaves(n)
		s := setOf(leaves[:n/2+1]...)
		first := bytes.Clone(s.filter)
		s.growFilter()
		if !bytes.Equal(first, s.filter) {
			t.Errorf("%d leaves: the first Build's prefilter differs from the table's", n/2+1)
		}
		s.AddLeaves(leaves[n/2+1:])
		s.Build()
		mask := uint64(len(s.filter) - 1)
		for _, e := range s.table {
			if h := filterHashOf(e); e&flagWindow != 0 && s.filter[filterByte(h, mask)]&filterBit(h) == 0 {
				t.Fatalf("%d leaves: a window of the table has no bit in the prefilter", n)
			}
		}
	}
}
