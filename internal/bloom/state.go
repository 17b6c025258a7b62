// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package bloom

import (
	"fmt"

	"github.com/agentotel/agentotel/internal/statecodec"
)

// Encode appends the filter's state (package doc, State): its capacity, seed, generation, what each
// generation took, and both generations' words.
func (f *Filter) Encode(e *statecodec.Encoder) {
	f.encode(e)
	e.Bool(f.inherited != nil)
	if f.inherited != nil {
		f.inherited.encode(e)
		e.Uint(f.inheritedUntil - f.generation)
	}
}

func (f *Filter) encode(e *statecodec.Encoder) {
	e.Uint(uint64(f.capacity))
	e.Uint(f.seed)
	e.Uint(f.generation)
	e.Uint(uint64(f.added[0]))
	e.Uint(uint64(f.added[1]))
	for _, w := range f.words {
		e.Word(w)
	}
}

// Decode reads a filter Encode wrote, for a filter of capacity. Saved at that capacity, it answers
// exactly as the saved one did. Saved at another, the ids it held cannot be moved into a table of
// another size, so it is kept, asked but never added to, beside an empty filter of capacity until
// that one has rotated twice: no id the saved filter held is dropped sooner than either capacity
// would have dropped it, and the memory returns to the configured size after 2×capacity adds.
func Decode(d *statecodec.Decoder, capacity int) *Filter {
	saved := decode(d)
	if d.Err() != nil {
		return nil
	}
	var inherited *Filter
	var until uint64
	if d.Bool() {
		inherited = decode(d)
		until = d.Uint()
	}
	if d.Err() != nil {
		return nil
	}
	if saved.capacity == max(capacity, 1) {
		saved.inherited, saved.inheritedUntil = inherited, saved.generation+until
		return saved
	}
	f := New(capacity)
	// The older inherited filter, if any, was due to go before the one saved; dropping it here keeps
	// one inherited filter at most.
	f.inherited, f.inheritedUntil = saved, 2
	return f
}

// decode reads one filter's fields. Its table's size follows from its capacity, and is checked
// against the bytes left before it is allocated, so a damaged value cannot make it allocate more
// than the payload holds.
func decode(d *statecodec.Decoder) *Filter {
	capacity := int(d.Uint())
	seed, generation := d.Uint(), d.Uint()
	added := [2]int{int(d.Uint()), int(d.Uint())}
	if d.Err() != nil {
		return nil
	}
	if capacity < 1 || added[0] > capacity || added[1] > capacity {
		d.Fail(fmt.Errorf("bloom: a capacity of %d holding %d and %d ids", capacity, added[0], added[1]))
		return nil
	}
	blocks := uint64((capacity + idsPerBlock - 1) / idsPerBlock)
	words := 2 * blocks * wordsPerBlock
	if words > uint64(d.Remaining())/8 {
		d.Fail(fmt.Errorf("bloom: %d words of table where %d bytes are left", words, d.Remaining()))
		return nil
	}
	f := &Filter{capacity: capacity, blocks: blocks, words: make([]uint64, words), generation: generation, added: added, seed: seed}
	for i := range f.words {
		f.words[i] = d.Word()
	}
	return f
}
