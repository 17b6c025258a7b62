// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package statecodec

import (
	"bytes"
	"math"
	"testing"
)

func TestFieldsRoundTrip(t *testing.T) {
	var e Encoder
	e.Uint(300)
	e.Int(-7)
	e.Bool(true)
	e.Float(0.25)
	e.String("run-1")
	e.Bytes([]byte{0, 1, 2})
	e.Bytes(nil)
	d := NewDecoder(e.Data())
	u, i, b, f, s, by, empty := d.Uint(), d.Int(), d.Bool(), d.Float(), d.String(), d.Bytes(), d.Bytes()
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	if u != 300 || i != -7 || !b || f != 0.25 || s != "run-1" || !bytes.Equal(by, []byte{0, 1, 2}) || len(empty) != 0 {
		t.Fatalf("decoded %v %v %v %v %q %v %v", u, i, b, f, s, by, empty)
	}
	if d := NewDecoder(e.Data()); d.Uint() != 300 || d.Finish() == nil {
		t.Fatal("Finish accepted the fields left unread")
	}
}

// Flags come back in their order, and a flag the decoder does not know is refused.
func TestBoolsRoundTrip(t *testing.T) {
	var e Encoder
	e.Bools(true, false, true)
	var a, b, c bool
	d := NewDecoder(e.Data())
	d.Bools(&a, &b, &c)
	if err := d.Finish(); err != nil || !a || b || !c {
		t.Fatalf("decoded %v %v %v, %v", a, b, c, err)
	}
	d = NewDecoder(e.Data())
	d.Bools(&a, &b)
	if d.Err() == nil {
		t.Fatal("a third flag was read by a decoder that knows two")
	}
}

// Int covers the whole range, its extremes included.
func TestIntExtremesRoundTrip(t *testing.T) {
	values := []int64{0, -1, 1, math.MinInt64, math.MaxInt64}
	var e Encoder
	for _, v := range values {
		e.Int(v)
	}
	d := NewDecoder(e.Data())
	for _, want := range values {
		if got := d.Int(); got != want {
			t.Errorf("Int = %d, want %d", got, want)
		}
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
}

// A count larger than the bytes left could hold is refused before anything is allocated for it.
func TestDecoderRefusesCountsThePayloadCannotHold(t *testing.T) {
	var e Encoder
	e.Uint(1 << 40)
	d := NewDecoder(e.Data())
	if n := d.Len(1); n != 0 || d.Err() == nil {
		t.Fatalf("Len = %d, err %v; want a refusal", n, d.Err())
	}
	if d.String() != "" || d.Uint() != 0 || d.Bool() {
		t.Error("reads after an error returned values")
	}
}

func FuzzDecoder(f *testing.F) {
	var e Encoder
	e.String("run-1")
	e.Float(0.5)
	f.Add(e.Data())
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, payload []byte) {
		d := NewDecoder(payload)
		for d.Err() == nil && len(d.buf) > 0 {
			_ = d.Bytes()
			_ = d.Bool()
			_ = d.Float()
			_ = d.Int()
		}
	})
}
