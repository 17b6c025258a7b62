// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import (
	"bytes"
	"crypto/sha256"
	"hash"
	"strings"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// Sum is a truncated SHA-256: 16 bytes keep per-run memory small while
// leaving collisions out of practical reach.
type Sum [16]byte

// Limits bound the work one result may cost. Zero fields take the defaults.
type Limits struct {
	MaxDepth int // nesting of objects and arrays; default jsonraw.DefaultMaxDepth (64)
	MaxBytes int // input size normalised as JSON; default 4 MiB
}

const (
	defaultMaxBytes = 4 << 20

	// Scratch buffers that grew past this are dropped after the call, so a
	// pooled Scratch does not pin the memory of one huge result.
	retainBytes = 1 << 20
	// The text path hands its output to the hash in pieces of about this size.
	textChunk = 32 << 10
)

// DefaultVolatileFields are the envelope fields that change on every reply
// without saying anything about the world: timestamps, request and trace
// ids, ETags and timings.
var DefaultVolatileFields = []string{
	"served_at", "timestamp", "time", "date", "created_at", "updated_at",
	"request_id", "requestId", "trace_id", "etag", "latency_ms", "duration_ms",
}

// Normaliser holds the volatile-field set and limits. It is immutable after
// New and safe for concurrent use; the mutable state lives in Scratch.
type Normaliser struct {
	names    []string // normalised volatile names
	lenMask  uint64   // bit l set when some name has normalised length l (l < 63); bit 63: longer names
	maxLen   int
	maxDepth int
	maxBytes int
}

// New returns a Normaliser. A nil volatileFields means DefaultVolatileFields;
// an empty non-nil slice strips nothing.
func New(volatileFields []string, limits Limits) *Normaliser {
	if volatileFields == nil {
		volatileFields = DefaultVolatileFields
	}
	n := &Normaliser{maxDepth: limits.MaxDepth, maxBytes: limits.MaxBytes}
	if n.maxDepth <= 0 {
		n.maxDepth = jsonraw.DefaultMaxDepth
	}
	if n.maxBytes <= 0 {
		n.maxBytes = defaultMaxBytes
	}
	seen := make(map[string]bool, len(volatileFields))
	for _, f := range volatileFields {
		// Compare against the canonical (decoded, re-escaped) key text, so
		// a configured name goes through the same string canonicalisation.
		canon := appendEscaped(nil, []byte(f))
		norm := string(normaliseName(nil, canon, -1))
		if norm == "" || seen[norm] {
			continue
		}
		seen[norm] = true
		n.names = append(n.names, norm)
		if len(norm) > n.maxLen {
			n.maxLen = len(norm)
		}
		if len(norm) < 63 {
			n.lenMask |= 1 << uint(len(norm))
		} else {
			n.lenMask |= 1 << 63
		}
	}
	return n
}

