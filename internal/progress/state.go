// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/agentotel/agentotel/internal/digest"
	"github.com/agentotel/agentotel/internal/statecodec"
)

// Encode appends the run's state, for a processor that keeps its runs across a restart: a run
// decoded from it (DecodeRun) with the same Config judges every later step and ends exactly as this
// one would.
//
// Saved, because a verdict depends on them: step and barren (the step number and the counter);
// reason (the open episode); lastPlan, hasPlan, lastDist, hasDist (the plan and goal baselines);
// the history ring (hist, histLen, histPos) with its failed, exempt, news and paused bits (the
// patterns, stillPolling, afterPause); calls (the model-call counters and flags the outcome and
// Summary read); tools (each tool's last outcome, in least-recently-used order); states (the seen
// states, oldest first); waits (each wait's key, tool, start, last poll and flags, in table order:
// eviction picks the least recently polled); seen (the exact table's fingerprints, or the filters'
// bits and counts); lastStep and tokens (the state a model call is counted in, and the tokens the run
// spent in each state, which its end annotates).
//
// Not saved: cfg, which is the Config the decoder is given (a restart may change the tools'
// policies, and the run follows the new ones); window, derived from cfg.LoopWindow; seen.forgotten,
// which every Observe takes back to zero, so between steps it is always zero.
func (r *Run) Encode(e *statecodec.Encoder) {
	e.Uint(uint64(r.step))
	e.Uint(uint64(r.barren))
	e.Uint(uint64(r.reason))
	e.Bool(r.hasPlan)
	e.Float(r.lastPlan)
	e.Bool(r.hasDist)
	e.Float(r.lastDist)

	e.Uint(uint64(r.histLen))
	e.Uint(uint64(r.histPos))
	for _, h := range r.hist[:r.histLen] {
		e.Word(h.key)
		e.Word(h.out)
	}
	for _, bits := range [...]uint16{r.failed, r.exempt, r.news, r.paused} {
		e.Uint(uint64(bits))
	}

	m := &r.calls
	for _, n := range [...]uint16{m.rounds, m.cutOffs, m.continuations, m.empties, m.toolFailures} {
		e.Uint(uint64(n))
	}
	e.Uint(uint64(m.flags))

	e.Uint(uint64(len(r.tools)))
	for _, t := range r.tools {
		e.Word(t.tool)
		e.Word(t.last)
	}
	e.Uint(uint64(len(r.states)))
	for _, s := range r.states {
		e.Word(s)
	}
	e.Uint(uint64(len(r.waits)))
	for _, w := range r.waits {
		e.Word(w.key)
		e.Int(w.start)
		e.Int(w.last)
		e.Uint(uint64(w.tool))
		e.Uint(uint64(w.flags))
	}
	r.seen.encode(e)
	e.Uint(uint64(r.lastStep))
	t := &r.tokens
	for _, n := range append([]int64{t.Input, t.Output, t.CachedInput, t.SinceProgress}, t.ByState[:]...) {
		e.Int(n)
	}
}

