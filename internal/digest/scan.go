// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import (
	"bytes"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// parser writes the canonical form of one JSON document to out as the lexer validates it. It
// lives on the caller's stack; out and mem are Scratch's buffers.
type parser struct {
	n     *Normaliser
	s     *Scratch
	in    []byte
	lex   jsonraw.Lexer
	out   []byte
	mem   []member
	strip bool // a result: remove volatile members, mask volatile tokens, list units
	// keyAt locates in out the canonical text of the member name above the value being parsed (its
	// start in the high half, its end in the low; 0 at the top), and for an array's elements the name
	// above the array. Two offsets in one word keep the frame of each object level small: the parse
	// recurses once per level.
	keyAt uint64
	// failed: a top-level member says the result is a failure (see failure.go).
	failed bool
	// waiting: a status member says something is still in progress (see waiting.go).
	waiting bool
	// dropping counts the volatile members being parsed: what they hold is no unit.
	dropping int
}

// document parses the whole input as exactly one JSON value. empty reports
// the emptiness of that value.
func (p *parser) document() (empty, ok bool) {
	p.lex = jsonraw.NewLexer(p.in, p.n.maxDepth)
	p.lex.SkipSpace()
	empty, ok = p.value(0)
	return empty, ok && p.lex.AtEnd()
}

// value parses the value at the cursor; depth counts the containers already
// open around it.
func (p *parser) value(depth int) (empty, ok bool) {
	switch p.lex.Peek() {
	case '{':
		return p.object(depth + 1)
	case '[':
		return p.array(depth + 1)
	case '"':
		return p.str()
	case 't', 'f', 'n':
		return p.literal()
	}
	return p.numberLeaf()
}

// str parses a string value: it writes its canonical text and, for a string that is not empty,
// finishes it as a leaf (stringLeaf). The string's work is in a function of its own so that the frame
// of value, which every level of the recursion holds, stays small.
func (p *parser) str() (empty, ok bool) {
	start := p.lex.Pos()
	escaped, ok := p.lex.String()
	if !ok {
		return false, false
	}
	raw := p.in[start:p.lex.Pos()]
	from := len(p.out)
	if escaped {
		// An escape always stands for at least one byte: never empty.
		if !p.appendEscaped(raw) {
			return false, false
		}
	} else {
		// Without escapes a string token is already canonical: it holds no
		// control bytes, quotes or backslashes, and keeps "/" and UTF-8 literal.
		p.out = append(p.out, raw...)
	}
	if len(p.out)-from > 2 {
		p.stringLeaf(from)
	}
	return len(p.out)-from == 2, true
}

// numberLeaf parses a number; in a result, a number that is not zero is a leaf unit.
func (p *parser) numberLeaf() (empty, ok bool) {
	from := len(p.out)
	empty, ok = p.number()
	if ok && !empty && p.strip && p.dropping == 0 {
		p.s.leafUnit(p.key(), p.out[from:])
	}
	return empty, ok
}

// key is the member name above the value being parsed (nil at the top).
func (p *parser) key() []byte {
	if p.keyAt == 0 {
		return nil
	}
	return p.out[p.keyAt>>32 : uint32(p.keyAt)]
}

// stringLeaf finishes a string value written at p.out[from:] (quotes included, not empty): in a
// result its volatile tokens are masked and its units listed; in a call it may name an item.
func (p *parser) stringLeaf(from int) {
	content := p.out[from+1 : len(p.out)-1]
	switch {
	case p.strip:
		n := maskVolatile(content)
		if p.s.echo {
			n = p.s.maskEchoes(content[:n])
		}
		p.out = append(p.out[:from+1+n], '"')
		content = p.out[from+1 : from+1+n]
		switch {
		case p.dropping > 0:
		case oneWord(content):
			key := p.key()
			p.s.leafUnit(key, content)
			if key != nil && !p.waiting && statusKey(key) && waitingValue(content) {
				p.waiting = true
			}
		default:
			p.s.lineUnits(content)
			if !p.waiting && len(content) <= statusLine && waitingPhrases.in(content, nil) {
				p.waiting = true
			}
		}
	case p.s.listItems:
		p.s.argument(p.n, p.key(), content)
	}
}

// literal copies true, false or null; false and null are empty.
func (p *parser) literal() (empty, ok bool) {
	start := p.lex.Pos()
	if !p.lex.Literal() {
		return false, false
	}
	p.out = append(p.out, p.in[start:p.lex.Pos()]...)
	empty = p.in[start] != 't'
	if p.strip && !empty && p.dropping == 0 {
		p.s.leafUnit(p.key(), p.in[start:p.lex.Pos()])
	}
	return empty, true
}

