// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// nonPlainBytes must agree with strPlain on every byte value at every position, whatever the
// neighbouring bytes are: no flag exactly when all eight bytes are plain, and otherwise the
// lowest flag on the first byte that is not. A wrong "plain" would let the scanner skip a quote
// or an escape.
func TestNonPlainBytesMatchesTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var buf [8]byte
	check := func() {
		first := 8
		for k, c := range buf {
			if !strPlain[c] {
				first = k
				break
			}
		}
		flags := nonPlainBytes(binary.LittleEndian.Uint64(buf[:]))
		if got := bits.TrailingZeros64(flags) / 8; got != first {
			t.Fatalf("nonPlainBytes(%q) = %#x: first flagged byte %d, want %d", buf, flags, got, first)
		}
	}
	for pos := range 8 {
		for c := range 256 {
			for _, fill := range []byte{'a', ' ', '~', 0x21, 0x5b, 0x5d} {
				for i := range buf {
					buf[i] = fill
				}
				buf[pos] = byte(c)
				check()
			}
		}
	}
	for range 1 << 16 {
		for i := range buf {
			buf[i] = byte(rng.IntN(256))
			if rng.IntN(4) != 0 {
				buf[i] = byte(0x20 + rng.IntN(0x60))
			}
		}
		check()
	}
}

// plainEnd must stop at exactly the first byte the table marks as not plain, whatever the
// bytes around it and wherever the scan starts, since stopping late would skip a quote or an
// escape and stopping early would only cost time.
func TestPlainEndMatchesTable(t *testing.T) {
	ref := func(in []byte, i int) int {
		for i < len(in) && strPlain[in[i]] {
			i++
		}
		return i
	}
	for _, fill := range []byte{'a', 0xc3, 0x7f, 0x21, 0x5d, 0xff} {
		for c := range 256 {
			for pos := range 20 {
				for start := range 3 {
					in := bytes.Repeat([]byte{fill}, 20)
					in[pos] = byte(c)
					if got, want := plainEnd(in, start), ref(in, start); got != want {
						t.Fatalf("plainEnd(fill %#x, %#x at %d, from %d) = %d, want %d", fill, c, pos, start, got, want)
					}
				}
			}
		}
	}
}
