// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"encoding/binary"
	"errors"
	"sync/atomic"

	"github.com/agentotel/agentotel/internal/statecodec"
)

// A saved Set is its fingerprints, which mean something only under the keys that made them: state
// saved across a restart carries the keys (Keys), and the restarted process takes them (AdoptKeys)
// before it makes a Set. Whoever reads the saved state can then test guesses of what was withheld
// against its fingerprints, as whoever reads the process's memory could: the state's directory must
// be kept like the process's memory (the README's "Across restarts" says so to users).

// Keys are the process's hash keys, as saved state holds them.
type Keys [40]byte

// keysInUse is set by the first NewSet: from then on the keys hash what Sets hold, and cannot change.
var keysInUse atomic.Bool

// ProcessKeys returns the keys this process hashes with.
func ProcessKeys() Keys {
	var k Keys
	for i, v := range []uint64{keys.filterMul, keys.fp0, keys.fp1, keys.whole0, keys.whole1} {
		binary.LittleEndian.PutUint64(k[8*i:], v)
	}
	return k
}

// AdoptKeys makes k the process's keys, so that Sets saved under them (DecodeSet) are found by its
// searches. It reports false, changing nothing, when a Set was already made under other keys: the
// saved fingerprints then cannot be searched, and the caller must treat what they stood for as
// unknown. Call it before any Set is made (at start, before any batch).
func AdoptKeys(k Keys) bool {
	if k == ProcessKeys() {
		return true
	}
	if keysInUse.Load() || binary.LittleEndian.Uint64(k[:])&1 == 0 {
		return false // the filter key must be odd, as every process draws it
	}
	keys.filterMul = binary.LittleEndian.Uint64(k[0:])
	keys.fp0 = binary.LittleEndian.Uint64(k[8:])
	keys.fp1 = binary.LittleEndian.Uint64(k[16:])
	keys.whole0 = binary.LittleEndian.Uint64(k[24:])
	keys.whole1 = binary.LittleEndian.Uint64(k[32:])
	return true
}

// errNoFingerprint is a saved entry with no fingerprint bits: no Set stores one.
var errNoFingerprint = errors.New("fingerprint: a saved entry without a fingerprint")

// Encode appends the Set's fingerprints, those listed for the next Build too, and the two facts
// about the leaves that only adding them could tell (markerLike, firstBytes). The prefilter and the
// table's layout are not saved: DecodeSet rebuilds them from the fingerprints.
func (s *Set) Encode(e *statecodec.Encoder) {
	e.Uint(uint64(s.Len()))
	for _, v := range s.table {
		if v != 0 {
			e.Word(v)
		}
	}
	if s.pending != nil {
		for _, v := range s.pending.fingerprints {
			e.Word(v)
		}
	}
	e.Bool(s.markerLike)
	for _, w := range s.firstBytes {
		e.Word(w)
	}
}

// DecodeSet reads a Set Encode wrote into one that holds at most maxEntries fingerprints, built
// (searchable at once). full reports that the saved Set held more than maxEntries: what is kept
// is a part of what was withheld, and the caller must withhold the rest of its scope whole, as a
// Set that filled up does.
func DecodeSet(d *statecodec.Decoder, maxEntries int) (s *Set, full bool) {
	n := d.Len(8)
	// Not NewSet: these fingerprints were hashed by the process that saved them, and the keys may
	// still be adopted after this (decoding marks no keys in use).
	s = &Set{max: max(maxEntries, 0)}
	if n > 0 {
		s.table = tables.get(tableSize(min(n, s.max)))
	}
	for range n {
		v := d.Word()
		if d.Err() != nil {
			break
		}
		if v&^flagBits == 0 {
			d.Fail(errNoFingerprint)
			break
		}
		if _, ok := s.insert(v&^flagBits, v&flagBits); !ok {
			full = true
		}
	}
	s.markerLike = d.Bool()
	for i := range s.firstBytes {
		s.firstBytes[i] = d.Word()
	}
	if d.Err() != nil {
		s.Release()
		return nil, false
	}
	for _, v := range s.table {
		if v&flagWindow != 0 {
			s.windows++
		}
	}
	if s.windows > 0 {
		s.filter = filters.get(filterSize(s.windows))
		mask := uint64(len(s.filter) - 1)
		for _, v := range s.table {
			if v&flagWindow != 0 {
				h := filterHashOf(v)
				s.filter[filterByte(h, mask)] |= filterBit(h)
			}
		}
	}
	s.reported = s.entries
	return s, full
}
