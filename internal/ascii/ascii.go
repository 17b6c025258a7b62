// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package ascii compares bytes with lower-case ASCII words, ignoring the case of ASCII letters: the
// one comparison the name searches and the result normalisation both make at every candidate offset,
// where strings.EqualFold's Unicode folding would cost more and match more.
package ascii

// EqualFold reports whether b starts with word, a lower-case ASCII string, but for the case of b's
// ASCII letters. b must be at least as long as word.
func EqualFold(b []byte, word string) bool {
	for i := 0; i < len(word); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != word[i] {
			return false
		}
	}
	return true
}
