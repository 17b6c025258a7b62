// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"go.opentelemetry.io/collector/component"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/confighint"
	"github.com/agentotel/agentotel/internal/digest"
	"github.com/agentotel/agentotel/internal/toolname"
)

// Config is the agentguard processor's configuration.
type Config struct {
	// NoProgressLimit is how many steps in a row may bring nothing new before the run is stuck.
	NoProgressLimit int `mapstructure:"no_progress_limit"`
	// LoopWindow is how many recent calls the loop hash remembers.
	LoopWindow int `mapstructure:"loop_window"`
	// VolatileFields are result fields stripped before digesting (timestamps, request ids, ETags,
	// latency), at any depth.
	VolatileFields []string `mapstructure:"volatile_fields"`
	// RunAttributes group a run across traces: the first of them present on a span (or its resource)
	// is the run key. Without them a run is a trace.
	RunAttributes []string `mapstructure:"run_attributes"`
	// PlanAttribute is a numeric span attribute that rises as plan items complete.
	PlanAttribute string `mapstructure:"plan_attribute"`
	// GoalAttribute is a numeric span attribute measuring the goal, GoalTarget the value it moves to.
	GoalAttribute string  `mapstructure:"goal_attribute"`
	GoalTarget    float64 `mapstructure:"goal_target"`
	// Tools declares what a tool is: read (default), write (with an optional state_field) or wait.
	Tools map[string]ToolConfig `mapstructure:"tools"`
	// RunBudget, when set, is the wall-clock budget of a run: every max_wait must fit inside it, and a
	// run that takes longer ends over_budget.
	RunBudget time.Duration `mapstructure:"run_budget"`
	// UndeclaredMaxWait bounds a wait no tools entry declares: a poll whose result says what it
	// watches is still in progress (running, queued, "still running") is exempt for this long from its
	// first such poll, and never longer than run_budget. 0 judges such polls like any call.
	UndeclaredMaxWait time.Duration `mapstructure:"undeclared_max_wait"`
	// MaxRuns and RunIdleTimeout bound the run state held; evictions are counted.
	MaxRuns        int           `mapstructure:"max_runs"`
	RunIdleTimeout time.Duration `mapstructure:"run_idle_timeout"`
	// MaxAgentNames caps the gen_ai.agent.name label values; further agents are counted as "other".
	MaxAgentNames int `mapstructure:"max_agent_names"`
	// MaxToolNames caps the gen_ai.tool.name label values of the tool-call counter; further tools are
	// counted as "other".
	MaxToolNames int `mapstructure:"max_tool_names"`
	// Conventions declares the attribute names of SDKs agentotel does not ship.
	Conventions []agentspan.Declared `mapstructure:"conventions"`
	// Storage names a storage extension (contrib's file_storage) that keeps the runs across restarts:
	// loaded at start, saved every CheckpointInterval and at shutdown. Without it a restart starts
	// every run afresh.
	Storage *component.ID `mapstructure:"storage"`
	// CheckpointInterval is how often the runs are saved while the collector runs: a crash loses
	// what changed since the last checkpoint.
	CheckpointInterval time.Duration `mapstructure:"checkpoint_interval"`

	// prevent unkeyed literal initialization
	_ struct{}
}

// ToolConfig is one tool's entry in the manifest: how its calls are judged
// (docs/design.md#6-progress-internalprogress-internaldigest).
type ToolConfig struct {
	// Kind is read, write or wait.
	Kind string `mapstructure:"kind"`
	// StateField (write) names the result field, or else span attribute, holding the state a write
	// leaves behind; the write counts only when it moves that state somewhere new in the run.
	StateField string `mapstructure:"state_field"`
	// ProgressField (wait) names the result field holding the state being waited on.
	ProgressField  string   `mapstructure:"progress_field"`
	WaitingValues  []string `mapstructure:"waiting_values"`
	TerminalValues []string `mapstructure:"terminal_values"`
	// MaxWait bounds one wait; MinInterval is the slowest legitimate poll rate.
	MaxWait     time.Duration `mapstructure:"max_wait"`
	MinInterval time.Duration `mapstructure:"min_interval"`
}

const (
	kindRead  = "read"
	kindWrite = "write"
	kindWait  = "wait"
)

func createDefaultConfig() *Config {
	return &Config{
		NoProgressLimit:    4,
		LoopWindow:         8,
		VolatileFields:     slices.Clone(digest.DefaultVolatileFields),
		Tools:              map[string]ToolConfig{},
		MaxRuns:            50_000,
		RunIdleTimeout:     10 * time.Minute,
		UndeclaredMaxWait:  30 * time.Minute,
		MaxAgentNames:      200,
		MaxToolNames:       200,
		CheckpointInterval: time.Minute,
	}
}