func (p *parser) object(depth int) (empty, ok bool) {
	isEmpty, f := p.lex.Open(depth)
	if f != jsonraw.NoFault {
		return false, false
	}
	if isEmpty {
		p.out = append(p.out, '{', '}')
		return true, true
	}
	p.out = append(p.out, '{')
	open := len(p.out)
	base := len(p.mem)
	empty = true
	for {
		mark := len(p.out)
		if len(p.mem) > base {
			p.out = append(p.out, ',')
		}
		start := len(p.out)
		keyStart := p.lex.Pos()
		keyEnd, escaped, ok := p.lex.Key()
		if !ok {
			return false, false
		}
		if !escaped {
			p.out = append(p.out, p.in[keyStart:keyEnd]...)
		} else if !p.appendEscaped(p.in[keyStart:keyEnd]) {
			return false, false
		}
		canonKeyEnd := len(p.out)
		p.out = append(p.out, ':')
		drop := p.strip && p.n.volatile(p.out[start+1:canonKeyEnd-1], p.s)
		if drop {
			p.dropping++
		}
		// No need to restore the key after the value: the next member sets its own, and an array
		// sets its key back before each element.
		p.keyAt = uint64(start+1)<<32 | uint64(canonKeyEnd-1)
		e, ok := p.value(depth)
		if !ok {
			return false, false
		}
		if drop {
			p.dropping--
			p.out = p.out[:mark]
		} else {
			if depth == 1 && p.strip && failureMember(p.out[start+1:canonKeyEnd-1], p.out[canonKeyEnd+1:], e) {
				p.failed = true
			}
			p.mem = append(p.mem, member{start: start, keyEnd: canonKeyEnd, end: len(p.out)})
			empty = empty && e
		}
		more, ok := p.lex.More('}')
		if !ok {
			return false, false
		}
		if !more {
			break
		}
	}
	p.order(open, p.mem[base:])
	p.mem = p.mem[:base]
	p.out = append(p.out, '}')
	return empty, true
}

// compare orders members by canonical key, then by canonical value.
func compare(buf []byte, a, b member) int {
	if c := bytes.Compare(buf[a.start+1:a.keyEnd-1], buf[b.start+1:b.keyEnd-1]); c != 0 {
		return c
	}
	return bytes.Compare(buf[a.keyEnd+1:a.end], buf[b.keyEnd+1:b.end])
}

// order puts the members of the object whose content starts at out[open]
// into canonical order, moving bytes only when the input order was not
// already canonical.
func (p *parser) order(open int, ms []member) {
	if len(ms) < 2 {
		return
	}
	buf := p.out
	sorted := true
	for i := 1; i < len(ms); i++ {
		if compare(buf, ms[i-1], ms[i]) > 0 {
			sorted = false
			break
		}
	}
	if sorted {
		return
	}
	if len(ms) <= 12 {
		for i := 1; i < len(ms); i++ {
			for j := i; j > 0 && compare(buf, ms[j-1], ms[j]) > 0; j-- {
				ms[j-1], ms[j] = ms[j], ms[j-1]
			}
		}
	} else {
		slices.SortFunc(ms, func(a, b member) int { return compare(buf, a, b) })
	}
	// Lay the members out in order at the tail, then copy them back over
	// the object's content: same bytes, same number of commas.
	tail := len(p.out)
	for i, m := range ms {
		if i > 0 {
			p.out = append(p.out, ',')
		}
		p.out = append(p.out, p.out[m.start:m.end]...)
	}
	copy(p.out[open:], p.out[tail:])
	p.out = p.out[:tail]
}

func (p *parser) array(depth int) (empty, ok bool) {
	isEmpty, f := p.lex.Open(depth)
	if f != jsonraw.NoFault {
		return false, false
	}
	if isEmpty {
		p.out = append(p.out, '[', ']')
		return true, true
	}
	p.out = append(p.out, '[')
	empty = true
	key := p.keyAt // the elements' member name, for their units
	for {
		p.keyAt = key
		e, ok := p.value(depth)
		if !ok {
			return false, false
		}
		empty = empty && e
		more, ok := p.lex.More(']')
		if !ok {
			return false, false
		}
		if !more {
			break
		}
		p.out = append(p.out, ',')
	}
	p.out = append(p.out, ']')
	return empty, true
}

