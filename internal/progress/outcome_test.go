// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

import (
	"math"
	"testing"
	"time"
)

func unread(tool string) st {
	s := call(tool, `{}`, ``)
	s.Unread = true
	return s
}

// TestUnreadStepsAreNotJudged: a step whose result cannot be read is neither progress nor barren, is
// part of no pattern and leaves the counter where it was; a run of such steps is never stuck.
func TestUnreadStepsAreNotJudged(t *testing.T) {
	r := NewRun(nil)
	for i := 0; i < 20; i++ {
		v := r.Observe(unread("mystery").Step)
		if !v.Unjudged || v.Progress || v.Barren != 0 || v.Stuck != "" || v.Step != i+1 {
			t.Fatalf("step %d: %+v", i+1, v)
		}
	}
	// Unjudged steps between two barren steps neither reset nor advance the counter.
	r = NewRun(nil)
	r.Observe(call("search", `{"q":1}`, `{"results":[]}`).Step)
	r.Observe(call("search", `{"q":2}`, `{"results":[]}`).Step)
	r.Observe(unread("mystery").Step)
	if v := r.Observe(call("search", `{"q":3}`, `{"results":[]}`).Step); v.Barren != 3 {
		t.Errorf("barren after an unjudged step: %d, want 3", v.Barren)
	}
	// Unjudged steps between identical calls do not hide the repeat: the repeat is judged on the
	// judged steps alone, and the unjudged ones are no part of it.
	r = NewRun(nil)
	r.Observe(call("ls", `{}`, `a b`).Step)
	r.Observe(unread("ls").Step)
	r.Observe(call("ls", `{}`, `a b`).Step)
	r.Observe(unread("ls").Step)
	if v := r.Observe(call("ls", `{}`, `a b`).Step); v.Stuck != ReasonLoop {
		t.Errorf("repeat around an unjudged step: %+v", v)
	}
	// A declared write without a state field needs no result: it is judged, and is progress.
	r = NewRun(&Config{Tools: map[string]ToolPolicy{"attach": {Kind: KindWrite}}})
	if v := r.Observe(unread("attach").Step); v.Unjudged || !v.Progress {
		t.Errorf("declared write with no result: %+v", v)
	}
	// A failed step is read from its status.
	r = NewRun(nil)
	if v := r.Observe(unread("mystery").fail("boom").Step); v.Unjudged {
		t.Errorf("failed step unjudged: %+v", v)
	}
}

// TestUnknownArgumentsRepeatNothing: a call whose arguments cannot be read never forms a loop, even
// when its results repeat; the counter still sees that nothing new came back.
func TestUnknownArgumentsRepeatNothing(t *testing.T) {
	r := NewRun(nil)
	var v Verdict
	for i := 0; i < 6; i++ {
		s := call("fetch", ``, `{"status":"queued"}`)
		s.NoCallKey = true
		v = r.Observe(s.Step)
		if v.Stuck == ReasonLoop || v.Stuck == ReasonAlternation || v.Stuck == ReasonCycle {
			t.Fatalf("step %d: %+v", i+1, v)
		}
	}
	if v.Stuck != ReasonNoProgress {
		t.Errorf("same results with unknown arguments: %+v, want no_progress", v)
	}
}

func model(f Finish, empty bool) ModelCall {
	return ModelCall{Finish: f, Empty: empty, EmptyKnown: true}
}

