// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

import "time"

// waitState is what a poll says of the thing it watches.
type waitState uint8

const (
	stateOther waitState = iota
	stateWaiting
	stateTerminal
)

// declaredState reads a KindWait step's state against its manifest entry.
func declaredState(pol *ToolPolicy, s Step) waitState {
	switch {
	case !s.HasWaitState || s.Failed:
		return stateOther
	case contains(pol.WaitingValues, s.WaitState):
		return stateWaiting
	case contains(pol.TerminalValues, s.WaitState):
		return stateTerminal
	}
	return stateOther
}

// undeclaredPoll judges a call of a tool the manifest does not declare as a wait by what its result
// says (Step.Waiting: a status such as running or queued, a text such as "still running"): a poll
// of something in progress, exempt for UndeclaredMaxWait from its first waiting poll, with no
// minimum interval. A result that stops saying so ends the wait (ended), as a terminal state does:
// what the poll watched has nothing left to wait for.
func (r *Run) undeclaredPoll(tool, key uint64, s Step) (exemptOK, timeout, ended bool) {
	maxWait := r.cfg.UndeclaredMaxWait
	if maxWait == 0 {
		maxWait = DefaultUndeclaredMaxWait
	}
	if maxWait < 0 || s.Failed || !s.Waiting && !r.hasWait(key) {
		return false, false, false
	}
	state := stateTerminal
	if s.Waiting {
		state = stateWaiting
	}
	pol := ToolPolicy{Kind: KindWait, MaxWait: maxWait}
	exemptOK, timeout, _ = r.poll(&pol, state, tool, key, s.Start.UnixNano())
	return exemptOK, timeout, !s.Waiting
}

func (r *Run) hasWait(key uint64) bool {
	for i := range r.waits {
		if r.waits[i].key == key {
			return true
		}
	}
	return false
}

// poll updates the wait state of a poll and says whether it may be exempt,
// whether its wait timed out, and whether it repeats a poll that had already
// returned a terminal state.
func (r *Run) poll(pol *ToolPolicy, state waitState, tool, key uint64, now int64) (exemptOK, timeout, terminalAgain bool) {
	tool32 := uint32(tool)

	var prev int64
	hasPrev := false
	e := -1
	for i := range r.waits {
		w := &r.waits[i]
		if w.tool == tool32 && (!hasPrev || w.last > prev) {
			prev, hasPrev = w.last, true
		}
		if w.key == key {
			e = i
		}
	}
	if e < 0 {
		if len(r.waits) == maxWaits {
			oldest := 0
			for i := range r.waits {
				if r.waits[i].last < r.waits[oldest].last {
					oldest = i
				}
			}
			r.waits[oldest] = waitEntry{key: key, tool: tool32}
			e = oldest
		} else {
			r.waits = appendBounded(r.waits, waitEntry{key: key, tool: tool32}, maxWaits)
			e = len(r.waits) - 1
		}
	}
	w := &r.waits[e]
	w.last = now

	switch state {
	case stateWaiting:
		if w.flags&waitActive == 0 || w.flags&waitTerminal != 0 {
			w.start = now
			w.flags = waitActive
		}
		if pol.MaxWait <= 0 {
			return false, false, false
		}
		if time.Duration(now-w.start) >= pol.MaxWait {
			return false, true, false
		}
		fast := hasPrev && pol.MinInterval > 0 && time.Duration(now-prev) < pol.MinInterval
		return !fast, false, false
	case stateTerminal:
		terminalAgain = w.flags&waitTerminal != 0
		w.flags = waitTerminal
		return false, false, terminalAgain
	default:
		return false, false, w.flags&waitTerminal != 0
	}
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
