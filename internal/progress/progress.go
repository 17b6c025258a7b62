// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package progress is the per-run state machine of the agentguard processor:
// fed one run's tool steps in start-time order, it says for each step whether
// the run made progress and whether the run is stuck, and why. The rules are
// stated, with their reasons and limits, in
// docs/design.md#6-progress-internalprogress-internaldigest.
//
// # Progress
//
// A step is progress when any of four signals fired (they are combined
// disjunctively; the strictness lives in the counter, not in the test):
//
//  1. result: the result brought something this run had not seen, through
//     any tool: one of its units (Step.Units: the lines and leaves digest
//     lists, volatile tokens masked) is not among the units of the run's
//     earlier results. A failed step's units are those of its error, so a
//     new error is something new and the same error again is not. An Empty
//     result (or a failure with a zero ErrorKey) never counts as content. A
//     sweep's answer counts too: an acknowledgement (Step.Brief: empty, one
//     line, a few leaves) identical to the tool's previous answer, to a call
//     naming an item (Step.Items) the tool was not asked about before, is
//     news about that item, unless it is a channel failure (Step.Channel: a
//     rate limit, a block, a timeout says nothing about the item). The same
//     document for a new item is the same document: nothing new.
//  2. write: a KindWrite tool whose step did not fail and changed something.
//     With StateField set and Step.HasState, only a state value not seen
//     before in the run counts (a bounded set of seen states, shared by
//     tools with the same StateField, is what catches edit-and-revert; such
//     a step is judged by its state alone, without the result signal).
//     Without it, a write counts when its arguments differ from every
//     earlier write of the run, or when its result brought something new:
//     rewriting the same scratchpad again changes nothing.
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
// Each is judged on the call key and outcome history (the last 16 steps),
// and each needs that nothing new entered the run while it formed: a step
// that fired a signal (a new result from any tool, a write) breaks it, so a
// poll repeated while something around it moves is not a loop.
//
//   - loop: the current CallKey with the same outcome for the third time
//     within the previous LoopWindow calls, and no step since the first of
//     the three brought anything new. Failed steps are left to
//     repeated_error, so retries after a failure are never a loop.
//   - repeated_error: the step failed and the two previous calls with this
//     key failed with the same error, nothing new between.
//   - alternation: keys A,B,A,B (A != B) over the last four steps, each
//     key's outcome unchanged and the second A,B bringing nothing new.
//   - cycle: for a period L of 3 to 5, the last L steps repeat the L before
//     them key for key and outcome for outcome (the keys not all equal; a
//     period of 2 is alternation), the repeat bringing nothing new.
//
// A step that matches a pattern gets no credit from the result signal (its
// result was already seen for this very call), so only a write, plan or goal
// signal can make it progress. A step that is progress is never stuck.
//
// When several reasons apply the most specific wins: wait_timeout,
// repeated_error, alternation, cycle, loop, no_progress.
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
// Waiting that is not declared is still waiting (Verdict.Waiting: neither
// progress nor barren, part of no pattern), within bounds that do not depend
// on a declaration:
//
//   - an unchanged repeat of a call whose own outcome changed earlier in the
//     history (a poll of something that moves), up to NoProgressLimit-1
//     repeats in a row; after that its repeats are barren again;
//   - a pause (Step.Pause: a sleep) between other calls; a pause right after
//     a pause is judged like any step.
//
// # Unjudged steps
//
// A step whose result no convention could read (Step.Unread) is not
// judged: it is neither progress nor barren, takes part in no pattern and
// leaves the counter where it was, so a run agentguard cannot read is never
// called stuck. A failed step is read from its status; a write without a
// StateField needs no result; a state taken from a span attribute is read
// too. A step whose arguments could not be read (Step.NoCallKey) is judged
// by its result, but repeats no call and names no item.
//
// # Episodes
//
// The first stuck step opens an episode (Verdict.NewEpisode); every later
// step without progress reports the episode as stuck, with the reason of that
// step or, when none applies, the episode's latest reason. A progress step
// ends the episode. An exempt poll or a waiting step neither ends nor extends
// it and is not reported stuck.
//
// # Memory
//
// A Run keeps 8-byte folds of digests: the last outcome of up to 16 tools
// (least recently used evicted), a ring of the last 16 call keys and
// outcomes, up to 32 seen states (oldest evicted) and up to 4 active waits
// (least recently polled evicted): under 1 KiB, and 80 bytes of token
// account (tokens.go). What the run has seen
// (units, items, write arguments) is a set that grows with what the run
// sees: exact up to 768 fingerprints (4 KiB), then two Bloom filters of
// 8 KiB that remember the run's latest 6,000 to 12,000; what is forgotten
// (Verdict.Forgotten counts it) looks new again (seen.go).
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
	// UndeclaredMaxWait bounds a wait no manifest entry declares (default 30 minutes; negative: such
	// polls are judged like any call).
	UndeclaredMaxWait time.Duration
	Tools             map[string]ToolPolicy
}

