// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package bloom is a set of ids in a fixed number of bytes that may answer yes for an id it was never
// given, never no for one of the last ids it was given, and forgets the oldest ones a generation at a
// time.
//
// # Method
//
// Two split-block Bloom filters (the layout Parquet and Impala use) of equal size, the generations:
// ids are added to the current one; a lookup asks both. Each filter is an array of 256-bit blocks
// of eight 32-bit lanes. An id's 64-bit hash picks one block with its high half, and one bit in each
// lane with its low half multiplied by eight odd constants: adding sets eight bits of one block, a
// lookup reads them back. When the current generation has taken Capacity ids, the filter rotates:
// the other generation, holding the ids before them, is cleared and becomes the current one.
//
// # Guarantee
//
// An id is found as long as fewer than Capacity ids were added after it: it sits in the current
// generation until the rotation, then in the previous one through a whole generation more. So the
// filter holds the last Capacity to 2×Capacity−1 ids. An id that was never added is found by chance,
// a false positive, at a rate that depends only on how full the generations are: docs/benchmarks.md
// gives it as measured, with the command. Adding an id again refreshes it into the current generation.
//
// # Cost
//
// 16 bits per id in each generation, so 4 bytes per id of Capacity in all, fixed at creation; one
// 32-byte block read per generation per lookup, and one written per add. Nothing allocates after New.
//
// # State
//
// The whole state is plain values, so that it can be saved and loaded as it is: words (both
// generations' blocks, generation g's at words[g*wordsPerGeneration:], four words a block), generation
// (how many times the filter rotated: generation%2 is the current one), added (the ids each generation
// took since it was cleared) and seed (what the hash is keyed with). Restored into a filter of the
// same Capacity, they answer exactly as before; the hash depends on nothing but the seed and the bytes.
package bloom

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// BitsPerID is how many bits of each generation one id of its capacity has.
const BitsPerID = 16

const (
	blockBits     = 256
	wordsPerBlock = blockBits / 64
	idsPerBlock   = blockBits / BitsPerID
)

// salts are the odd multipliers that pick one bit per 32-bit lane (Parquet's split-block filter).
var salts = [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}

// Filter is a set of ids in two generations. It is not safe for concurrent use.
type Filter struct {
	capacity   int
	blocks     uint64 // per generation
	words      []uint64
	generation uint64
	added      [2]int
	seed       uint64
	// inherited is a filter restored from state saved at another capacity: it is asked too, until
	// this one has rotated twice (inheritedUntil), by when ids added before it would have left a
	// filter of either capacity.
	inherited      *Filter
	inheritedUntil uint64
}

// New returns a filter that holds at least the last capacity ids added (capacity at least 1), keyed
// with a seed of its own.
func New(capacity int) *Filter {
	capacity = max(capacity, 1)
	blocks := uint64((capacity + idsPerBlock - 1) / idsPerBlock)
	return &Filter{capacity: capacity, blocks: blocks, words: make([]uint64, 2*blocks*wordsPerBlock), seed: rand.Uint64()}
}

// Bytes is the size of the filter's table.
func (f *Filter) Bytes() int {
	if f.inherited != nil {
		return len(f.words)*8 + f.inherited.Bytes()
	}
	return len(f.words) * 8
}

// A Namespace tells apart ids of different kinds whose bytes may be equal (a trace id and a run id).
type Namespace uint8

// Add adds an id, rotating the generations when the current one has taken Capacity ids. It returns
// how many ids that rotation dropped (those the cleared generation took), or 0.
func (f *Filter) Add(ns Namespace, id []byte) (dropped int) {
	h := f.hash(ns, id)
	current := f.generation % 2
	if f.holds(current, h) {
		return 0
	}
	f.set(current, h)
	if f.added[current]++; f.added[current] < f.capacity {
		return 0
	}
	f.generation++
	next := f.generation % 2
	dropped, f.added[next] = f.added[next], 0
	clear(f.generationWords(next))
	if f.inherited != nil && f.generation >= f.inheritedUntil {
		dropped += f.inherited.added[0] + f.inherited.added[1]
		f.inherited = nil
	}
	return dropped
}

// Has reports whether the id may have been added: true for each of the last Capacity ids added.
func (f *Filter) Has(ns Namespace, id []byte) bool {
	h := f.hash(ns, id)
	return f.holds(0, h) || f.holds(1, h) || f.inherited != nil && f.inherited.Has(ns, id)
}

func (f *Filter) generationWords(g uint64) []uint64 {
	n := f.blocks * wordsPerBlock
	return f.words[g*n : (g+1)*n]
}

// block is the four words of generation g's block for hash h.
func (f *Filter) block(g, h uint64) []uint64 {
	hi, _ := bits.Mul64(h, f.blocks) // the high 64 bits: a block index below f.blocks, from h's high bits
	i := (g*f.blocks + hi) * wordsPerBlock
	return f.words[i : i+wordsPerBlock : i+wordsPerBlock]
}

// mask is the bit of lane i (of eight 32-bit lanes, two to a word) that hash h sets.
func mask(h uint64, i int) uint64 {
	return 1 << ((uint32(h)*salts[i])>>27 + uint32(i%2)*32)
}

func (f *Filter) set(g, h uint64) {
	b := f.block(g, h)
	for i := range 8 {
		b[i/2] |= mask(h, i)
	}
}

func (f *Filter) holds(g, h uint64) bool {
	b := f.block(g, h)
	for i := range 8 {
		if b[i/2]&mask(h, i) == 0 {
			return false
		}
	}
	return true
}

// hash is a 64-bit hash of an id under the filter's seed and the namespace: eight bytes at a time,
// each mixed in with murmur3's finaliser, the length first, so that ids that differ in their length
// or any byte differ in every bit with even odds. It depends only on the seed and the bytes, so a
// saved filter answers the same after a restart.
func (f *Filter) hash(ns Namespace, id []byte) uint64 {
	h := mix(f.seed ^ uint64(ns)<<56 ^ uint64(len(id)))
	for ; len(id) >= 8; id = id[8:] {
		h = mix(h ^ binary.LittleEndian.Uint64(id))
	}
	var tail uint64
	for i, c := range id {
		tail |= uint64(c) << (8 * i)
	}
	return mix(h ^ tail)
}

// mix is murmur3's 64-bit finaliser: a bijection in which every input bit flips each output bit with
// odds close to a half.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
