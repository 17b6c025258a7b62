// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package statecodec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Encoder appends a payload's fields: integers as varints, floats as their bits, byte strings with
// their length first.
type Encoder struct{ buf []byte }

// Data is what was encoded.
func (e *Encoder) Data() []byte { return e.buf }

// Grow makes room for n more bytes, so that a payload whose size is known roughly is not copied
// again and again as it grows.
func (e *Encoder) Grow(n int) { e.buf = slices.Grow(e.buf, n) }

// Uint appends v.
func (e *Encoder) Uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }

// Int appends v.
func (e *Encoder) Int(v int64) { e.buf = binary.AppendVarint(e.buf, v) }

// Bool appends v.
func (e *Encoder) Bool(v bool) {
	if v {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// Float appends v.
func (e *Encoder) Float(v float64) {
	e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(v))
}

// Word appends v in 8 bytes: hashes and bit sets, which a varint would only lengthen.
func (e *Encoder) Word(v uint64) { e.buf = binary.LittleEndian.AppendUint64(e.buf, v) }

// Bytes appends b, its length first.
func (e *Encoder) Bytes(b []byte) {
	e.Uint(uint64(len(b)))
	e.buf = append(e.buf, b...)
}

// String appends s, its length first.
func (e *Encoder) String(s string) {
	e.Uint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

// Decoder reads what an Encoder wrote, field by field in the same order. The first field that cannot
// be read sets Err, and every read after it returns the zero value: a decoder checks Err once, at the
// end (or before acting on a count).
type Decoder struct {
	buf []byte
	err error
}

// NewDecoder reads payload.
func NewDecoder(payload []byte) *Decoder { return &Decoder{buf: payload} }

// Err is why decoding stopped, or nil; trailing bytes are an error too, once Finish is called.
func (d *Decoder) Err() error { return d.err }

// Finish is Err, and an error when bytes are left over: a payload that decodes with bytes to spare
// was not written by this decoder's encoder.
func (d *Decoder) Finish() error {
	if d.err == nil && len(d.buf) > 0 {
		d.err = fmt.Errorf("%d bytes left over", len(d.buf))
	}
	return d.err
}

// Fail stops decoding with err (a value a decoder refuses: an unknown kind, a bound exceeded).
func (d *Decoder) Fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

var errShort = errors.New("cut short")

// Uint reads a Uint.
func (d *Decoder) Uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		d.Fail(errShort)
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

// Int reads an Int: a Uint holding the value zig-zag encoded, as binary.AppendVarint writes it.
func (d *Decoder) Int() int64 {
	u := d.Uint()
	if u&1 != 0 {
		return ^int64(u >> 1)
	}
	return int64(u >> 1)
}

// Bool reads a Bool.
func (d *Decoder) Bool() bool {
	b := d.take(1)
	if b == nil {
		return false
	}
	if b[0] > 1 {
		d.Fail(fmt.Errorf("a bool of %d", b[0]))
		return false
	}
	return b[0] == 1
}

// Float reads a Float.
func (d *Decoder) Float() float64 {
	b := d.take(8)
	if b == nil {
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b))
}

// Word reads a Word.
func (d *Decoder) Word() uint64 {
	b := d.take(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// Remaining is how many bytes are left to read: what a decoder checks a size derived from other
// fields against before allocating for it.
func (d *Decoder) Remaining() int { return len(d.buf) }

// Bytes reads Bytes, copied: the result does not alias the payload.
func (d *Decoder) Bytes() []byte {
	n := d.Len(1)
	b := d.take(n)
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

// String reads a String.
func (d *Decoder) String() string {
	n := d.Len(1)
	return string(d.take(n))
}

// Len reads a count of elements that take at least minBytes each (at least 1) and refuses one the
// bytes left cannot hold, so garbage cannot make a decoder allocate more than the payload describes.
func (d *Decoder) Len(minBytes int) int {
	v := d.Uint()
	if d.err != nil {
		return 0
	}
	if left := uint64(len(d.buf)) / uint64(max(minBytes, 1)); v > left {
		d.Fail(fmt.Errorf("a count of %d where at most %d fit", v, left))
		return 0
	}
	return int(v)
}

func (d *Decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n > len(d.buf) {
		d.Fail(errShort)
		return nil
	}
	b := d.buf[:n:n]
	d.buf = d.buf[n:]
	return b
}

// Bools appends up to 64 flags as one Uint, the first in the lowest bit.
func (e *Encoder) Bools(flags ...bool) {
	var bits uint64
	for i, f := range flags {
		if f {
			bits |= 1 << i
		}
	}
	e.Uint(bits)
}

// Bools reads flags Encoder.Bools wrote into fields, and refuses a bit set past them: a flag this
// decoder does not know.
func (d *Decoder) Bools(fields ...*bool) {
	bits := d.Uint()
	if len(fields) < 64 && bits>>len(fields) != 0 {
		d.Fail(fmt.Errorf("flags %#x, past the %d known", bits, len(fields)))
		bits = 0
	}
	for i, f := range fields {
		*f = bits&(1<<i) != 0
	}
}
