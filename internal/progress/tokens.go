// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

// What a run's model calls cost, by what the run was doing when it made them. The state of a model
// call is the run's after the steps before it: a run spends its tokens deciding what to do after
// its latest result, so those tokens belong to that result's verdict
// (docs/design.md#7-how-a-run-ended-internalprogress-internalagentspanreplygo, "What a run cost").

// State is what a run was doing when it made a model call.
type State uint8

const (
	// StateProgress: the latest judged step made progress, or no step has been judged yet.
	StateProgress State = iota
	// StateWaiting: the latest step was a poll of something still in progress, an exempt poll of a
	// declared wait or an undeclared one (Verdict.WaitExempt, Verdict.Waiting).
	StateWaiting
	// StateBarren: the no-progress counter is above zero, the run not (yet) stuck.
	StateBarren
	// StateStuck: the run is in a stuck episode.
	StateStuck
	// StateUnjudged: the latest step could not be read.
	StateUnjudged
)

// States lists every state, in the order of their values.
var States = []State{StateProgress, StateWaiting, StateBarren, StateStuck, StateUnjudged}

var stateNames = [...]string{"progress", "waiting", "barren", "stuck", "unjudged"}

func (s State) String() string { return stateNames[s] }

// Tokens is a model call's usage in three disjoint directions: the input the provider's cache did
// not serve, the input it did (priced apart), and the output.
type Tokens struct{ Input, Output, CachedInput int64 }

// Total is every token of the call.
func (t Tokens) Total() int64 { return t.Input + t.Output + t.CachedInput }

func (t *Tokens) add(u Tokens) {
	t.Input += u.Input
	t.Output += u.Output
	t.CachedInput += u.CachedInput
}

// Spend is a run's token account: every model call's usage, and every token by the state the run was
// in when the call was made.
type Spend struct {
	Tokens
	ByState [len(stateNames)]int64
	// SinceProgress are the tokens of the model calls since the run's latest progress step: what the
	// streak without progress has cost so far (Verdict.EpisodeTokens).
	SinceProgress int64
}

// Share is the fraction of the run's tokens spent in the states given; 0 when it spent none.
func (s *Spend) Share(states ...State) float64 {
	total := s.Total()
	if total == 0 {
		return 0
	}
	var n int64
	for _, st := range states {
		n += s.ByState[st]
	}
	return float64(n) / float64(total)
}

// Latest step kinds, for the state: what the run's latest step was, beyond the counter and episode.
const (
	lastJudged uint8 = iota
	lastWaiting
	lastUnjudged
)

// state is the run's state now, for a model call made now. A stuck episode outranks the latest
// step: an exempt poll or an unreadable step inside an episode neither ends nor extends it.
func (r *Run) state() State {
	switch {
	case r.reason != rNone:
		return StateStuck
	case r.lastStep == lastUnjudged:
		return StateUnjudged
	case r.lastStep == lastWaiting:
		return StateWaiting
	case r.barren > 0:
		return StateBarren
	}
	return StateProgress
}

// spend records a model call's tokens in the state the run is in, and returns that state.
func (r *Run) spend(t Tokens) State {
	s := r.state()
	r.tokens.add(t)
	r.tokens.ByState[s] += t.Total()
	r.tokens.SinceProgress += t.Total()
	return s
}

// Spent is the run's token account so far.
func (r *Run) Spent() Spend { return r.tokens }
