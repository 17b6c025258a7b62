// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

import (
	"fmt"
	"runtime"
	"testing"
)

// BenchmarkObserve is one step of a warmed-up run (steady state: every
// table at its working size).
func BenchmarkObserve(b *testing.B) {
	r := NewRun(typicalCfg)
	typicalRun(r, 200)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r.Observe(typicalSteps[i%len(typicalSteps)])
		i++
	}
}

// BenchmarkRunSize reports the retained bytes of a typical run, as SizeBytes
// counts them and as the heap sees them (runs created and driven through 64
// steps, then measured while alive).
func BenchmarkRunSize(b *testing.B) {
	const runs = 1000
	var size, heap float64
	for b.Loop() {
		keep := make([]*Run, runs)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := range keep {
			keep[i] = NewRun(typicalCfg)
			typicalRun(keep[i], 64)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		size = float64(keep[0].SizeBytes())
		heap = float64(after.HeapAlloc-before.HeapAlloc) / runs
		runtime.KeepAlive(keep)
	}
	b.ReportMetric(size, "bytes/run")
	b.ReportMetric(heap, "heapbytes/run")
}

// BenchmarkRunSizeFull reports the retained bytes of a run that has seen more than its memory of what
// it has seen holds (a coding agent reading file after file): the bound, not the typical size.
func BenchmarkRunSizeFull(b *testing.B) {
	var size float64
	for b.Loop() {
		r := NewRun(typicalCfg)
		typicalRun(r, 64)
		units := make([]uint64, 1000)
		for i := 0; i < 40; i++ {
			for j := range units {
				units[j] = uint64(i*len(units)+j) * 0x9e3779b97f4a7c15
			}
			r.Observe(Step{Tool: "read_file", CallKey: call("read_file", fmt.Sprintf(`{"path":"f%d.go"}`, i), "").CallKey, Units: units, Result: call("x", "", fmt.Sprint(i)).Result})
		}
		size = float64(r.SizeBytes())
	}
	b.ReportMetric(size, "bytes/run")
}
