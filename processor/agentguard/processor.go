package agentguard

import (
	"context"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/digest"
	"github.com/agentotel/agentotel/internal/progress"
	"github.com/agentotel/agentotel/processor/agentguard/internal/metadata"
)

// guard judges every tool call of every run: did it put something new into the run's context? It
// annotates the tool spans with the verdict, marks the step where a run becomes stuck with an event,
// and counts stuck runs for alerting. It never drops or holds back a span.
type guard struct {
	cfg        *Config
	normaliser *digest.Normaliser
	runs       *runs
	telemetry  *metadata.TelemetryBuilder
	scratch    sync.Pool
	now        func() time.Time
}

func newGuard(set processor.Settings, cfg *Config) (*guard, error) {
	tb, err := metadata.NewTelemetryBuilder(set.TelemetrySettings)
	if err != nil {
		return nil, err
	}
	g := &guard{
		cfg:        cfg,
		normaliser: digest.New(cfg.VolatileFields, digest.Limits{}),
		runs:       newRuns(cfg, policyOf(cfg)),
		telemetry:  tb,
		scratch:    sync.Pool{New: func() any { return new(digest.Scratch) }},
		now:        time.Now,
	}
	err = tb.RegisterProcessorAgentguardRunsActiveCallback(func(_ context.Context, o metric.Int64Observer) error {
		o.Observe(int64(g.runs.active(g.now())))
		return nil
	})
	g.serveZeros()
	return g, err
}

// serveZeros starts every series whose labels are known in advance at zero: a counter first served at
// its first increment is a jump increase() and rate() cannot see.
func (g *guard) serveZeros() {
	ctx, t := context.Background(), g.telemetry
	t.ProcessorAgentguardSteps.Add(ctx, 0, progressTrue)
	t.ProcessorAgentguardSteps.Add(ctx, 0, progressFalse)
	t.ProcessorAgentguardPollsExempt.Add(ctx, 0)
	t.ProcessorAgentguardRunsStarted.Add(ctx, 0)
	t.ProcessorAgentguardRunsEvicted.Add(ctx, 0, evictedIdle)
	t.ProcessorAgentguardRunsEvicted.Add(ctx, 0, evictedFull)
}

func (g *guard) shutdown(context.Context) error {
	g.telemetry.Shutdown()
	return nil
}

// policyOf turns the tool manifest in the config into the state machine's policies.
func policyOf(cfg *Config) *progress.Config {
	p := &progress.Config{NoProgressLimit: cfg.NoProgressLimit, LoopWindow: cfg.LoopWindow, Tools: map[string]progress.ToolPolicy{}}
	for name, t := range cfg.Tools {
		kind := progress.KindRead
		switch t.Kind {
		case kindWrite:
			kind = progress.KindWrite
		case kindWait:
			kind = progress.KindWait
		}
		p.Tools[name] = progress.ToolPolicy{
			Kind: kind, StateField: t.StateField, ProgressField: t.ProgressField,
			WaitingValues: t.WaitingValues, TerminalValues: t.TerminalValues,
			MaxWait: t.MaxWait, MinInterval: t.MinInterval,
		}
	}
	return p
}

// runKey identifies a run within a batch without allocating: its trace, or the value of its run
// attribute.
type runKey struct {
	trace pcommon.TraceID
	attr  string
}

// String is the key of the run's state; it is built once per run and batch.
func (k runKey) String() string {
	if k.attr != "" {
		return "a:" + k.attr
	}
	return "t:" + string(k.trace[:])
}

// runBatch is one run's part of a batch.
type runBatch struct {
	key     runKey
	agent   string // from any span of the run in this batch
	service string // the fallback agent name
	ended   bool   // the run's root agent span is in this batch
	label   string // the agent's metric label, resolved under the lock
	steps   []pendingStep
}

type pendingStep struct {
	span    ptrace.Span
	step    progress.Step
	verdict progress.Verdict
}

func (g *guard) processTraces(ctx context.Context, td ptrace.Traces) (ptrace.Traces, error) {
	batch := g.collect(td)
	if len(batch) == 0 {
		return td, nil
	}
	var stuck []stuckEpisode
	var started int64
	now := g.now()

	g.runs.mu.Lock()
	for _, rb := range batch {
		key := rb.key.String()
		st, created := g.runs.get(key, now)
		if created {
			started++
		}
		st.agent = firstNonEmpty(rb.agent, st.agent, rb.service)
		rb.label = g.runs.label(st.agent)
		for i := range rb.steps {
			p := &rb.steps[i]
			p.verdict = st.progress.Observe(p.step)
			if p.verdict.NewEpisode {
				stuck = append(stuck, stuckEpisode{agent: rb.label, reason: p.verdict.Stuck})
			}
		}
		if rb.ended {
			g.runs.end(key)
		}
	}
	evicted := g.runs.takeEvicted()
	g.runs.mu.Unlock()

	var withProgress, barren, exempt int64
	for _, rb := range batch {
		for i := range rb.steps {
			p := &rb.steps[i]
			annotate(p.span, p.verdict, rb.label)
			switch {
			case p.verdict.WaitExempt:
				exempt++
				withProgress++
			case p.verdict.Progress:
				withProgress++
			default:
				barren++
			}
		}
	}
	if started > 0 {
		g.telemetry.ProcessorAgentguardRunsStarted.Add(ctx, started)
	}
	g.record(ctx, withProgress, barren, exempt, stuck, evicted.Age, evicted.Capacity)
	return td, nil
}