// Validate reports every problem at once, each with its field and what is allowed, ordered by field
// path (confighint.JoinByPath): the same configuration reads the same on every run.
func (c *Config) Validate() error {
	var errs []error
	check := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	check(c.NoProgressLimit >= 1 && c.NoProgressLimit <= 1000, "no_progress_limit: %d: must be between 1 and 1000", c.NoProgressLimit)
	check(c.LoopWindow >= 2 && c.LoopWindow <= 64, "loop_window: %d: must be between 2 and 64", c.LoopWindow)
	check(!slices.Contains(c.VolatileFields, ""), "volatile_fields: entries must be non-empty")
	check(!slices.Contains(c.RunAttributes, ""), "run_attributes: entries must be non-empty")
	check(c.GoalAttribute != "" || c.GoalTarget == 0, "goal_target: set goal_attribute too, or leave goal_target out")
	check(c.RunBudget >= 0, "run_budget: %s: must be positive, or left out", c.RunBudget)
	check(c.UndeclaredMaxWait >= 0, "undeclared_max_wait: %s: must be 0 (off) or a positive duration, e.g. 30m", c.UndeclaredMaxWait)
	check(c.MaxRuns >= 1 && c.MaxRuns <= 10_000_000, "max_runs: %d: must be between 1 and 10000000", c.MaxRuns)
	check(c.RunIdleTimeout > 0, "run_idle_timeout: %s: must be a positive duration, e.g. 10m", c.RunIdleTimeout)
	check(c.MaxAgentNames >= 1 && c.MaxAgentNames <= 10_000, "max_agent_names: %d: must be between 1 and 10000", c.MaxAgentNames)
	check(c.MaxToolNames >= 1 && c.MaxToolNames <= 10_000, "max_tool_names: %d: must be between 1 and 10000", c.MaxToolNames)
	check(c.Storage == nil || c.CheckpointInterval > 0, "checkpoint_interval: %s: must be a positive duration when storage is set, e.g. 1m", c.CheckpointInterval)
	if err := agentspan.ValidateDeclared(c.Conventions); err != nil {
		errs = append(errs, err)
	}
	byName := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(c.Tools)) {
		errs = append(errs, c.Tools[name].validate(name, c.RunBudget)...)
		n := toolname.Normal(name)
		if other, dup := byName[n]; dup {
			errs = append(errs, fmt.Errorf("tools::%s: names the same tool as tools::%s (names compare case-insensitively)", name, other))
		}
		byName[n] = name
	}
	return confighint.JoinByPath(errs...)
}

func (t ToolConfig) validate(name string, budget time.Duration) []error {
	var errs []error
	field := func(f string) string { return fmt.Sprintf("tools::%s::%s", name, f) }
	check := func(ok bool, f, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf("%s: "+format, append([]any{field(f)}, args...)...))
		}
	}
	check(name != "", "", "tool names must be non-empty")
	switch t.Kind {
	case "", kindRead, kindWrite, kindWait:
	default:
		check(false, "kind", "%q: must be read, write or wait", t.Kind)
	}
	isWait := t.Kind == kindWait
	check(t.StateField == "" || t.Kind == kindWrite, "state_field", "only a write tool has a state_field")
	if !isWait {
		check(t.ProgressField == "" && len(t.WaitingValues) == 0 && len(t.TerminalValues) == 0 && t.MaxWait == 0 && t.MinInterval == 0,
			"kind", "progress_field, waiting_values, terminal_values, max_wait and min_interval belong to kind: wait")
		return errs
	}
	// A wait without terminal values or a deadline is a whitelist entry: exempt forever.
	check(t.ProgressField != "", "progress_field", "a wait tool must name the result field holding its state")
	check(len(t.WaitingValues) > 0, "waiting_values", "a wait tool must list the states that may repeat")
	check(len(t.TerminalValues) > 0, "terminal_values", "a wait tool must list the states that end the wait")
	for _, v := range t.WaitingValues {
		check(!slices.Contains(t.TerminalValues, v), "waiting_values", "%q is also a terminal value", v)
	}
	check(t.MaxWait > 0, "max_wait", "%s: a wait tool needs a positive deadline, e.g. 20m", t.MaxWait)
	check(t.MinInterval >= 0 && (t.MaxWait == 0 || t.MinInterval < t.MaxWait), "min_interval", "%s: must be at least 0 and below max_wait", t.MinInterval)
	if budget > 0 {
		check(t.MaxWait <= budget, "max_wait", "%s does not fit inside run_budget %s", t.MaxWait, budget)
	}
	return errs
}
