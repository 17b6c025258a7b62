// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"math/bits"
	"sync"
)

// A Set's table and prefilter are recycled. Every new trace with a data-class result gets a Set, built
// once in its first batch and forgotten later, in the order traces arrive: on a busy collector that is
// tens of fresh tables and prefilters of 16 to 128 KiB a batch, each a span of its own for the Go
// allocator. Buffers a Set outgrows, and those of a Set released once nothing can search it any more,
// are kept by size (a power of two) for the next Set that needs one; the pools let the garbage
// collector have what stays unused.
var (
	tables  buffers[uint64]
	filters buffers[byte]
)

// buffers keeps buffers by size, a power of two of elements.
type buffers[T uint64 | byte] [maxBufferClass + 1]sync.Pool

// maxBufferClass is the largest size kept, as a power of two of elements: a table of 2^20 entries
// (8 MiB) is rare enough to leave to the allocator.
const maxBufferClass = 20

// bufferClass is the pool for a buffer of n elements, n a power of two, or -1 when none keeps it.
func bufferClass(n int) int {
	if n <= 0 || n&(n-1) != 0 {
		return -1
	}
	if c := bits.TrailingZeros(uint(n)); c <= maxBufferClass {
		return c
	}
	return -1
}

// get returns a zeroed buffer of n elements, n a power of two.
func (p *buffers[T]) get(n int) []T {
	if c := bufferClass(n); c >= 0 {
		if b, ok := p[c].Get().(*[]T); ok {
			clear(*b)
			return *b
		}
	}
	return make([]T, n)
}

// put keeps a buffer nothing reads any more for a later get.
func (p *buffers[T]) put(b []T) {
	if c := bufferClass(len(b)); c >= 0 && cap(b) == len(b) {
		p[c].Put(&b)
	}
}

// Release hands the Set's table and prefilter back for other Sets to use, and leaves it empty, as
// NewSet made it. The caller must be sure that nothing searches the Set any more, nor will.
func (s *Set) Release() {
	tables.put(s.table)
	filters.put(s.filter)
	if s.pending != nil {
		s.pending.release()
	}
	*s = Set{max: s.max, MaxDepth: s.MaxDepth}
}
