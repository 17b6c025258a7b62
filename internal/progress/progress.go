// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package progress is the per-run state machine of the agentguard processor:
// fed one run's tool steps in start-time order, it says for each step whether
// the run made progress and whether the run is stuck, and why.
//
// # Progress
//
// A step is progress when any of four signals fired (they are combined
// disjunctively; the strictness lives in the counter, not in the test):
//
//  1. result: the outcome differs from the last outcome of the same tool. The
//     outcome is Result.Sum, or for a failed step ErrorKey (a new error is
//     something new in the context; the same error again is not). An Empty
//     result (or a failure with a zero ErrorKey) never counts, even the
//     first time.
//  2. write: a KindWrite tool whose step did not fail. With StateField set
//     and Step.HasState, only a state value not seen before in the run counts
//     (a bounded set of seen states, shared by tools with the same
//     StateField, is what catches edit-and-revert; such a step is judged by its
//     state alone, without the result signal). Without StateField, or
//     when the caller could not extract the state, any successful write
//     counts: missing evidence should not make a run look stuck.
//  3. plan: Plan greater than the last Plan observed in the run.
//  4. goal: |GoalTarget-Goal| smaller than the last distance observed.
//
// The first Plan or Goal observation is a baseline, not an advance; NaN
// observations are ignored.
//
// Barren counts consecutive steps without progress; progress resets it. At
// Config.NoProgressLimit the run is stuck with reason no_progress.
//
// # Patterns
//
// Each is judged on the call key and outcome history (the last 16 steps):
//
//   - loop: the current CallKey occurred among the previous LoopWindow calls
//     with the same outcome: immediately before, or twice. A single
//     recurrence with other calls between is left to alternation and cycle,
//     which name it when the pattern shows. Failed steps are left to
//     repeated_error, so one retry after a transient error is not a loop.
//   - repeated_error: the step failed and the two previous calls with this
//     key failed with the same ErrorKey (three in a row for that key).
//   - alternation: keys A,B,A,B (A != B) over the last four steps, with each
//     key's outcome unchanged.
//   - cycle: for a period L of 3 to 5, the last L steps repeat the L before
//     them key for key and outcome for outcome (the keys not all equal; a
//     period of 2 is alternation).
//
// Every pattern needs the world to have stood still: a step between the
// compared calls whose write signal fired breaks it (re-running the tests
// after an edit that stuck is a question put to a new world, and gets the
// same answer legitimately). Only writes count here: a changed result in
// between is exactly what same-tool alternation produces.
//
// A step that matches a pattern gets no credit from the result signal (its
// result was already seen for this very call), so only a write, plan or goal
// signal can make it progress. A step that is progress is never stuck: the
// polling agent whose results keep moving never loops, and alternation
// between two tools each returning new results is not a pattern.
//
// When several reasons apply the most specific wins: wait_timeout,
// repeated_error, alternation, cycle, loop, no_progress. Because a loop
// with calls between needs two recurrences, alternation (A,B,A,B) and
// cycles open their own episodes, and the stuck event carries their names.
//
// # Waits
//
// A KindWait tool poll whose WaitState is in WaitingValues is exempt (not
// progress, but Barren does not increase and no pattern is judged) while the
// time since the first waiting poll of that call key is below MaxWait and the
// time since the previous poll of the tool is at least MinInterval. A poll
// that brought a new result is plain progress rather than exempt. Past
// MaxWait, a poll still in a waiting state is stuck with wait_timeout (the
// deadline is a control: a moving progress bar past it earns no result
// credit). A WaitState in neither list, or a failed poll, is counted normally
// for that step; the wait's start is kept, so a flapping status cannot reset
// the deadline. A poll of a key whose previous poll returned a TerminalValues
// state is a loop unless it is waiting again (a new wait, with a new start).
// MaxWait <= 0 grants no exemption: a wait without a deadline is the
// whitelist the manifest replaces.
//
// # Unjudged steps
//
// A step whose result no convention could read (Step.Unread) is not
// judged: it is neither progress nor barren, takes part in no pattern and
// leaves the counter where it was, so a run agentguard cannot read is never
// called stuck. A failed step is read from its status; a write without a
// StateField needs no result; a state taken from a span attribute is read
// too. A step whose arguments could not be read (Step.NoCallKey) is judged
// by its result, but repeats no call.
//
// # Episodes
//
// The first stuck step opens an episode (Verdict.NewEpisode); every later
// step without progress reports the episode as stuck, with the reason of that
// step or, when none applies, the episode's latest reason. A progress step
// ends the episode. An exempt poll neither ends nor extends it and is not
// reported stuck.
//
// # Memory
//
// A Run keeps 8-byte folds of digests: the last outcome of up to 16 tools
// (least recently used evicted), a ring of the last 16 call keys and
// outcomes, up to 32 seen states (oldest evicted) and up to 4 active waits
// (least recently polled evicted). SizeBytes is below 1 KiB even with every
// table full.
package progress

