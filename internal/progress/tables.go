// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

// The run's small tables: each tool's last outcome, and the states declared writes left behind.

// swapLast records out as tool's last outcome and reports whether it differs
// from the previous one (true when the tool has none).
func (r *Run) swapLast(tool, out uint64) bool {
	for i := range r.tools {
		if r.tools[i].tool == tool {
			changed := r.tools[i].last != out
			// Move to the end: the table is ordered by last use.
			copy(r.tools[i:], r.tools[i+1:])
			r.tools[len(r.tools)-1] = toolEntry{tool, out}
			return changed
		}
	}
	if len(r.tools) == maxTools {
		copy(r.tools, r.tools[1:])
		r.tools = r.tools[:maxTools-1]
	}
	r.tools = appendBounded(r.tools, toolEntry{tool, out}, maxTools)
	return true
}

// addState records a state and reports whether it was new to the run.
func (r *Run) addState(h uint64) bool {
	for _, x := range r.states {
		if x == h {
			return false
		}
	}
	if len(r.states) == maxStates {
		copy(r.states, r.states[1:])
		r.states = r.states[:maxStates-1]
	}
	r.states = appendBounded(r.states, h, maxStates)
	return true
}

// appendBounded appends, growing capacity by doubling but never past bound,
// so the retained size of a table never exceeds its cap.
func appendBounded[T any](s []T, x T, bound int) []T {
	if len(s) == cap(s) {
		n := make([]T, len(s), min(max(2*cap(s), 4), bound))
		copy(n, s)
		s = n
	}
	return append(s, x)
}
