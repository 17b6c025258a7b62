// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package bloom

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// ids are n trace ids as a collector receives them: 16 random bytes each, from a seeded source so the
// measurements repeat.
func ids(seed uint64, n int) [][]byte {
	r := rand.New(rand.NewPCG(seed, 0))
	out := make([][]byte, n)
	for i := range out {
		out[i] = binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, r.Uint64()), r.Uint64())
	}
	return out
}

const traceIDs Namespace = 1

// TestLastCapacityIDsAreAlwaysFound: after every add, each of the last Capacity ids added is found,
// through many rotations; an id is kept until Capacity to 2×Capacity−1 adds after it.
func TestLastCapacityIDsAreAlwaysFound(t *testing.T) {
	for _, capacity := range []int{1, 7, 16, 1000} {
		t.Run(fmt.Sprint(capacity), func(t *testing.T) {
			f := New(capacity)
			all := ids(uint64(capacity), 5*capacity+3)
			for i, id := range all {
				f.Add(traceIDs, id)
				for _, kept := range all[max(0, i+1-capacity) : i+1] {
					if !f.Has(traceIDs, kept) {
						t.Fatalf("after %d adds, an id among the last %d is not found", i+1, capacity)
					}
				}
			}
		})
	}
}

// TestRotationDropsAGeneration: the filter rotates each time its current generation has taken
// Capacity ids, and each rotation drops what the generation it clears had taken: nothing the first
// time, Capacity after. An id added again while in the current generation is not counted twice.
func TestRotationDropsAGeneration(t *testing.T) {
	f := New(10)
	var dropped []int
	for _, id := range ids(1, 35) {
		if n := f.Add(traceIDs, id); n > 0 || f.added[f.generation%2] == 0 {
			dropped = append(dropped, n)
			continue // the id is in the previous generation now: adding it again would refresh it
		}
		f.Add(traceIDs, id) // again, in the current generation: not counted
	}
	if want := []int{0, 10, 10}; !slices.Equal(dropped, want) {
		t.Fatalf("rotations dropped %v, want %v", dropped, want)
	}
	if f.generation != 3 || f.added[f.generation%2] != 5 {
		t.Fatalf("generation %d holding %d, want 3 holding 5", f.generation, f.added[f.generation%2])
	}
}

// TestNamespacesAreApart: the same bytes added under one namespace are not found under another.
func TestNamespacesAreApart(t *testing.T) {
	f := New(1000)
	id := []byte("sess-0123456789ab")
	f.Add(traceIDs, id)
	if !f.Has(traceIDs, id) || f.Has(traceIDs+1, id) {
		t.Fatal("namespaces are not told apart")
	}
}

// falsePositives is the share of n ids never added that a filter finds.
func falsePositives(f *Filter, seed uint64, n int) float64 {
	found := 0
	for _, id := range ids(seed, n) {
		if f.Has(traceIDs, id) {
			found++
		}
	}
	return float64(found) / float64(n)
}

// filled is a filter of capacity ids after adds ids, under a fixed seed.
func filled(capacity, adds int) *Filter {
	f := New(capacity)
	f.seed = 0x9e3779b97f4a7c15
	for _, id := range ids(4, adds) {
		f.Add(traceIDs, id)
	}
	return f
}

// TestFalsePositiveRate holds the rate docs/benchmarks.md states: with both generations full (the
// most the filter ever holds, right before a rotation), under 0.3 % of ids never added are found;
// right after a rotation, with only the previous generation full, under 0.15 %.
func TestFalsePositiveRate(t *testing.T) {
	const capacity = 100_000
	if fp := falsePositives(filled(capacity, 2*capacity-1), 5, 1_000_000); fp > 0.003 {
		t.Errorf("both generations full: %.3f %% false positives", 100*fp)
	}
	if fp := falsePositives(filled(capacity, capacity), 5, 1_000_000); fp > 0.0015 {
		t.Errorf("one generation full: %.3f %% false positives", 100*fp)
	}
}

// BenchmarkForgottenIDs measures the filter as shapeonly sizes it (max_forgotten ids): bytes per id
// of capacity, the false-positive rate when it holds the most it can (both generations full) and the
// least (right after a rotation), and the time of an add and of a lookup of trace ids.
func BenchmarkForgottenIDs(b *testing.B) {
	const capacity = 1_000_000
	for _, c := range []struct {
		name string
		adds int
	}{{"full", 2*capacity - 1}, {"rotated", capacity}} {
		b.Run(c.name, func(b *testing.B) {
			f := filled(capacity, c.adds)
			fp := 100 * falsePositives(f, 7, 1_000_000)
			probe := ids(6, 1<<16)
			b.ResetTimer()
			for i := range b.N {
				f.Has(traceIDs, probe[i%len(probe)])
			}
			b.ReportMetric(float64(f.Bytes())/capacity, "B/id")
			b.ReportMetric(fp, "fp%")
		})
	}
	b.Run("add", func(b *testing.B) {
		f := New(capacity)
		add := ids(8, 1<<16)
		for i := range b.N {
			f.Add(traceIDs, add[i%len(add)])
		}
	})
}
