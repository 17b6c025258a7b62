// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package annotation_test

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processortest"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/processor/agentguard"
	"github.com/agentotel/agentotel/processor/shapeonly"
)

// TestKeysAreWhatAgentguardWrites runs agentguard on every scenario in every convention, with a manifest
// that declares a wait and a write and with one that leaves the wait undeclared, so that every verdict
// occurs, and collects the attribute keys it adds
// to spans. shapeonly leaves exactly Keys readable: a key agentguard writes that the list lacks would be
// withheld on data-class spans, and a listed key agentguard never writes is a stale name.
func TestKeysAreWhatAgentguardWrites(t *testing.T) {
	written := map[string]bool{}
	eventKeys := map[string]bool{}
	events := 0
	for _, td := range guardedScenarios(t) {
		for _, span := range walk.Spans(td.after) {
			before := td.before[spanKey(span)]
			for k := range span.Attributes().All() {
				if _, had := before.Get(k); !had {
					written[k] = true
				}
			}
			for i := 0; i < span.Events().Len(); i++ {
				e := span.Events().At(i)
				if e.Name() != annotation.StuckEvent {
					continue
				}
				events++
				for k := range e.Attributes().All() {
					eventKeys[k] = true
				}
			}
		}
	}
	// A run judged from its log records is annotated there: the one key only a record gets is the
	// new episode, which a span carries as its event.
	for k := range keysOnRecords(t) {
		written[k] = true
	}
	assert.ElementsMatch(t, annotation.Keys(), slices.Collect(maps.Keys(written)))
	require.NotZero(t, events, "no scenario became stuck")
	assert.ElementsMatch(t, []string{annotation.EventReason, annotation.EventAgentName, annotation.EventBarren, annotation.EventRun,
		annotation.EpisodeTokens}, slices.Collect(maps.Keys(eventKeys)), "the stuck event feeds the count connector recipe")
}

// TestShapeonlyLeavesAnnotationsReadable runs shapeonly after agentguard with every tool classed as
// customer data: every annotation keeps its value and the stuck event stays whole, while the tools'
// own values are withheld.
func TestShapeonlyLeavesAnnotationsReadable(t *testing.T) {
	shaper := startShapeonly(t)
	withheld := 0
	for _, td := range guardedScenarios(t) {
		guarded := ptrace.NewTraces()
		td.after.CopyTo(guarded)
		require.NoError(t, shaper.ConsumeTraces(context.Background(), td.after))
		annotated := map[spanID]ptrace.Span{}
		for _, span := range walk.Spans(guarded) {
			annotated[spanKey(span)] = span
		}
		for _, shaped := range walk.Spans(td.after) {
			span := annotated[spanKey(shaped)]
			for _, k := range annotation.Keys() {
				want, ok := span.Attributes().Get(k)
				if !ok {
					continue
				}
				got, _ := shaped.Attributes().Get(k)
				assert.Equal(t, want.AsRaw(), got.AsRaw(), "%s on %s", k, span.Name())
			}
			for i := 0; i < span.Events().Len(); i++ {
				if span.Events().At(i).Name() == annotation.StuckEvent {
					assert.Equal(t, span.Events().At(i).Attributes().AsRaw(), shaped.Events().At(i).Attributes().AsRaw())
				}
			}
			if !span.Attributes().Equal(shaped.Attributes()) {
				withheld++
			}
		}
	}
	require.NotZero(t, withheld, "shapeonly withheld nothing: the test proves nothing")
}

type spanID struct {
	trace pcommon.TraceID
	span  pcommon.SpanID
}

func spanKey(span ptrace.Span) spanID { return spanID{span.TraceID(), span.SpanID()} }

// guarded is one scenario's traces after agentguard, and each span's attributes before it.
type guarded struct {
	before map[spanID]pcommon.Map
	after  ptrace.Traces
}

