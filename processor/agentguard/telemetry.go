// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/progress"
	"github.com/agentotel/agentotel/processor/agentguard/internal/metadata"
)

// Metric labels.
const (
	labelAgent    = annotation.EventAgentName // gen_ai.agent.name
	labelTool     = "gen_ai.tool.name"
	labelReason   = annotation.EventReason
	labelProgress = "progress"
	labelOutcome  = "outcome"
	labelFinish   = "finish"
	labelState    = "state"
	labelDir      = "direction"
)

// The label values an agent's series are indexed by: every reason a run can be stuck for, every way a
// run can end, every way a reply can end (plus empty), every kind of step, every outcome of a tool call.
var (
	stuckReasons  = []progress.Reason{progress.ReasonNoProgress, progress.ReasonLoop, progress.ReasonRepeatedError, progress.ReasonAlternation, progress.ReasonCycle, progress.ReasonWaitTimeout}
	finishLabels  = []string{"stop", "tool_calls", "length", "content_filter", "error", "other", "unknown", "empty"}
	progressKinds = []string{"true", "false", "unknown"}
	toolOutcomes  = []string{"ok", "failed"}
	// tokenDirections are the directions of a model call's tokens (tokenInput...).
	tokenDirections = []string{"input", "output", "cached_input"}
)

// The stuck reasons and the outcomes as label values.
var (
	reasonLabels  = labelsOf(stuckReasons)
	outcomeLabels = labelsOf(progress.Outcomes)
)

