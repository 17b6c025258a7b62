// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"crypto/rand"
	"encoding/binary"
	"math/bits"
)

// keys are drawn once per process, so a Set's contents mean nothing outside the process that
// built it: neither the prefilter bits nor the stored hashes can be matched against a
// dictionary of likely windows without them.
var keys = func() (k struct{ filterMul, fp0, fp1, whole0, whole1 uint64 }) {
	var b [40]byte
	// Read never fails: crypto/rand crashes the program rather than return weak bytes.
	rand.Read(b[:])
	k.filterMul = binary.LittleEndian.Uint64(b[0:]) | 1 // odd, so multiplying loses no bits
	k.fp0 = binary.LittleEndian.Uint64(b[8:])
	k.fp1 = binary.LittleEndian.Uint64(b[16:])
	k.whole0 = binary.LittleEndian.Uint64(b[24:])
	k.whole1 = binary.LittleEndian.Uint64(b[32:])
	return k
}()

// window is the 8-byte run at the start of b, as one word.
func window(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// filterHash is the prefilter's hash: one multiply by a random odd key, cheap enough to run at
// every byte offset of every scanned text. Its top bits depend on every bit of the window, and
// the filter only keeps one bit per window of them.
func filterHash(w uint64) uint64 { return w * keys.filterMul }

// fingerprint is the keyed hash a Set stores for the window w, its flag bits clear: the top 32 bits
// of the window's filter hash, from which the prefilter is rebuilt as the Set grows (so no list of
// filter keys is kept beside the table), over 24 bits of a 64x64->128-bit multiply fold of the
// window under two further keys. The halves come from independent keys: an unrelated window
// matches a stored one by chance about once in 2^56 lookups.
func fingerprint(w uint64) uint64 { return windowKey(w, filterHash(w)) }

// windowKey is fingerprint(w) for a window whose filter hash h is known, as it is where the
// prefilter passed: one multiply fold more, where fingerprint from scratch would repeat the multiply.
func windowKey(w, h uint64) uint64 {
	const low = 1<<32 - 1
	return h&^low | fold(w^keys.fp0, keys.fp1)&low&^flagBits
}

// filterHashOf is the filter hash, as far as the prefilter reads it (bits 32 to 63), of the window a
// table entry stands for.
func filterHashOf(entry uint64) uint64 { return entry &^ (1<<32 - 1) }

// wholeFingerprint identifies a whole leaf by its first and last windows' fingerprints and its
// length, so a START hit and an END hit count as one leaf only at that leaf's own distance.
func wholeFingerprint(first, last uint64, length int) uint64 {
	return fold(fold(first^keys.whole0, bits.RotateLeft64(last, 29)^keys.fp1)^uint64(length), keys.whole1)
}

// fold multiplies a and b into 128 bits and folds the halves together.
func fold(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}
