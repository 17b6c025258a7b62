// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import "bytes"

// A Scanner searches texts for the leaves remembered in Sets. It keeps its buffers between
// calls, so a Scanner reused for a batch does not allocate for text it leaves alone. The zero
// value is ready to use; a Scanner is not safe for concurrent use, and only reads the Sets.
type Scanner struct {
	// MaxDepth bounds the nesting of the JSON documents it reads as JSON; zero is
	// jsonraw.DefaultMaxDepth.
	MaxDepth int

	hits, merged []hit
	srcHits      []hit           // the hits of the level below the one being searched
	startHits    []hit           // hits of a decoding that alternativeReadings tries
	views        [maxLevels]view // views[l-1] is the text decoded l times
	local        [maxLevels]view // decodings of a text read from a point inside an escape
	other        view            // a view read another way: URL escapes (url.go), HTML references (html.go)
	otherHits    []hit
	spans        []span // ranges of the scanned text to withhold
	docSpans     []span // redactJSON's regions, a stack for the documents inside documents
	out          []byte // redactText's output of the previous round
	key          []byte // a decoded object key
}

// Verbatim are the offsets of a text where a search found a remembered window, in the text as it is
// (not decoded). Kept from one search to the next (Redaction.Verbatim), they spare looking up again the
// windows of a text that begins with the same bytes.
type Verbatim struct{ hits []hit }

// A search says what find reports: every region, or only whether there is one (firstOnly); and
// whether regions are widened over the bytes sampling may have left at their edges (for text,
// where the region is what is replaced) or not (for JSON, where the value holding it is).
//
// When verbatim is set, it holds on entry the verbatim hits of a text, searched with the same Sets,
// whose first known bytes the text begins with: the windows that lie within them are taken from there,
// and only the others are looked up. On return it holds the text's own. Decoded views are searched
// whole.
type search struct {
	firstOnly, widen bool
	verbatim         *Verbatim
	known            int
}

// find sets sc.spans to the ranges of text to withhold, unsorted and possibly overlapping, and
// reports whether there are any.
//
// The text is searched as it is, then decoded once, twice and three times while it still holds a
// backslash, so a leaf is found whether it was copied verbatim or JSON-encoded up to three deep
// (a JSON string in a document held as a string in another document...). Each view's regions map
// back to the escape sequences they were decoded from. Reading a text from its start is not the
// only reading that matters: bytes in front of an encoded leaf may end in a partial escape (a
// stray backslash, or "\u12" before a leaf that starts "34"), and then no decoding from the
// start shows the leaf's first character. alternativeReadings covers those.
func (sc *Scanner) find(sets []*Set, text []byte, s search) bool {
	sc.spans = sc.spans[:0]
	// A text shorter than a window holds none, in any decoding: half the strings a batch searches
	// are (operation names, methods, versions).
	if len(text) < WindowLen || !anyWindows(sets) {
		if s.verbatim != nil {
			s.verbatim.hits = s.verbatim.hits[:0]
		}
		return false
	}
	levels := 0
	var other otherMarks
	for level := 0; level <= maxLevels; level++ {
		if level > 0 {
			src := sc.textAt(text, level-1)
			if len(src) > maxDecodedLen || bytes.IndexByte(src, '\\') < 0 {
				break
			}
			sc.views[level-1].decode(src)
			levels = level
			other |= sc.views[level-1].decodedMarks()
		} else {
			other = marksOf(text)
		}
		t := sc.textAt(text, level)
		if level == 0 {
			sc.hits = sc.verbatimHits(sets, t, s)
		} else {
			sc.srcHits, sc.hits = sc.hits, sc.srcHits
			sc.hits = sc.hitsOfDecoded(sets, &sc.views[level-1], sc.srcHits, sc.hits[:0])
		}
		n := len(sc.spans)
		sc.spans = appendRegions(sc.spans, sets, t, sc.hits, s.widen)
		for i := n; i < len(sc.spans); i++ {
			sc.spans[i] = sc.toText(level, sc.spans[i])
		}
		if other != 0 {
			sc.searchOtherEncodings(sets, level, t, other, s)
		}
		if s.firstOnly && len(sc.spans) > 0 {
			return true
		}
	}
	for level := 1; level <= levels; level++ {
		if sc.alternativeReadings(sets, sc.textAt(text, level-1), level, levels, s) && s.firstOnly {
			return true
		}
	}
	return len(sc.spans) > 0
}

