// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/walk"
)

// emptyBody is a span's body: none.
var emptyBody = pcommon.NewValueEmpty()

// requestKey groups the per-message records of one request: the model call's span they were
// written in.
type requestKey struct {
	trace pcommon.TraceID
	span  pcommon.SpanID
}

// collectLogs groups a logs batch's agent records by run, as collect does a traces batch: a tool
// call's record is a step, a model call's record (its reply, its request) a model call, and the
// per-message records of one request (gen_ai.user.message, gen_ai.assistant.message,
// gen_ai.tool.message, written in the model call's span) one request whose latest round is read. A
// record joins its trace's run, or, outside any trace, the run its run attribute names; a record with
// neither belongs to no run and is passed over.
func (g *guard) collectLogs(ld plog.Logs, buf *buffers) map[runKey]*runBatch {
	kept := buf.seen[:0]
	var traceRuns map[pcommon.TraceID]string
	var requests map[requestKey]int // index into kept of the request's event
	var grouped [][]plog.LogRecord  // each request's records, in batch order
	var resources resourceReader
	for where, lr := range walk.Logs(ld) {
		res, service := resources.read(where.Resource)
		attrs := lr.Attributes()
		trace := lr.TraceID()
		name := agentspan.RecordName(lr)
		s := seen{carrier: recordCarrier(lr), trace: trace, res: res, service: service}
		request := g.registry.IsRequestEvent(name)
		switch {
		case request:
		case g.registry.IsChoiceEvent(name):
			s.kind, s.choice, s.view = eventModel, true, agentspan.View{Role: agentspan.RoleModel}
		default:
			s.view = g.registry.Recognize(agentspan.Span{Scope: where.Scope.Name(), Name: name, Attrs: attrs})
			if s.view.Role == agentspan.RoleOther {
				continue
			}
			s.kind = kindOf(s.view.Role)
		}
		s.attr, s.idles = g.runAttr(attrs, res, s.view)
		if trace.IsEmpty() && s.attr == "" {
			continue
		}
		switch {
		case request:
			key := requestKey{trace: trace, span: lr.SpanID()}
			if i, ok := requests[key]; ok && !key.span.IsEmpty() {
				grouped[kept[i].firstRecord] = append(grouped[kept[i].firstRecord], lr)
				continue
			}
			if requests == nil {
				requests = map[requestKey]int{}
			}
			requests[key] = len(kept)
			fallthrough
		case s.kind == eventRequest:
			s.kind, s.firstRecord = eventRequest, int32(len(grouped))
			grouped = append(grouped, []plog.LogRecord{lr})
		}
		kept = append(kept, s)
		if s.attr != "" && !trace.IsEmpty() {
			if traceRuns == nil {
				traceRuns = map[pcommon.TraceID]string{}
			}
			traceRuns[trace] = s.attr
		}
	}
	// Each request's records, one after another in the batch's record buffer.
	for i := range kept {
		if s := &kept[i]; s.kind == eventRequest {
			records := grouped[s.firstRecord]
			s.firstRecord, s.nRecords = int32(len(buf.records)), int32(len(records))
			buf.records = append(buf.records, records...)
		}
	}
	buf.seen = kept
	return g.group(buf, traceRuns)
}
