// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

import (
	"math/bits"
	"unsafe"
)

// seenSet is what a run has seen: fingerprints of the units its results brought (digest's lines and
// leaves), of the items its calls named, and of the arguments of its writes.
//
// A run that sees little holds little: up to smallMax fingerprints are kept exactly, as 32-bit values
// in an open-addressing table grown by doubling from 16 slots (at most 4 KiB). Past that, the set
// becomes two Bloom filters of 8 KiB (65,536 bits, 7 probes), each taking up to generationMax
// fingerprints; when the newer one is full, the older one is forgotten and the newer one takes its
// place. A run so holds at most 16 KiB and remembers between 6,000 and 12,000 of its latest units.
//
// The errors it can make go one way. A unit the set forgot looks new, which can only make a run look
// busier. A new unit that a filter wrongly reports as seen (about 0.5 % per lookup in a full
// filter, 1 % with both full; 32/2^32 in the exact table) makes a result look known only if every
// new unit in it is so reported, and a run stuck only if that happens at no_progress_limit steps in a
// row.
type seenSet struct {
	small     seenTable
	cur, old  *bloom
	forgotten int64
}

const (
	smallMax      = 768  // exact fingerprints before the set becomes filters (1,024 slots)
	generationMax = 6000 // fingerprints per filter: about 11 bits each
	bloomWords    = 1024 // 65,536 bits
	bloomProbes   = 7
)

type bloom struct {
	bits [bloomWords]uint64
	n    int
}

// probe returns the i-th bit position of fingerprint u (double hashing).
func probe(u uint64, i int) uint32 {
	h1, h2 := uint32(u), uint32(u>>32)|1
	return (h1 + uint32(i)*h2) & (bloomWords*64 - 1)
}

func (b *bloom) has(u uint64) bool {
	for i := 0; i < bloomProbes; i++ {
		p := probe(u, i)
		if b.bits[p>>6]&(1<<(p&63)) == 0 {
			return false
		}
	}
	return true
}

func (b *bloom) insert(u uint64) {
	for i := 0; i < bloomProbes; i++ {
		p := probe(u, i)
		b.bits[p>>6] |= 1 << (p & 63)
	}
	b.n++
}

// mix spreads a fingerprint's bits: units come from a 64-bit hash already, but items and writes are
// salted with xor, and a filter's double hashing needs all 64 bits independent.
func mix(u uint64) uint64 {
	hi, lo := bits.Mul64(u^0x9fb21c651e98df25, 0xd6e8feb86659fd93)
	return hi ^ lo
}

// add records a fingerprint and reports whether it was new. The set works on 32 bits of it, spread
// again for the filters, so that what the exact table held moves into a filter unchanged.
func (s *seenSet) add(u uint64) bool {
	f := fp32(mix(u))
	if s.cur == nil {
		if s.small.has(f) {
			return false
		}
		if s.small.n < smallMax {
			s.small.insert(f)
			return true
		}
		s.toFilters()
	}
	k := mix(uint64(f))
	if s.cur.has(k) || s.old != nil && s.old.has(k) {
		return false
	}
	if s.cur.n >= generationMax {
		if s.old == nil {
			s.old = new(bloom)
		} else {
			s.forgotten += int64(s.old.n)
			*s.old = bloom{}
		}
		s.cur, s.old = s.old, s.cur
	}
	s.cur.insert(k)
	return true
}

// toFilters moves the exact table into the first filter.
func (s *seenSet) toFilters() {
	s.cur = new(bloom)
	for _, f := range s.small.slots {
		if f != 0 {
			s.cur.insert(mix(uint64(f)))
		}
	}
	s.small = seenTable{}
}

// addAll records every fingerprint and reports whether any was new.
func (s *seenSet) addAll(units []uint64) bool {
	fresh := false
	for _, u := range units {
		if s.add(u) {
			fresh = true
		}
	}
	return fresh
}

// takeForgotten returns how many fingerprints were forgotten since the last call.
func (s *seenSet) takeForgotten() int64 {
	n := s.forgotten
	s.forgotten = 0
	return n
}

func (s *seenSet) sizeBytes() int {
	n := cap(s.small.slots) * int(unsafe.Sizeof(uint32(0)))
	for _, b := range [2]*bloom{s.cur, s.old} {
		if b != nil {
			n += int(unsafe.Sizeof(*b))
		}
	}
	return n
}

// seenTable is an open-addressing set of 32-bit fingerprints (0 marks a free slot), kept at most
// three quarters full.
type seenTable struct {
	slots []uint32
	n     int
}

// fp32 folds a 64-bit fingerprint into 32 bits that are never 0 (the free slot).
func fp32(u uint64) uint32 {
	f := uint32(u ^ u>>32)
	if f == 0 {
		f = 1
	}
	return f
}

func (t *seenTable) has(f uint32) bool {
	if len(t.slots) == 0 {
		return false
	}
	mask := uint32(len(t.slots) - 1)
	for i := f & mask; ; i = (i + 1) & mask {
		switch t.slots[i] {
		case f:
			return true
		case 0:
			return false
		}
	}
}

// insert adds f (not yet held), growing the table as needed.
func (t *seenTable) insert(f uint32) {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
	}
	mask := uint32(len(t.slots) - 1)
	i := f & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = f
	t.n++
}

func (t *seenTable) grow() {
	old := t.slots
	t.slots = make([]uint32, max(16, 2*len(old)))
	t.n = 0
	for _, f := range old {
		if f != 0 {
			t.insert(f)
		}
	}
}