func labelsOf[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// Indexes into progressKinds, toolOutcomes and tokenDirections.
const (
	stepProgress, stepBarren, stepUnjudged = 0, 1, 2
	callOK, callFailed                     = 0, 1
	tokenInput, tokenOutput, tokenCached   = 0, 1, 2
)

// finishIndex and outcomeIndex find a reply's finish and a run's outcome among the label values, with
// one lookup.
var (
	finishIndex = func() map[progress.Finish]int {
		labels := indexOf(finishLabels)
		m := make(map[progress.Finish]int, len(finishNames))
		for f, name := range finishNames {
			m[f] = labels[name]
		}
		return m
	}()
	outcomeIndex = indexOf(progress.Outcomes)
	emptyReply   = slices.Index(finishLabels, "empty")
)

func indexOf[T comparable](values []T) map[T]int {
	m := make(map[T]int, len(values))
	for i, v := range values {
		m[v] = i
	}
	return m
}

var (
	evictedIdle = metric.WithAttributeSet(attribute.NewSet(attribute.String(labelReason, "idle")))
	evictedFull = metric.WithAttributeSet(attribute.NewSet(attribute.String(labelReason, "capacity")))
)

// A series is one labelled counter's count since start, with its label set built once: the batch
// path adds to it without a lock or a lookup, and the SDK reads it through a callback when the metrics
// are collected (the counters are asynchronous). Looking a series up by its label values for each
// step and adding a batch's counts into a map of totals, as agentguard did before, was an eighth of its
// CPU in a collector (docs/benchmarks-log.md).
type series struct {
	n     atomic.Int64
	attrs metric.MeasurementOption
}

// seriesOf makes one series per value of label, each also labelled with fixed.
func seriesOf(fixed []attribute.KeyValue, label string, values []string) []series {
	s := make([]series, len(values))
	for i, v := range values {
		kv := append(slices.Clip(fixed), attribute.String(label, v))
		s[i].attrs = metric.WithAttributeSet(attribute.NewSet(kv...))
	}
	return s
}

// agentCounters are one agent label's counters, every one of them served from zero as soon as the agent
// (or, for tool calls, the agent and tool pair) is first seen: a counter first served at its first
// increment is a jump increase() and rate() cannot see. They are bounded as the agent and tool names
// are (max_agent_names, max_tool_names).
type agentCounters struct {
	name string
	// label is {gen_ai.agent.name: name}, for the histograms.
	label                          metric.MeasurementOption
	steps, stuck, finished, models []series
	// tokens are the token counters by state and direction: tokens[state*len(tokenDirections)+direction].
	tokens []series
	// calls are the tool-call counters by tool label (max_tool_names, then "other").
	calls map[string][]series
}

func newAgentCounters(name string) *agentCounters {
	agent := []attribute.KeyValue{attribute.String(labelAgent, name)}
	return &agentCounters{
		name:     name,
		label:    metric.WithAttributeSet(attribute.NewSet(agent...)),
		steps:    seriesOf(agent, labelProgress, progressKinds),
		stuck:    seriesOf(agent, labelReason, reasonLabels),
		finished: seriesOf(agent, labelOutcome, outcomeLabels),
		models:   seriesOf(agent, labelFinish, finishLabels),
		tokens:   newTokenSeries(agent),
		calls:    map[string][]series{},
	}
}

// newTokenSeries are an agent's token counters, one per state and direction.
func newTokenSeries(agent []attribute.KeyValue) []series {
	s := make([]series, 0, len(progress.States)*len(tokenDirections))
	for _, st := range progress.States {
		s = append(s, seriesOf(append(slices.Clip(agent), attribute.String(labelState, st.String())), labelDir, tokenDirections)...)
	}
	return s
}

// newToolSeries are the tool-call counters of one agent and tool label pair, by outcome.
func newToolSeries(agent, tool string) []series {
	return seriesOf([]attribute.KeyValue{attribute.String(labelAgent, agent), attribute.String(labelTool, tool)},
		labelOutcome, toolOutcomes)
}

// countStep counts a judged or unjudged tool step. An exempt poll or a waiting step counts as progress:
// it does not raise the barren-step rate.
func countStep(agent *agentCounters, calls []series, s progress.Step, v progress.Verdict) {
	kind := stepBarren
	switch {
	case v.Unjudged:
		kind = stepUnjudged
	case v.Progress:
		kind = stepProgress
	}
	agent.steps[kind].n.Add(1)
	outcome := callOK
	if s.Failed {
		outcome = callFailed
	}
	calls[outcome].n.Add(1)
	if v.NewEpisode {
		for i, r := range stuckReasons {
			if r == v.Stuck {
				agent.stuck[i].n.Add(1)
			}
		}
	}
}

// countModel counts a model call by how its reply ended.
func countModel(agent *agentCounters, c progress.ModelCall, v progress.ModelVerdict) {
	i := finishIndex[c.Finish]
	if v.Empty {
		i = emptyReply
	}
	agent.models[i].n.Add(1)
	// A call without usage adds nothing: its series stay where they are.
	if t := c.Tokens; t.Total() > 0 {
		tokens := agent.tokens[int(v.State)*len(tokenDirections):]
		tokens[tokenInput].n.Add(t.Input)
		tokens[tokenOutput].n.Add(t.Output)
		tokens[tokenCached].n.Add(t.CachedInput)
	}
}

// observeSeries registers the callbacks that serve the labelled counters and the active runs.
func (g *guard) observeSeries(tb *metadata.TelemetryBuilder) error {
	byAgent := func(pick func(*agentCounters) []series) metric.Int64Callback {
		return func(_ context.Context, o metric.Int64Observer) error {
			g.runs.eachAgent(func(a *agentCounters) { observe(o, pick(a)) })
			return nil
		}
	}
	return errors.Join(
		tb.RegisterProcessorAgentguardStepsCallback(byAgent(func(a *agentCounters) []series { return a.steps })),
		tb.RegisterProcessorAgentguardStuckEpisodesCallback(byAgent(func(a *agentCounters) []series { return a.stuck })),
		tb.RegisterProcessorAgentguardRunsFinishedCallback(byAgent(func(a *agentCounters) []series { return a.finished })),
		tb.RegisterProcessorAgentguardModelCallsCallback(byAgent(func(a *agentCounters) []series { return a.models })),
		tb.RegisterProcessorAgentguardTokensCallback(byAgent(func(a *agentCounters) []series { return a.tokens })),
		tb.RegisterProcessorAgentguardToolCallsCallback(func(_ context.Context, o metric.Int64Observer) error {
			g.runs.eachAgent(func(a *agentCounters) {
				for _, calls := range a.calls {
					observe(o, calls)
				}
			})
			return nil
		}),
		tb.RegisterProcessorAgentguardRunsActiveCallback(func(_ context.Context, o metric.Int64Observer) error {
			o.Observe(int64(g.runs.active(g.now())))
			return nil
		}),
	)
}

func observe(o metric.Int64Observer, s []series) {
	for i := range s {
		o.Observe(s[i].n.Load(), s[i].attrs)
	}
}

// serveZeros starts the counters whose labels are known in advance at zero; an agent's series start
// when the agent is first seen (agentCounters).
func (g *guard) serveZeros() {
	ctx, t := context.Background(), g.telemetry
	t.ProcessorAgentguardPollsExempt.Add(ctx, 0)
	t.ProcessorAgentguardStepsWaiting.Add(ctx, 0)
	t.ProcessorAgentguardSeenForgotten.Add(ctx, 0)
	t.ProcessorAgentguardRunsStarted.Add(ctx, 0)
	t.ProcessorAgentguardRunsEvicted.Add(ctx, 0, evictedIdle)
	t.ProcessorAgentguardRunsEvicted.Add(ctx, 0, evictedFull)
}

// flush records what the run state queued: the finished runs' rounds and durations, and evictions.
func (g *guard) flush(ctx context.Context) {
	ev, finished := g.runs.take()
	m := g.telemetry
	for _, f := range finished {
		// A run whose model calls agentguard never saw has no rounds to count: recording 0 would read
		// as the best turn efficiency there is.
		if f.summary.Rounds > 0 {
			m.ProcessorAgentguardRunRounds.Record(ctx, int64(f.summary.Rounds), f.agent.label)
		}
		m.ProcessorAgentguardRunDuration.Record(ctx, f.duration.Seconds(), f.agent.label)
	}
	if ev.Age > 0 {
		m.ProcessorAgentguardRunsEvicted.Add(ctx, int64(ev.Age), evictedIdle)
	}
	if ev.Capacity > 0 {
		m.ProcessorAgentguardRunsEvicted.Add(ctx, int64(ev.Capacity), evictedFull)
	}
}
