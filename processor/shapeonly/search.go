// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"slices"
	"unsafe"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/fingerprint"
	"github.com/agentotel/agentotel/internal/jsonraw"
)

// The content search: once the structure has been shaped, every string of a record whose trace or run
// withheld something (in this batch or an earlier one) is searched for what was withheld, whatever
// format holds it: attributes at any depth, span names, status messages, events, links, log bodies,
// and the resource and scope attributes around them. Values under kept keys, and the ids users group
// and search by, are left alone. The rules are in docs/design.md.

// searchable finds each owner's fingerprints, and reports whether any record has some to search for.
// A batch whose traces withheld nothing costs nothing more.
func (b *batch) searchable() bool {
	found := false
	for i := range b.owners {
		o := b.withRun(int32(i))
		o.sets, o.saturated = o.sets[:0], false
		for _, sc := range [2]*scope{o.trace, o.run} {
			if sc == nil {
				continue
			}
			sc.mu.RLock()
			if sc.set != nil && sc.set.Len() > 0 {
				o.sets = append(o.sets, sc.set)
			}
			o.saturated = o.saturated || sc.saturated
			sc.mu.RUnlock()
		}
		found = found || len(o.sets) > 0 || o.saturated
	}
	return found
}

// lock holds the memory of every owner of the batch for reading while the batch is searched: other
// batches may be adding to it. Each scope is locked once (owners of one run share its scope).
func (b *batch) lock() {
	b.locked = b.locked[:0]
	for i := range b.owners {
		for _, sc := range [2]*scope{b.owners[i].trace, b.owners[i].run} {
			if sc != nil && !slices.Contains(b.locked, sc) {
				sc.mu.RLock()
				b.locked = append(b.locked, sc)
			}
		}
	}
}

// unlock releases the memory held for the search, and forgets the strings it searched.
func (b *batch) unlock() {
	for _, sc := range b.locked {
		sc.mu.RUnlock()
	}
	b.locked = b.locked[:0]
	b.searched.Reset(forgetText)
}

func (b *batch) searchSpans(td ptrace.Traces) {
	b.lock()
	defer b.unlock()
	i := 0
	rss := td.ResourceSpans()
	for ri := 0; ri < rss.Len(); ri++ {
		var around []*fingerprint.Set
		aroundSaturated := false
		sss := rss.At(ri).ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			var inScope []*fingerprint.Set
			scopeSaturated := false
			spans := sss.At(j).Spans()
			for k := 0; k < spans.Len(); k++ {
				span := spans.At(k)
				r := &b.records[i]
				i++
				o := &b.owners[r.owner]
				if len(o.sets) == 0 && !o.saturated {
					continue
				}
				if o.saturated {
					b.withholdSpan(r, span)
					scopeSaturated = true
				}
				if b.searchRecord(r, o.sets) {
					r.shaped = true
				}
				if name, ok := b.redactText(o.sets, span.Name()); ok {
					span.SetName(name)
					r.shaped = true
				}
				if msg, ok := b.redactText(o.sets, span.Status().Message()); ok {
					span.Status().SetMessage(msg)
					r.shaped = true
				}
				r.shaped = b.searchTraceState(span.TraceState(), o.sets) || r.shaped
				for l := 0; l < span.Links().Len(); l++ {
					link := span.Links().At(l)
					r.shaped = b.searchMap(link.Attributes(), o.sets) || r.shaped
					r.shaped = b.searchTraceState(link.TraceState(), o.sets) || r.shaped
				}
				inScope = appendSets(inScope, o.sets)
			}
			ss := sss.At(j)
			b.searchShared(ss.Scope().Attributes(), inScope, scopeSaturated)
			b.searchScope(ss.Scope(), inScope, scopeSaturated)
			ss.SetSchemaUrl(b.searchedSchema(ss.SchemaUrl(), inScope, scopeSaturated))
			around = appendSets(around, inScope)
			aroundSaturated = aroundSaturated || scopeSaturated
		}
		rs := rss.At(ri)
		b.searchShared(rs.Resource().Attributes(), around, aroundSaturated)
		rs.SetSchemaUrl(b.searchedSchema(rs.SchemaUrl(), around, aroundSaturated))
	}
}

