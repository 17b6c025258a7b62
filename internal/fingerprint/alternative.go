// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"bytes"
	"unicode/utf8"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// alternativeReadings adds to sc.spans the leaves that start inside an escape sequence of src,
// the scanned text decoded level-1 times, when src is read from that point on, and reports
// whether it found any.
//
// The decoding from the start of a text reads each escape sequence as a unit. An encoded leaf
// can start inside one: the bytes in front of it may end in a stray backslash that takes the
// leaf's first byte as an escape (`\` then `n...` reads as a newline), or in "\u12" that the
// leaf's leading "34" completes, or add a backslash to the run the leaf starts with. The
// decoding falls back into step after that one unit, so everything of the leaf but its first
// character is in the view; a leaf that is long enough is withheld as a fragment anyway, but a
// short one would be missed. So every point inside an escape sequence is a possible start of a
// leaf, read afresh from there through the remaining levels. Most points are ruled out without
// decoding anything: where reading from the point gives the same bytes as the view, where no
// leaf starts with the first byte it gives, or where its first window is no leaf's first window.
func (sc *Scanner) alternativeReadings(sets []*Set, src []byte, level, levels int, s search) bool {
	v := &sc.views[level-1]
	var starts byteSet // the bytes some leaf of some set starts with
	for _, s := range sets {
		if s != nil {
			for i, w := range s.firstBytes {
				starts[i] |= w
			}
		}
	}
	found := false
	for _, e := range v.escapes {
		for p := int(e.src) + 1; p < int(e.srcEnd); p++ {
			// The test mayStartLeaf begins with, inline: most points end here.
			if c := src[p]; c != '\\' && !starts.has(c) {
				continue
			}
			if !sc.mayStartLeaf(sets, &starts, src, level, levels, e, p) {
				continue
			}
			end, ok := sc.leafFrom(sets, src[p:], maxLevels-level+1, s.widen)
			if !ok {
				continue
			}
			sc.spans = append(sc.spans, sc.toText(level-1, span{p, p + end}))
			found = true
			if s.firstOnly {
				return true
			}
		}
	}
	return found
}

// mayStartLeaf rules out the point p inside the escape e of src (decoded into the view of
// levelOf, one of levels views) as the start of a leaf read from there, where that can be
// decided without decoding; starts holds the bytes leaves start with.
func (sc *Scanner) mayStartLeaf(sets []*Set, starts *byteSet, src []byte, levelOf, levels int, e escape, p int) bool {
	v := &sc.views[levelOf-1]
	if src[p] == '\\' {
		// p is inside a run of backslashes. Reading from p pairs them differently, which matters
		// only if the byte after the run is one that an odd run turns into something else; for
		// any other byte, reading from p gives a tail of what the view holds, whose own readings
		// the next level's points cover.
		run := p
		for run < len(src) && src[run] == '\\' {
			run++
		}
		if run == len(src) || !changesWhenEscaped(src[run]) {
			return false
		}
		r, size := jsonraw.DecodeEscape(src[p:])
		if size > 0 && r != '\\' {
			return starts.has(firstByte(r))
		}
		return true
	}
	// A plain byte starts the reading, and no later decoding changes it.
	if !starts.has(src[p]) {
		return false
	}
	tail := src[p:e.srcEnd]
	if i := bytes.IndexByte(tail, '\\'); i >= 0 {
		// Inside the first half of a surrogate pair: reading from p meets the second half alone.
		return true
	}
	if len(tail) == 1 && tail[0] == v.text[e.dst] && e.dstEnd == e.dst+1 {
		return false // \" and \/: reading the quote or slash alone gives the same byte
	}
	// Reading from p gives tail, then exactly what the view holds after the escape. Decoding that
	// again keeps tail (it has no backslash) and reads the rest afresh from the same point: where
	// the point starts a unit of the next view, that is what the next view holds from there; where
	// it is inside an escape of the next view, the rest of that escape is read as plain bytes
	// (if none is a backslash), which join tail, and after it the next view again. So the
	// reading's first window at every level is a few plain bytes and a few bytes of a view
	// already decoded: unless some leaf starts with one of them, none starts at p.
	var prefix [WindowLen]byte
	n := copy(prefix[:], tail)
	pos := int(e.dstEnd)
	for level := levelOf; ; level++ {
		text := sc.views[level-1].text
		need := WindowLen - n
		if len(text)-pos < need {
			return false // too short for a leaf, and decoding only shortens it
		}
		w := prefix
		copy(w[n:], text[pos:])
		if anyStartsWith(sets, window(w[:])) {
			return true
		}
		if bytes.IndexByte(text[pos:pos+need], '\\') < 0 {
			return false // further decoding gives the same window
		}
		if level == levels {
			// Decoding the deepest view again is what leafFrom does.
			return level < maxLevels
		}
		next := &sc.views[level]
		if esc, inside := next.escapeAt(pos); inside {
			rest := text[pos:esc.srcEnd]
			if bytes.IndexByte(rest, '\\') >= 0 {
				return true // the reading pairs backslashes differently: leafFrom reads it
			}
			n += copy(prefix[n:], rest)
			pos = int(esc.srcEnd)
		}
		pos = next.decodedUpTo(pos)
	}
}

