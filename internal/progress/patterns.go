// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

// The history ring and the repeated-call patterns it shows (see the package documentation, Patterns).
// Every pattern asks that nothing new entered the run while it formed: a step between the compared
// calls that fired a signal (its ring bit in news) breaks it, whichever tool it was.

// push adds the step to the history ring and returns its ring position.
func (r *Run) push(key, out uint64, failed, pause bool) uint {
	pos := uint(r.histPos)
	r.hist[pos] = histEntry{key, out}
	bit := uint16(1) << pos
	r.exempt &^= bit
	r.news &^= bit
	r.failed &^= bit
	r.paused &^= bit
	if failed {
		r.failed |= bit
	}
	if pause {
		r.paused |= bit
	}
	r.histPos = uint8((pos + 1) % histCap)
	if r.histLen < histCap {
		r.histLen++
	}
	return pos
}

// at returns the ring position i steps back (0: the current step once pushed, the previous one
// before).
func (r *Run) at(i int) uint {
	return uint((int(r.histPos) - 1 - i + 2*histCap) % histCap)
}

func (r *Run) isExempt(p uint) bool    { return r.exempt&(1<<p) != 0 }
func (r *Run) isFailed(p uint) bool    { return r.failed&(1<<p) != 0 }
func (r *Run) broughtNews(p uint) bool { return r.news&(1<<p) != 0 }

// afterPause reports whether the previous step was a pause (called before the step is pushed).
func (r *Run) afterPause() bool { return r.histLen > 0 && r.paused&(1<<r.at(0)) != 0 }

// stillPolling reports whether a call (called before it is pushed) repeats, unchanged, a call whose
// outcome changed earlier in the history, with fewer than NoProgressLimit-1 unchanged repeats before
// it: a poll of something that moves, waiting for its next move.
func (r *Run) stillPolling(key, out uint64) bool {
	repeats := 0
	for i := 0; i < int(r.histLen); i++ {
		p := r.at(i)
		if r.hist[p].key != key {
			continue
		}
		switch {
		case r.isFailed(p):
			return false
		case r.hist[p].out == out:
			repeats++
		default:
			return repeats > 0 && int32(repeats) < r.limit()
		}
	}
	return false
}

// loop: the current key and outcome, a success, for the third time within the loop window, nothing
// new since the first of the three.
func (r *Run) loop() bool { return !r.isFailed(r.at(0)) && r.recurs(int(r.window), 3) }

// repeatedError: this key failed with the same error on its last three calls, nothing new between.
func (r *Run) repeatedError() bool { return r.isFailed(r.at(0)) && r.recurs(histCap, 3) }

// recurs reports whether the current step repeats its call key and outcome for the n-th time within
// the span steps before it. Exempt steps are skipped. The search ends, with no, at an earlier step of
// the key with another outcome (or failed where this one did not, or the other way round), and at any
// step that brought news before the n-th occurrence is reached.
func (r *Run) recurs(span, n int) bool {
	p0 := r.at(0)
	cur, failed := r.hist[p0], r.isFailed(p0)
	found := 1
	for i := 1; i <= span && i < int(r.histLen); i++ {
		p := r.at(i)
		if r.isExempt(p) {
			continue
		}
		if r.hist[p].key == cur.key {
			if r.hist[p].out != cur.out || r.isFailed(p) != failed {
				return false
			}
			if found++; found == n {
				return true
			}
		}
		if r.broughtNews(p) {
			return false
		}
	}
	return false
}

// same reports whether the steps i and j back agree in key and outcome and
// neither was an exempt poll or waiting.
func (r *Run) same(i, j int) bool {
	pi, pj := r.at(i), r.at(j)
	return !r.isExempt(pi) && !r.isExempt(pj) && r.hist[pi] == r.hist[pj]
}

// repeatQuiet reports whether the steps 1 to l-1 back brought nothing new: the repeat of a period of
// l, of which the current step is the last, learnt nothing.
func (r *Run) repeatQuiet(l int) bool {
	for i := 1; i < l; i++ {
		if r.broughtNews(r.at(i)) {
			return false
		}
	}
	return true
}

// alternation: A,B,A,B with each side's outcome unchanged.
func (r *Run) alternation() bool {
	if r.histLen < 4 {
		return false
	}
	return r.hist[r.at(0)].key != r.hist[r.at(1)].key && r.same(0, 2) && r.same(1, 3) && r.repeatQuiet(2)
}

// cycle: the last L steps repeat the L before them, for L in 3..5.
func (r *Run) cycle() bool {
	for l := 3; l <= 5 && 2*l <= int(r.histLen); l++ {
		ok := true
		distinct := false
		for i := 0; i < l && ok; i++ {
			ok = r.same(i, i+l)
			distinct = distinct || r.hist[r.at(i)].key != r.hist[r.at(0)].key
		}
		if ok && distinct && r.repeatQuiet(l) {
			return true
		}
	}
	return false
}
