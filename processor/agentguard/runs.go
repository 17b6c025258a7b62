// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"sync"
	"time"

	"github.com/agentotel/agentotel/internal/ledger"
	"github.com/agentotel/agentotel/internal/progress"
	"github.com/agentotel/agentotel/internal/recent"
	"github.com/agentotel/agentotel/internal/statecodec"
)

// runTable owns the run state and the lock that guards it: every use of the state goes through its
// methods, which take the lock, so no caller locks it or reaches the state unlocked. A batch reads and
// changes many runs, and the lookups before it must see the state as one, so update hands the state to
// a function for as long as it holds the lock; the idle timer and telemetry use the small methods.
type runTable struct {
	mu    sync.Mutex
	state *runs
	// encoded is the size of the last encoding: the next one is made room for at once.
	encoded int
}

func newRunTable(cfg *Config, policy *progress.Config) *runTable {
	return &runTable{state: newRuns(cfg, policy)}
}

// update calls fn with the state, under the lock. fn must not keep the state or anything it points to
// past its return, nor call another method of the table.
func (t *runTable) update(fn func(r *runs)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fn(t.state)
}

// encode returns the run state, encoded under the lock: the only part of a checkpoint that holds it,
// so a batch waits for the encoding and never for the write.
func (t *runTable) encode() []byte {
	var e statecodec.Encoder
	t.mu.Lock()
	defer t.mu.Unlock()
	e.Grow(t.encoded + t.encoded/8)
	t.state.encode(&e)
	t.encoded = len(e.Data())
	return e.Data()
}

// restore replaces the run state with the one payload holds (decodeRuns), and leaves it as it was
// when payload cannot be read.
func (t *runTable) restore(payload []byte, cfg *Config) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, err := decodeRuns(payload, cfg, t.state.policy)
	if err == nil {
		t.state = r
	}
	return err
}

// active expires idle runs and returns how many are held.
func (t *runTable) active(now time.Time) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state.active(now)
}

// take returns and resets what waits for telemetry: the evictions, and the runs that finished.
func (t *runTable) take() (recent.Evicted, []finishedRun) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state.take()
}

// eachAgent calls fn with the counters of every agent label, under the lock (the set of agents grows
// as runs are judged; each counter is read atomically).
func (t *runTable) eachAgent(fn func(*agentCounters)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, a := range t.state.agents {
		fn(a)
	}
}

// runs is the state agentguard holds: one progress.Run per run in flight, bounded in count and idle
// time; the run each trace belongs to when runs are grouped by attribute; and the labelled counters of
// the agent and tool names admitted as metric labels, bounded so cardinality cannot grow with traffic.
// It is reached only through runTable, under its lock.
type runs struct {
	byKey  *recent.Map[*runState]
	traces *recent.Map[string] // trace id -> run attribute value, learnt from any span of the trace
	// ended are runs their root span ended, for run_idle_timeout: a record or span of one that comes
	// later is not a new run.
	ended  *recent.Map[struct{}]
	policy *progress.Config
	budget time.Duration
	// agents are the counters of each agent label: up to maxAgents names, then "other".
	agents    map[string]*agentCounters
	maxAgents int
	tools     labels
	// finished are runs that ended, waiting for their rounds and duration to be recorded.
	finished []finishedRun
}

type runState struct {
	progress *progress.Run
	// agent is the run's agent name once any span of it said so: later batches may not carry it.
	agent string
	// id names the run in annotations: its run or session id, or its trace id.
	id string
	// first and last are the earliest start and latest end seen of the run's spans (UnixNano).
	first, last int64
	// sawRoot: a root span of the run has been seen (a run keyed by attribute spans several traces).
	sawRoot bool
	// ledger knows which of the run's calls were judged, and holds those whose result is still to
	// be read; readableTools: a tool call of the run was judged from its own span or record;
	// requests: a model call of the run carried its request, where a result may be read.
	ledger                  ledger.Ledger
	readableTools, requests bool
	// idles: the run is keyed by its convention's run key; it ends by idling, and has no root span
	// whose absence would make it abandoned.
	idles bool
}

// finishedRun is a run that ended, for telemetry.
type finishedRun struct {
	agent    *agentCounters
	summary  progress.Summary
	duration time.Duration
}

// otherLabel is the label for agents and tools past their caps.
const otherLabel = "other"

