// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package bloom

import (
	"testing"

	"github.com/agentotel/agentotel/internal/statecodec"
)

func roundTrip(t *testing.T, f *Filter, capacity int) *Filter {
	t.Helper()
	var e statecodec.Encoder
	f.Encode(&e)
	d := statecodec.NewDecoder(e.Data())
	g := Decode(d, capacity)
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestDecodedFilterAnswersAsSaved: restored at the same capacity, a filter answers every id, added
// or not, as the saved one does, and goes on rotating as it would have.
func TestDecodedFilterAnswersAsSaved(t *testing.T) {
	f := New(500)
	for _, id := range ids(2, 1200) {
		f.Add(traceIDs, id)
	}
	g := roundTrip(t, f, 500)
	probe := append(ids(2, 1200), ids(3, 5000)...)
	for _, id := range probe {
		if f.Has(traceIDs, id) != g.Has(traceIDs, id) {
			t.Fatal("the restored filter answers differently")
		}
	}
	for _, id := range ids(5, 700) {
		if f.Add(traceIDs, id) != g.Add(traceIDs, id) {
			t.Fatal("the restored filter rotates differently")
		}
	}
	for _, id := range probe {
		if f.Has(traceIDs, id) != g.Has(traceIDs, id) {
			t.Fatal("the restored filter answers differently after more adds")
		}
	}
}

// TestAnotherCapacityKeepsTheSavedIDs: restored at another capacity, every id the saved filter
// found is still found until the new filter has rotated twice, and then the memory is the new
// capacity's alone.
func TestAnotherCapacityKeepsTheSavedIDs(t *testing.T) {
	for _, capacity := range []int{100, 5000} {
		f := New(1000)
		saved := ids(2, 1500)
		for _, id := range saved {
			f.Add(traceIDs, id)
		}
		g := roundTrip(t, f, capacity)
		// A few more than two rotations' worth: an id the filter already seems to hold is not counted.
		for i, id := range ids(6, 2*capacity+capacity/20) {
			for _, s := range saved[500:] { // the last 1,000 added, which f must find
				if i%16 == 0 && g.generation < 2 && !g.Has(traceIDs, s) {
					t.Fatalf("capacity %d: a saved id is lost after %d adds", capacity, i)
				}
			}
			g.Add(traceIDs, id)
		}
		if g.inherited != nil || g.Bytes() != New(capacity).Bytes() {
			t.Fatalf("capacity %d: the saved filter outlived two rotations (%d bytes)", capacity, g.Bytes())
		}
	}
}

// FuzzDecode: whatever the bytes, Decode returns a filter or an error, never panics, and never
// allocates a table the payload does not hold.
func FuzzDecode(f *testing.F) {
	var e statecodec.Encoder
	small := New(40)
	small.Add(traceIDs, []byte("trace"))
	small.Encode(&e)
	f.Add(e.Data(), 40)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, 1)
	f.Fuzz(func(t *testing.T, payload []byte, capacity int) {
		d := statecodec.NewDecoder(payload)
		g := Decode(d, capacity%10_000)
		if d.Err() == nil {
			if g == nil {
				t.Fatal("no error and no filter")
			}
			g.Has(traceIDs, []byte("x"))
			g.Add(traceIDs, []byte("y"))
		}
	})
}