func guardedScenarios(t *testing.T) []guarded {
	t.Helper()
	factory := agentguard.NewFactory()
	declared := factory.CreateDefaultConfig().(*agentguard.Config)
	declared.Tools = map[string]agentguard.ToolConfig{
		"get_build_status": {Kind: "wait", ProgressField: "status", WaitingValues: []string{"queued", "running"},
			TerminalValues: []string{"success", "failed", "cancelled", "timed_out"}, MaxWait: 20 * time.Minute, MinInterval: 5 * time.Second},
		"edit_file": {Kind: "write", StateField: "sha"},
	}
	// Without the wait declared, the build polls wait undeclared.
	undeclared := factory.CreateDefaultConfig().(*agentguard.Config)
	undeclared.Tools = map[string]agentguard.ToolConfig{"edit_file": declared.Tools["edit_file"]}
	var out []guarded
	for _, cfg := range []*agentguard.Config{declared, undeclared} {
		guard := start(t, factory, cfg)
		// The unknown SDK's steps cannot be read: they are the unjudged ones.
		for _, conv := range append(agentgen.Conventions(), agentgen.Unknown) {
			for _, scenario := range agentgen.Scenarios() {
				run, err := agentgen.Generate(scenario, agentgen.Options{Convention: conv, Seed: 7})
				require.NoError(t, err)
				g := guarded{before: map[spanID]pcommon.Map{}, after: run.Traces}
				for _, span := range walk.Spans(run.Traces) {
					// Every tool is customer data to the shapeonly that may follow.
					span.Attributes().PutStr("tool.data_class", "customer")
					attrs := pcommon.NewMap()
					span.Attributes().CopyTo(attrs)
					g.before[spanKey(span)] = attrs
				}
				require.NoError(t, guard.ConsumeTraces(context.Background(), run.Traces))
				out = append(out, g)
			}
		}
	}
	return out
}

// keysOnRecords runs every scenario as an agent instrumented only by its model client writes it
// (agentgen.LogEvents), its records before its spans, and returns the attribute keys agentguard adds
// to the records.
func keysOnRecords(t *testing.T) map[string]bool {
	factory := agentguard.NewFactory()
	cfg := factory.CreateDefaultConfig()
	set := processortest.NewNopSettings(factory.Type())
	traces, err := factory.CreateTraces(context.Background(), set, cfg, consumertest.NewNop())
	require.NoError(t, err)
	logs, err := factory.CreateLogs(context.Background(), set, cfg, consumertest.NewNop())
	require.NoError(t, err)
	for _, p := range []component.Component{traces, logs} {
		require.NoError(t, p.Start(context.Background(), componenttest.NewNopHost()))
		t.Cleanup(func() { require.NoError(t, p.Shutdown(context.Background())) })
	}
	written := map[string]bool{}
	for _, scenario := range agentgen.Scenarios() {
		run, err := agentgen.Generate(scenario, agentgen.Options{Seed: 7})
		require.NoError(t, err)
		td, ld, err := agentgen.LogEvents(run)
		require.NoError(t, err)
		before := plog.NewLogs()
		ld.CopyTo(before)
		require.NoError(t, logs.ConsumeLogs(context.Background(), ld))
		require.NoError(t, traces.ConsumeTraces(context.Background(), td))
		var had []pcommon.Map
		for _, lr := range walk.Logs(before) {
			had = append(had, lr.Attributes())
		}
		i := 0
		for _, lr := range walk.Logs(ld) {
			for k := range lr.Attributes().All() {
				if _, ok := had[i].Get(k); !ok {
					written[k] = true
				}
			}
			i++
		}
	}
	require.True(t, written[annotation.NewEpisode], "no run judged from its records became stuck")
	return written
}

func startShapeonly(t *testing.T) processor.Traces {
	factory := shapeonly.NewFactory()
	return start(t, factory, factory.CreateDefaultConfig())
}

func start(t *testing.T, factory processor.Factory, cfg component.Config) processor.Traces {
	t.Helper()
	p, err := factory.CreateTraces(context.Background(), processortest.NewNopSettings(factory.Type()), cfg, consumertest.NewNop())
	require.NoError(t, err)
	require.NoError(t, p.Start(context.Background(), componenttest.NewNopHost()))
	t.Cleanup(func() { require.NoError(t, p.Shutdown(context.Background())) })
	return p
}