// verbatimHits returns the hits of sets in text as it is: those of the windows within its first
// s.known bytes from s.verbatim, the others looked up. It leaves text's own in s.verbatim.
func (sc *Scanner) verbatimHits(sets []*Set, text []byte, s search) []hit {
	if s.verbatim == nil {
		return sc.hitsOf(sets, text, sc.hits[:0])
	}
	// A window at from or after reaches past the known bytes; one before lies within them.
	from := max(0, min(s.known, len(text))-WindowLen+1)
	hits := sc.hits[:0]
	for _, h := range s.verbatim.hits {
		if h.pos >= from {
			break
		}
		hits = append(hits, h)
	}
	n := len(hits)
	hits = sc.hitsOf(sets, text[from:], hits)
	for i := n; i < len(hits); i++ {
		hits[i].pos += from
	}
	s.verbatim.hits = append(s.verbatim.hits[:0], hits...)
	return hits
}

// textAt is text decoded level times, as find built it.
func (sc *Scanner) textAt(text []byte, level int) []byte {
	if level == 0 {
		return text
	}
	return sc.views[level-1].text
}

// toText maps a span of the text decoded level times back to the scanned text.
func (sc *Scanner) toText(level int, sp span) span {
	for l := level; l >= 1; l-- {
		sp.start, sp.end = sc.views[l-1].source(sp.start, sp.end)
	}
	return sp
}

// hitsOf appends the hits of every set in text to hits, merged into one sorted list.
func (sc *Scanner) hitsOf(sets []*Set, text []byte, hits []hit) []hit {
	base := len(hits)
	for _, s := range sets {
		if s == nil {
			continue
		}
		start := len(hits)
		hits = s.appendHits(hits, text)
		if start > base && len(hits) > start {
			sc.merged = mergeHits(sc.merged[:0], hits[base:start], hits[start:])
			hits = append(hits[:base], sc.merged...)
		}
	}
	return hits
}

// clusterGap is how many plain windows between two escapes hitsOfDecoded looks up rather than
// taking from the level below: fewer, longer lookups cost less than many short ones.
const clusterGap = 64

// hitsOfDecoded appends to hits the hits of sets in v.text, decoded from a text whose hits are
// srcHits. Only windows that hold a byte some escape decoded to are looked up: every other window
// of v.text is a window of the source, shifted by what the escapes before it shortened, and has
// the source's hits. A text with few escapes is thus searched once, not once per level.
func (sc *Scanner) hitsOfDecoded(sets []*Set, v *view, srcHits, hits []hit) []hit {
	text, esc := v.text, v.escapes
	windows := len(text) - WindowLen + 1
	pos := 0   // the windows before pos are done
	shift := 0 // source offset minus view offset of the plain bytes after the escapes done
	h := 0     // the next source hit
	copyPlain := func(before int) {
		for ; h < len(srcHits) && srcHits[h].pos-shift < before; h++ {
			if p := srcHits[h].pos - shift; p >= pos {
				hits = append(hits, hit{pos: p, flags: srcHits[h].flags})
			}
		}
	}
	for i := 0; i < len(esc) && pos < windows; {
		// The windows that touch a run of escapes close together: from WindowLen-1 before the
		// first to the last byte of the last.
		start := max(pos, int(esc[i].dst)-(WindowLen-1))
		end := int(esc[i].dstEnd)
		j := i + 1
		for ; j < len(esc) && int(esc[j].dst)-(WindowLen-1) <= end+clusterGap; j++ {
			end = int(esc[j].dstEnd)
		}
		end = min(end, windows)
		copyPlain(start)
		if start < end {
			n := len(hits)
			hits = sc.hitsOf(sets, text[start:end+WindowLen-1], hits)
			for k := n; k < len(hits); k++ {
				hits[k].pos += start
			}
		}
		shift = int(esc[j-1].srcEnd - esc[j-1].dstEnd)
		pos = max(pos, end)
		i = j
	}
	copyPlain(windows)
	return hits
}

// mergeHits appends the union of two sorted hit lists to dst; a window both hold is one hit with
// both sets' flags.
func mergeHits(dst, a, b []hit) []hit {
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0].pos < b[0].pos:
			dst, a = append(dst, a[0]), a[1:]
		case b[0].pos < a[0].pos:
			dst, b = append(dst, b[0]), b[1:]
		default:
			dst = append(dst, hit{pos: a[0].pos, flags: a[0].flags | b[0].flags})
			a, b = a[1:], b[1:]
		}
	}
	return append(append(dst, a...), b...)
}

func anyWindows(sets []*Set) bool {
	for _, s := range sets {
		if s != nil && s.windows > 0 {
			return true
		}
	}
	return false
}
