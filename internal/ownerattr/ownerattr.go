// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package ownerattr holds one value per owner and attribute for the length of a batch. A model call's
// transcript is the one before it and a few more messages, so the processors remember what each
// trace's (or run's) attribute held last and read the next one only past what the two share. An owner
// is the index a batch gives a trace or run, so a Table finds an owner's values by that index and
// compares attribute names among its own few: no hashing, where a map keyed by owner and name hashes
// every name it is asked for.
package ownerattr

// Table holds a value per owner and attribute. The zero Table is empty and ready to use.
type Table[T any] struct {
	// first is, by owner, its most recent entry (-1: none); each entry links to the owner's one before.
	first   []int32
	entries []entry[T]
}

type entry[T any] struct {
	attr string
	prev int32
	val  T
}

// Get returns the value of an owner's attribute. One the table did not hold is what Reset's forget
// left of an earlier batch's value in its place (so buffers are kept), else T's zero value. owner is
// an index from 0; the pointer is good until the next Get or Reset.
func (t *Table[T]) Get(owner int32, attr string) *T {
	for int(owner) >= len(t.first) {
		t.first = append(t.first, -1)
	}
	for i := t.first[owner]; i >= 0; i = t.entries[i].prev {
		if t.entries[i].attr == attr {
			return &t.entries[i].val
		}
	}
	n := len(t.entries)
	if n < cap(t.entries) {
		t.entries = t.entries[:n+1]
	} else {
		t.entries = append(t.entries, entry[T]{})
	}
	e := &t.entries[n]
	e.attr, e.prev = attr, t.first[owner]
	t.first[owner] = int32(n)
	return &e.val
}

// Reset empties the table for the next batch. forget, when not nil, is given each value to drop what
// it holds of the batch (its texts), keeping what can serve again (its buffers); without it, values
// are zeroed.
func (t *Table[T]) Reset(forget func(*T)) {
	for i := range t.entries {
		t.entries[i].attr = ""
		if forget != nil {
			forget(&t.entries[i].val)
		} else {
			var zero T
			t.entries[i].val = zero
		}
	}
	t.entries, t.first = t.entries[:0], t.first[:0]
}
