// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import "slices"

// minFragment is the length from which a run of matching windows is withheld even though it is
// not a whole leaf: a 16-byte stretch of a withheld value repeated is that value leaking, while
// one 8-byte window (".example", "Whitfield") is as likely to be ordinary text.
const minFragment = 2 * WindowLen

// A span is a range of a text to withhold.
type span struct{ start, end int }

// appendRegions appends to spans the withheld regions among hits, the sorted hits of sets in
// text. A region is a run of hits each at most stride after the last, so that their windows
// cover every byte from the first to the end of the last. It is withheld when it holds a whole
// leaf (a hit flagged START and one flagged END at the distance of a leaf that starts and ends
// with those windows) or spans at least minFragment bytes. Where a region does not begin on a
// START hit it is widened by stride-1 bytes, the most that sampling can leave uncovered before
// its first hit; likewise after its last hit unless that one is flagged END. Where the value
// holding the region is withheld whole rather than the region, widen is false.
func appendRegions(spans []span, sets []*Set, text []byte, hits []hit, widen bool) []span {
	for i := 0; i < len(hits); {
		j := i + 1
		for j < len(hits) && hits[j].pos-hits[j-1].pos <= stride {
			j++
		}
		if sp, ok := region(sets, text, hits[i:j], widen); ok {
			spans = append(spans, sp)
		}
		i = j
	}
	return spans
}

// region returns the span a run of hits withholds, if it withholds one.
func region(sets []*Set, text []byte, run []hit, widen bool) (span, bool) {
	first, last := run[0], run[len(run)-1]
	sp := span{first.pos, last.pos + WindowLen}
	if sp.end-sp.start < minFragment && !holdsWholeLeaf(sets, text, run) {
		return span{}, false
	}
	if widen && first.flags&flagStart == 0 {
		sp.start = max(0, sp.start-(stride-1))
	}
	if widen && last.flags&flagEnd == 0 {
		sp.end = min(len(text), sp.end+(stride-1))
	}
	return sp, true
}

// holdsWholeLeaf reports whether a short run holds a whole leaf: some START hit and some END hit
// at or after it whose windows and distance are those of a remembered leaf. Runs that reach here
// span less than minFragment bytes, so they have at most WindowLen hits.
func holdsWholeLeaf(sets []*Set, text []byte, run []hit) bool {
	for _, a := range run {
		if a.flags&flagStart == 0 {
			continue
		}
		firstFP := fingerprint(window(text[a.pos:]))
		for _, b := range run {
			if b.flags&flagEnd == 0 || b.pos < a.pos {
				continue
			}
			whole := wholeFingerprint(firstFP, fingerprint(window(text[b.pos:])), b.pos+WindowLen-a.pos)
			for _, s := range sets {
				if s != nil && s.lookup(whole)&flagWhole != 0 {
					return true
				}
			}
		}
	}
	return false
}

// mergeSpans sorts spans in place and merges those that overlap or touch.
func mergeSpans(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	out := spans[:0]
	for _, sp := range spans {
		if n := len(out); n > 0 && sp.start <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, sp.end)
			continue
		}
		out = append(out, sp)
	}
	return out
}