import (
	"encoding/binary"
	"math"
	"strings"
	"time"
	"unsafe"

	"github.com/agentotel/agentotel/internal/digest"
)

// Kind says how a tool's steps count.
type Kind uint8

const (
	KindRead  Kind = iota // only its results can show progress
	KindWrite             // a successful call changes the world
	KindWait              // a poll that may repeat while the watched thing is waiting
)

func (k Kind) String() string {
	switch k {
	case KindRead:
		return "read"
	case KindWrite:
		return "write"
	case KindWait:
		return "wait"
	}
	return "unknown"
}

// ToolPolicy is one tool's manifest entry.
type ToolPolicy struct {
	Kind Kind
	// StateField (write): the result field or attribute naming the state
	// after the write (e.g. the file's sha); the caller extracts it into
	// Step.State.
	StateField string
	// ProgressField (wait): the result field holding the wait state; the
	// caller extracts it into Step.WaitState.
	ProgressField  string
	WaitingValues  []string
	TerminalValues []string
	MaxWait        time.Duration
	MinInterval    time.Duration
}

// Config is shared by all runs and must not change while runs use it.
type Config struct {
	NoProgressLimit int // default 4
	LoopWindow      int // default 8, at most 15: recent call keys the loop hash remembers
	Tools           map[string]ToolPolicy
}

const (
	defaultNoProgressLimit = 4
	defaultLoopWindow      = 8

	histCap  = 16 // call history: the loop window plus the longest cycle (2×5)
	maxTools = 16
	maxSeen  = 32
	maxWaits = 4
)

// Step is one tool call of the run, as the processor saw it.
type Step struct {
	Tool     string
	Start    time.Time
	CallKey  digest.Sum    // digest.Key(tool, args)
	Result   digest.Result // digest.Of(result)
	Failed   bool          // the call failed: span status error, or a result that is only an error
	ErrorKey digest.Sum    // digest of the error message when Failed

	// Unread: no convention could read the result. Such a step is not judged (see Observe).
	Unread bool
	// NoCallKey: no convention could read the arguments, so CallKey says nothing about the call and
	// the step takes part in no repeated-call pattern.
	NoCallKey bool

	State    string // write tools: the StateField value after the write
	HasState bool

	WaitState    string // wait tools: the ProgressField value
	HasWaitState bool

	Plan    float64 // plan advance, e.g. completed items
	HasPlan bool

	Goal       float64 // goal distance: value and its target
	HasGoal    bool
	GoalTarget float64
}

// Signal is the set of progress signals that fired on a step.
type Signal uint8

const (
	SignalResult Signal = 1 << iota
	SignalWrite
	SignalPlan
	SignalGoal
)

var signalNames = func() (t [16]string) {
	names := []string{"result", "write", "plan", "goal"}
	for s := range t {
		var parts []string
		for i, n := range names {
			if s&(1<<i) != 0 {
				parts = append(parts, n)
			}
		}
		t[s] = strings.Join(parts, ",")
	}
	return t
}()

// String lists the signals, e.g. "result,write"; "" when none fired.
func (s Signal) String() string { return signalNames[s&0xf] }

// Reason says why a run is stuck; "" means it is not.
type Reason string

