// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"time"

	"github.com/agentotel/agentotel/internal/progress"
	"github.com/agentotel/agentotel/internal/statecodec"
)

// stateVersion is the format of the saved run state. A change to what is saved is a new version: a
// value of another version is refused, logged, and the processor starts fresh (package statestore).
const stateVersion = 1

// The smallest encodings of a run, a trace and an ended run, for the decoder's count guards: a run is
// at least its key, time, names, bounds, flags, an empty ledger and a fresh progress.Run.
const (
	minRunBytes   = 40
	minTraceBytes = 3
	minEndedBytes = 2
)

// encode appends the run state a restart must not lose, each map oldest first with the time each
// entry was last put: the runs in flight, the run each trace belongs to, and the runs whose root span
// ended them lately. The agents' counters are not saved: they are the metrics, which start again
// from zero at a restart as every counter of the collector does.
func (r *runs) encode(e *statecodec.Encoder) {
	e.Uint(uint64(r.byKey.Len()))
	r.byKey.Each(func(key string, st *runState, at time.Time) {
		e.String(key)
		e.Int(at.UnixNano())
		st.encode(e)
	})
	e.Uint(uint64(r.traces.Len()))
	r.traces.Each(func(trace, run string, at time.Time) {
		e.String(trace)
		e.String(run)
		e.Int(at.UnixNano())
	})
	e.Uint(uint64(r.ended.Len()))
	r.ended.Each(func(key string, _ struct{}, at time.Time) {
		e.String(key)
		e.Int(at.UnixNano())
	})
}

// decodeRuns reads what encode wrote into new run state under cfg. Each entry is put at the time it
// was saved with, oldest first, so what is loaded meets the bounds as live traffic does: past
// max_runs the oldest runs are evicted and counted, and runs that had idled past run_idle_timeout
// while the collector was down end abandoned at the first expiry (runs.active), counted as evicted
// idle.
func decodeRuns(payload []byte, cfg *Config, policy *progress.Config) (*runs, error) {
	d := statecodec.NewDecoder(payload)
	r := newRuns(cfg, policy)
	for range d.Len(minRunBytes) {
		key, at := d.String(), time.Unix(0, d.Int())
		st := decodeRunState(d, policy)
		if d.Err() != nil {
			return nil, d.Err()
		}
		r.byKey.Put(key, st, at)
	}
	for range d.Len(minTraceBytes) {
		trace, run, at := d.String(), d.String(), time.Unix(0, d.Int())
		if d.Err() != nil {
			return nil, d.Err()
		}
		r.traces.Put(trace, run, at)
	}
	for range d.Len(minEndedBytes) {
		key, at := d.String(), time.Unix(0, d.Int())
		if d.Err() != nil {
			return nil, d.Err()
		}
		r.ended.Put(key, struct{}{}, at)
	}
	if err := d.Finish(); err != nil {
		return nil, err
	}
	return r, nil
}

// encode appends every field of the run's state: its names, the bounds of its spans (its duration
// and over_budget read them), what its ledger counted and holds, and its progress.
func (st *runState) encode(e *statecodec.Encoder) {
	e.String(st.agent)
	e.String(st.id)
	e.Int(st.first)
	e.Int(st.last)
	e.Bools(st.sawRoot, st.readableTools, st.requests, st.idles)
	st.ledger.Encode(e)
	st.progress.Encode(e)
}

func decodeRunState(d *statecodec.Decoder, policy *progress.Config) *runState {
	st := &runState{agent: d.String(), id: d.String(), first: d.Int(), last: d.Int()}
	d.Bools(&st.sawRoot, &st.readableTools, &st.requests, &st.idles)
	st.ledger.Decode(d)
	st.progress = progress.DecodeRun(d, policy)
	return st
}