// TestOutcomes: how a run ended, for each soft limit it can meet, and the order in which outcomes win.
func TestOutcomes(t *testing.T) {
	tool := call("search_kb", `{"q":"x"}`, `{"hits":1}`).Step
	failing := call("lookup_order", `{"id":1}`, ``).fail("upstream 503").Step
	tests := []struct {
		name  string
		drive func(r *Run)
		end   Ending
		want  Summary
	}{
		{
			name: "answered", drive: func(r *Run) {
				r.ObserveModel(model(FinishToolCalls, false))
				r.Observe(tool)
				r.ObserveModel(model(FinishStop, false))
			},
			want: Summary{Outcome: OutcomeAnswered, Rounds: 2, TurnEfficiency: 0.8},
		},
		{
			name: "cut off, continued once, answered", drive: func(r *Run) {
				r.ObserveModel(model(FinishToolCalls, false))
				r.Observe(tool)
				r.ObserveModel(model(FinishLength, false))
				r.ObserveModel(model(FinishStop, false))
			},
			want: Summary{Outcome: OutcomeAnswered, Rounds: 3, CutOffs: 1, Continuations: 1, TurnEfficiency: 0.6},
		},
		{
			name: "cut off and left cut off", drive: func(r *Run) {
				r.ObserveModel(model(FinishLength, false))
				r.ObserveModel(model(FinishLength, false))
			},
			want: Summary{Outcome: OutcomeCutOff, Rounds: 2, CutOffs: 2, Continuations: 1, TurnEfficiency: 0.8},
		},
		{
			name: "a tool call after a cut-off: the next call is no continuation", drive: func(r *Run) {
				r.ObserveModel(model(FinishLength, false))
				r.Observe(tool)
				r.ObserveModel(model(FinishStop, false))
			},
			want: Summary{Outcome: OutcomeAnswered, Rounds: 2, CutOffs: 1, TurnEfficiency: 0.8},
		},
		{
			name: "empty, nudged, answered", drive: func(r *Run) {
				r.ObserveModel(model(FinishStop, true))
				r.ObserveModel(model(FinishStop, false))
			},
			want: Summary{Outcome: OutcomeAnswered, Rounds: 2, EmptyReplies: 1, TurnEfficiency: 0.8},
		},
		{
			name: "empty at the end", drive: func(r *Run) {
				r.ObserveModel(model(FinishStop, true))
				r.ObserveModel(model(FinishStop, true))
			},
			want: Summary{Outcome: OutcomeEmpty, Rounds: 2, EmptyReplies: 2, TurnEfficiency: 0.8},
		},
		{
			name: "an empty reply whose emptiness the span could not show counts for nothing", drive: func(r *Run) {
				r.ObserveModel(ModelCall{Finish: FinishStop, Empty: true})
			},
			want: Summary{Outcome: OutcomeAnswered, Rounds: 1, TurnEfficiency: 1},
		},
		{
			name: "a tool that throws, worked around", drive: func(r *Run) {
				r.ObserveModel(model(FinishToolCalls, false))
				r.Observe(failing)
				r.ObserveModel(model(FinishToolCalls, false))
				r.Observe(tool)
				r.ObserveModel(model(FinishStop, false))
			},
			want: Summary{Outcome: OutcomeAnswered, Rounds: 3, ToolFailures: 1, TurnEfficiency: 0.6},
		},
		{
			name: "over budget beats cut off", drive: func(r *Run) { r.ObserveModel(model(FinishLength, false)) },
			end:  Ending{Duration: 3 * time.Second, Budget: 2 * time.Second},
			want: Summary{Outcome: OutcomeOverBudget, Rounds: 1, CutOffs: 1, TurnEfficiency: 1},
		},
		{
			name: "failed beats everything", drive: func(r *Run) { r.ObserveModel(model(FinishLength, false)) },
			end:  Ending{RootFailed: true, Duration: 3 * time.Second, Budget: time.Second},
			want: Summary{Outcome: OutcomeFailed, Rounds: 1, CutOffs: 1, TurnEfficiency: 1},
		},
		{
			name: "stuck beats over budget", drive: func(r *Run) {
				for i := 0; i < 5; i++ {
					r.Observe(call("search", `{"q":1}`, `{"results":[]}`).Step)
				}
			},
			end:  Ending{Duration: 3 * time.Second, Budget: time.Second},
			want: Summary{Outcome: OutcomeStuck, TurnEfficiency: math.NaN()},
		},
		{
			name: "idled out", drive: func(r *Run) { r.ObserveModel(model(FinishToolCalls, false)) },
			end:  Ending{Abandoned: true},
			want: Summary{Outcome: OutcomeAbandoned, Rounds: 1, TurnEfficiency: 1},
		},
		{
			name: "eight rounds score zero and not below", drive: func(r *Run) {
				for i := 0; i < 8; i++ {
					r.ObserveModel(model(FinishToolCalls, false))
				}
			},
			want: Summary{Outcome: OutcomeAnswered, Rounds: 8, TurnEfficiency: 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRun(nil)
			tt.drive(r)
			got := r.End(tt.end)
			eff, wantEff := got.TurnEfficiency, tt.want.TurnEfficiency
			got.TurnEfficiency, tt.want.TurnEfficiency = 0, 0
			if got != tt.want || !(math.Abs(eff-wantEff) < 1e-9 || math.IsNaN(eff) && math.IsNaN(wantEff)) {
				t.Errorf("End = %+v (efficiency %v), want %+v (efficiency %v)", got, eff, tt.want, wantEff)
			}
		})
	}
}

func TestModelVerdicts(t *testing.T) {
	r := NewRun(nil)
	if v := r.ObserveModel(model(FinishLength, false)); !v.CutOff || v.Continuation || v.Round != 1 {
		t.Errorf("first: %+v", v)
	}
	if v := r.ObserveModel(model(FinishStop, true)); v.CutOff || !v.Continuation || !v.Empty || v.Round != 2 {
		t.Errorf("second: %+v", v)
	}
}

func TestCountersSaturate(t *testing.T) {
	r := NewRun(nil)
	for i := 0; i < math.MaxUint16+10; i++ {
		r.ObserveModel(model(FinishLength, false))
	}
	if s := r.End(Ending{}); s.Rounds != math.MaxUint16 || s.CutOffs != math.MaxUint16 {
		t.Errorf("counters past 65535: %+v", s)
	}
}

// TestNothingReadIsNoAnswer: a run whose model calls and steps agentguard could not read did not
// answer as far as anyone can tell.
func TestNothingReadIsNoAnswer(t *testing.T) {
	r := NewRun(nil)
	r.Observe(unread("mystery").Step)
	if s := r.End(Ending{}); s.Outcome != OutcomeUnknown {
		t.Errorf("unread run: %+v", s)
	}
	r = NewRun(nil)
	r.Observe(call("search", `{"q":1}`, `{"hits":1}`).Step)
	if s := r.End(Ending{}); s.Outcome != OutcomeAnswered {
		t.Errorf("judged run without model calls: %+v", s)
	}
}
