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
func NewFactory() processor.Factory {
	return processor.NewFactory(
		metadata.Type,
		func() component.Config { return createDefaultConfig() },
		processor.WithTraces(createTraces, metadata.TracesStability),
		processor.WithLogs(createLogs, metadata.LogsStability),
	)
}

// guards: the traces and logs pipelines of one configured agentguard judge their runs together, from
// the spans and the log records alike.
var guards = sharedcomponent.NewMap[*Config, *guard]()

// Annotating adds attributes and events to the spans and records it judges.
var mutates = processorhelper.WithCapabilities(consumer.Capabilities{MutatesData: true})

func acquire(set processor.Settings, cfg component.Config) (*guard, []processorhelper.Option, error) {
	c := cfg.(*Config)
	g, err := guards.Acquire(c, func() (*guard, error) { return newGuard(set, c) })
	if err != nil {
		return nil, nil, err
	}
	release := func(ctx context.Context) error {
		if guards.Release(c) {
			return g.shutdown(ctx)
		}
		return nil
	}
	return g, []processorhelper.Option{mutates, processorhelper.WithStart(g.start), processorhelper.WithShutdown(release)}, nil
}

func createTraces(ctx context.Context, set processor.Settings, cfg component.Config, next consumer.Traces) (processor.Traces, error) {
	g, opts, err := acquire(set, cfg)
	if err != nil {
		return nil, err
	}
	g.traces.Store(true)
	return processorhelper.NewTraces(ctx, set, cfg, next, g.processTraces, opts...)
}

func createLogs(ctx context.Context, set processor.Settings, cfg component.Config, next consumer.Logs) (processor.Logs, error) {
	g, opts, err := acquire(set, cfg)
	if err != nil {
		return nil, err
	}
	g.logs.Store(true)
	return processorhelper.NewLogs(ctx, set, cfg, next, g.processLogs, opts...)
}
