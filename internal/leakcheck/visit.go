// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package leakcheck

import (
	"fmt"
	"strconv"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Visitor is told of every place a batch can carry text, each with where it is: the attribute maps
// (of resources, scopes, spans, events, links and log records), the plain strings (names, status
// messages, trace states, schema URLs, scope names and versions, event names, severity texts) and
// the log bodies. Ids and timestamps carry none.
type Visitor interface {
	Attributes(where string, attrs pcommon.Map)
	Text(where, s string)
	Value(where string, v pcommon.Value)
}

// VisitTraces tells v of every place a batch of spans carries text; batch begins each where.
func VisitTraces(batch string, td ptrace.Traces, v Visitor) {
	for _, rs := range td.ResourceSpans().All() {
		v.Attributes(batch+" resource", rs.Resource().Attributes())
		v.Text(batch+" resource schema URL", rs.SchemaUrl())
		for _, ss := range rs.ScopeSpans().All() {
			v.Attributes(batch+" scope", ss.Scope().Attributes())
			v.Text(batch+" scope name", ss.Scope().Name())
			v.Text(batch+" scope version", ss.Scope().Version())
			v.Text(batch+" scope schema URL", ss.SchemaUrl())
			for _, s := range ss.Spans().All() {
				where := batch + " span " + strconv.Quote(s.Name())
				v.Text(where+" name", s.Name())
				v.Text(where+" status message", s.Status().Message())
				v.Text(where+" trace state", s.TraceState().AsRaw())
				v.Attributes(where, s.Attributes())
				for i, e := range s.Events().All() {
					v.Text(fmt.Sprintf("%s event %d name", where, i), e.Name())
					v.Attributes(fmt.Sprintf("%s event %d", where, i), e.Attributes())
				}
				for i, l := range s.Links().All() {
					v.Attributes(fmt.Sprintf("%s link %d", where, i), l.Attributes())
					v.Text(fmt.Sprintf("%s link %d trace state", where, i), l.TraceState().AsRaw())
				}
			}
		}
	}
}

// VisitLogs tells v of every place a batch of log records carries text: event names, severity texts,
// bodies and attributes, and the resource and scope attributes around them.
func VisitLogs(ld plog.Logs, v Visitor) {
	for _, rl := range ld.ResourceLogs().All() {
		v.Attributes("logs resource", rl.Resource().Attributes())
		for _, sl := range rl.ScopeLogs().All() {
			v.Attributes("logs scope", sl.Scope().Attributes())
			for i, lr := range sl.LogRecords().All() {
				where := fmt.Sprintf("log record %d", i)
				v.Text(where+" event name", lr.EventName())
				v.Text(where+" severity text", lr.SeverityText())
				v.Value(where+" body", lr.Body())
				v.Attributes(where, lr.Attributes())
			}
		}
	}
}
