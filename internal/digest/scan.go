package digest

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strconv"
	"unicode/utf8"
)

// parser validates one JSON document and writes its canonical form to out.
// It lives on the caller's stack; out and mem are Scratch's buffers.
type parser struct {
	n     *Normaliser
	s     *Scratch
	in    []byte
	pos   int
	out   []byte
	mem   []member
	strip bool // remove volatile members (results yes, call arguments no)
}

// document parses the whole input as exactly one JSON value. empty reports
// the emptiness of that value.
func (p *parser) document() (empty, ok bool) {
	empty, ok = p.value(0)
	if !ok {
		return false, false
	}
	p.skipWS()
	return empty, p.pos == len(p.in)
}

func (p *parser) skipWS() {
	for p.pos < len(p.in) {
		switch p.in[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value parses the value at p.pos (after whitespace); depth counts the
// containers already open around it.
func (p *parser) value(depth int) (empty, ok bool) {
	p.skipWS()
	if p.pos >= len(p.in) {
		return false, false
	}
	switch c := p.in[p.pos]; c {
	case '{':
		return p.object(depth + 1)
	case '[':
		return p.array(depth + 1)
	case '"':
		return p.str()
	case 't':
		return false, p.literal("true")
	case 'f':
		return true, p.literal("false")
	case 'n':
		return true, p.literal("null")
	default:
		if c == '-' || ('0' <= c && c <= '9') {
			return p.number()
		}
		return false, false
	}
}

func (p *parser) literal(lit string) bool {
	if len(p.in)-p.pos < len(lit) || string(p.in[p.pos:p.pos+len(lit)]) != lit {
		return false
	}
	p.pos += len(lit)
	p.out = append(p.out, lit...)
	return true
}

func (p *parser) object(depth int) (empty, ok bool) {
	if depth > p.n.maxDepth {
		return false, false
	}
	p.pos++ // '{'
	p.out = append(p.out, '{')
	open := len(p.out)
	base := len(p.mem)
	empty = true
	p.skipWS()
	if p.pos < len(p.in) && p.in[p.pos] == '}' {
		p.pos++
		p.out = append(p.out, '}')
		return true, true
	}
	for {
		p.skipWS()
		if p.pos >= len(p.in) || p.in[p.pos] != '"' {
			return false, false
		}
		mark := len(p.out)
		if len(p.mem) > base {
			p.out = append(p.out, ',')
		}
		start := len(p.out)
		if _, ok := p.str(); !ok {
			return false, false
		}
		keyEnd := len(p.out)
		p.skipWS()
		if p.pos >= len(p.in) || p.in[p.pos] != ':' {
			return false, false
		}
		p.pos++
		p.out = append(p.out, ':')
		drop := p.strip && p.n.volatile(p.out[start+1:keyEnd-1], p.s)
		e, ok := p.value(depth)
		if !ok {
			return false, false
		}
		if drop {
			p.out = p.out[:mark]
		} else {
			p.mem = append(p.mem, member{start: start, keyEnd: keyEnd, end: len(p.out)})
			empty = empty && e
		}
		p.skipWS()
		if p.pos >= len(p.in) {
			return false, false
		}
		c := p.in[p.pos]
		p.pos++
		if c == '}' {
			break
		}
		if c != ',' {
			return false, false
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
	if depth > p.n.maxDepth {
		return false, false
	}
	p.pos++ // '['
	p.out = append(p.out, '[')
	empty = true
	p.skipWS()
	if p.pos < len(p.in) && p.in[p.pos] == ']' {
		p.pos++
		p.out = append(p.out, ']')
		return true, true
	}
	for first := true; ; first = false {
		if !first {
			p.out = append(p.out, ',')
		}
		e, ok := p.value(depth)
		if !ok {
			return false, false
		}
		empty = empty && e
		p.skipWS()
		if p.pos >= len(p.in) {
			return false, false
		}
		c := p.in[p.pos]
		p.pos++
		if c == ']' {
			break
		}
		if c != ',' {
			return false, false
		}
	}
	p.out = append(p.out, ']')
	return empty, true
}

// str parses the string at p.pos and writes its canonical form, quotes
// included.
func (p *parser) str() (empty, ok bool) {
	in := p.in
	i := p.pos + 1
	start := i
	p.out = append(p.out, '"')
	outStart := len(p.out)
	for {
		i = scanPlain(in, i)
		if i >= len(in) {
			return false, false
		}
		c := in[i]
		if c == '"' {
			p.out = append(p.out, in[start:i]...)
			p.pos = i + 1
			empty = len(p.out) == outStart
			p.out = append(p.out, '"')
			return empty, true
		}
		if c != '\\' { // a raw control character
			return false, false
		}
		p.out = append(p.out, in[start:i]...)
		if i+1 >= len(in) {
			return false, false
		}
		switch e := in[i+1]; e {
		case '"', '\\':
			p.out = append(p.out, '\\', e)
			i += 2
		case '/':
			p.out = append(p.out, '/')
			i += 2
		case 'b', 'f', 'n', 'r', 't':
			p.out = append(p.out, '\\', e)
			i += 2
		case 'u':
			r, ok := hex4(in, i+2)
			if !ok {
				return false, false
			}
			i += 6
			switch {
			case r < 0x80:
				if special[r] {
					p.out = appendEscapedByte(p.out, byte(r))
				} else {
					p.out = append(p.out, byte(r))
				}
			case 0xd800 <= r && r < 0xdc00:
				// A high surrogate: a pair if a low one follows.
				if i+6 <= len(in) && in[i] == '\\' && in[i+1] == 'u' {
					if lo, ok := hex4(in, i+2); ok && 0xdc00 <= lo && lo < 0xe000 {
						p.out = utf8.AppendRune(p.out, 0x10000+(r-0xd800)<<10+(lo-0xdc00))
						i += 6
						break
					}
				}
				p.out = appendSurrogate(p.out, r)
			case 0xdc00 <= r && r < 0xe000:
				p.out = appendSurrogate(p.out, r)
			default:
				p.out = utf8.AppendRune(p.out, r)
			}
		default:
			return false, false
		}
		start = i
	}
}

func appendSurrogate(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

func hex4(in []byte, i int) (rune, bool) {
	if i+4 > len(in) {
		return 0, false
	}
	var r rune
	for _, c := range in[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// scanPlain returns the index of the first byte at or after i that a string
// cannot hold literally ('"', '\' or a control byte), or len(in).
func scanPlain(in []byte, i int) int {
	// Eight bytes at a time while none of them is special (SWAR: a byte
	// below 0x20, or equal to '"' or '\\', sets its high bit in m).
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for i+8 <= len(in) {
		x := binary.LittleEndian.Uint64(in[i:])
		q := x ^ (lo * '"')
		b := x ^ (lo * '\\')
		m := (x - lo*0x20) | (q - lo) | (b - lo)
		if m&^x&hi != 0 {
			break
		}
		i += 8
	}
	for i < len(in) && !special[in[i]] {
		i++
	}
	return i
}

// maxExp bounds the exponent kept exactly; larger ones saturate.
const maxExp = 1e15

// number parses a JSON number and writes it as an exact canonical decimal.
func (p *parser) number() (empty, ok bool) {
	in := p.in
	first := p.pos
	i := p.pos
	neg := false
	if in[i] == '-' {
		neg = true
		i++
	}
	intStart := i
	switch {
	case i >= len(in):
		return false, false
	case in[i] == '0':
		i++
	case '1' <= in[i] && in[i] <= '9':
		for i < len(in) && '0' <= in[i] && in[i] <= '9' {
			i++
		}
	default:
		return false, false
	}
	intEnd := i
	fracStart, fracEnd := i, i
	if i < len(in) && in[i] == '.' {
		i++
		fracStart = i
		for i < len(in) && '0' <= in[i] && in[i] <= '9' {
			i++
		}
		if i == fracStart {
			return false, false
		}
		fracEnd = i
	}
	var exp int64
	hasExp := false
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		hasExp = true
		i++
		expNeg := false
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			expNeg = in[i] == '-'
			i++
		}
		digits := i
		for i < len(in) && '0' <= in[i] && in[i] <= '9' {
			if exp < maxExp {
				exp = exp*10 + int64(in[i]-'0')
			}
			i++
		}
		if i == digits {
			return false, false
		}
		if expNeg {
			exp = -exp
		}
	}
	p.pos = i
	if fracEnd == fracStart && !hasExp && intEnd-intStart <= 21 {
		// An integer short enough to be written in full: already canonical,
		// except for zero, whose integer part is the single digit 0.
		if in[intStart] == '0' {
			p.out = append(p.out, '0')
			return true, true
		}
		p.out = append(p.out, in[first:i]...)
		return false, true
	}
	return p.decimal(neg, in[intStart:intEnd], in[fracStart:fracEnd], exp)
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
