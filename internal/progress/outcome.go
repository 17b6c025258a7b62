// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

import (
	"math"
	"time"
)

// The soft limits a run meets, read from its model calls and tool steps: how often a reply was cut off
// at the output limit, continued, or empty, how often a tool failed, and how the run ended. The rules
// are in docs/design.md#7-how-a-run-ended-internalprogress-internalagentspanreplygo.

// Finish is why a model call stopped, as the recognition layer normalised it.
type Finish uint8

const (
	FinishUnknown Finish = iota
	FinishStop
	FinishToolCalls
	FinishLength
	FinishContentFilter
	FinishError
	FinishOther
)

// ModelCall is one model call of the run.
type ModelCall struct {
	Start  time.Time
	Finish Finish
	// Empty: the reply had no text and no tool call. EmptyKnown: the span showed enough to say.
	Empty, EmptyKnown bool
	// Tokens is the call's usage; zero when it carried none.
	Tokens Tokens
}

// ModelVerdict is what one model call was.
type ModelVerdict struct {
	Round        int  // 1-based model call number in the run
	CutOff       bool // stopped at the output limit
	Continuation bool // directly follows a cut-off, with no tool call between
	Empty        bool
	// State is what the run was doing when it made the call: the state its tokens count in.
	State State
}

// modelCalls is the run's account of its model calls and tool outcomes: counters that stop at
// 65535 and three flags, so a run stays small.
type modelCalls struct {
	rounds, cutOffs, continuations, empties, toolFailures uint16
	flags                                                 uint8
}

const (
	// afterCut: the latest model call was cut off and no tool call has followed it yet.
	afterCut uint8 = 1 << iota
	// lastCut and lastEmpty say what the latest model call was, for the outcome.
	lastCut
	lastEmpty
	// judged: a step of the run was judged.
	judged
)

func inc(n *uint16) {
	if *n < math.MaxUint16 {
		*n++
	}
}

func (m *modelCalls) tool(failed bool) {
	m.flags &^= afterCut
	if failed {
		inc(&m.toolFailures)
	}
}

// ObserveModel records one model call.
func (r *Run) ObserveModel(c ModelCall) ModelVerdict {
	m := &r.calls
	inc(&m.rounds)
	v := ModelVerdict{Round: int(m.rounds), CutOff: c.Finish == FinishLength, Empty: c.EmptyKnown && c.Empty, State: r.spend(c.Tokens)}
	if m.flags&afterCut != 0 {
		v.Continuation = true
		inc(&m.continuations)
	}
	m.flags &= judged
	if v.CutOff {
		inc(&m.cutOffs)
		m.flags |= afterCut | lastCut
	}
	if v.Empty {
		inc(&m.empties)
		m.flags |= lastEmpty
	}
	return v
}

// Outcome is how a run ended.
type Outcome string

const (
	OutcomeAnswered   Outcome = "answered"
	OutcomeCutOff     Outcome = "cut_off"
	OutcomeEmpty      Outcome = "empty"
	OutcomeFailed     Outcome = "failed"
	OutcomeOverBudget Outcome = "over_budget"
	OutcomeStuck      Outcome = "stuck"
	OutcomeAbandoned  Outcome = "abandoned"
	// OutcomeUnknown: nothing of the run could be read (no model call, no judged step), so whether it
	// answered cannot be said.
	OutcomeUnknown Outcome = "unknown"
)

// Outcomes lists every outcome, most specific first: the order End decides in.
var Outcomes = []Outcome{OutcomeFailed, OutcomeStuck, OutcomeOverBudget, OutcomeAbandoned, OutcomeCutOff, OutcomeEmpty, OutcomeUnknown, OutcomeAnswered}

// Ending is what the processor knows when a run ends.
type Ending struct {
	// RootFailed: the run's root span has status error.
	RootFailed bool
	// Abandoned: the run idled out; no root span ended it.
	Abandoned bool
	// Duration is the run's wall-clock time; Budget the allowed time (0: none).
	Duration, Budget time.Duration
}

// Summary is a finished run's account.
type Summary struct {
	Outcome                                      Outcome
	Rounds, CutOffs, Continuations, EmptyReplies int
	ToolFailures, JudgedSteps, UnjudgedSteps     int
	// TurnEfficiency is max(0, 1-(rounds-1)*0.2): 1 for a run answered in one model call, 0.2 less for
	// each further round trip (docs/design.md#7-how-a-run-ended-internalprogress-internalagentspanreplygo);
	// NaN when the run made no model call agentguard saw.
	TurnEfficiency float64
	// Tokens is what the run's model calls cost, by the state the run was in (tokens.go).
	Tokens Spend
}

// End decides the run's outcome. The most specific outcome wins: a failed root span, then a run that
// was stuck when it ended, then one over its budget, one that idled out, a last reply cut off at the
// output limit, a last reply that was empty, a run of which nothing could be read; any other run
// answered.
func (r *Run) End(e Ending) Summary {
	m := &r.calls
	s := Summary{
		Rounds: int(m.rounds), CutOffs: int(m.cutOffs), Continuations: int(m.continuations), EmptyReplies: int(m.empties),
		ToolFailures: int(m.toolFailures), TurnEfficiency: math.NaN(), Tokens: r.tokens,
	}
	if m.rounds > 0 {
		s.TurnEfficiency = max(0, 1-float64(m.rounds-1)*0.2)
	}
	switch {
	case e.RootFailed:
		s.Outcome = OutcomeFailed
	case r.reason != rNone:
		s.Outcome = OutcomeStuck
	case e.Budget > 0 && e.Duration > e.Budget:
		s.Outcome = OutcomeOverBudget
	case e.Abandoned:
		s.Outcome = OutcomeAbandoned
	case m.flags&lastCut != 0:
		s.Outcome = OutcomeCutOff
	case m.flags&lastEmpty != 0:
		s.Outcome = OutcomeEmpty
	case m.rounds == 0 && m.flags&judged == 0:
		s.Outcome = OutcomeUnknown
	default:
		s.Outcome = OutcomeAnswered
	}
	return s
}
