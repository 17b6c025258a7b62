// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package ledger keeps, per run, which of its tool calls and model calls have been judged, so that
// one seen in several places is judged once, and holds the steps whose result has not been seen yet.
//
// A call can reach agentguard more than once: a tool span and a log record of the same call (Claude
// Code writes both), a model span and the operation-details record of the same request, a
// transcript read from a span and from a log record. Each is known by an identity the caller derives
// (a call id, a span id, a result's round and place). The first readable sighting is judged and its
// identity counted; later sightings of a counted identity are passed over.
//
// A tool call whose own telemetry carries no readable result (a truncated output, a tool span
// without content) is held as pending: its result shows in the next model call's request, and is
// judged then with the call it answers. A pending step the next two model calls do not resolve, or
// that is still pending when the run ends, is given up to the caller, which counts it unjudged, as it
// would have been without a transcript to read.
//
// Memory: 8 bytes for each identity counted, in two generations of at most 2,048 each: a run keeps
// the identities of its latest 2,048 to 4,096 calls and model calls, and one seen again after that
// is counted again. A whole run's log records may be judged before its spans arrive, so the ledger
// covers a run, not a round. Up to 8 pending steps are held with the fingerprints of what their calls
// name.
package ledger

import (
	"slices"

	"github.com/agentotel/agentotel/internal/progress"
)

const (
	generation = 2048
	maxPending = 8
	// patience is how many model calls a pending step waits for its result: the next request carries
	// it, or the one after when the agent ran the call in the background.
	patience = 2
)

// Ledger is one run's ledger. The zero value is ready; it is not safe for concurrent use.
type Ledger struct {
	// counted are the identities counted, sorted: the current generation and the one before.
	counted, older []uint64
	pending        []pending
}

type pending struct {
	id    uint64
	step  progress.Step
	calls int // model calls since the step was seen
}

// Counted reports whether a sighting with this identity was judged already. Zero is no identity.
func (l *Ledger) Counted(id uint64) bool {
	if id == 0 {
		return false
	}
	_, found := slices.BinarySearch(l.counted, id)
	if !found {
		_, found = slices.BinarySearch(l.older, id)
	}
	return found
}

// Count records an identity as judged.
func (l *Ledger) Count(id uint64) {
	if id == 0 || l.Counted(id) {
		return
	}
	if len(l.counted) == generation {
		l.older, l.counted = l.counted, l.older[:0]
	}
	i, _ := slices.BinarySearch(l.counted, id)
	l.counted = slices.Insert(l.counted, i, id)
}

// Pend holds a step until its result is seen, and counts its identity. A later sighting that reads
// the result takes the step (Take comes before Counted); one that reads no more than this one is
// passed over. The step's fingerprints are copied. When the ledger holds maxPending steps already, the
// oldest is given up (appended to given) to make room.
func (l *Ledger) Pend(id uint64, s progress.Step, given []progress.Step) []progress.Step {
	if len(l.pending) == maxPending {
		given = append(given, l.pending[0].step)
		l.pending = slices.Delete(l.pending, 0, 1)
	}
	s.Items = append([]uint64(nil), s.Items...)
	s.Units = append([]uint64(nil), s.Units...)
	l.pending = append(l.pending, pending{id: id, step: s})
	l.Count(id)
	return given
}

// Take moves the pending step with this identity into dst (when dst is not nil), forgets it, and
// reports whether there was one. A step is 240 bytes: returned by value it would sit in the caller's
// frame twice.
func (l *Ledger) Take(id uint64, dst *progress.Step) bool {
	for i := range l.pending {
		if l.pending[i].id == id {
			if dst != nil {
				*dst = l.pending[i].step
			}
			l.pending = slices.Delete(l.pending, i, i+1)
			return true
		}
	}
	return false
}

// Pending reports whether any step waits for its result.
func (l *Ledger) Pending() bool { return len(l.pending) > 0 }

// ModelCall notes a model call of the run, after its request was read: the pending steps it did not
// resolve wait one call less, and those out of patience are given up (appended to given).
func (l *Ledger) ModelCall(given []progress.Step) []progress.Step {
	kept := l.pending[:0]
	for _, p := range l.pending {
		if p.calls++; p.calls >= patience {
			given = append(given, p.step)
			continue
		}
		kept = append(kept, p)
	}
	clear(l.pending[len(kept):])
	l.pending = kept
	return given
}

// Drain gives up every pending step (appended to given): the run has ended.
func (l *Ledger) Drain(given []progress.Step) []progress.Step {
	for _, p := range l.pending {
		given = append(given, p.step)
	}
	clear(l.pending)
	l.pending = l.pending[:0]
	return given
}
