// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"context"
	"errors"
	"sync"

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
)

// The label values every agent's series start from: every reason a run can be stuck for, every way a
// run can end, every way a reply can end (plus empty), every kind of step.
var (
	stuckReasons  = []progress.Reason{progress.ReasonNoProgress, progress.ReasonLoop, progress.ReasonRepeatedError, progress.ReasonAlternation, progress.ReasonCycle, progress.ReasonWaitTimeout}
	finishLabels  = []string{"stop", "tool_calls", "length", "content_filter", "error", "other", "unknown", "empty"}
	progressKinds = []string{"true", "false", "unknown"}
	toolOutcomes  = []string{"ok", "failed"}
)

var (
	evictedIdle = metric.WithAttributeSet(attribute.NewSet(attribute.String(labelReason, "idle")))
	evictedFull = metric.WithAttributeSet(attribute.NewSet(attribute.String(labelReason, "capacity")))
)

// serveZeros starts every series whose labels are known in advance at zero: a counter first served at
// its first increment is a jump increase() and rate() cannot see. Agent-labelled series start when an
// agent is first seen (serveAgent).
func (g *guard) serveZeros() {
	ctx, t := context.Background(), g.telemetry
	t.ProcessorAgentguardPollsExempt.Add(ctx, 0)
	t.ProcessorAgentguardRunsStarted.Add(ctx, 0)
	t.ProcessorAgentguardRunsEvicted.Add(ctx, 0, evictedIdle)
	t.ProcessorAgentguardRunsEvicted.Add(ctx, 0, evictedFull)
}

// serveAgent starts a new agent's series at zero; the caller holds c.mu.
func (c *totals) serveAgent(agent string) {
	for _, p := range progressKinds {
		c.steps.serve([3]string{agent, p})
	}
	for _, r := range stuckReasons {
		c.stuck.serve([3]string{agent, string(r)})
	}
	for _, o := range progress.Outcomes {
		c.finished.serve([3]string{agent, string(o)})
	}
	for _, f := range finishLabels {
		c.models.serve([3]string{agent, f})
	}
}

// servePair starts a new agent and tool pair's series at zero; the caller holds c.mu.
func (c *totals) servePair(pair [2]string) {
	for _, o := range toolOutcomes {
		c.tools.serve([3]string{pair[0], pair[1], o})
	}
}

// labelSets caches the attribute sets of the label values in use: their number is bounded by the
// label caps, and building a set for every measurement would cost an allocation each.
type labelSets struct {
	sync.Mutex
	byValues map[[6]string]metric.MeasurementOption
}

// labelled returns the attribute set of up to three label pairs.
func (g *guard) labelled(kv ...string) metric.MeasurementOption {
	var key [6]string
	copy(key[:], kv)
	g.sets.Lock()
	defer g.sets.Unlock()
	if opt, ok := g.sets.byValues[key]; ok {
		return opt
	}
	attrs := make([]attribute.KeyValue, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		attrs = append(attrs, attribute.String(kv[i], kv[i+1]))
	}
	opt := metric.WithAttributeSet(attribute.NewSet(attrs...))
	g.sets.byValues[key] = opt
	return opt
}

// tally is one batch's counts, by label values, so each series is added to once per batch.
type tally struct {
	steps, tools, models, stuck series
	exempt                      int64
}

// series are the counts of one labelled counter by its label values (up to three).
type series map[[3]string]int64

func bump(m *series, key [3]string) {
	if *m == nil {
		*m = series{}
	}
	(*m)[key]++
}

// serve starts a series at zero if it has not started: a counter first served at its first increment
// is a jump increase() and rate() cannot see.
func (m series) serve(key [3]string) { m[key] += 0 }

// add adds a batch's counts.
func (m series) add(batch series) {
	for k, n := range batch {
		m[k] += n
	}
}

// totals are the labelled counters' totals since start. A batch adds its tally here under one lock,
// and the SDK reads them through callbacks when the metrics are collected (the counters are
// asynchronous): an Add per series and batch made the SDK look each series' attribute set up, which
// was a quarter of agentguard's CPU in a collector taking ten runs a request (docs/benchmarks.md).
// The series are bounded as the label values are (max_agent_names, max_tool_names).
type totals struct {
	mu                                    sync.Mutex
	steps, tools, models, stuck, finished series
}

