// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"context"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processorhelper"

	"github.com/agentotel/agentotel/internal/sharedcomponent"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/metadata"
)

// factory holds the memories its processors share: the traces and logs processors of one configured
// shapeonly share theirs, so a call classed on a tool span is withheld in a gen_ai.tool.message log
// record too. It lives on the factory, as memorylimiter's singletons do, so two factories (two
// distributions in one test binary) never share.
type factory struct {
	memories *sharedcomponent.Map[*Config, *memory]
}

// NewFactory returns the shapeonly processor factory.
func NewFactory() processor.Factory {
	f := &factory{memories: sharedcomponent.NewMap[*Config, *memory]()}
	return processor.NewFactory(
		metadata.Type,
		func() component.Config { return createDefaultConfig() },
		processor.WithTraces(f.createTraces, metadata.TracesStability),
		processor.WithLogs(f.createLogs, metadata.LogsStability),
	)
}

// shaping rewrites values in place, so the pipeline must hand this processor its own copy.
var mutates = processorhelper.WithCapabilities(consumer.Capabilities{MutatesData: true})

func (f *factory) createTraces(ctx context.Context, set processor.Settings, cfg component.Config, next consumer.Traces) (processor.Traces, error) {
	p, err := newShapeOnly(set, cfg.(*Config), f.memories)
	if err != nil {
		return nil, err
	}
	tp, err := processorhelper.NewTraces(ctx, set, cfg, next, p.processTraces, mutates, processorhelper.WithStart(p.start), processorhelper.WithShutdown(p.shutdown))
	return sharedcomponent.Made(tp, err, p.shutdown)
}

func (f *factory) createLogs(ctx context.Context, set processor.Settings, cfg component.Config, next consumer.Logs) (processor.Logs, error) {
	p, err := newShapeOnly(set, cfg.(*Config), f.memories)
	if err != nil {
		return nil, err
	}
	lp, err := processorhelper.NewLogs(ctx, set, cfg, next, p.processLogs, mutates, processorhelper.WithStart(p.start), processorhelper.WithShutdown(p.shutdown))
	return sharedcomponent.Made(lp, err, p.shutdown)
}
