// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"context"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/progress"
)

// judge runs a batch's events through their runs' state, under the lock, then annotates and counts
// them outside it.
func (g *guard) judge(ctx context.Context, batch map[runKey]*runBatch, buf *buffers) {
	if len(batch) == 0 {
		return
	}
	var started int64
	now := g.now()
	g.runs.update(func(r *runs) {
		for _, rb := range batch {
			if g.judgeRun(r, rb, buf, now) {
				started++
			}
		}
	})

	var t tally
	for _, rb := range batch {
		// A run that is its trace is found by its trace id: its steps and model calls do not repeat its
		// name (docs/design.md#8-run-identity-processoragentguard-processorshapeonly). A run named by
		// an attribute spans traces, so each says it.
		nameRun := rb.key.attr != "" || rb.late
		for i := range rb.events {
			e := &rb.events[i]
			switch {
			case e.skip:
			case e.kind == eventTool && (e.pend || rb.late):
				annotatePending(e.attrs(), rb.name, nameRun)
			case e.kind == eventTool:
				annotateStep(e.carrier, e.verdict, rb.counters.name, rb.name, nameRun)
				countStep(rb.counters, e.calls, e.step, e.verdict)
				t.add(e.verdict)
			case e.kind == eventModel && !rb.late:
				annotateModel(e.attrs(), e.judgment, e.call, rb.name, nameRun)
				countModel(rb.counters, e.call, e.judgment)
			}
			for j := range buf.rounds[e.from:e.to] {
				rs := &buf.rounds[e.from+int32(j)]
				if !rs.judged {
					continue
				}
				annotateRoundStep(roundCarrier(e, rs, buf), rs, rb.counters.name, rb.name, nameRun)
				countStep(rb.counters, rs.calls, rs.step, rs.verdict)
				t.add(rs.verdict)
			}
		}
		if rb.ended {
			annotateRoot(rb.root, rb.summary, rb.name)
		}
	}
	if started > 0 {
		g.telemetry.ProcessorAgentguardRunsStarted.Add(ctx, started)
	}
	if t.exempt > 0 {
		g.telemetry.ProcessorAgentguardPollsExempt.Add(ctx, t.exempt)
	}
	if t.waiting > 0 {
		g.telemetry.ProcessorAgentguardStepsWaiting.Add(ctx, t.waiting)
	}
	if t.forgotten > 0 {
		g.telemetry.ProcessorAgentguardSeenForgotten.Add(ctx, t.forgotten)
	}
	g.flush(ctx)
}

// judgeRun runs one run's part of a batch through the run's state, and reports whether the run is new.
// r is the run state, locked (runTable.update).
func (g *guard) judgeRun(r *runs, rb *runBatch, buf *buffers, now time.Time) (created bool) {
	key := rb.state
	if rb.late {
		g.judgeLate(r, rb)
		return false
	}
	st, created := r.get(key, now)
	if created {
		st.first = rb.first
	}
	st.first, st.last = min(st.first, rb.first), max(st.last, rb.last)
	// Without a traces pipeline no root span ends a run: it ends by idling.
	st.idles = st.idles || rb.idles || !g.traces.Load()
	st.agent = firstNonEmpty(rb.agent, st.agent, rb.service, unknownAgent)
	if rb.id != "" || st.id == "" {
		st.id = runName(rb.key, rb.id)
	}
	rb.counters = r.countersOf(st.agent)
	for i := range rb.events {
		g.observe(r, st, rb, &rb.events[i], buf)
	}
	rb.name = st.id
	if rb.hasRoot {
		st.sawRoot = true
		// The trace's root span ends last: the run is over. A run keyed by attribute spans several
		// traces and ends only by idling out.
		if rb.key.attr == "" {
			rb.summary, rb.ended = r.end(key, st, rb.root.Status().Code() == ptrace.StatusCodeError, g.logs.Load(), now), true
		}
	}
	return created
}

// tally adds up what a batch's verdicts count apart from the steps.
type tally struct{ exempt, waiting, forgotten int64 }

