// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"context"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processorhelper"

	"github.com/agentotel/agentotel/internal/sharedcomponent"
	"github.com/agentotel/agentotel/processor/agentguard/internal/metadata"
)

// NewFactory returns the agentguard processor factory.
func NewFactory() processor.Factory { return newFactory().processorFactory() }

// factory holds the guards its processors share: the traces and logs pipelines of one configured
// agentguard judge their runs together, from the spans and the log records alike. It lives on the
// factory, as memorylimiter's singletons do, so two factories never share.
type factory struct {
	guards *sharedcomponent.Map[*Config, *guard]
}

func newFactory() *factory { return &factory{guards: sharedcomponent.NewMap[*Config, *guard]()} }

func (f *factory) processorFactory() processor.Factory {
	return processor.NewFactory(
		metadata.Type,
		func() component.Config { return createDefaultConfig() },
		processor.WithTraces(f.createTraces, metadata.TracesStability),
		processor.WithLogs(f.createLogs, metadata.LogsStability),
	)
}

// Annotating adds attributes and events to the spans and records it judges.
var mutates = processorhelper.WithCapabilities(consumer.Capabilities{MutatesData: true})

// acquire returns the guard of a configuration, made by its first processor, the options that start
// it and release it when its last processor shuts down, and the release itself, for a processor that
// could not be made.
func (f *factory) acquire(set processor.Settings, cfg component.Config) (*guard, []processorhelper.Option, func(context.Context) error, error) {
	c := cfg.(*Config)
	g, err := f.guards.Acquire(c, func() (*guard, error) { return newGuard(set, c) })
	if err != nil {
		return nil, nil, nil, err
	}
	release := func(ctx context.Context) error {
		if f.guards.Release(c) {
			return g.shutdown(ctx)
		}
		return nil
	}
	return g, []processorhelper.Option{mutates, processorhelper.WithStart(g.start), processorhelper.WithShutdown(release)}, release, nil
}

func (f *factory) createTraces(ctx context.Context, set processor.Settings, cfg component.Config, next consumer.Traces) (processor.Traces, error) {
	g, opts, release, err := f.acquire(set, cfg)
	if err != nil {
		return nil, err
	}
	g.traces.Store(true)
	tp, err := processorhelper.NewTraces(ctx, set, cfg, next, g.processTraces, opts...)
	return sharedcomponent.Made(tp, err, release)
}

func (f *factory) createLogs(ctx context.Context, set processor.Settings, cfg component.Config, next consumer.Logs) (processor.Logs, error) {
	g, opts, release, err := f.acquire(set, cfg)
	if err != nil {
		return nil, err
	}
	g.logs.Store(true)
	lp, err := processorhelper.NewLogs(ctx, set, cfg, next, g.processLogs, opts...)
	return sharedcomponent.Made(lp, err, release)
}