// normaliseName appends key lower-cased (ASCII) without '_', '-' and spaces. It
// stops and returns nil once the result would be longer than limit (limit < 0:
// no limit). Volatile fields, free-text arguments, status members and their
// waiting values are all compared so.
func normaliseName(dst, key []byte, limit int) []byte {
	for _, c := range key {
		if c == '_' || c == '-' || c == ' ' {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if limit >= 0 && len(dst) >= limit {
			return nil
		}
		dst = append(dst, c)
	}
	return dst
}

// volatile reports whether the canonical key text names a volatile field.
func (n *Normaliser) volatile(key []byte, s *Scratch) bool {
	if len(n.names) == 0 {
		return false
	}
	norm := normaliseName(s.norm[:0], key, n.maxLen)
	if norm == nil {
		return false
	}
	s.norm = norm
	l := len(norm)
	if l < 63 && n.lenMask&(1<<uint(l)) == 0 {
		return false
	}
	for _, name := range n.names {
		if name == string(norm) {
			return true
		}
	}
	return false
}

// Result is the digest of one result.
type Result struct {
	Sum Sum
	// Empty: every leaf is null, "", 0 or false, or the containers are
	// empty (also empty or blank input).
	Empty bool
	// Invalid: the input started like JSON ('{' or '[') but was not JSON
	// this Normaliser accepts (malformed, deeper than MaxDepth or larger
	// than MaxBytes), so it was digested as text.
	Invalid bool
	// Failed: the result reports a failure in band (failure.go).
	Failed bool
	// Channel: the result, an acknowledgement (Brief), names a failure of
	// the channel rather than of the item asked about (failure.go).
	Channel bool
	// Waiting: the result says what it reports on is still in progress
	// (waiting.go).
	Waiting bool
	// Brief: the result is an acknowledgement rather than a document:
	// empty, one line of text (160 bytes at most), or JSON of at most four
	// units of which one at most is a line (units.go).
	Brief bool
}

// Scratch holds the reusable buffers of one caller, so the hot path does not
// allocate. Keep one per goroutine or in a sync.Pool; the zero value is ready.
type Scratch struct {
	buf  []byte   // canonical output, then the tail used to permute members
	mem  []member // member spans of the objects being parsed (a stack)
	norm []byte   // a key being matched against the volatile set
	h    hash.Hash
	sum  [sha256.Size]byte

	units []uint64 // the last result's units (units.go)
	items []uint64 // the last call's items (call.go)
	// echoes are the last call's string arguments (offsets into echoText) that Answer masks in a
	// result; echo is set while it does.
	echoes   [][2]int
	echoText []byte
	echo     bool
	// sweep is set while Answer digests a result: Channel is read only when the call named items.
	sweep bool
	// listItems is set while Call digests the arguments; pause records a bare sleep among them.
	listItems, pause bool
	// lines and leaves count the last result's line and leaf units, for Brief.
	lines, leaves int
}

// member is one object member in the output: buf[start:keyEnd] is the quoted
// key, buf[keyEnd] the ':', buf[keyEnd+1:end] the value.
type member struct {
	start, keyEnd, end int
}

func (s *Scratch) release() {
	if cap(s.buf) > retainBytes {
		s.buf = nil
	}
	if cap(s.mem)*24 > retainBytes {
		s.mem = nil
	}
}

// emptyText is the digest of a blank input: the canonical JSON "".
var emptyText = func() Sum {
	full := sha256.Sum256([]byte(`""`))
	var s Sum
	copy(s[:], full[:])
	return s
}()

// Of digests a tool result. It never fails: input that is not JSON, or that
// this Normaliser will not normalise, is digested as text (see the package
// documentation for the canonical form).
func (n *Normaliser) Of(result []byte, scratch *Scratch) Result {
	if scratch == nil {
		scratch = new(Scratch)
	}
	defer scratch.release()
	scratch.units, scratch.lines, scratch.leaves = scratch.units[:0], 0, 0
	t := bytes.TrimSpace(result)
	if len(t) == 0 {
		return Result{Sum: emptyText, Empty: true, Brief: true}
	}
	startsJSON := t[0] == '{' || t[0] == '['
	if len(t) <= n.maxBytes {
		p := parser{n: n, s: scratch, in: t, out: scratch.buf[:0], mem: scratch.mem[:0], strip: true}
		empty, ok := p.document()
		scratch.buf, scratch.mem = p.out, p.mem[:0]
		if ok {
			r := Result{
				Sum: sum16(sha256.Sum256(p.out)), Empty: empty, Waiting: p.waiting,
				Failed: p.failed || p.out[0] == '"' && failureText(p.out[1:]),
				Brief:  empty || scratch.lines <= 1 && scratch.lines+scratch.leaves <= 4,
			}
			// Only an acknowledgement earns a sweep the credit a channel failure denies (package
			// progress): a document is not read for one.
			r.Channel = r.Brief && scratch.mayBeSweep() && Channel(t)
			return r
		}
		scratch.units, scratch.lines, scratch.leaves = scratch.units[:0], 0, 0
	}
	sum := scratch.textSum(0, t, 0, true)
	brief := scratch.lines <= 1 && len(t) <= 160
	return Result{Sum: sum, Invalid: startsJSON, Failed: failureText(t), Channel: brief && scratch.mayBeSweep() && Channel(t), Waiting: waitingText(t), Brief: brief}
}

// mayBeSweep reports whether the result may be a sweep's answer: any result Of digests, and one that
// Answer digests when the last Call named an item.
func (s *Scratch) mayBeSweep() bool { return !s.sweep || len(s.items) > 0 }

// Key digests a tool call for the loop hash: the tool name, trimmed and
// lower-cased, with the canonical arguments (no field stripped).
func (n *Normaliser) Key(tool string, args []byte, scratch *Scratch) Sum {
	if scratch == nil {
		scratch = new(Scratch)
	}
	defer scratch.release()
	buf := append(scratch.buf[:0], '[', '"')
	buf = appendLowerEscaped(buf, strings.TrimSpace(tool))
	buf = append(buf, '"', ',')
	prefix := len(buf)
	a := bytes.TrimSpace(args)
	if len(a) == 0 {
		a = []byte("{}")
	}
	if len(a) <= n.maxBytes {
		p := parser{n: n, s: scratch, in: a, out: buf, mem: scratch.mem[:0]}
		_, ok := p.document()
		scratch.buf, scratch.mem = p.out, p.mem[:0]
		if ok {
			p.out = append(p.out, ']')
			scratch.buf = p.out
			return sum16(sha256.Sum256(p.out))
		}
		buf = p.out[:prefix]
	}
	scratch.buf = buf
	return scratch.textSum(prefix, a, ']', false)
}

// textSum hashes buf[:prefix] followed by text as a canonical JSON string and
// then suffix (if non-zero), streaming so a large text needs no large buffer.
// A result's text (result) has its volatile tokens masked and its lines listed
// as units; the text is cut into pieces after a line break where it can be,
// so that no token or line is split between two pieces.
func (s *Scratch) textSum(prefix int, text []byte, suffix byte, result bool) Sum {
	if s.h == nil {
		s.h = sha256.New()
	}
	s.h.Reset()
	buf := append(s.buf[:prefix], '"')
	for len(text) > 0 {
		k := min(len(text), textChunk)
		if k < len(text) {
			if j := bytes.LastIndexByte(text[:k], '\n'); j > 0 {
				k = j + 1
			}
		}
		from := len(buf)
		buf = appendEscaped(buf, text[:k])
		if result {
			buf = buf[:from+maskVolatile(buf[from:])]
			if s.echo {
				buf = buf[:from+s.maskEchoes(buf[from:])]
			}
			s.lineUnits(buf[from:])
		}
		text = text[k:]
		if len(buf) >= textChunk {
			s.h.Write(buf)
			buf = buf[:0]
		}
	}
	buf = append(buf, '"')
	if suffix != 0 {
		buf = append(buf, suffix)
	}
	s.h.Write(buf)
	s.buf = buf
	var out Sum
	copy(out[:], s.h.Sum(s.sum[:0]))
	return out
}

func sum16(full [sha256.Size]byte) Sum {
	var s Sum
	copy(s[:], full[:])
	return s
}

// appendLowerEscaped appends the canonical string text of s, ASCII letters
// lower-cased.
func appendLowerEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			dst = append(dst, c+('a'-'A'))
		case special[c]:
			dst = appendEscapedByte(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// appendEscaped appends the canonical string text of raw bytes (no quotes).
func appendEscaped(dst, src []byte) []byte {
	start := 0
	for i := 0; i < len(src); i++ {
		if c := src[i]; special[c] {
			dst = append(dst, src[start:i]...)
			dst = appendEscapedByte(dst, c)
			start = i + 1
		}
	}
	return append(dst, src[start:]...)
}

const hexDigits = "0123456789abcdef"

// appendEscapedByte writes the canonical escape of '"', '\' or a control byte.
func appendEscapedByte(dst []byte, c byte) []byte {
	switch c {
	case '"':
		return append(dst, '\\', '"')
	case '\\':
		return append(dst, '\\', '\\')
	case '\b':
		return append(dst, '\\', 'b')
	case '\t':
		return append(dst, '\\', 't')
	case '\n':
		return append(dst, '\\', 'n')
	case '\f':
		return append(dst, '\\', 'f')
	case '\r':
		return append(dst, '\\', 'r')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// special marks the bytes a canonical string cannot hold literally.
var special = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'] = true
	t['\\'] = true
	return t
}()
