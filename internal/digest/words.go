// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import "github.com/agentotel/agentotel/internal/ascii"

// wordList finds any of a list of lower-case ASCII terms (each of two letters or more) at the start of a
// word of a text, ignoring the text's ASCII case. A term may end inside a word ("throttl" finds
// throttled and throttling).
type wordList struct {
	byLetter [26][]string
	// second has bit j of entry i set when a term starts with letters i and j: most words are ruled
	// out by their first two letters, before any term is compared.
	second [26]uint32
}

func newWordList(terms []string) *wordList {
	w := new(wordList)
	for _, t := range terms {
		a, b := t[0]-'a', t[1]-'a'
		w.byLetter[a] = append(w.byLetter[a], t)
		w.second[a] |= 1 << b
	}
	return w
}

// in reports whether t holds a term at the start of a word, or, when number is not nil, a word
// starting with a digit for which number is true.
func (w *wordList) in(t []byte, number func([]byte) bool) bool {
	for i := 0; i < len(t); i++ {
		if i > 0 && alnum[t[i-1]] {
			continue
		}
		c := t[i]
		switch {
		case isDigit(c):
			if number != nil && number(t[i:]) {
				return true
			}
		case isLetter(c) && i+1 < len(t) && isLetter(t[i+1]):
			a, b := (c|0x20)-'a', (t[i+1]|0x20)-'a'
			if w.second[a]&(1<<b) == 0 {
				continue
			}
			for _, term := range w.byLetter[a] {
				if len(t)-i >= len(term) && ascii.EqualFold(t[i:i+len(term)], term) {
					return true
				}
			}
		}
	}
	return false
}
