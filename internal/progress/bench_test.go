// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

import (
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
