// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"fmt"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// firstCall is when the first tool call starts: room for the first model turn.
const firstCall = 3 * time.Second

// layout lays a script out in time and emits it through w: a root agent span,
// then per step a model span (transcript so far in, the tool call out) followed
// by the tool span, then the model spans of the closing replies. Tool calls start
// exactly sp.interval apart, which is the cadence a wait detector measures.
func layout(w writer, g *gen, r runInfo, sp script, base time.Time) (ptrace.Traces, int) {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", r.agent+"-service")
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName(w.scope())

	var traceID pcommon.TraceID
	g.bytes(traceID[:])
	root := ss.Spans().AppendEmpty()
	root.SetTraceID(traceID)
	root.SetSpanID(spanID(g))
	child := func(start, end time.Time) ptrace.Span {
		s := ss.Spans().AppendEmpty()
		s.SetTraceID(traceID)
		s.SetSpanID(spanID(g))
		s.SetParentSpanID(root.SpanID())
		s.SetStartTimestamp(pcommon.NewTimestampFromTime(start))
		s.SetEndTimestamp(pcommon.NewTimestampFromTime(end))
		return s
	}

	transcript := []message{{role: "user", text: r.task}}
	last := base // end of the latest span under the root
	for i, st := range sp.steps {
		toolStart := base.Add(firstCall + time.Duration(i)*sp.interval)
		toolEnd := toolStart.Add(st.takes + ms(g, 60, 450))
		c := render(g, st, fmt.Sprintf("call_%d", i+1), toolStart)

		modelEnd := toolStart.Add(-ms(g, 5, 30))
		ask := message{role: "assistant", call: &c}
		w.model(child(modelEnd.Add(-ms(g, 600, 2400)), modelEnd), r, newTurn(transcript, ask, finishToolCalls))

		ts := child(toolStart, toolEnd)
		w.tool(ts, r, c)
		// Data class, status and error.type are not convention-specific: the recogniser
		// reads tool.data_class on any tool span, and error.type is general semconv.
		if c.class != "" {
			ts.Attributes().PutStr("tool.data_class", c.class)
		}
		if c.err != nil {
			setError(ts, c.err)
			// A returned error names its type; a thrown one leaves only the exception the SDK
			// recorded, and no error.type (docs/fixtures.md, Outcome captures).
			if c.thrown {
				recordException(ts, c.err, toolEnd)
			} else {
				ts.Attributes().PutStr("error.type", c.err.typ)
			}
		}
		transcript = append(transcript, ask, message{role: "tool", call: &c})
		last = toolEnd
	}

	if sp.fail == nil {
		for _, rep := range sp.closing() {
			start := last.Add(ms(g, 40, 120))
			end := start.Add(ms(g, 1000, 3000))
			out := message{role: "assistant", text: rep.text}
			w.model(child(start, end), r, newTurn(transcript, out, rep.finish()))
			last = end
			// What the loop sends before its next model call. An empty reply leaves nothing in
			// the transcript; the SDKs drop it. Only a cut-off or an empty reply is followed by
			// another: the loop stops at an answer.
			switch {
			case rep.cut:
				transcript = append(transcript, out, message{role: "user", text: continueText})
			case out.empty():
				transcript = append(transcript, message{role: "user", text: nudgeText})
			}
		}
	}

	rootEnd := last.Add(ms(g, 5, 20))
	root.SetStartTimestamp(pcommon.NewTimestampFromTime(base))
	root.SetEndTimestamp(pcommon.NewTimestampFromTime(rootEnd))
	w.agent(root, r)
	if sp.fail != nil {
		setError(root, sp.fail)
		recordException(root, sp.fail, rootEnd)
	}
	return td, ss.Spans().Len()
}

func setError(s ptrace.Span, f *failure) {
	s.Status().SetCode(ptrace.StatusCodeError)
	s.Status().SetMessage(f.msg)
}

// recordException adds the event an OpenTelemetry SDK's recordException writes.
func recordException(s ptrace.Span, f *failure, at time.Time) {
	ev := s.Events().AppendEmpty()
	ev.SetName("exception")
	ev.SetTimestamp(pcommon.NewTimestampFromTime(at))
	ev.Attributes().PutStr("exception.type", f.typ)
	ev.Attributes().PutStr("exception.message", f.msg)
}

// render fixes a step into the call the tool actually answered: the volatile
// envelope is stamped with the call's own time, so identical replies still
// differ byte-wise the way real ones do.
func render(g *gen, st step, id string, at time.Time) call {
	res := st.result
	if st.err != nil {
		res = obj{{"error", st.err.msg}}
	}
	// Scenarios reuse one step value for repeated calls, so the envelope is
	// appended to a copy (full slice expression) rather than the shared result.
	res = res[:len(res):len(res)]
	if st.stamp&servedAt != 0 {
		res = append(res, field{"served_at", at.Add(ms(g, 20, 50)).UTC().Format("2006-01-02T15:04:05.000Z")})
	}
	if st.stamp&requestID != 0 {
		res = append(res, field{"request_id", "req_" + g.hex(16)})
	}
	return call{id: id, tool: st.tool, args: jsonText(st.args), result: jsonText(res), class: st.class, err: st.err, thrown: st.thrown}
}

// newTurn snapshots the transcript so later appends cannot reach into it, and
// estimates tokens at four characters each plus a fixed system-prompt cost. A
// cut-off reply used the whole output limit; an empty one used no tokens.
func newTurn(transcript []message, out message, f finish) turn {
	in := append([]message(nil), transcript...)
	t := turn{in: in, out: out, finish: f, inTokens: 180 + size(in)/4, outTokens: 8 + size([]message{out})/4}
	switch {
	case f == finishLength:
		t.outTokens = maxOutputTokens
	case out.empty():
		t.outTokens = 0
	}
	return t
}

func size(msgs []message) int {
	n := 0
	for _, m := range msgs {
		switch {
		case m.call == nil:
			n += len(m.text)
		case m.role == "tool":
			n += len(m.call.result)
		default:
			n += len(m.call.tool) + len(m.call.args)
		}
	}
	return n
}

func spanID(g *gen) pcommon.SpanID {
	var id pcommon.SpanID
	g.bytes(id[:])
	return id
}

// ms returns a random duration in [lo, hi] milliseconds.
func ms(g *gen, lo, hi int) time.Duration {
	return time.Duration(g.between(lo, hi)) * time.Millisecond
}
