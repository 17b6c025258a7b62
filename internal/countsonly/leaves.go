// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package countsonly

import "github.com/agentotel/agentotel/internal/jsonraw"

// Leaves lists the strings a shaping withheld, where they are in the value shaped, so that a caller
// who remembers what was withheld need not read the value a second time. The zero Leaves is ready to
// use, and keeps its buffers from one value to the next.
type Leaves struct {
	// List holds the withheld strings of the last value shaped, in document order. Complete reports
	// that the list is all of them: the value was not a string and was shaped without error (a
	// string holding JSON is shaped decoded, and its leaves are not listed).
	List     []Leaf
	Complete bool
	// Nesting is how deep the value's containers nest (1: a container that holds none), when
	// Complete.
	Nesting int
	arrays  []jsonraw.Span
}

// A Leaf is a withheld string: its token in the value shaped, and whether it is inside an array,
// where an array withheld whole takes even the strings under kept keys with it.
type Leaf struct {
	jsonraw.Span
	InArray bool
}

// reset empties the list for a new value.
func (l *Leaves) reset() { l.List, l.Complete, l.Nesting = l.List[:0], false, 0 }

// add lists a withheld string; a nil Leaves lists nothing.
func (l *Leaves) add(s jsonraw.Span) {
	if l != nil {
		l.List = append(l.List, Leaf{Span: s})
	}
}

// recordArray has lex record the strings of the array it is about to pass over.
func (l *Leaves) recordArray(lex *jsonraw.Lexer) {
	if l != nil {
		l.arrays = l.arrays[:0]
		lex.RecordStrings(&l.arrays)
	}
}

// array lists the strings recorded in an array, and stops lex recording.
func (l *Leaves) array(lex *jsonraw.Lexer) {
	if l == nil {
		return
	}
	lex.RecordStrings(nil)
	for _, s := range l.arrays {
		l.List = append(l.List, Leaf{Span: s, InArray: true})
	}
}
