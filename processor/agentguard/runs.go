package agentguard

import (
	"sync"
	"time"

	"github.com/agentotel/agentotel/internal/progress"
	"github.com/agentotel/agentotel/internal/recent"
)

// runs is the state agentguard holds: one progress.Run per run in flight, bounded in count and idle
// time, and the agent names admitted as metric labels, bounded so cardinality cannot grow with traffic.
type runs struct {
	mu        sync.Mutex
	byKey     *recent.Map[*runState]
	policy    *progress.Config
	agents    map[string]struct{}
	maxAgents int
	evicted   recent.Evicted
}

type runState struct {
	progress *progress.Run
	// agent is the run's agent name once any span of it said so: later batches may not carry it.
	agent string
}

// otherAgents is the label for agents past the max_agent_names cap.
const otherAgents = "other"

func newRuns(cfg *Config, policy *progress.Config) *runs {
	return &runs{
		byKey:     recent.New[*runState](cfg.MaxRuns, cfg.RunIdleTimeout),
		policy:    policy,
		agents:    map[string]struct{}{},
		maxAgents: cfg.MaxAgentNames,
	}
}

// get returns a run's state, creating it when new, and marks the run active now. The caller holds mu.
func (r *runs) get(key string, now time.Time) (st *runState, created bool) {
	st, ok := r.byKey.Get([]byte(key), now)
	if !ok {
		st = &runState{progress: progress.NewRun(r.policy)}
	}
	r.count(r.byKey.Put(key, st, now))
	return st, !ok
}

// end forgets a run whose root agent span has ended. The caller holds mu.
func (r *runs) end(key string) { r.byKey.Delete(key) }

// active expires idle runs and returns how many are held.
func (r *runs) active(now time.Time) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.count(r.byKey.Expire(now))
	return r.byKey.Len()
}

func (r *runs) count(ev recent.Evicted) {
	r.evicted.Age += ev.Age
	r.evicted.Capacity += ev.Capacity
}

// takeEvicted returns and resets the eviction counts. The caller holds mu.
func (r *runs) takeEvicted() recent.Evicted {
	ev := r.evicted
	r.evicted = recent.Evicted{}
	return ev
}

// label returns the metric label for an agent name. The caller holds mu.
func (r *runs) label(agent string) string {
	if _, ok := r.agents[agent]; ok {
		return agent
	}
	if len(r.agents) < r.maxAgents {
		r.agents[agent] = struct{}{}
		return agent
	}
	return otherAgents
}
