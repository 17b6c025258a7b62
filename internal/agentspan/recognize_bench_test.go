// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"testing"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/walk"
)

// BenchmarkRecognize recognises every span of 200 of agentgen's mixed runs, as both processors do for
// every span they receive: the mix's agent, model and tool spans, all of the GenAI convention, so every
// convention before GenAI's is asked about each of them and none after it is.
func BenchmarkRecognize(b *testing.B) {
	var spans []Span
	for _, run := range agentgen.Mix(200, agentgen.Options{Seed: 3}) {
		for where, span := range walk.Spans(run.Traces) {
			spans = append(spans, Span{Scope: where.Scope.Name(), Name: span.Name(), Attrs: span.Attributes(),
				Root: span.ParentSpanID().IsEmpty()})
		}
	}
	r := NewRegistry(nil, 0)
	b.ResetTimer()
	for range b.N {
		for _, s := range spans {
			r.Recognize(s)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(spans)), "ns/span")
}
