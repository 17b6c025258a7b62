// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/digest"
	"github.com/agentotel/agentotel/internal/progress"
	"github.com/agentotel/agentotel/internal/toolname"
	"github.com/agentotel/agentotel/processor/agentguard/internal/metadata"
)

// guard follows every run: it judges each tool call (did it put something new into the run's
// context?), reads each model call's reply (cut off, empty, or how it stopped), and decides how each
// run ended. It annotates the spans, marks the step where a run becomes stuck with an event, and counts
// all of it for alerting. It never drops or holds back a span. The rules are in docs/design.md.
type guard struct {
	cfg      *Config
	registry *agentspan.Registry
	// toolNames resolves a tool's name in telemetry to its tools entry, behind a namespace too
	// (mcp__crm__get_build_status); toolKeys maps a normalised name back to the entry's key.
	toolNames  *toolname.Set
	toolKeys   map[string]string
	normaliser *digest.Normaliser
	runs       *runs
	telemetry  *metadata.TelemetryBuilder
	scratch    sync.Pool
	buffers    sync.Pool // *buffers, one per batch in flight
	now        func() time.Time
	stop       chan struct{}
	done       sync.WaitGroup
}

func newGuard(set processor.Settings, cfg *Config) (*guard, error) {
	tb, err := metadata.NewTelemetryBuilder(set.TelemetrySettings)
	if err != nil {
		return nil, err
	}
	g := &guard{
		cfg:        cfg,
		registry:   agentspan.NewRegistry(cfg.Conventions, 0), // JSON read to the lexer's default depth, as the digests read it
		normaliser: digest.New(cfg.VolatileFields, digest.Limits{}),
		runs:       newRuns(cfg, policyOf(cfg)),
		toolKeys:   map[string]string{},
		telemetry:  tb,
		scratch:    sync.Pool{New: func() any { return new(digest.Scratch) }},
		buffers:    sync.Pool{New: func() any { return new(buffers) }},
		now:        time.Now,
		stop:       make(chan struct{}),
	}
	names := make([]string, 0, len(cfg.Tools))
	for name := range cfg.Tools {
		names = append(names, name)
		g.toolKeys[toolname.Normal(name)] = name
	}
	g.toolNames = toolname.NewSet(names)
	err = g.observeSeries(tb)
	g.serveZeros()
	return g, err
}

// start expires idle runs on a timer, so a run that never sends its root span is counted as finished
// (abandoned) even when no more traffic arrives.
func (g *guard) start(context.Context, component.Host) error {
	tick := min(g.cfg.RunIdleTimeout/4, 30*time.Second)
	g.done.Add(1)
	go func() {
		defer g.done.Done()
		t := time.NewTicker(max(tick, 10*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-g.stop:
				return
			case <-t.C:
				g.runs.active(g.now())
				g.flush(context.Background())
			}
		}
	}()
	return nil
}

func (g *guard) shutdown(context.Context) error {
	select {
	case <-g.stop:
	default:
		close(g.stop)
	}
	g.done.Wait()
	g.telemetry.Shutdown()
	return nil
}

// policyOf turns the tool manifest in the config into the state machine's policies.
func policyOf(cfg *Config) *progress.Config {
	p := &progress.Config{NoProgressLimit: cfg.NoProgressLimit, LoopWindow: cfg.LoopWindow, UndeclaredMaxWait: cfg.UndeclaredMaxWait, Tools: map[string]progress.ToolPolicy{}}
	switch {
	case cfg.UndeclaredMaxWait == 0:
		p.UndeclaredMaxWait = -1 // switched off
	case cfg.RunBudget > 0:
		p.UndeclaredMaxWait = min(cfg.UndeclaredMaxWait, cfg.RunBudget)
	}
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

// unknownAgent labels a run nothing names: no agent name, no service.name.
const unknownAgent = "unknown"

func (g *guard) processTraces(ctx context.Context, td ptrace.Traces) (ptrace.Traces, error) {
	buf := g.buffers.Get().(*buffers)
	defer g.buffers.Put(buf)
	defer buf.release()
	batch := g.collect(td, buf)
	if len(batch) == 0 {
		return td, nil
	}
	var started int64
	now := g.now()
	g.runs.mu.Lock()
	for _, rb := range batch {
		key := rb.key.String()
		st, created := g.runs.get(key, now)
		if created {
			started++
			st.first = rb.first
		}
		st.first, st.last = min(st.first, rb.first), max(st.last, rb.last)
		st.agent = firstNonEmpty(rb.agent, st.agent, rb.service, unknownAgent)
		if rb.id != "" || st.id == "" {
			st.id = runName(rb.key, rb.id)
		}
		rb.counters = g.runs.countersOf(st.agent)
		for i := range rb.events {
			e := &rb.events[i]
			if e.model {
				e.judgment = st.progress.ObserveModel(e.call)
				continue
			}
			e.verdict = st.progress.Observe(e.step)
			e.calls = g.runs.toolCalls(rb.counters, e.tool)
		}
		rb.name = st.id
		if rb.hasRoot {
			st.sawRoot = true
			// The trace's root span ends last: the run is over. A run keyed by attribute spans several
			// traces and ends only by idling out.
			if rb.key.attr == "" {
				rb.summary, rb.ended = g.runs.end(key, st, rb.root.Status().Code() == ptrace.StatusCodeError), true
			}
		}
	}
	g.runs.mu.Unlock()

	var exempt, waiting, forgotten int64
	for _, rb := range batch {
		// A run that is its trace is found by its trace id: its steps and model calls do not repeat its
		// name (docs/design.md, section 8). A run named by an attribute spans traces, so each says it.
		nameRun := rb.key.attr != ""
		for i := range rb.events {
			e := &rb.events[i]
			if e.model {
				annotateModel(e.span, e.judgment, e.call, rb.name, nameRun)
				countModel(rb.counters, e.call, e.judgment)
				continue
			}
			annotateStep(e.span, e.verdict, rb.counters.name, rb.name, nameRun)
			countStep(rb.counters, e.calls, e.step, e.verdict)
			exempt += int64(count(e.verdict.WaitExempt))
			waiting += int64(count(e.verdict.Waiting))
			forgotten += int64(e.verdict.Forgotten)
		}
		if rb.ended {
			annotateRoot(rb.root, rb.summary, rb.name)
		}
	}
	if started > 0 {
		g.telemetry.ProcessorAgentguardRunsStarted.Add(ctx, started)
	}
	if exempt > 0 {
		g.telemetry.ProcessorAgentguardPollsExempt.Add(ctx, exempt)
	}
	if waiting > 0 {
		g.telemetry.ProcessorAgentguardStepsWaiting.Add(ctx, waiting)
	}
	if forgotten > 0 {
		g.telemetry.ProcessorAgentguardSeenForgotten.Add(ctx, forgotten)
	}
	g.flush(ctx)
	return td, nil
}