func newRuns(cfg *Config, policy *progress.Config) *runs {
	r := &runs{
		byKey:     recent.New[*runState](cfg.MaxRuns, cfg.RunIdleTimeout),
		traces:    recent.New[string](cfg.MaxRuns, cfg.RunIdleTimeout),
		ended:     recent.New[struct{}](cfg.MaxRuns, cfg.RunIdleTimeout),
		policy:    policy,
		budget:    cfg.RunBudget,
		agents:    map[string]*agentCounters{},
		maxAgents: cfg.MaxAgentNames,
		tools:     labels{max: cfg.MaxToolNames, seen: map[string]struct{}{}},
	}
	// A run that idles out has ended without a root span to say so; one dropped for capacity has not
	// ended at all, and is only counted as evicted (by the map).
	r.byKey.OnEvict(func(_ string, st *runState, byAge bool) {
		if byAge {
			r.finish(st, progress.Ending{Abandoned: !st.sawRoot && !st.idles})
		}
	})
	return r
}

// get returns a run's state, creating it when new, and marks the run active now.
func (r *runs) get(key string, now time.Time) (st *runState, created bool) {
	st, ok := r.byKey.Get([]byte(key), now)
	if !ok {
		st = &runState{progress: progress.NewRun(r.policy)}
	}
	r.byKey.Put(key, st, now)
	return st, !ok
}

// end forgets a run whose root span has ended and returns its account; remember keeps it as ended,
// for the records that may follow it (a logs pipeline's).
func (r *runs) end(key string, st *runState, rootFailed, remember bool, now time.Time) progress.Summary {
	r.byKey.Delete(key)
	if remember {
		r.ended.Put(key, struct{}{}, now)
	}
	return r.finish(st, progress.Ending{RootFailed: rootFailed})
}

// hasEnded reports whether a run's root span ended it lately.
func (r *runs) hasEnded(key string, now time.Time) bool {
	_, ok := r.ended.Get([]byte(key), now)
	return ok
}

// finish decides how a run ended, counts it, and queues it for the histograms.
func (r *runs) finish(st *runState, e progress.Ending) progress.Summary {
	agent := r.countersOf(st.agent)
	// What still waits for its result will not get it: those steps are unjudged.
	r.judgeUnread(st, agent, st.ledger.Drain(nil))
	e.Budget = r.budget
	if st.last > st.first {
		e.Duration = time.Duration(st.last - st.first)
	}
	s := st.progress.End(e)
	agent.finished[outcomeIndex[s.Outcome]].n.Add(1)
	r.finished = append(r.finished, finishedRun{agent: agent, summary: s, duration: e.Duration})
	return s
}

// judgeUnread judges the steps the ledger gave up, whose result was never read: unjudged, and
// counted so. Their spans were annotated unjudged when they passed.
func (r *runs) judgeUnread(st *runState, agent *agentCounters, given []progress.Step) {
	for _, s := range given {
		countStep(agent, r.toolCalls(agent, s.Tool), s, st.progress.Observe(s))
	}
}

// active expires idle runs and returns how many are held.
func (r *runs) active(now time.Time) int {
	r.byKey.Expire(now)
	r.traces.Expire(now)
	r.ended.Expire(now)
	return r.byKey.Len()
}

// traceRun returns the run a trace was seen in before, and remembers the one it is seen in now.
func (r *runs) traceRun(trace []byte, run string, now time.Time) string {
	if run != "" {
		r.traces.Put(string(trace), run, now)
		return run
	}
	run, _ = r.traces.Get(trace, now)
	return run
}

// take returns and resets what waits for telemetry.
func (r *runs) take() (ev recent.Evicted, finished []finishedRun) {
	ev, finished = r.byKey.TakeEvicted(), r.finished
	r.finished = nil
	return ev, finished
}

// countersOf returns the counters of an agent name: its own until max_agent_names agents have
// them, those of "other" past it.
func (r *runs) countersOf(agent string) *agentCounters {
	if a, ok := r.agents[agent]; ok {
		return a
	}
	label := agent
	if len(r.agents) >= r.maxAgents {
		label = otherLabel
		if a, ok := r.agents[otherLabel]; ok {
			return a
		}
	}
	a := newAgentCounters(label)
	r.agents[label] = a
	return a
}

// toolCalls returns the tool-call counters of an agent and a tool name, the tool labelled as
// max_tool_names allows: a name admitted as a label is found with one lookup.
func (r *runs) toolCalls(agent *agentCounters, tool string) []series {
	if calls, ok := agent.calls[tool]; ok {
		return calls
	}
	label := r.tools.admit(tool)
	calls, ok := agent.calls[label]
	if !ok {
		calls = newToolSeries(agent.name, label)
		agent.calls[label] = calls
	}
	return calls
}

// labels admits label values up to a cap; past it, values are counted as "other".
type labels struct {
	max  int
	seen map[string]struct{}
}

func (l *labels) admit(v string) string {
	if _, ok := l.seen[v]; ok {
		return v
	}
	if len(l.seen) < l.max {
		l.seen[v] = struct{}{}
		return v
	}
	return otherLabel
}
