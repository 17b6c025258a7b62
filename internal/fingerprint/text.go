// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import "github.com/agentotel/agentotel/internal/countsonly"

// maxRounds bounds how often redactText searches its own output again. A leaf that overlaps the
// marker itself (one ending in "[with", say) can be formed anew where a marker meets the text
// around it; each round withholds what the last one formed, and text that still holds a leaf
// after maxRounds is withheld whole. Only Sets holding such a window need the rounds at all.
const maxRounds = 3

// Hit reports whether text holds a withheld region of a leaf of any of sets, verbatim or
// JSON-encoded up to three deep. It is the fast path: most texts hold none, and for them it
// does not allocate once the Scanner's buffers have grown.
func (sc *Scanner) Hit(sets []*Set, text []byte) bool {
	return sc.find(sets, text, search{firstOnly: true})
}

// redactText appends text to dst with every withheld region replaced by "[withheld]": where a
// region was JSON-encoded, the escape sequences it was decoded from are replaced, so the rest of
// an encoded document keeps its escapes. Overlapping and touching regions become one marker. It
// reports whether it replaced anything; if not, dst holds text unchanged.
func (sc *Scanner) redactText(dst []byte, sets []*Set, text []byte) ([]byte, bool) {
	if !sc.find(sets, text, search{widen: true}) {
		return append(dst, text...), false
	}
	return sc.redactFoundText(dst, sets, text), true
}

// redactFoundText is redactText for a text in which find has just found the regions in sc.spans.
func (sc *Scanner) redactFoundText(dst []byte, sets []*Set, text []byte) []byte {
	start := len(dst)
	dst = sc.appendRedacted(dst, text)
	if !anyMarkerLike(sets) {
		return dst
	}
	for range maxRounds {
		if !sc.find(sets, dst[start:], search{widen: true}) {
			return dst
		}
		sc.out = sc.appendRedacted(sc.out[:0], dst[start:])
		dst = append(dst[:start], sc.out...)
	}
	return append(dst[:start], countsonly.Withheld...)
}

func anyMarkerLike(sets []*Set) bool {
	for _, s := range sets {
		if s != nil && s.markerLike {
			return true
		}
	}
	return false
}

// appendRedacted appends text to dst with the ranges in sc.spans replaced by the marker.
func (sc *Scanner) appendRedacted(dst, text []byte) []byte {
	pos := 0
	for _, sp := range mergeSpans(sc.spans) {
		dst = append(dst, text[pos:sp.start]...)
		dst = append(dst, countsonly.Withheld...)
		pos = sp.end
	}
	return append(dst, text[pos:]...)
}
