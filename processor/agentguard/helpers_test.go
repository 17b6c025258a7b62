// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/processor/agentguard/internal/metadatatest"
)

// seedConfig is the manifest of the reference agents
// (docs/design.md#6-progress-internalprogress-internaldigest): the deploy agent's build poll is a
// declared wait, edit_file a write whose state is the file's sha.
func seedConfig() *Config {
	cfg := createDefaultConfig()
	cfg.Tools = map[string]ToolConfig{
		"get_build_status": {Kind: kindWait, ProgressField: "status", WaitingValues: []string{"queued", "running"},
			TerminalValues: []string{"success", "failed", "cancelled", "timed_out"}, MaxWait: 20 * time.Minute, MinInterval: 5 * time.Second},
		"edit_file": {Kind: kindWrite, StateField: "sha"},
	}
	return cfg
}

// harness runs a real agentguard processor, built by its factory, on real pdata: in a traces
// pipeline, and in a logs pipeline beside it built from the same configuration, as the collector
// builds the one agentguard of both.
type harness struct {
	t       *testing.T
	f       *factory
	cfg     *Config
	tel     *componenttest.Telemetry
	proc    processor.Traces
	sink    *consumertest.TracesSink
	logs    processor.Logs
	logSink *consumertest.LogsSink
}

func newHarness(t *testing.T, cfg *Config) *harness { return newPipelines(t, cfg, true, true) }

// newPipelines is newHarness with the pipelines asked for: a collector that sends agentguard no logs,
// or no traces.
func newPipelines(t *testing.T, cfg *Config, traces, logs bool) *harness {
	t.Helper()
	h := startPipelines(t, cfg, componenttest.NewNopHost(), traces, logs)
	t.Cleanup(h.shutdown)
	return h
}

// startPipelines is newPipelines on host, shut down by the caller (shutdown): a test of restarts shuts
// one down and starts another on the same storage.
func startPipelines(t *testing.T, cfg *Config, host component.Host, traces, logs bool) *harness {
	t.Helper()
	require.NoError(t, cfg.Validate())
	h := &harness{t: t, f: newFactory(), cfg: cfg, tel: componenttest.NewTelemetry(), sink: new(consumertest.TracesSink), logSink: new(consumertest.LogsSink)}
	t.Cleanup(func() { require.NoError(t, h.tel.Shutdown(context.Background())) })
	var err error
	pf := h.f.processorFactory() // one factory, as a collector has: its two processors share one guard
	if traces {
		h.proc, err = pf.CreateTraces(context.Background(), metadatatest.NewSettings(h.tel), cfg, h.sink)
		require.NoError(t, err)
		require.NoError(t, h.proc.Start(context.Background(), host))
	}
	if logs {
		h.logs, err = pf.CreateLogs(context.Background(), metadatatest.NewSettings(h.tel), cfg, h.logSink)
		require.NoError(t, err)
		require.NoError(t, h.logs.Start(context.Background(), host))
	}
	return h
}

// shutdown shuts the pipelines down, as the collector does when it stops.
func (h *harness) shutdown() {
	if h.proc != nil {
		require.NoError(h.t, h.proc.Shutdown(context.Background()))
	}
	if h.logs != nil {
		require.NoError(h.t, h.logs.Shutdown(context.Background()))
	}
}

func (h *harness) run(td ptrace.Traces) ptrace.Traces {
	h.t.Helper()
	require.NoError(h.t, h.proc.ConsumeTraces(context.Background(), td))
	all := h.sink.AllTraces()
	return all[len(all)-1]
}

// idleOut ends every run as if run_idle_timeout had passed since it was last seen: the way a run
// keyed by a session ends.
func (h *harness) idleOut() {
	h.t.Helper()
	g, err := h.f.guards.Acquire(h.cfg, nil)
	require.NoError(h.t, err)
	defer h.f.guards.Release(h.cfg)
	g.runs.active(g.now().Add(h.cfg.RunIdleTimeout + time.Hour))
	g.flush(context.Background())
}

// runLogs passes a logs batch through the logs pipeline and returns it as it left.
func (h *harness) runLogs(ld plog.Logs) plog.Logs {
	h.t.Helper()
	require.NoError(h.t, h.logs.ConsumeLogs(context.Background(), ld))
	all := h.logSink.AllLogs()
	return all[len(all)-1]
}

// stuckEvents returns the reason of every agentguard.stuck event in a batch, per trace id.
func stuckEvents(td ptrace.Traces) map[string][]string {
	out := map[string][]string{}
	for _, span := range walk.Spans(td) {
		for i := 0; i < span.Events().Len(); i++ {
			e := span.Events().At(i)
			if e.Name() == annotation.StuckEvent {
				r, _ := e.Attributes().Get(annotation.EventReason)
				out[span.TraceID().String()] = append(out[span.TraceID().String()], r.Str())
			}
		}
	}
	return out
}

// runNames counts where the run name appears, as agentguard.run on spans ("root", "step", "model") and
// in stuck events ("event"); a different name fails the count with its own key.
func runNames(td ptrace.Traces, name string) map[string]int {
	out := map[string]int{}
	where := func(kind string, attrs pcommon.Map) {
		if v, ok := attrs.Get(annotation.Run); ok {
			if v.Str() != name {
				kind = "other name " + v.Str()
			}
			out[kind]++
		}
	}
	for _, span := range walk.Spans(td) {
		kind := "root"
		if _, ok := span.Attributes().Get(annotation.Step); ok {
			kind = "step"
		} else if _, ok := span.Attributes().Get(annotation.Round); ok {
			kind = "model"
		}
		where(kind, span.Attributes())
		for i := 0; i < span.Events().Len(); i++ {
			if e := span.Events().At(i); e.Name() == annotation.StuckEvent {
				where("event", e.Attributes())
			}
		}
	}
	return out
}

// counts reads a counter's data points that are not zero, keyed by their attributes as
// "key=value,key=value" (sorted by key). Series served from zero are left out: tests assert what
// happened, not what was announced.
func counts(t *testing.T, tel *componenttest.Telemetry, name string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	m, err := tel.GetMetric(name)
	if err != nil {
		return out
	}
	sum, ok := m.Data.(metricdata.Sum[int64])
	require.True(t, ok, "%s is not an int64 sum", name)
	for _, dp := range sum.DataPoints {
		if dp.Value == 0 {
			continue
		}
		var parts []string
		for _, kv := range dp.Attributes.ToSlice() {
			parts = append(parts, string(kv.Key)+"="+kv.Value.String())
		}
		out[strings.Join(parts, ",")] = dp.Value
	}
	return out
}
