// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// carrier is the span or log record an event was read from: its annotations go there.
type carrier struct {
	span     ptrace.Span
	record   plog.LogRecord
	isRecord bool
}

func spanCarrier(s ptrace.Span) carrier      { return carrier{span: s} }
func recordCarrier(r plog.LogRecord) carrier { return carrier{record: r, isRecord: true} }

func (c carrier) attrs() pcommon.Map {
	if c.isRecord {
		return c.record.Attributes()
	}
	return c.span.Attributes()
}

// events are a span's events; a log record has none.
func (c carrier) events() ptrace.SpanEventSlice {
	if c.isRecord {
		return ptrace.NewSpanEventSlice()
	}
	return c.span.Events()
}

// start is when the event began: a span's start, a record's time (its observed time when it has
// none).
func (c carrier) start() pcommon.Timestamp {
	if !c.isRecord {
		return c.span.StartTimestamp()
	}
	if t := c.record.Timestamp(); t != 0 {
		return t
	}
	return c.record.ObservedTimestamp()
}

// end is when the event ended: a span's end, a record's time.
func (c carrier) end() pcommon.Timestamp {
	if !c.isRecord {
		return c.span.EndTimestamp()
	}
	return c.start()
}

// failed reports whether a span's status says the call failed, and with what message; a record has
// no status.
func (c carrier) failed() (string, bool) {
	if c.isRecord || c.span.Status().Code() != ptrace.StatusCodeError {
		return "", false
	}
	return c.span.Status().Message(), true
}

// spanID is the span the event is, or the span a record was written in; zero when none.
func (c carrier) spanID() pcommon.SpanID {
	if c.isRecord {
		return c.record.SpanID()
	}
	return c.span.SpanID()
}