// DecodeRun reads a run Encode wrote, to be judged under cfg (nil: the defaults, as NewRun). It
// returns nil when the decoder fails, and fails the decoder on any value a run could not hold (a ring
// position past the ring, a table past its bound, an unknown flag), so that what it returns is a run
// Observe and End can take.
func DecodeRun(d *statecodec.Decoder, cfg *Config) *Run {
	r := NewRun(cfg)
	r.step = int32(bounded(d, "step", math.MaxInt32))
	r.barren = int32(bounded(d, "barren", math.MaxInt32))
	r.reason = uint8(bounded(d, "reason", uint64(len(reasons)-1)))
	r.hasPlan = d.Bool()
	r.lastPlan = d.Float()
	r.hasDist = d.Bool()
	r.lastDist = d.Float()

	r.histLen = uint8(bounded(d, "history length", histCap))
	r.histPos = uint8(bounded(d, "history position", histCap-1))
	if d.Err() == nil && r.histLen < histCap && r.histPos != r.histLen {
		d.Fail(fmt.Errorf("history position %d in a history of %d", r.histPos, r.histLen))
	}
	for i := range r.hist[:r.histLen] {
		r.hist[i] = histEntry{key: d.Word(), out: d.Word()}
	}
	for _, bits := range [...]*uint16{&r.failed, &r.exempt, &r.news, &r.paused} {
		*bits = uint16(bounded(d, "history bits", math.MaxUint16))
	}

	m := &r.calls
	for _, n := range [...]*uint16{&m.rounds, &m.cutOffs, &m.continuations, &m.empties, &m.toolFailures} {
		*n = uint16(bounded(d, "model-call count", math.MaxUint16))
	}
	m.flags = uint8(bounded(d, "model-call flags", uint64(afterCut|lastCut|lastEmpty|judged)))

	r.tools = make([]toolEntry, tableLen(d, "tools", maxTools, 16))
	for i := range r.tools {
		r.tools[i] = toolEntry{tool: d.Word(), last: d.Word()}
	}
	r.states = make([]uint64, tableLen(d, "states", maxStates, 8))
	for i := range r.states {
		r.states[i] = d.Word()
	}
	r.waits = make([]waitEntry, tableLen(d, "waits", maxWaits, 12))
	for i := range r.waits {
		w := &r.waits[i]
		w.key, w.start, w.last = d.Word(), d.Int(), d.Int()
		w.tool = uint32(bounded(d, "wait tool", math.MaxUint32))
		w.flags = uint8(bounded(d, "wait flags", uint64(waitActive|waitTerminal)))
	}
	r.seen.decode(d)
	r.lastStep = uint8(bounded(d, "latest step", uint64(lastUnjudged)))
	t := &r.tokens
	for _, n := range append([]*int64{&t.Input, &t.Output, &t.CachedInput, &t.SinceProgress}, pointers(t.ByState[:])...) {
		*n = d.Int()
	}
	if d.Err() != nil {
		return nil
	}
	return r
}

// pointers are the addresses of counts' elements, to decode into.
func pointers(counts []int64) []*int64 {
	out := make([]*int64, len(counts))
	for i := range counts {
		out[i] = &counts[i]
	}
	return out
}

// bounded reads a Uint and fails the decoder when it is past max.
func bounded(d *statecodec.Decoder, what string, max uint64) uint64 {
	v := d.Uint()
	if v > max {
		d.Fail(fmt.Errorf("%s %d past its bound %d", what, v, max))
		return 0
	}
	return v
}

// tableLen reads the length of a table of at most max entries of at least minBytes each.
func tableLen(d *statecodec.Decoder, what string, max, minBytes int) int {
	n := d.Len(minBytes)
	if n > max {
		d.Fail(fmt.Errorf("%d %s, past the bound of %d", n, what, max))
		return 0
	}
	return n
}

// The seen set is saved as what it is: the exact table's fingerprints, or the filters.
const (
	seenExact uint64 = iota
	seenOneFilter
	seenTwoFilters
)

func (s *seenSet) encode(e *statecodec.Encoder) {
	switch {
	case s.cur == nil:
		e.Uint(seenExact)
		e.Uint(uint64(s.small.n))
		for _, f := range s.small.slots {
			if f != 0 {
				e.Uint(uint64(f))
			}
		}
	case s.old == nil:
		e.Uint(seenOneFilter)
		s.cur.encode(e)
	default:
		e.Uint(seenTwoFilters)
		s.cur.encode(e)
		s.old.encode(e)
	}
}