func (t *tally) add(v progress.Verdict) {
	t.exempt += int64(count(v.WaitExempt))
	t.waiting += int64(count(v.Waiting))
	t.forgotten += int64(v.Forgotten)
}

// observe judges one event of a run against its state. A call seen before is passed over; a tool
// call whose result cannot be read waits for its request when the run's model calls carry theirs;
// a request's latest round judges the steps that wait for it, and, in a run no tool call of which
// carries its own result, is the run's steps. r is the run state, locked (runTable.update).
func (g *guard) observe(r *runs, st *runState, rb *runBatch, e *event, buf *buffers) {
	switch e.kind {
	case eventTool:
		e.calls = r.toolCalls(rb.counters, e.step.Tool)
		if r.policy.Judgeable(e.step) {
			if waited := st.ledger.Take(e.id, nil); !waited && st.ledger.Counted(e.id) {
				e.skip = true
				return
			}
			e.verdict = st.progress.Observe(e.step)
			g.count(st, e.id)
			st.readableTools = true
			return
		}
		if st.ledger.Counted(e.id) || e.id == 0 && e.isRecord {
			// A tool record that shows neither the result nor the call's id says only that a call
			// happened: its span, or the next request, says more (Gemini CLI's gemini_cli.tool_call).
			e.skip = true
			return
		}
		if e.id != 0 && (st.requests || e.isRecord) {
			// Its result may be read later: in the next request, or, for a tool record (Claude Code's
			// tool_result), on the call's span.
			e.pend = true
			buf.given = st.ledger.Pend(e.id, e.step, buf.given[:0])
			r.judgeUnread(st, rb.counters, buf.given)
			return
		}
		e.verdict = st.progress.Observe(e.step)
		g.count(st, e.id)
	default:
		g.request(st, e, buf)
		for i := e.from; i < e.to; i++ {
			rs := &buf.rounds[i]
			if st.ledger.Take(rs.id, &buf.waiting) {
				resolve(&rs.step, &buf.waiting)
			} else if st.ledger.Counted(rs.id) || st.readableTools {
				continue
			}
			rs.verdict, rs.judged = st.progress.Observe(rs.step), true
			rs.calls = r.toolCalls(rb.counters, rs.step.Tool)
			st.ledger.Count(rs.id)
		}
		if e.kind != eventModel {
			return
		}
		if st.ledger.Counted(e.id) {
			e.skip = true
		} else {
			e.judgment = st.progress.ObserveModel(e.call)
			g.count(st, e.id)
		}
		buf.given = st.ledger.ModelCall(buf.given[:0])
		r.judgeUnread(st, rb.counters, buf.given)
	}
}

// count records a tool or model call as judged where it may be seen again: a span and a log record
// of it, when agentguard is in a logs pipeline too. A traces pipeline alone sees each span once, and
// a step read from a request is counted wherever it was read (observe), so a run's ledger stays
// empty in the common case.
func (g *guard) count(st *runState, id uint64) {
	if g.logs.Load() {
		st.ledger.Count(id)
	}
}

// resolve makes a step read from a request the waiting step it answers: the call as its own span or
// record said it (its tool, time and arguments), the outcome as the request did.
func resolve(s, waiting *progress.Step) {
	s.Tool, s.Start = waiting.Tool, waiting.Start
	if !waiting.NoCallKey {
		s.CallKey, s.Items, s.Pause, s.NoCallKey = waiting.CallKey, waiting.Items, waiting.Pause, false
	}
	s.Plan, s.HasPlan, s.Goal, s.HasGoal, s.GoalTarget = waiting.Plan, waiting.HasPlan, waiting.Goal, waiting.HasGoal, waiting.GoalTarget
}

// judgeLate names the run of spans and records that came after the root span that ended it: too
// late for its account, they are no new run, and their tool calls are annotated unjudged. They are
// not counted: most are a second sighting of a call the run judged (a CLI's tool record after its
// span). r is the run state, locked.
func (g *guard) judgeLate(r *runs, rb *runBatch) {
	rb.counters = r.countersOf(firstNonEmpty(rb.agent, rb.service, unknownAgent))
	rb.name = runName(rb.key, rb.id)
}