const (
	defaultNoProgressLimit = 4
	defaultLoopWindow      = 8
	// DefaultUndeclaredMaxWait is how long a poll no manifest declares may wait on something its
	// result says is in progress.
	DefaultUndeclaredMaxWait = 30 * time.Minute

	histCap   = 16 // call history: the loop window plus the longest cycle (2×5)
	maxTools  = 16
	maxStates = 32
	maxWaits  = 4
)

// Step is one tool call of the run, as the processor saw it.
type Step struct {
	Tool     string
	Start    time.Time
	CallKey  digest.Sum    // digest.Key(tool, args)
	Result   digest.Result // digest.Of(result)
	Failed   bool          // the call failed: span status error, or a result that reports a failure
	ErrorKey digest.Sum    // digest of the error when Failed

	// Units are the fingerprints of what the result (or, when Failed, the error) holds: digest's
	// Scratch.Units. Without them the whole outcome is the only unit.
	Units []uint64
	// Items are the fingerprints of the items the call names: digest's Scratch.Items.
	Items []uint64
	// Channel: the result or error names a failure of the channel (digest.Result.Channel).
	Channel bool
	// Pause: the call only waits (digest.Call.Pause).
	Pause bool
	// Waiting: the result says what it reports is still in progress (digest.Result.Waiting).
	Waiting bool
	// Brief: the result (or, when Failed, the error) is an acknowledgement rather than a document
	// (digest.Result.Brief).
	Brief bool

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
	Progress   bool   // any signal fired, or the step was an exempt poll or waiting
	Signals    Signal // the signals that fired
	Barren     int    // the no-progress counter after this step
	WaitExempt bool   // this step was an exempt poll of a declared wait
	Waiting    bool   // this step was waiting without a declaration: no signal, not barren
	Stuck      Reason // non-empty while the run is stuck
	NewEpisode bool   // the run entered a stuck episode at this step
	// EpisodeTokens, on the step that opens an episode, are the tokens the run spent since its latest
	// progress step: what the streak that led to the episode cost (tokens.go).
	EpisodeTokens int64
	Forgotten     int // fingerprints of what the run had seen that this step made it forget
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
	exempt   uint16 // ring bit i: hist[i] was an exempt poll or waiting
	news     uint16 // ring bit i: hist[i] fired a signal (brought something new)
	paused   uint16 // ring bit i: hist[i] was a pause
	calls    modelCalls
	hist     [histCap]histEntry
	tools    []toolEntry
	states   []uint64
	waits    []waitEntry
	seen     seenSet

	// What the run's model calls cost (tokens.go). A saved run's state must hold these too.
	lastStep uint8 // what the latest step was: lastJudged, lastWaiting or lastUnjudged
	tokens   Spend
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
		cap(r.states)*8 +
		cap(r.waits)*int(unsafe.Sizeof(waitEntry{})) +
		r.seen.sizeBytes()
}

// fold keeps 8 bytes of a digest: collisions stay out of practical reach
// for the handful of values a run compares.
func fold(s digest.Sum) uint64 { return binary.LittleEndian.Uint64(s[:8]) }