func newTotals() totals {
	return totals{steps: series{}, tools: series{}, models: series{}, stuck: series{}, finished: series{}}
}

// observeTotals registers the callbacks that serve the labelled counters.
func (g *guard) observeTotals(tb *metadata.TelemetryBuilder) error {
	c := &g.totals
	return errors.Join(
		tb.RegisterProcessorAgentguardStepsCallback(g.observe(c.steps, labelAgent, labelProgress)),
		tb.RegisterProcessorAgentguardToolCallsCallback(g.observe(c.tools, labelAgent, labelTool, labelOutcome)),
		tb.RegisterProcessorAgentguardModelCallsCallback(g.observe(c.models, labelAgent, labelFinish)),
		tb.RegisterProcessorAgentguardStuckEpisodesCallback(g.observe(c.stuck, labelAgent, labelReason)),
		tb.RegisterProcessorAgentguardRunsFinishedCallback(g.observe(c.finished, labelAgent, labelOutcome)),
	)
}

// observe is the callback that serves one counter's series, labelled with names.
func (g *guard) observe(m series, names ...string) metric.Int64Callback {
	return func(_ context.Context, o metric.Int64Observer) error {
		g.totals.mu.Lock()
		defer g.totals.mu.Unlock()
		var kv [6]string
		for values, n := range m {
			for i, name := range names {
				kv[2*i], kv[2*i+1] = name, values[i]
			}
			o.Observe(n, g.labelled(kv[:2*len(names)]...))
		}
		return nil
	}
}

func (t *tally) step(agent, tool string, s progress.Step, v progress.Verdict) {
	kind := "false"
	switch {
	case v.Unjudged:
		kind = "unknown"
	case v.WaitExempt:
		t.exempt++
		kind = "true" // an exempt poll does not raise the barren-step rate
	case v.Progress:
		kind = "true"
	}
	bump(&t.steps, [3]string{agent, kind})
	outcome := "ok"
	if s.Failed {
		outcome = "failed"
	}
	bump(&t.tools, [3]string{agent, tool, outcome})
	if v.NewEpisode {
		bump(&t.stuck, [3]string{agent, string(v.Stuck)})
	}
}

func (t *tally) model(agent string, c progress.ModelCall, v progress.ModelVerdict) {
	finish := finishNames[c.Finish]
	if v.Empty {
		finish = "empty"
	}
	bump(&t.models, [3]string{agent, finish})
}

func (g *guard) record(ctx context.Context, t *tally) {
	if t.exempt > 0 {
		g.telemetry.ProcessorAgentguardPollsExempt.Add(ctx, t.exempt)
	}
	c := &g.totals
	c.mu.Lock()
	defer c.mu.Unlock()
	c.steps.add(t.steps)
	c.tools.add(t.tools)
	c.models.add(t.models)
	c.stuck.add(t.stuck)
}

// flush records what the run state queued: new label values (served from zero first), finished runs
// and evictions.
func (g *guard) flush(ctx context.Context) {
	g.runs.mu.Lock()
	ev, finished, agents, pairs := g.runs.take()
	g.runs.mu.Unlock()
	c := &g.totals
	c.mu.Lock()
	for _, a := range agents {
		c.serveAgent(a)
	}
	for _, p := range pairs {
		c.servePair(p)
	}
	for _, f := range finished {
		c.finished[[3]string{f.agent, string(f.summary.Outcome)}]++
	}
	c.mu.Unlock()
	m := g.telemetry
	for _, f := range finished {
		agent := g.labelled(labelAgent, f.agent)
		// A run whose model calls agentguard never saw has no rounds to count: recording 0 would read
		// as the best turn efficiency there is.
		if f.summary.Rounds > 0 {
			m.ProcessorAgentguardRunRounds.Record(ctx, int64(f.summary.Rounds), agent)
		}
		m.ProcessorAgentguardRunDuration.Record(ctx, f.duration.Seconds(), agent)
	}
	if ev.Age > 0 {
		m.ProcessorAgentguardRunsEvicted.Add(ctx, int64(ev.Age), evictedIdle)
	}
	if ev.Capacity > 0 {
		m.ProcessorAgentguardRunsEvicted.Add(ctx, int64(ev.Capacity), evictedFull)
	}
}