func (b *batch) searchLogs(ld plog.Logs) {
	b.lock()
	defer b.unlock()
	i := 0
	rls := ld.ResourceLogs()
	for ri := 0; ri < rls.Len(); ri++ {
		var around []*fingerprint.Set
		aroundSaturated := false
		sls := rls.At(ri).ScopeLogs()
		for j := 0; j < sls.Len(); j++ {
			var inScope []*fingerprint.Set
			scopeSaturated := false
			logs := sls.At(j).LogRecords()
			for k := 0; k < logs.Len(); k++ {
				lr := logs.At(k)
				r := &b.records[i]
				i++
				o := &b.owners[r.owner]
				if len(o.sets) == 0 && !o.saturated {
					continue
				}
				if o.saturated {
					b.withholdRecord(r)
					if lr.EventName() != "" {
						lr.SetEventName(countsonly.Withheld)
					}
					if len(lr.SeverityText()) >= fingerprint.WindowLen {
						lr.SetSeverityText(countsonly.Withheld)
					}
					scopeSaturated = true
				}
				if b.searchRecord(r, o.sets) {
					r.shaped = true
				}
				if name, ok := b.redactText(o.sets, lr.EventName()); ok {
					lr.SetEventName(name)
					r.shaped = true
				}
				if severity, ok := b.redactText(o.sets, lr.SeverityText()); ok {
					lr.SetSeverityText(severity)
					r.shaped = true
				}
				inScope = appendSets(inScope, o.sets)
			}
			sl := sls.At(j)
			b.searchShared(sl.Scope().Attributes(), inScope, scopeSaturated)
			b.searchScope(sl.Scope(), inScope, scopeSaturated)
			sl.SetSchemaUrl(b.searchedSchema(sl.SchemaUrl(), inScope, scopeSaturated))
			around = appendSets(around, inScope)
			aroundSaturated = aroundSaturated || scopeSaturated
		}
		rl := rls.At(ri)
		b.searchShared(rl.Resource().Attributes(), around, aroundSaturated)
		rl.SetSchemaUrl(b.searchedSchema(rl.SchemaUrl(), around, aroundSaturated))
	}
}

// searchScope redacts what an instrumentation scope's name and version hold of the values its
// records' traces withheld. Under a saturated trace, whose copies can no longer be found, the version
// goes whole (when it is long enough to hold a remembered value); the name stays, as the service's
// name does: it says which instrumentation sent the data.
func (b *batch) searchScope(sc pcommon.InstrumentationScope, sets []*fingerprint.Set, saturated bool) {
	if saturated && len(sc.Version()) >= fingerprint.WindowLen {
		sc.SetVersion(countsonly.Withheld)
	}
	if len(sets) == 0 {
		return
	}
	if name, ok := b.redactText(sets, sc.Name()); ok {
		sc.SetName(name)
	}
	if version, ok := b.redactText(sets, sc.Version()); ok {
		sc.SetVersion(version)
	}
}

// searchedSchema is a schema URL redacted, or cleared under a saturated trace: a marker in its place
// would not parse as a URL, and no schema is a schema URL's valid absence.
func (b *batch) searchedSchema(url string, sets []*fingerprint.Set, saturated bool) string {
	if saturated {
		return ""
	}
	if len(sets) > 0 {
		if redacted, ok := b.redactText(sets, url); ok {
			return redacted
		}
	}
	return url
}