func (s *seenSet) decode(d *statecodec.Decoder) {
	switch mode := d.Uint(); mode {
	case seenExact:
		n := tableLen(d, "seen fingerprints", smallMax, 1)
		for range n {
			f := uint32(bounded(d, "seen fingerprint", math.MaxUint32))
			if d.Err() != nil {
				return
			}
			if f == 0 || s.small.has(f) {
				d.Fail(errors.New("a seen fingerprint that is zero or held twice"))
				return
			}
			s.small.insert(f)
		}
	case seenOneFilter, seenTwoFilters:
		s.cur = decodeBloom(d)
		if mode == seenTwoFilters {
			s.old = decodeBloom(d)
		}
	default:
		d.Fail(fmt.Errorf("a seen set of kind %d", mode))
	}
}

func (b *bloom) encode(e *statecodec.Encoder) {
	e.Uint(uint64(b.n))
	for _, w := range b.bits {
		e.Word(w)
	}
}

func decodeBloom(d *statecodec.Decoder) *bloom {
	b := &bloom{n: int(bounded(d, "filter count", generationMax))}
	if d.Remaining() < bloomWords*8 {
		d.Fail(fmt.Errorf("a filter cut short: %d bytes of %d", d.Remaining(), bloomWords*8))
		return b
	}
	for i := range b.bits {
		b.bits[i] = d.Word()
	}
	return b
}

// Encode appends the step, every field of it: a step a ledger holds waiting for its result is saved
// with its run, and judged after the restart as it would have been before.
func (s *Step) Encode(e *statecodec.Encoder) {
	// The zero Start is a flag of its own: UnixNano cannot carry it.
	e.Bools(s.Failed, s.Channel, s.Pause, s.Waiting, s.Brief, s.Unread, s.NoCallKey, s.HasState, s.HasWaitState,
		s.HasPlan, s.HasGoal, s.Result.Empty, s.Result.Invalid, s.Result.Failed, s.Result.Channel, s.Result.Waiting,
		s.Result.Brief, s.Start.IsZero())
	e.String(s.Tool)
	if !s.Start.IsZero() {
		e.Int(s.Start.UnixNano())
	}
	e.Bytes(s.CallKey[:])
	e.Bytes(s.Result.Sum[:])
	e.Bytes(s.ErrorKey[:])
	for _, fps := range [...][]uint64{s.Units, s.Items} {
		e.Uint(uint64(len(fps)))
		for _, f := range fps {
			e.Word(f)
		}
	}
	e.String(s.State)
	e.String(s.WaitState)
	e.Float(s.Plan)
	e.Float(s.Goal)
	e.Float(s.GoalTarget)
}

// DecodeStep reads a step Step.Encode wrote.
func DecodeStep(d *statecodec.Decoder) Step {
	var s Step
	var noStart bool
	d.Bools(&s.Failed, &s.Channel, &s.Pause, &s.Waiting, &s.Brief, &s.Unread, &s.NoCallKey, &s.HasState, &s.HasWaitState,
		&s.HasPlan, &s.HasGoal, &s.Result.Empty, &s.Result.Invalid, &s.Result.Failed, &s.Result.Channel, &s.Result.Waiting,
		&s.Result.Brief, &noStart)
	s.Tool = d.String()
	if !noStart {
		s.Start = time.Unix(0, d.Int()).UTC()
	}
	for _, sum := range [...]*digest.Sum{&s.CallKey, &s.Result.Sum, &s.ErrorKey} {
		b := d.Bytes()
		if d.Err() == nil && len(b) != len(sum) {
			d.Fail(fmt.Errorf("a digest of %d bytes, not %d", len(b), len(sum)))
		}
		copy(sum[:], b)
	}
	for _, fps := range [...]*[]uint64{&s.Units, &s.Items} {
		if n := d.Len(8); n > 0 {
			*fps = make([]uint64, n)
			for i := range *fps {
				(*fps)[i] = d.Word()
			}
		}
	}
	s.State = d.String()
	s.WaitState = d.String()
	s.Plan, s.Goal, s.GoalTarget = d.Float(), d.Float(), d.Float()
	return s
}
