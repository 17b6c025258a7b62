// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import "github.com/agentotel/agentotel/internal/ascii"

// wordList finds any of a list of lower-case ASCII terms at the start of a word of a text, ignoring
// the text's ASCII case. A term may end inside a word ("throttl" finds throttled and throttling).
type wordList struct {
	byLetter [26][]string
}

func newWordList(terms []string) *wordList {
	w := new(wordList)
	for _, t := range terms {
		w.byLetter[t[0]-'a'] = append(w.byLetter[t[0]-'a'], t)
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
		case isLetter(c):
			for _, term := range w.byLetter[(c|0x20)-'a'] {
				if len(t)-i >= len(term) && ascii.EqualFold(t[i:i+len(term)], term) {
					return true
				}
			}
		}
	}
	return false
}