// searchShared searches resource or scope attributes, which every record under them shares, for what
// any of those records' traces withheld. Under a saturated trace they are withheld whole, but for the
// attributes that say which service sent the data and what keptSaturated keeps.
func (b *batch) searchShared(attrs pcommon.Map, sets []*fingerprint.Set, saturated bool) {
	if saturated {
		attrs.Range(func(k string, v pcommon.Value) bool {
			if !resourceIdentity[k] && !b.keptSaturated(k, v) {
				b.values.shapeAttr(k, v, -1, agentspan.RememberNothing)
			}
			return true
		})
		b.withholdNames(attrs, true)
		return
	}
	if len(sets) > 0 {
		b.searchMap(attrs, sets)
	}
}

// resourceIdentity are the resource attributes that say where data comes from, which routing, sampling
// and backends key on: never customer data.
var resourceIdentity = map[string]bool{
	"service.name": true, "service.namespace": true, "service.version": true, "service.instance.id": true,
	"deployment.environment": true, "deployment.environment.name": true, "telemetry.sdk.name": true,
	"telemetry.sdk.language": true, "telemetry.sdk.version": true, "host.name": true, "k8s.namespace.name": true,
	"k8s.pod.name": true, "cloud.region": true,
}

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
		b.shapeAttrs(link.Attributes(), -1, false)
		b.withholdStructural(link.Attributes())
		b.withholdNames(link.Attributes(), true)
		withholdTraceState(link.TraceState())
	}
}

