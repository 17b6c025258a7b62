// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
)

// Repeats remembers large containers a Lexer has validated, so that a copy of one met later, in the
// same document or another, is passed over by comparing bytes instead of being validated again: an
// agent's transcript repeats every earlier tool result on each model call, and a batch carries many
// of those calls. A copy is found by its first 64 bytes (the results of one tool share their first
// keys) and confirmed byte for byte; a container's bytes decide where it ends, so a confirmed copy is
// the same valid value. The zero Repeats is ready to use; it views the documents it was given until
// Reset, and is not safe for concurrent use.
type Repeats struct {
	byStart map[uint64]repeat
	// starts has a bit set for the first 8 bytes of each container remembered, so that the many
	// values that begin like none of them (a transcript's small results and messages) are told apart
	// at the cost of a multiply, before their first 64 bytes are hashed and looked up.
	starts [4]uint64
	// minLen is the shortest container remembered (minRepeatLen when zero; tests set it lower).
	minLen int
}

// repeat is a validated container, and how many levels deep it nests (1: it holds no container).
type repeat struct {
	raw     []byte
	nesting int
}

const (
	// minRepeatLen: shorter containers are validated again, which costs about what the lookup does.
	minRepeatLen = 256
	// repeatKeyLen is how many of a container's first bytes find it.
	repeatKeyLen = 64
	// maxRepeats bounds what one Repeats remembers between Resets.
	maxRepeats = 4096
)

// Reset forgets every container: the documents they are in may change.
func (r *Repeats) Reset() {
	clear(r.byStart)
	r.starts = [4]uint64{}
}

// startBit is the bit of starts for a container beginning with b (8 bytes or more).
func startBit(b []byte) (word int, bit uint64) {
	h := binary.LittleEndian.Uint64(b) * 0x9e3779b97f4a7c15 >> 56
	return int(h >> 6), 1 << (h & 63)
}

// SkipRepeatable is SkipValue for a value that may be a copy of a container r remembers: a copy is
// passed over, and copyOf is the container it copies (the same bytes, which a caller can know again
// by where they are rather than by reading them); a container validated here is remembered.
func (l *Lexer) SkipRepeatable(depth int, r *Repeats) (copyOf []byte, f Fault) {
	minLen := r.minLength()
	rest := l.src[l.pos:]
	if len(rest) < minLen || rest[0] != '{' && rest[0] != '[' {
		return nil, l.SkipValue(depth)
	}
	if w, bit := startBit(rest); r.starts[w]&bit == 0 {
		return nil, l.skipRemembering(depth, r, minLen)
	}
	if seen, ok := r.byStart[repeatKey(rest)]; ok && depth+seen.nesting <= l.maxDepth && bytes.HasPrefix(rest, seen.raw) {
		l.pos += len(seen.raw)
		l.deepest = max(l.deepest, depth+seen.nesting)
		return seen.raw, NoFault
	}
	return nil, l.skipRemembering(depth, r, minLen)
}

// skipRemembering is SkipValue for a container at the cursor, which r remembers when it is valid and
// at least minLen long.
func (l *Lexer) skipRemembering(depth int, r *Repeats, minLen int) Fault {
	start, outer := l.pos, l.deepest
	l.deepest = depth
	f := l.SkipValue(depth)
	nesting := l.deepest - depth
	l.deepest = max(outer, l.deepest)
	if f == NoFault && l.pos-start >= minLen {
		raw := l.src[start:l.pos]
		r.add(repeatKey(raw), raw, nesting)
	}
	return f
}

// Add remembers raw, one JSON container validated by other means that nests nesting levels deep
// (1: it holds no container): a tool's result shaped before the transcripts that repeat it are read.
func (r *Repeats) Add(raw []byte, nesting int) {
	if len(raw) >= r.minLength() && (raw[0] == '{' || raw[0] == '[') {
		r.add(repeatKey(raw), raw, nesting)
	}
}

// minLength is the length of the shortest container remembered.
func (r *Repeats) minLength() int {
	if r.minLen == 0 {
		return minRepeatLen
	}
	return max(r.minLen, repeatKeyLen)
}

func (r *Repeats) add(key uint64, raw []byte, nesting int) {
	if len(r.byStart) >= maxRepeats {
		return
	}
	if r.byStart == nil {
		r.byStart = map[uint64]repeat{}
	}
	r.byStart[key] = repeat{raw: raw, nesting: nesting}
	w, bit := startBit(raw)
	r.starts[w] |= bit
}

var repeatSeed = maphash.MakeSeed()

// repeatKey finds a container by its first bytes; b holds at least repeatKeyLen.
func repeatKey(b []byte) uint64 { return maphash.Bytes(repeatSeed, b[:repeatKeyLen]) }