// changesWhenEscaped reports whether a backslash in front of c reads as something other than a
// literal backslash and c: the escapes whose meaning differs from the letter itself.
func changesWhenEscaped(c byte) bool {
	switch c {
	case 'b', 'f', 'n', 'r', 't', 'u':
		return true
	}
	return false
}

// firstByte is the first byte of r as decoding writes it (U+FFFD for an unpaired surrogate).
func firstByte(r rune) byte {
	var b [utf8.UTFMax]byte
	utf8.EncodeRune(b[:], r)
	return b[0]
}

// altReach is how far leafFrom follows a region: once it runs this far from the point, the
// reading from the point is long back in step with the view's own decoding, whose region covers
// the rest.
const altReach = 64

// leafFrom decodes text (a tail of a view, read from its first byte) up to levels times and
// reports whether one of those decodings begins with a withheld region, and where that region
// ends in text. It decodes a short prefix of text first, which is all it takes to see that no
// leaf starts there, and a longer one while a region might run past what the prefix decodes to
// reliably.
func (sc *Scanner) leafFrom(sets []*Set, text []byte, levels int, widen bool) (int, bool) {
	for limit := 32; ; limit *= 4 {
		seg := text[:min(len(text), limit)]
		truncated := len(seg) < len(text)
		// reliable is how much of each decoding is certainly what decoding all of text gives:
		// all of it, or, when seg cuts text short, what the units before the first backslash
		// that might start an escape the cut (or the unreliable part below) cuts short decode to.
		reliable := len(seg)
		again := false
		src := seg
		for k := range levels {
			lv := &sc.local[k]
			lv.decode(src)
			if truncated {
				cut := reliable
				from := max(0, reliable-(maxEscapeLen-1))
				if i := bytes.IndexByte(src[from:reliable], '\\'); i >= 0 {
					cut = from + i
				}
				reliable = lv.decodedUpTo(cut)
			} else {
				reliable = len(lv.text)
			}
			switch {
			case reliable >= WindowLen && !anyStartsWith(sets, window(lv.text)):
				// No leaf starts this decoding.
			case truncated && reliable < minFragment+WindowLen:
				again = true
			default:
				end, ok, reach := sc.regionAtStart(sets, lv.text, widen)
				if truncated && reach+stride+WindowLen > reliable {
					if reach < altReach {
						again = true
						break
					}
					ok, end = true, min(end, reliable)
				}
				if ok {
					a, b := 0, end
					for m := k; m >= 0; m-- {
						a, b = sc.local[m].source(a, b)
					}
					return b, true
				}
			}
			// Without a backslash, decoding again changes nothing that counts.
			if again || bytes.IndexByte(lv.text[:reliable], '\\') < 0 {
				break
			}
			src = lv.text
		}
		if !again {
			return 0, false
		}
	}
}

// regionAtStart reports whether text begins with a withheld region and where it ends, and
// returns the last hit of the run of hits that starts at 0 (or 0 if none does), which says how
// far more text could have extended it.
func (sc *Scanner) regionAtStart(sets []*Set, text []byte, widen bool) (end int, ok bool, reach int) {
	if len(text) < WindowLen || !anyStartsWith(sets, window(text)) {
		return 0, false, 0
	}
	sc.startHits = sc.hitsOf(sets, text, sc.startHits[:0])
	hits := sc.startHits
	if len(hits) == 0 || hits[0].pos != 0 {
		return 0, false, 0
	}
	n := 1
	for n < len(hits) && hits[n].pos-hits[n-1].pos <= stride {
		n++
	}
	sp, ok := region(sets, text, hits[:n], widen)
	return sp.end, ok, hits[n-1].pos
}

// anyStartsWith reports whether a leaf of some set starts with the window w.
func anyStartsWith(sets []*Set, w uint64) bool {
	h := filterHash(w)
	for _, s := range sets {
		if s == nil || len(s.filter) == 0 || s.filter[filterByte(h, uint64(len(s.filter)-1))]&filterBit(h) == 0 {
			continue
		}
		if s.lookup(windowKey(w, h))&flagStart != 0 {
			return true
		}
	}
	return false
}
