// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"
	"go.uber.org/zap"

	"github.com/agentotel/agentotel/processor/shapeonly/internal/metadatatest"
)

// harness runs a real shapeonly processor, built by its factory, on real pdata.
type harness struct {
	t       *testing.T
	tel     *componenttest.Telemetry
	traces  processor.Traces
	logs    processor.Logs
	sinkT   *consumertest.TracesSink
	sinkL   *consumertest.LogsSink
	stopped bool
}

func newHarness(t *testing.T, mutate func(*Config)) *harness {
	t.Helper()
	return newHarnessOn(t, componenttest.NewNopHost(), zap.NewNop(), mutate)
}

// newHarnessOn is newHarness started on host (its extensions), logging to logger.
func newHarnessOn(t *testing.T, host component.Host, logger *zap.Logger, mutate func(*Config)) *harness {
	t.Helper()
	cfg := createDefaultConfig()
	cfg.Tools = map[string]string{}
	if mutate != nil {
		mutate(cfg)
	}
	require.NoError(t, cfg.Validate())
	h := &harness{t: t, tel: componenttest.NewTelemetry(), sinkT: new(consumertest.TracesSink), sinkL: new(consumertest.LogsSink)}
	t.Cleanup(func() { require.NoError(t, h.tel.Shutdown(context.Background())) })
	var err error
	set := metadatatest.NewSettings(h.tel)
	set.Logger = logger
	f := NewFactory() // one factory, as a collector has: its two processors share one memory
	h.traces, err = f.CreateTraces(context.Background(), set, cfg, h.sinkT)
	require.NoError(t, err)
	h.logs, err = f.CreateLogs(context.Background(), set, cfg, h.sinkL)
	require.NoError(t, err)
	require.NoError(t, h.traces.Start(context.Background(), host))
	require.NoError(t, h.logs.Start(context.Background(), host))
	t.Cleanup(h.stop)
	return h
}

// stop shuts the processors down, as the collector does on SIGTERM; once.
func (h *harness) stop() {
	if h.stopped {
		return
	}
	h.stopped = true
	require.NoError(h.t, h.traces.Shutdown(context.Background()))
	require.NoError(h.t, h.logs.Shutdown(context.Background()))
}

// run sends one batch through the processor and returns what came out.
func (h *harness) run(td ptrace.Traces) ptrace.Traces {
	h.t.Helper()
	require.NoError(h.t, h.traces.ConsumeTraces(context.Background(), td))
	all := h.sinkT.AllTraces()
	return all[len(all)-1]
}

func (h *harness) runLogs(ld plog.Logs) plog.Logs {
	h.t.Helper()
	require.NoError(h.t, h.logs.ConsumeLogs(context.Background(), ld))
	all := h.sinkL.AllLogs()
	return all[len(all)-1]
}

// spans builds a batch: each map is one span's attributes; "name" sets the span name.
func spans(attrs ...map[string]any) ptrace.Traces {
	td := ptrace.NewTraces()
	ss := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
	for _, a := range attrs {
		span := ss.Spans().AppendEmpty()
		if name, ok := a["name"].(string); ok {
			span.SetName(name)
		}
		delete(a, "name")
		if err := span.Attributes().FromRaw(a); err != nil {
			panic(err)
		}
	}
	return td
}

// attr returns attribute key of span i of a batch as a string.
func attr(td ptrace.Traces, i int, key string) string {
	v, ok := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(i).Attributes().Get(key)
	if !ok {
		return "<missing>"
	}
	return v.AsString()
}

func spanAt(td ptrace.Traces, i int) ptrace.Span {
	return td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(i)
}

func eventAttr(e ptrace.SpanEvent, key string) string {
	v, ok := e.Attributes().Get(key)
	if !ok {
		return "<missing>"
	}
	return v.AsString()
}
