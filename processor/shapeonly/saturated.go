// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/fingerprint"
)

// A trace or run past its fingerprint bound (max_fingerprints_per_trace) no longer remembers what it
// withholds, so any later string of it could be a copy: the search fails closed, and withholds its
// records whole (docs/design.md#5-then-content-internalfingerprint-processorshapeonly). What stays is
// what keptSaturated keeps.

// withholdSpan withholds what a span of a saturated trace carries, whole: every value but what
// keptSaturated keeps, its name, status message, events (but agentguard's stuck event) and links.
func (b *batch) withholdSpan(r *record, span ptrace.Span) {
	b.withholdRecord(r)
	span.SetName(countsonly.Withheld)
	if span.Status().Message() != "" {
		span.Status().SetMessage(countsonly.Withheld)
	}
	for j := 0; j < span.Events().Len(); j++ {
		if e := span.Events().At(j); e.Name() != annotation.StuckEvent {
			e.SetName(countsonly.Withheld)
		}
	}
	withholdTraceState(span.TraceState())
	for l := 0; l < span.Links().Len(); l++ {
		link := span.Links().At(l)
		b.shapeAttrs(link.Attributes(), nobody, false)
		b.withholdStructural(link.Attributes())
		b.withholdNames(link.Attributes(), true)
		withholdTraceState(link.TraceState())
	}
}

// withholdLog withholds what a log record of a saturated trace carries, whole: its values, as
// withholdRecord does, its event name, and a severity text long enough to hold a remembered value.
func (b *batch) withholdLog(r *record, lr plog.LogRecord) {
	b.withholdRecord(r)
	if lr.EventName() != "" {
		lr.SetEventName(countsonly.Withheld)
	}
	if len(lr.SeverityText()) >= fingerprint.WindowLen {
		lr.SetSeverityText(countsonly.Withheld)
	}
}

// withholdRecord withholds a record of a saturated trace whole: shaped as a data-class record is
// (a data-class record already was), then its structural values too.
func (b *batch) withholdRecord(r *record) {
	if !r.dc {
		b.shapeWhole(r, nobody)
	}
	b.withholdStructural(r.attrs)
	b.withholdNames(r.attrs, true)
	for j := 0; j < r.events.Len(); j++ {
		if e := r.events.At(j); e.Name() != annotation.StuckEvent {
			b.withholdStructural(e.Attributes())
			b.withholdNames(e.Attributes(), true)
		}
	}
	b.withholdNestedNames(r.body)
	r.shaped = true
}

// withholdShared withholds the resource or scope attributes around a saturated trace's records, but
// for those that say which service sent the data and what keptSaturated keeps.
func (b *batch) withholdShared(attrs pcommon.Map) {
	attrs.Range(func(k string, v pcommon.Value) bool {
		if !resourceIdentity[k] && !b.keptSaturated(k, v) {
			b.values.withhold(k, v)
		}
		return true
	})
	b.withholdNames(attrs, true)
}

// resourceIdentity are the resource attributes that say where data comes from, which routing, sampling
// and backends key on: never customer data.
var resourceIdentity = map[string]bool{
	"service.name": true, "service.namespace": true, "service.version": true, "service.instance.id": true,
	"deployment.environment": true, "deployment.environment.name": true, "telemetry.sdk.name": true,
	"telemetry.sdk.language": true, "telemetry.sdk.version": true, "host.name": true, "k8s.namespace.name": true,
	"k8s.pod.name": true, "cloud.region": true,
}

// withholdStructural withholds the structural values of a saturated trace that keptSaturated does
// not keep.
func (b *batch) withholdStructural(attrs pcommon.Map) {
	attrs.Range(func(k string, v pcommon.Value) bool {
		if _, structural := b.p.structural[k]; structural && !b.keptSaturated(k, v) {
			b.values.withhold(k, v)
		}
		return true
	})
}

// keptSaturated reports whether a value keeps its place on a saturated trace. Past its bound a trace
// no longer remembers what it withholds, so any string could be a copy of it, structural ones too (an
// operation or model name is vocabulary, but nothing guarantees it): what stays is the ids users group
// and search by, agentguard's annotations and the data class, numbers and booleans, and strings too
// short to hold a remembered value.
func (b *batch) keptSaturated(k string, v pcommon.Value) bool {
	if b.p.searchRules[k] == searchNone {
		return true
	}
	switch v.Type() {
	case pcommon.ValueTypeStr:
		return len(v.Str()) < fingerprint.WindowLen
	case pcommon.ValueTypeBytes:
		return v.Bytes().Len() < fingerprint.WindowLen
	case pcommon.ValueTypeMap, pcommon.ValueTypeSlice:
		return false
	}
	return true
}