const (
	ReasonNone          Reason = ""
	ReasonNoProgress    Reason = "no_progress"
	ReasonLoop          Reason = "loop"
	ReasonRepeatedError Reason = "repeated_error"
	ReasonAlternation   Reason = "alternation"
	ReasonCycle         Reason = "cycle"
	ReasonWaitTimeout   Reason = "wait_timeout"
)

// Verdict is the judgement on one step.
type Verdict struct {
	Step       int    // 1-based step number in the run
	Unjudged   bool   // the result could not be read: no other field but Step says anything
	Progress   bool   // any signal fired (or exempt wait)
	Signals    Signal // the signals that fired
	Barren     int    // the no-progress counter after this step
	WaitExempt bool   // this step was an exempt poll
	Stuck      Reason // non-empty while the run is stuck
	NewEpisode bool   // the run entered a stuck episode at this step
}

type histEntry struct{ key, out uint64 }

type toolEntry struct{ tool, last uint64 }

type waitEntry struct {
	key   uint64
	start int64 // UnixNano of the first waiting poll, when waiting
	last  int64 // UnixNano of the latest poll of this key
	tool  uint32
	flags uint8
}

const (
	waitActive   uint8 = 1 << iota // start is set
	waitTerminal                   // the latest poll returned a terminal state
)

// Run is one run's state. It is not safe for concurrent use: the caller
// locks per run.
type Run struct {
	cfg      *Config
	lastPlan float64
	lastDist float64
	step     int32
	barren   int32
	window   uint8
	histLen  uint8
	histPos  uint8 // where the next entry goes
	reason   uint8 // the episode's latest reason (index into reasons); 0: no episode
	hasPlan  bool
	hasDist  bool
	failed   uint16 // ring bit i: hist[i] failed
	exempt   uint16 // ring bit i: hist[i] was an exempt poll
	wrote    uint16 // ring bit i: hist[i] fired the write signal
	calls    modelCalls
	hist     [histCap]histEntry
	tools    []toolEntry
	seen     []uint64
	waits    []waitEntry
}

// Reasons in order of preference; index 0 is "not stuck".
var reasons = [...]Reason{ReasonNone, ReasonWaitTimeout, ReasonRepeatedError, ReasonAlternation, ReasonCycle, ReasonLoop, ReasonNoProgress}

const (
	rNone uint8 = iota
	rWaitTimeout
	rRepeatedError
	rAlternation
	rCycle
	rLoop
	rNoProgress
)

var defaultConfig Config

// NewRun starts the state of one run. cfg may be nil (defaults, no tool
// policies); it is read, never written.
func NewRun(cfg *Config) *Run {
	if cfg == nil {
		cfg = &defaultConfig
	}
	r := &Run{cfg: cfg, window: defaultLoopWindow}
	if cfg.LoopWindow > 0 {
		r.window = uint8(min(cfg.LoopWindow, histCap-1))
	}
	return r
}

// limit is the no-progress limit: read from the shared Config, so a run need not hold it.
func (r *Run) limit() int32 {
	if r.cfg.NoProgressLimit > 0 {
		return int32(min(r.cfg.NoProgressLimit, math.MaxInt32))
	}
	return defaultNoProgressLimit
}

// SizeBytes approximates the bytes the run retains (not counting the shared
// Config).
func (r *Run) SizeBytes() int {
	return int(unsafe.Sizeof(*r)) +
		cap(r.tools)*int(unsafe.Sizeof(toolEntry{})) +
		cap(r.seen)*8 +
		cap(r.waits)*int(unsafe.Sizeof(waitEntry{}))
}

// fold keeps 8 bytes of a digest: collisions stay out of practical reach
// for the handful of values a run compares.
func fold(s digest.Sum) uint64 { return binary.LittleEndian.Uint64(s[:8]) }

// failSalt separates an error outcome from a result with the same digest.
const failSalt = 0x9e3779b97f4a7c15

func fnv64(parts ...string) uint64 {
	h := uint64(14695981039346656037)
	for i, s := range parts {
		if i > 0 {
			h ^= 0xff // separator no string byte sequence can imitate in position
			h *= 1099511628211
		}
		for j := 0; j < len(s); j++ {
			h ^= uint64(s[j])
			h *= 1099511628211
		}
	}
	return h
}