// withholdRecord withholds a record of a saturated trace whole: shaped as a data-class record is
// (a data-class record already was), then its structural values too.
func (b *batch) withholdRecord(r *record) {
	if !r.dc {
		b.shapeWhole(r, -1)
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

// withholdStructural withholds the structural values of a saturated trace that keptSaturated does
// not keep.
func (b *batch) withholdStructural(attrs pcommon.Map) {
	attrs.Range(func(k string, v pcommon.Value) bool {
		if _, structural := b.p.structural[k]; structural && !b.keptSaturated(k, v) {
			b.values.shapeAttr(k, v, -1, agentspan.RememberNothing)
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

// searchRecord searches a record's attributes, events (names and attributes) and body.
func (b *batch) searchRecord(r *record, sets []*fingerprint.Set) bool {
	changed := b.searchAttributes(r.owner, r.attrs, sets)
	for j := 0; j < r.events.Len(); j++ {
		e := r.events.At(j)
		if name, ok := b.redactText(sets, e.Name()); ok {
			e.SetName(name)
			changed = true
		}
		changed = b.searchMap(e.Attributes(), sets) || changed
	}
	if r.body.Type() != pcommon.ValueTypeEmpty {
		changed = b.searchValue(b.p.shaper.Kept(""), r.body, sets) || changed
	}
	return changed
}

// searchRule is how the content search treats an attribute. The zero rule searches the attribute's
// name and every string its value holds, at any depth: a name the search does not know may be data
// (an SDK that flattens a record into attributes names them by its values).
type searchRule uint8

const (
	// searchKeptStrings: a kept key; a string directly under it is left alone.
	searchKeptStrings searchRule = iota + 1
	// searchNone: an id users group and search by, left alone whatever it holds.
	searchNone
	// searchValueOnly: a name a convention or the configuration defines (structural attributes): the
	// value is searched, the name is vocabulary.
	searchValueOnly
)

// searchMap searches every attribute but the protected ids, and the names the search does not know:
// the attributes of an event, a link, a resource or a scope, which no owner's earlier string begins.
func (b *batch) searchMap(attrs pcommon.Map, sets []*fingerprint.Set) bool {
	return b.searchAttributes(noOwner, attrs, sets)
}

// noOwner is the owner of attributes that are no record's own.
const noOwner = -1

// searchAttributes is searchMap for a record's own attributes, those of owner: a long string that
// begins with all but the last byte of the one the same attribute of the owner held before (a
// transcript repeats the one before it, and a few messages more) takes what the search found in those
// bytes from that search, and is searched past them.
func (b *batch) searchAttributes(owner int32, attrs pcommon.Map, sets []*fingerprint.Set) bool {
	changed := false
	var named []string
	attrs.Range(func(k string, v pcommon.Value) bool {
		rule := b.p.searchRules[k]
		if rule == searchNone {
			return true
		}
		if b.p.unknownName(k, rule) && b.scanner.Hit(sets, jsonraw.StringBytes(k)) {
			named = append(named, k)
		}
		if owner != noOwner && rule != searchKeptStrings && v.Type() == pcommon.ValueTypeStr && len(v.Str()) >= minRemembered {
			changed = b.searchGrowing(owner, k, v, sets) || changed
		} else {
			changed = b.searchValue(rule == searchKeptStrings, v, sets) || changed
		}
		return true
	})
	return b.matchNames(attrs, named) || changed
}

// searched is the last long string an owner's attribute held, and what the search found in it.
type searched struct {
	text     []byte
	verbatim fingerprint.Verbatim
}

// forgetText forgets the string searched, keeping the buffer of what was found in it for the next.
func forgetText(s *searched) { s.text = nil }

// searchGrowing searches a long string attribute, from where it parts from the owner's previous one.
func (b *batch) searchGrowing(owner int32, attr string, v pcommon.Value, sets []*fingerprint.Set) bool {
	text := jsonraw.StringBytes(v.Str())
	last := b.searched.Get(owner, attr)
	out, changed := b.scanner.RedactedAfter(sets, text, b.p.keptKey, &last.verbatim, sharedPrefix(last.text, text))
	last.text = text
	if changed {
		v.SetStr(ownString(out))
		b.matched++
	}
	return changed
}

// searchValue searches one value, at any depth: JSON text leaf by leaf (a leaf that holds a withheld
// value becomes "[withheld]"), other text occurrence by occurrence. kept says the value sits directly
// under a kept key: a string there is left alone.
func (b *batch) searchValue(kept bool, v pcommon.Value, sets []*fingerprint.Set) bool {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		if kept {
			return false
		}
		out, changed := b.scanner.Redacted(sets, jsonraw.StringBytes(v.Str()), b.p.keptKey)
		if changed {
			v.SetStr(ownString(out))
			b.matched++
		}
		return changed
	case pcommon.ValueTypeSlice:
		changed := false
		kept := b.p.shaper.Kept("")
		for i := 0; i < v.Slice().Len(); i++ {
			changed = b.searchValue(kept, v.Slice().At(i), sets) || changed
		}
		return changed
	case pcommon.ValueTypeMap:
		changed := false
		var named []string
		v.Map().Range(func(k string, inner pcommon.Value) bool {
			kept := b.p.shaper.Kept(k)
			if !kept && b.scanner.Hit(sets, jsonraw.StringBytes(k)) {
				named = append(named, k)
			}
			changed = b.searchValue(kept, inner, sets) || changed
			return true
		})
		return b.matchNames(v.Map(), named) || changed
	case pcommon.ValueTypeBytes:
		if b.scanner.Hit(sets, v.Bytes().AsRaw()) {
			v.SetStr(countsonly.Withheld)
			b.matched++
			return true
		}
	}
	return false
}

// redactText redacts a plain string (a span, event or log event name, a status message, a severity
// text).
func (b *batch) redactText(sets []*fingerprint.Set, s string) (string, bool) {
	out, changed := b.scanner.RedactedText(sets, jsonraw.StringBytes(s))
	if !changed {
		return s, false
	}
	b.matched++
	return ownString(out), true
}

// ownString is a redacted text as a string, without copying it: its buffer is the string's alone.
func ownString(out []byte) string { return unsafe.String(unsafe.SliceData(out), len(out)) }

// appendSets adds the sets not yet in dst.
func appendSets(dst, sets []*fingerprint.Set) []*fingerprint.Set {
	for _, s := range sets {
		found := false
		for _, d := range dst {
			found = found || d == s
		}
		if !found {
			dst = append(dst, s)
		}
	}
	return dst
}