// collect groups the batch's tool spans by run, in start order, with their steps already digested.
func (g *guard) collect(td ptrace.Traces) map[runKey]*runBatch {
	var batch map[runKey]*runBatch
	scratch := g.scratch.Get().(*digest.Scratch)
	defer g.scratch.Put(scratch)
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		res := rss.At(i).Resource().Attributes()
		service := ""
		if v, ok := res.Get("service.name"); ok {
			service = v.AsString()
		}
		sss := rss.At(i).ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			scope := sss.At(j).Scope().Name()
			spans := sss.At(j).Spans()
			for k := 0; k < spans.Len(); k++ {
				span := spans.At(k)
				root := span.ParentSpanID().IsEmpty()
				v := agentspan.Default.Recognize(agentspan.Span{Scope: scope, Name: span.Name(), Attrs: span.Attributes(), Root: root})
				if v.Role == agentspan.RoleOther && !root {
					continue
				}
				if batch == nil {
					batch = map[runKey]*runBatch{}
				}
				key := g.runKey(span, res)
				rb, ok := batch[key]
				if !ok {
					rb = &runBatch{key: key, service: service}
					batch[key] = rb
				}
				// Some SDKs name the agent only on the run's root span: any span of the run in the
				// batch may name it for all.
				if rb.agent == "" || v.Role == agentspan.RoleAgent && v.Agent != "" {
					rb.agent = firstNonEmpty(v.Agent, rb.agent)
				}
				if v.Role == agentspan.RoleTool {
					rb.steps = append(rb.steps, pendingStep{span: span, step: g.stepOf(span, v, scratch)})
				}
				// The trace's root span ends last: the run is over. A run keyed by attribute spans
				// several traces and ends only by idling out.
				rb.ended = rb.ended || (root && len(g.cfg.RunAttributes) == 0)
			}
		}
	}
	for _, rb := range batch {
		slices.SortStableFunc(rb.steps, func(a, b pendingStep) int { return a.step.Start.Compare(b.step.Start) })
	}
	return batch
}

// runKey is the first configured run attribute on the span or its resource, or else the trace id.
func (g *guard) runKey(span ptrace.Span, res pcommon.Map) runKey {
	for _, key := range g.cfg.RunAttributes {
		if v, ok := span.Attributes().Get(key); ok && v.AsString() != "" {
			return runKey{attr: v.AsString()}
		}
		if v, ok := res.Get(key); ok && v.AsString() != "" {
			return runKey{attr: v.AsString()}
		}
	}
	return runKey{trace: span.TraceID()}
}

// annotate writes the verdict on the tool span; the step where a run becomes stuck also gets one
// agentguard.stuck event, so a count connector can turn episodes into a pipeline metric.
func annotate(span ptrace.Span, v progress.Verdict, agent string) {
	attrs := span.Attributes()
	attrs.EnsureCapacity(attrs.Len() + 6)
	attrs.PutInt(annotation.Step, int64(v.Step))
	attrs.PutBool(annotation.Progress, v.Progress)
	attrs.PutStr(annotation.Signals, v.Signals.String())
	attrs.PutInt(annotation.Barren, int64(v.Barren))
	if v.WaitExempt {
		attrs.PutBool(annotation.WaitExempt, true)
	}
	if v.Stuck != progress.ReasonNone {
		attrs.PutStr(annotation.Stuck, string(v.Stuck))
	}
	if v.NewEpisode {
		e := span.Events().AppendEmpty()
		e.SetName(annotation.StuckEvent)
		e.SetTimestamp(span.EndTimestamp())
		e.Attributes().PutStr(annotation.EventReason, string(v.Stuck))
		e.Attributes().PutStr(annotation.EventAgentName, agent)
		e.Attributes().PutInt(annotation.EventBarren, int64(v.Barren))
	}
}

type stuckEpisode struct {
	agent  string
	reason progress.Reason
}

var (
	progressTrue  = metric.WithAttributeSet(attribute.NewSet(attribute.String("progress", "true")))
	progressFalse = metric.WithAttributeSet(attribute.NewSet(attribute.String("progress", "false")))
	evictedIdle   = metric.WithAttributeSet(attribute.NewSet(attribute.String("reason", "idle")))
	evictedFull   = metric.WithAttributeSet(attribute.NewSet(attribute.String("reason", "capacity")))
)

func (g *guard) record(ctx context.Context, withProgress, barren, exempt int64, stuck []stuckEpisode, idle, capacity int) {
	t := g.telemetry
	if withProgress > 0 {
		t.ProcessorAgentguardSteps.Add(ctx, withProgress, progressTrue)
	}
	if barren > 0 {
		t.ProcessorAgentguardSteps.Add(ctx, barren, progressFalse)
	}
	if exempt > 0 {
		t.ProcessorAgentguardPollsExempt.Add(ctx, exempt)
	}
	for _, s := range stuck {
		t.ProcessorAgentguardStuckEpisodes.Add(ctx, 1, metric.WithAttributes(
			attribute.String(annotation.EventAgentName, s.agent), attribute.String(annotation.EventReason, string(s.reason))))
	}
	if idle > 0 {
		t.ProcessorAgentguardRunsEvicted.Add(ctx, int64(idle), evictedIdle)
	}
	if capacity > 0 {
		t.ProcessorAgentguardRunsEvicted.Add(ctx, int64(capacity), evictedFull)
	}
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
