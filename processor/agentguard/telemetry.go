// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"context"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/progress"
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

func (g *guard) serveAgent(ctx context.Context, agent string) {
	t := g.telemetry
	for _, p := range progressKinds {
		t.ProcessorAgentguardSteps.Add(ctx, 0, g.labelled(labelAgent, agent, labelProgress, p))
	}
	for _, r := range stuckReasons {
		t.ProcessorAgentguardStuckEpisodes.Add(ctx, 0, g.labelled(labelAgent, agent, labelReason, string(r)))
	}
	for _, o := range progress.Outcomes {
		t.ProcessorAgentguardRunsFinished.Add(ctx, 0, g.labelled(labelAgent, agent, labelOutcome, string(o)))
	}
	for _, f := range finishLabels {
		t.ProcessorAgentguardModelCalls.Add(ctx, 0, g.labelled(labelAgent, agent, labelFinish, f))
	}
}

func (g *guard) servePair(ctx context.Context, pair [2]string) {
	for _, o := range toolOutcomes {
		g.telemetry.ProcessorAgentguardToolCalls.Add(ctx, 0, g.labelled(labelAgent, pair[0], labelTool, pair[1], labelOutcome, o))
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
	steps, tools, models, stuck map[[3]string]int64
	exempt                      int64
}

func bump(m *map[[3]string]int64, key [3]string) {
	if *m == nil {
		*m = map[[3]string]int64{}
	}
	(*m)[key]++
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
	m := g.telemetry
	if t.exempt > 0 {
		m.ProcessorAgentguardPollsExempt.Add(ctx, t.exempt)
	}
	for k, n := range t.steps {
		m.ProcessorAgentguardSteps.Add(ctx, n, g.labelled(labelAgent, k[0], labelProgress, k[1]))
	}
	for k, n := range t.tools {
		m.ProcessorAgentguardToolCalls.Add(ctx, n, g.labelled(labelAgent, k[0], labelTool, k[1], labelOutcome, k[2]))
	}
	for k, n := range t.models {
		m.ProcessorAgentguardModelCalls.Add(ctx, n, g.labelled(labelAgent, k[0], labelFinish, k[1]))
	}
	for k, n := range t.stuck {
		m.ProcessorAgentguardStuckEpisodes.Add(ctx, n, g.labelled(labelAgent, k[0], labelReason, k[1]))
	}
}

// flush records what the run state queued: new label values (served from zero first), finished runs
// and evictions.
func (g *guard) flush(ctx context.Context) {
	g.runs.mu.Lock()
	ev, finished, agents, pairs := g.runs.take()
	g.runs.mu.Unlock()
	for _, a := range agents {
		g.serveAgent(ctx, a)
	}
	for _, p := range pairs {
		g.servePair(ctx, p)
	}
	m := g.telemetry
	for _, f := range finished {
		m.ProcessorAgentguardRunsFinished.Add(ctx, 1, g.labelled(labelAgent, f.agent, labelOutcome, string(f.summary.Outcome)))
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
