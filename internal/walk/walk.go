// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package walk is the one way to visit every span of a ptrace.Traces, or every log record of a
// plog.Logs, together with the resource and instrumentation scope around it. Visiting a batch takes
// three nested loops (resources, their scopes, the scopes' spans); the processors, tools and tests
// wrote those loops again and again, each a little differently. Spans and Logs write them once, as
// range-over-func iterators, so a caller says what it does with a span, not how to find it.
//
// A walk that works per scope or per resource (counting a scope's spans, say, or keeping or dropping
// a whole resource) is a different job and keeps its own loops; Resource, Scope and Slice let it write
// them once for both signals.
package walk

import (
	"iter"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Where is where a span or log record stands in its batch: the resource and the instrumentation
// scope it belongs to. Both are views into the batch, as the span is, not copies.
type Where struct {
	Resource pcommon.Resource
	Scope    pcommon.InstrumentationScope
}

// Spans yields every span of td with its resource and scope, in batch order: resource by resource,
// scope by scope, span by span. Breaking out of the range loop stops the walk.
func Spans(td ptrace.Traces) iter.Seq2[Where, ptrace.Span] {
	return func(yield func(Where, ptrace.Span) bool) {
		rss := td.ResourceSpans()
		for i := 0; i < rss.Len(); i++ {
			rs := rss.At(i)
			sss := rs.ScopeSpans()
			for j := 0; j < sss.Len(); j++ {
				ss := sss.At(j)
				where := Where{Resource: rs.Resource(), Scope: ss.Scope()}
				spans := ss.Spans()
				for k := 0; k < spans.Len(); k++ {
					if !yield(where, spans.At(k)) {
						return
					}
				}
			}
		}
	}
}

// Logs yields every log record of ld with its resource and scope, in batch order, as Spans does.
func Logs(ld plog.Logs) iter.Seq2[Where, plog.LogRecord] {
	return func(yield func(Where, plog.LogRecord) bool) {
		rls := ld.ResourceLogs()
		for i := 0; i < rls.Len(); i++ {
			rl := rls.At(i)
			sls := rl.ScopeLogs()
			for j := 0; j < sls.Len(); j++ {
				sl := sls.At(j)
				where := Where{Resource: rl.Resource(), Scope: sl.Scope()}
				records := sl.LogRecords()
				for k := 0; k < records.Len(); k++ {
					if !yield(where, records.At(k)) {
						return
					}
				}
			}
		}
	}
}
