// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"
	"go.uber.org/zap"

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
	runs       *runTable
	telemetry  *metadata.TelemetryBuilder
	scratch    sync.Pool
	buffers    sync.Pool // *buffers, one per batch in flight
	now        func() time.Time
	stop       chan struct{}
	done       sync.WaitGroup
	// started: the traces and logs pipelines share the guard, and each starts it; startErr is what the
	// first start found. traces, logs: a traces, a logs pipeline is one of them.
	started      sync.Once
	startErr     error
	traces, logs atomic.Bool
	// id names the processor's state in storage; persist keeps it there (storage.go).
	id      component.ID
	logger  *zap.Logger
	persist persistence
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
		runs:       newRunTable(cfg, policyOf(cfg)),
		toolKeys:   map[string]string{},
		telemetry:  tb,
		scratch:    sync.Pool{New: func() any { return new(digest.Scratch) }},
		buffers:    sync.Pool{New: func() any { return new(buffers) }},
		now:        time.Now,
		stop:       make(chan struct{}),
		id:         set.ID,
		logger:     set.Logger,
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

// start loads the runs saved in storage, when storage: names it, and expires idle runs on a timer, so
// a run that never sends its root span is counted as finished (abandoned) even when no more traffic
// arrives. The pipelines share the guard: the first start does this, for both.
func (g *guard) start(ctx context.Context, host component.Host) error {
	g.started.Do(func() {
		if g.startErr = g.openStorage(ctx, host); g.startErr == nil {
			g.expireIdle()
		}
	})
	return g.startErr
}

func (g *guard) expireIdle() {
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
}

// shutdown stops the timer and, with storage, the checkpoints, and saves the runs a last time: it runs
// at the last pipeline's shutdown, when no batch is left.
func (g *guard) shutdown(ctx context.Context) error {
	select {
	case <-g.stop:
	default:
		close(g.stop)
	}
	g.done.Wait()
	err := g.closeStorage(ctx)
	g.telemetry.Shutdown()
	return err
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
	return process(ctx, g, td, (*guard).collect)
}

func (g *guard) processLogs(ctx context.Context, ld plog.Logs) (plog.Logs, error) {
	return process(ctx, g, ld, (*guard).collectLogs)
}

// process judges the runs of one batch of either signal, grouped by collect, and passes the batch on
// annotated. Its buffers come from the pool and go back to it released, once per batch.
func process[B any](ctx context.Context, g *guard, batch B, collect func(*guard, B, *buffers) map[runKey]*runBatch) (B, error) {
	buf := g.buffers.Get().(*buffers)
	defer g.buffers.Put(buf)
	defer buf.release()
	g.judge(ctx, collect(g, batch, buf), buf)
	return batch, nil
}
