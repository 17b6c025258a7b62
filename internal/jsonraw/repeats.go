// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import (
	"bytes"
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
	// minLen is the shortest container remembered (minRepeatLen when zero; tests set it lower).
	minLen int
}

// repeat is a validated container, and the nesting it had room for below it.
type repeat struct {
	raw  []byte
	room int
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
func (r *Repeats) Reset() { clear(r.byStart) }

// SkipRepeatable is SkipValue for a value that may be a copy of a container r remembers: a copy is
// passed over, and a container validated here is remembered.
func (l *Lexer) SkipRepeatable(depth int, r *Repeats) Fault {
	minLen := r.minLen
	if minLen == 0 {
		minLen = minRepeatLen
	}
	rest := l.src[l.pos:]
	if len(rest) < max(minLen, repeatKeyLen) || rest[0] != '{' && rest[0] != '[' {
		return l.SkipValue(depth)
	}
	key := repeatKey(rest)
	room := l.maxDepth - depth
	if seen, ok := r.byStart[key]; ok && room >= seen.room && bytes.HasPrefix(rest, seen.raw) {
		l.pos += len(seen.raw)
		return NoFault
	}
	start := l.pos
	if f := l.SkipValue(depth); f != NoFault {
		return f
	}
	if l.pos-start >= minLen && len(r.byStart) < maxRepeats {
		if r.byStart == nil {
			r.byStart = map[uint64]repeat{}
		}
		r.byStart[key] = repeat{raw: l.src[start:l.pos], room: room}
	}
	return NoFault
}

var repeatSeed = maphash.MakeSeed()

// repeatKey finds a container by its first bytes; b holds at least repeatKeyLen.
func repeatKey(b []byte) uint64 { return maphash.Bytes(repeatSeed, b[:repeatKeyLen]) }