// Observe judges one step. Steps and model calls must come in start-time order.
//
// A step whose result cannot be read is unjudged: it is neither progress nor barren, it takes part in
// no pattern and leaves the counter where it was, unless its tool's declaration needs no result (a
// write without a state_field) or its state came from a span attribute.
func (r *Run) Observe(s Step) Verdict {
	r.step++
	v := Verdict{Step: int(r.step)}
	pol := r.cfg.Tools[s.Tool]
	r.calls.tool(s.Failed)
	if s.Unread && !s.Failed && !s.HasState && !s.HasWaitState && !(pol.Kind == KindWrite && pol.StateField == "") {
		v.Unjudged = true
		return v
	}
	r.calls.flags |= judged
	tool := fnv64(s.Tool)
	key := fold(s.CallKey)
	if s.NoCallKey {
		// A key no other step can share: the call is unknown, so it repeats nothing.
		key = fnv64(s.Tool) ^ uint64(r.step)*failSalt
	}

	var out uint64
	var empty bool
	if s.Failed {
		out = fold(s.ErrorKey) ^ failSalt
		empty = s.ErrorKey == digest.Sum{}
	} else {
		out = fold(s.Result.Sum)
		empty = s.Result.Empty
	}

	// The four signals. A write whose state is declared is judged by its state alone: its result
	// names the state it left, and a revert's result differs from the tool's last one while the
	// state it returns to is not new to the run.
	stateJudged := pol.Kind == KindWrite && pol.StateField != "" && s.HasState && !s.Failed
	if r.swapLast(tool, out) && !empty && !stateJudged {
		v.Signals |= SignalResult
	}
	if pol.Kind == KindWrite && !s.Failed {
		if pol.StateField == "" || !s.HasState || r.addState(fnv64(pol.StateField, s.State)) {
			v.Signals |= SignalWrite
		}
	}
	if s.HasPlan && !math.IsNaN(s.Plan) {
		if r.hasPlan && s.Plan > r.lastPlan {
			v.Signals |= SignalPlan
		}
		r.lastPlan, r.hasPlan = s.Plan, true
	}
	if s.HasGoal {
		if d := math.Abs(s.GoalTarget - s.Goal); !math.IsNaN(d) {
			if r.hasDist && d < r.lastDist {
				v.Signals |= SignalGoal
			}
			r.lastDist, r.hasDist = d, true
		}
	}

	var exemptOK, timeout, terminalAgain bool
	if pol.Kind == KindWait {
		exemptOK, timeout, terminalAgain = r.poll(&pol, tool, key, s)
	}

	pos := r.push(key, out, s.Failed)

	reason := rNone
	switch {
	case timeout:
		reason = rWaitTimeout
	case exemptOK:
		// An exempt poll is judged by no pattern.
	case r.repeatedError():
		reason = rRepeatedError
	case r.alternation():
		reason = rAlternation
	case r.cycle():
		reason = rCycle
	case terminalAgain || (!s.Failed && r.loop()):
		reason = rLoop
	}
	if reason != rNone {
		v.Signals &^= SignalResult
	}

	switch {
	case exemptOK && v.Signals == 0:
		r.exempt |= 1 << pos
		v.WaitExempt = true
		v.Progress = true
	case v.Signals != 0:
		if v.Signals&SignalWrite != 0 {
			r.wrote |= 1 << pos
		}
		v.Progress = true
		r.barren = 0
		r.reason = rNone
	default:
		r.barren++
		if reason == rNone && r.barren >= r.limit() {
			reason = rNoProgress
		}
		if reason == rNone {
			reason = r.reason // still inside the episode, if any
		}
		if reason != rNone {
			v.NewEpisode = r.reason == rNone
			r.reason = reason
		}
		v.Stuck = reasons[reason]
	}
	v.Barren = int(r.barren)
	return v
}

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
	for _, x := range r.seen {
		if x == h {
			return false
		}
	}
	if len(r.seen) == maxSeen {
		copy(r.seen, r.seen[1:])
		r.seen = r.seen[:maxSeen-1]
	}
	r.seen = appendBounded(r.seen, h, maxSeen)
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

