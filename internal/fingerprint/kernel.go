// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

// A hit is an offset of a text whose 8-byte window a Set holds, with the flags stored for it.
type hit struct {
	pos   int
	flags uint64
}

// appendHits appends to hits every offset of text whose window s holds, in increasing order.
func (s *Set) appendHits(hits []hit, text []byte) []hit {
	if len(s.filter) == 0 {
		return hits
	}
	windows := len(text) - WindowLen + 1
	for i := s.nextPass(text, 0); i < windows; i = s.nextPass(text, i+4) {
		for j := i; j < min(i+4, windows); j++ {
			hits = s.confirm(hits, text, j)
		}
	}
	return hits
}

// nextPass returns the first offset at or after from, in steps of four, where one of the four
// windows starting there passes the prefilter, or an offset past the last window.
//
// Every offset has to be tried: a leaf of exactly WindowLen bytes has one window, and it can sit
// anywhere. What makes that affordable is the prefilter: per offset, one unaligned load, one
// multiply and one bit test in a filter of at most 128 KiB, four offsets per loop iteration with
// one branch between them, no call in the loop, and a slice that shrinks from the front so the
// compiler can drop the bounds checks on the loads. Only the offsets that pass (a few in a
// thousand that do not match) pay for the fingerprint and the table.
func (s *Set) nextPass(text []byte, from int) int {
	filter := s.filter
	mask := uint64(len(filter) - 1)
	mul := keys.filterMul // filterHash's key, loaded once rather than per window
	t := text[min(from, len(text)):]
	for len(t) >= WindowLen+3 {
		h0 := window(t) * mul
		h1 := window(t[1:]) * mul
		h2 := window(t[2:]) * mul
		h3 := window(t[3:]) * mul
		pass := filter[filterByte(h0, mask)] & filterBit(h0)
		pass |= filter[filterByte(h1, mask)] & filterBit(h1)
		pass |= filter[filterByte(h2, mask)] & filterBit(h2)
		pass |= filter[filterByte(h3, mask)] & filterBit(h3)
		if pass != 0 {
			break
		}
		t = t[4:]
	}
	// Past the loop fewer than four windows are left, or one of the four at t passes: either way
	// the caller checks each.
	return len(text) - len(t)
}

// confirm appends a hit at pos if the window there passes the prefilter and the table holds it.
func (s *Set) confirm(hits []hit, text []byte, pos int) []hit {
	w := window(text[pos:])
	h := filterHash(w)
	if s.filter[filterByte(h, uint64(len(s.filter)-1))]&filterBit(h) == 0 {
		return hits
	}
	if f := s.lookup(windowKey(w, h)); f&flagWindow != 0 {
		hits = append(hits, hit{pos: pos, flags: f})
	}
	return hits
}
