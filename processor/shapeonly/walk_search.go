// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"slices"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/fingerprint"
	"github.com/agentotel/agentotel/internal/walk"
)

// The batch's last step walks what it shaped for the content search (search.go), in one walk for spans
// and log records: each record of an owner that withheld something, then the scope and the resource
// around the records, with what all of their owners withheld. Under an owner
// past its fingerprint bound (saturated.go) the record is withheld whole first, and so are the scope
// and resource around it.

// searchable finds each owner's fingerprints, and reports whether any record has some to search for.
// A batch whose traces withheld nothing costs nothing more.
func (b *batch) searchable() bool {
	found := false
	for i := range b.owners {
		o := b.withRun(agentspan.Owner(i))
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
	b.content.done()
}

// around gathers, for a scope or a resource, what the owners of the records under it withheld.
type around struct {
	sets      []*fingerprint.Set
	saturated bool
}

// with returns a with what an owner, or the records under a scope, withheld. It returns a value
// rather than adding through a pointer: an append stored through a pointer moves the sets to the
// heap, and most scopes hold one owner's few sets, which stay on the stack.
func (a around) with(sets []*fingerprint.Set, saturated bool) around {
	return around{sets: appendSets(a.sets, sets), saturated: a.saturated || saturated}
}

// toSearch returns record i of the batch and its owner, or a nil owner when the owner withheld
// nothing and the record is passed over.
func (b *batch) toSearch(i int) (*record, *owner) {
	r := &b.records[i]
	if o := &b.owners[r.owner]; len(o.sets) > 0 || o.saturated {
		return r, o
	}
	return r, nil
}

func (b *batch) searchSpans(td ptrace.Traces) {
	b.lock()
	defer b.unlock()
	searchEach(b, td.ResourceSpans(), ptrace.ResourceSpans.ScopeSpans, ptrace.ScopeSpans.Spans, (*batch).searchSpan)
}

func (b *batch) searchLogs(ld plog.Logs) {
	b.lock()
	defer b.unlock()
	searchEach(b, ld.ResourceLogs(), plog.ResourceLogs.ScopeLogs, plog.ScopeLogs.LogRecords, (*batch).searchLog)
}

// searchEach is the one walk of the content search for both signals: record i of the batch is searched
// when its owner withheld something, then each scope and each resource with what the owners of the
// records under it withheld, the schema URLs included.
func searchEach[R walk.Resource, S walk.Scope, Rec any, Resources walk.Slice[R], Scopes walk.Slice[S], Records walk.Slice[Rec]](
	b *batch, resources Resources, scopes func(R) Scopes, records func(S) Records, search func(*batch, *record, *owner, Rec),
) {
	i := 0
	for ri := range resources.Len() {
		rs := resources.At(ri)
		var resource around
		for si, inResource := 0, scopes(rs); si < inResource.Len(); si++ {
			ss := inResource.At(si)
			var inScope around
			for k, inScopeRecords := 0, records(ss); k < inScopeRecords.Len(); k++ {
				if r, o := b.toSearch(i); o != nil {
					search(b, r, o, inScopeRecords.At(k))
					inScope = inScope.with(o.sets, o.saturated)
				}
				i++
			}
			ss.SetSchemaUrl(b.searchScope(ss.Scope(), ss.SchemaUrl(), inScope))
			resource = resource.with(inScope.sets, inScope.saturated)
		}
		rs.SetSchemaUrl(b.searchResource(rs.Resource(), rs.SchemaUrl(), resource))
	}
}

// searchSpan searches a span: its attributes, events, name, status message, trace state and links;
// under a saturated owner they are withheld whole first.
func (b *batch) searchSpan(r *record, o *owner, span ptrace.Span) {
	if o.saturated {
		b.withholdSpan(r, span)
	}
	c := &b.content
	r.shaped = c.record(r, o.sets) || r.shaped
	if name, ok := b.searchText(r, o, span.Name()); ok {
		span.SetName(name)
	}
	if msg, ok := b.searchText(r, o, span.Status().Message()); ok {
		span.Status().SetMessage(msg)
	}
	r.shaped = c.traceState(span.TraceState(), o.sets) || r.shaped
	for _, link := range span.Links().All() {
		r.shaped = c.attrMap(link.Attributes(), o.sets) || r.shaped
		r.shaped = c.traceState(link.TraceState(), o.sets) || r.shaped
	}
}

// searchLog searches a log record: its attributes, body, event name and severity text; under a
// saturated owner they are withheld first.
func (b *batch) searchLog(r *record, o *owner, lr plog.LogRecord) {
	if o.saturated {
		b.withholdLog(r, lr)
	}
	r.shaped = b.content.record(r, o.sets) || r.shaped
	if name, ok := b.searchText(r, o, lr.EventName()); ok {
		lr.SetEventName(name)
	}
	if severity, ok := b.searchText(r, o, lr.SeverityText()); ok {
		lr.SetSeverityText(severity)
	}
}

// searchText searches one of a record's plain strings (a name, a status message, a severity text) for
// what its owner withheld, for spans and log records alike: a string the search redacts shapes the
// record.
func (b *batch) searchText(r *record, o *owner, s string) (string, bool) {
	out, ok := b.content.text(o.sets, s)
	if ok {
		r.shaped = true
	}
	return out, ok
}

// searchResource searches a resource's attributes for what the owners of the records under it
// withheld, a, and returns its schema URL searched.
func (b *batch) searchResource(res pcommon.Resource, url string, a around) string {
	b.searchShared(res.Attributes(), a)
	return b.searchedSchema(url, a)
}

// searchScope searches an instrumentation scope for what the owners of the records under it withheld,
// a, and returns its schema URL searched: its attributes, name and version. Under a saturated trace,
// whose copies can no longer be found, the version goes whole (when it is long enough to hold a
// remembered value); the name stays, as the service's name does: it says which instrumentation sent
// the data.
func (b *batch) searchScope(sc pcommon.InstrumentationScope, url string, a around) string {
	b.searchShared(sc.Attributes(), a)
	if a.saturated && len(sc.Version()) >= fingerprint.WindowLen {
		sc.SetVersion(countsonly.Withheld)
	}
	if len(a.sets) > 0 {
		b.content.scope(sc, a.sets)
	}
	return b.searchedSchema(url, a)
}

// searchedSchema is a schema URL redacted, or cleared under a saturated trace: a marker in its place
// would not parse as a URL, and no schema is a schema URL's valid absence.
func (b *batch) searchedSchema(url string, a around) string {
	if a.saturated {
		return ""
	}
	if len(a.sets) > 0 {
		if redacted, ok := b.content.text(a.sets, url); ok {
			return redacted
		}
	}
	return url
}

// searchShared searches resource or scope attributes, which every record under them shares, for what
// any of those records' traces withheld. Under a saturated trace they are withheld whole, but for the
// attributes that say which service sent the data and what keptSaturated keeps.
func (b *batch) searchShared(attrs pcommon.Map, a around) {
	if a.saturated {
		b.withholdShared(attrs)
		return
	}
	if len(a.sets) > 0 {
		b.content.attrMap(attrs, a.sets)
	}
}
