// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import "bytes"

// Other encodings than JSON's: each reading of a text, as it is and at each level of JSON decoding,
// is read again with its URL escapes decoded (url.go) and with its HTML character references
// decoded (html.go). Only the windows that hold a decoded byte are looked up again.

// otherMarks are the bytes that begin an escape of another encoding that a reading holds: '+' and
// '%' (URL), '&' (HTML). A JSON decoding keeps every one of them and adds those its escapes decode
// to, so the marks of a level are its source's and its escapes', and only the scanned text is
// searched for them whole.
type otherMarks uint8

const (
	markPlus otherMarks = 1 << iota
	markPercent
	markAmp
)

// marksOf finds the marks a text holds.
func marksOf(text []byte) otherMarks {
	var m otherMarks
	if bytes.IndexByte(text, '+') >= 0 {
		m |= markPlus
	}
	if bytes.IndexByte(text, '%') >= 0 {
		m |= markPercent
	}
	if bytes.IndexByte(text, '&') >= 0 {
		m |= markAmp
	}
	return m
}

// decodedMarks are the marks that the view's escapes decoded to.
func (v *view) decodedMarks() otherMarks {
	var m otherMarks
	for _, e := range v.escapes {
		for _, c := range v.text[e.dst:e.dstEnd] {
			switch c {
			case '+':
				m |= markPlus
			case '%':
				m |= markPercent
			case '&':
				m |= markAmp
			}
		}
	}
	return m
}

// searchOtherEncodings searches t, the scanned text decoded level times (its hits in sc.hits), which
// holds marks, read with its URL escapes decoded and read with its HTML character references
// decoded, and adds the regions it finds to sc.spans, mapped back to the scanned text.
func (sc *Scanner) searchOtherEncodings(sets []*Set, level int, t []byte, marks otherMarks, s search) {
	percent := marks&markPercent != 0 && nextPercentEscape(t, 0) < len(t)
	if marks&markPlus != 0 || percent {
		sc.other.decodeURL(t, true)
		sc.searchOther(sets, level, s)
	}
	if marks&markPlus != 0 && percent {
		// A path or an RFC 3986 query escapes a value's spaces as %20 and keeps its '+': read again with
		// '+' as it is (without a percent escape that reading is the text itself, searched already).
		sc.other.decodeURL(t, false)
		sc.searchOther(sets, level, s)
	}
	if marks&markAmp != 0 && htmlEscaped(t) {
		sc.other.decodeHTML(t)
		sc.searchOther(sets, level, s)
	}
}

// searchOther searches sc.other, decoded from the text decoded level times: only the windows that
// hold a decoded byte are looked up, the others have the hits of the text it was decoded from.
func (sc *Scanner) searchOther(sets []*Set, level int, s search) {
	v := &sc.other
	sc.otherHits = sc.hitsOfDecoded(sets, v, sc.hits, sc.otherHits[:0])
	n := len(sc.spans)
	sc.spans = appendRegions(sc.spans, sets, v.text, sc.otherHits, s.widen)
	for i := n; i < len(sc.spans); i++ {
		sp := sc.spans[i]
		sp.start, sp.end = v.source(sp.start, sp.end)
		sc.spans[i] = sc.toText(level, sp)
	}
}