// failSalt separates an error outcome from a result with the same digest; itemSalt and writeSalt
// keep an item and a write's arguments apart from the units of results in the seen set.
const (
	failSalt  = 0x9e3779b97f4a7c15
	itemSalt  = 0xc2b2ae3d27d4eb4f
	writeSalt = 0x165667b19e3779f9
)

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

// Judgeable reports whether Observe can judge a step: its result was read, or the step says enough
// without it (it failed, its state came from a span attribute, or its tool is a write declared
// without a state_field).
func (c *Config) Judgeable(s Step) bool {
	if !s.Unread || s.Failed || s.HasState || s.HasWaitState {
		return true
	}
	if c == nil {
		c = &defaultConfig
	}
	pol := c.Tools[s.Tool]
	return pol.Kind == KindWrite && pol.StateField == ""
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
	if !r.cfg.Judgeable(s) {
		v.Unjudged = true
		r.lastStep = lastUnjudged
		return v
	}
	r.lastStep = lastJudged
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
	fresh := !empty && r.fresh(s.Units, out)
	sameAnswer := !r.swapLast(tool, out)
	newItem := !s.NoCallKey && r.newItem(tool, s.Items)
	stateJudged := pol.Kind == KindWrite && pol.StateField != "" && s.HasState && !s.Failed
	if !stateJudged && (fresh || sameAnswer && newItem && s.Brief && !s.Channel) {
		v.Signals |= SignalResult
	}
	if pol.Kind == KindWrite && !s.Failed {
		var changed bool
		if pol.StateField != "" && s.HasState {
			changed = r.addState(fnv64(pol.StateField, s.State))
		} else {
			changed = r.seen.add(key^writeSalt) || fresh
		}
		if changed {
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
	v.Forgotten = int(r.seen.takeForgotten())

	// Waits: a declared wait by its manifest entry; an undeclared one by what its result says, by
	// its own result having moved before, or by being a pause between other calls.
	var exemptOK, timeout, terminalAgain, waiting, ended bool
	if pol.Kind == KindWait {
		exemptOK, timeout, terminalAgain = r.poll(&pol, declaredState(&pol, s), tool, key, s.Start.UnixNano())
	} else if !s.NoCallKey {
		waiting, timeout, ended = r.undeclaredPoll(tool, key, s)
	}
	if !waiting && !timeout && !ended && pol.Kind != KindWait && v.Signals == 0 && !s.Failed {
		waiting = s.Pause && !r.afterPause() || r.stillPolling(key, out)
	}

	pos := r.push(key, out, s.Failed, s.Pause)

	reason := rNone
	switch {
	case timeout:
		reason = rWaitTimeout
	case exemptOK || waiting:
		// An exempt poll or a waiting step is judged by no pattern.
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
	case (exemptOK || waiting) && v.Signals == 0:
		r.exempt |= 1 << pos
		v.WaitExempt = exemptOK
		v.Waiting = waiting
		v.Progress = true
		r.lastStep = lastWaiting
	case v.Signals != 0:
		r.news |= 1 << pos
		v.Progress = true
		r.barren = 0
		r.reason = rNone
		r.tokens.SinceProgress = 0
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
		if v.NewEpisode {
			v.EpisodeTokens = r.tokens.SinceProgress
		}
		v.Stuck = reasons[reason]
	}
	v.Barren = int(r.barren)
	return v
}

// fresh records what a result brought and reports whether any of it was new to the run. A step
// without units has its whole outcome as its one unit.
func (r *Run) fresh(units []uint64, out uint64) bool {
	if len(units) == 0 {
		return r.seen.add(out)
	}
	return r.seen.addAll(units)
}

// newItem records the items a call names, for its tool, and reports whether any was new.
func (r *Run) newItem(tool uint64, items []uint64) bool {
	fresh := false
	for _, it := range items {
		if r.seen.add(it ^ tool ^ itemSalt) {
			fresh = true
		}
	}
	return fresh
}