// appendEscaped writes the canonical form of raw, a string token with escapes
// that the lexer has validated.
func (p *parser) appendEscaped(raw []byte) bool {
	body := raw[1 : len(raw)-1]
	p.out = append(p.out, '"')
	for {
		k := bytes.IndexByte(body, '\\')
		if k < 0 {
			break
		}
		p.out = append(p.out, body[:k]...)
		r, size := jsonraw.DecodeEscape(body[k:])
		switch {
		case size == 0:
			return false
		case r < utf8.RuneSelf && special[r]:
			p.out = appendEscapedByte(p.out, byte(r))
		case utf16.IsSurrogate(r):
			// A lone surrogate stays an escape: U+FFFD would make it equal to
			// a real U+FFFD and the form would no longer be injective.
			p.out = appendSurrogate(p.out, r)
		default:
			p.out = utf8.AppendRune(p.out, r)
		}
		body = body[k+size:]
	}
	p.out = append(p.out, body...)
	p.out = append(p.out, '"')
	return true
}

func appendSurrogate(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

// maxExp bounds the exponent kept exactly; larger ones saturate.
const maxExp = 1e15

// number parses a JSON number and writes it as an exact canonical decimal.
func (p *parser) number() (empty, ok bool) {
	num, ok := p.lex.Number()
	if !ok {
		return false, false
	}
	in := p.in
	neg := in[num.Start] == '-'
	intStart := num.Start
	if neg {
		intStart++
	}
	var frac []byte
	if num.FracEnd > num.IntEnd {
		frac = in[num.IntEnd+1 : num.FracEnd]
	}
	hasExp := num.End > num.FracEnd
	if len(frac) == 0 && !hasExp && num.IntEnd-intStart <= 21 {
		// An integer short enough to be written in full: already canonical,
		// except for zero, whose integer part is the single digit 0.
		if in[intStart] == '0' {
			p.out = append(p.out, '0')
			return true, true
		}
		p.out = append(p.out, in[num.Start:num.End]...)
		return false, true
	}
	var exp int64
	if hasExp {
		exp = exponent(in[num.FracEnd+1 : num.End])
	}
	return p.decimal(neg, in[intStart:num.IntEnd], frac, exp)
}

// exponent is the value of a validated exponent (an optional sign, then
// digits), saturating at maxExp.
func exponent(e []byte) int64 {
	neg := e[0] == '-'
	if e[0] == '+' || e[0] == '-' {
		e = e[1:]
	}
	var v int64
	for _, c := range e {
		if v < maxExp {
			v = v*10 + int64(c-'0')
		}
	}
	if neg {
		return -v
	}
	return v
}

// decimal writes the canonical form of ±(intDigits.fracDigits)×10^exp.
func (p *parser) decimal(neg bool, intDigits, fracDigits []byte, exp int64) (empty, ok bool) {
	n := len(intDigits) + len(fracDigits)
	at := func(k int) byte {
		if k < len(intDigits) {
			return intDigits[k]
		}
		return fracDigits[k-len(intDigits)]
	}
	lo := 0
	for lo < n && at(lo) == '0' {
		lo++
	}
	if lo == n {
		p.out = append(p.out, '0')
		return true, true
	}
	hi := n - 1
	for at(hi) == '0' {
		hi--
	}
	digits := hi - lo + 1
	// value = D × 10^q with D = digits lo..hi.
	q := exp - int64(len(fracDigits)) + int64(n-1-hi)
	adj := int64(digits) + q // value = 0.D × 10^adj
	if neg {
		p.out = append(p.out, '-')
	}
	switch {
	case q >= 0 && adj <= 21:
		for k := lo; k <= hi; k++ {
			p.out = append(p.out, at(k))
		}
		for ; q > 0; q-- {
			p.out = append(p.out, '0')
		}
	case q < 0 && adj > 0:
		for k := lo; k <= hi; k++ {
			if int64(k-lo) == adj {
				p.out = append(p.out, '.')
			}
			p.out = append(p.out, at(k))
		}
	case q < 0 && adj > -6:
		p.out = append(p.out, '0', '.')
		for z := adj; z < 0; z++ {
			p.out = append(p.out, '0')
		}
		for k := lo; k <= hi; k++ {
			p.out = append(p.out, at(k))
		}
	default:
		p.out = append(p.out, at(lo))
		if digits > 1 {
			p.out = append(p.out, '.')
			for k := lo + 1; k <= hi; k++ {
				p.out = append(p.out, at(k))
			}
		}
		e := adj - 1
		p.out = append(p.out, 'e')
		if e >= 0 {
			p.out = append(p.out, '+')
		}
		p.out = strconv.AppendInt(p.out, e, 10)
	}
	return false, true
}