// push adds the step to the history ring and returns its ring position.
func (r *Run) push(key, out uint64, failed bool) uint {
	pos := uint(r.histPos)
	r.hist[pos] = histEntry{key, out}
	bit := uint16(1) << pos
	r.exempt &^= bit
	r.wrote &^= bit
	if failed {
		r.failed |= bit
	} else {
		r.failed &^= bit
	}
	r.histPos = uint8((pos + 1) % histCap)
	if r.histLen < histCap {
		r.histLen++
	}
	return pos
}

// at returns the ring position i steps back (0: the current step).
func (r *Run) at(i int) uint {
	return uint((int(r.histPos) - 1 - i + 2*histCap) % histCap)
}

func (r *Run) isExempt(p uint) bool { return r.exempt&(1<<p) != 0 }
func (r *Run) isFailed(p uint) bool { return r.failed&(1<<p) != 0 }

// wroteBetween reports whether a step strictly between i and j steps back
// (i < j) changed the world: a repeat after a write is a question put to a
// new world, not a loop.
func (r *Run) wroteBetween(i, j int) bool {
	for k := i + 1; k < j; k++ {
		if r.wrote&(1<<r.at(k)) != 0 {
			return true
		}
	}
	return false
}

// loop: the current key among the previous LoopWindow calls, with the
// outcome unchanged. An immediate repeat is a loop at once; a repeat with
// other calls between counts from its second recurrence, so that an
// alternation or a cycle is named as such when it first shows rather than
// as a loop one step earlier.
func (r *Run) loop() bool {
	cur := r.hist[r.at(0)]
	earlier, between := 0, false
	for i := 1; i <= int(r.window) && i < int(r.histLen); i++ {
		p := r.at(i)
		if r.hist[p].key != cur.key {
			between = true
			continue
		}
		if r.isExempt(p) {
			continue
		}
		if r.hist[p].out != cur.out || r.wroteBetween(0, i) {
			return false
		}
		if earlier++; !between || earlier == 2 {
			return true
		}
	}
	return false
}

// repeatedError: this key failed with the same error on its last three calls.
func (r *Run) repeatedError() bool {
	p0 := r.at(0)
	if !r.isFailed(p0) {
		return false
	}
	cur := r.hist[p0]
	n := 1
	for i := 1; i < int(r.histLen); i++ {
		p := r.at(i)
		if r.hist[p].key != cur.key {
			continue
		}
		if !r.isFailed(p) || r.hist[p].out != cur.out || r.wroteBetween(0, i) {
			return false
		}
		if n++; n == 3 {
			return true
		}
	}
	return false
}

// same reports whether the steps i and j back agree in key and outcome and
// neither was an exempt poll.
func (r *Run) same(i, j int) bool {
	pi, pj := r.at(i), r.at(j)
	return !r.isExempt(pi) && !r.isExempt(pj) && r.hist[pi] == r.hist[pj]
}

// alternation: A,B,A,B with each side's outcome unchanged.
func (r *Run) alternation() bool {
	if r.histLen < 4 {
		return false
	}
	return r.hist[r.at(0)].key != r.hist[r.at(1)].key && r.same(0, 2) && r.same(1, 3) && !r.wroteBetween(0, 3)
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
		if ok && distinct && !r.wroteBetween(0, 2*l-1) {
			return true
		}
	}
	return false
}

// poll updates the wait state of a KindWait step and says whether it may be
// exempt, whether its wait timed out, and whether it repeats a poll that had
// already returned a terminal state.
func (r *Run) poll(pol *ToolPolicy, tool, key uint64, s Step) (exemptOK, timeout, terminalAgain bool) {
	now := s.Start.UnixNano()
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

	const (
		other = iota
		waiting
		terminal
	)
	state := other
	if s.HasWaitState && !s.Failed {
		if contains(pol.WaitingValues, s.WaitState) {
			state = waiting
		} else if contains(pol.TerminalValues, s.WaitState) {
			state = terminal
		}
	}
	switch state {
	case waiting:
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
	case terminal:
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
