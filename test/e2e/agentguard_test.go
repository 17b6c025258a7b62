// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/test/internal/collectortest"
	"github.com/agentotel/agentotel/test/promcheck"
)

// pipelineConfig is the recommended pipeline, agentguard before shapeonly, with the reference agents' manifest.
const pipelineConfig = `
processors:
  memory_limiter:
    check_interval: 1s
    limit_mib: 1024
  agentguard:
    tools:
      get_build_status: {kind: wait, progress_field: status, waiting_values: [queued, running],
                         terminal_values: [success, failed, cancelled, timed_out], max_wait: 20m, min_interval: 5s}
      edit_file: {kind: write, state_field: sha}
  shapeonly:
    tools: {find_customer: customer}
  batch:
    timeout: 200ms
exporters:
  file:
    path: {{.Output}}
    flush_interval: 100ms
service:
  pipelines:
    traces:
      receivers: [otlp]
      processors: [memory_limiter, agentguard, shapeonly, batch]
      exporters: [file]
`

// TestAgentguardThroughTheCollector sends the reference runs and the stuck scenarios through the built
// distribution and reads the verdicts back from the annotated spans and the internal metrics.
func TestAgentguardThroughTheCollector(t *testing.T) {
	c := collectortest.Start(t, pipelineConfig, nil)
	spans := 0
	for _, sc := range []struct {
		scenario, protocol string
	}{
		{"deploy", "grpc"}, {"docs", "http"}, {"code", "grpc"}, {"support", "http"},
		{"finished_poll", "grpc"}, {"wait_timeout", "http"}, {"error_loop", "grpc"}, {"alternation", "http"}, {"cycle", "grpc"},
	} {
		c.Send(sc.protocol, "-scenario", sc.scenario, "-convention", "genai", "-seed", "1")
		spans += spansOf(t, sc.scenario)
	}
	batches := c.SpansOut(spans)

	stuckAgents := map[string][]string{}
	steps := 0
	for _, td := range batches {
		for _, span := range walk.Spans(td) {
			if _, ok := span.Attributes().Get(annotation.Step); ok {
				steps++
			}
			for i := 0; i < span.Events().Len(); i++ {
				e := span.Events().At(i)
				if e.Name() == annotation.StuckEvent {
					agent, _ := e.Attributes().Get(annotation.EventAgentName)
					reason, _ := e.Attributes().Get(annotation.EventReason)
					stuckAgents[agent.Str()] = append(stuckAgents[agent.Str()], reason.Str())
				}
			}
		}
	}
	assert.Positive(t, steps, "tool spans are annotated")
	// shapeonly runs after agentguard and leaves its verdicts readable, on data-class spans too.
	for _, td := range batches {
		for _, span := range walk.Spans(td) {
			if name, _ := span.Attributes().Get("gen_ai.tool.name"); name.Str() == "find_customer" {
				signals, _ := span.Attributes().Get(annotation.Signals)
				assert.NotEqual(t, "[withheld]", signals.Str())
			}
		}
	}
	assert.Equal(t, []string{"no_progress"}, stuckAgents["docs"])
	assert.Equal(t, []string{"no_progress", "cycle"}, stuckAgents["code"], "the code agent's edit-and-revert, then its read cycle")
	assert.ElementsMatch(t, []string{"loop", "wait_timeout"}, stuckAgents["deploy"], "the finished-build poll and the timed-out wait; the healthy deploy run is not flagged")
	assert.Equal(t, []string{"repeated_error"}, stuckAgents["billing"])
	assert.Equal(t, []string{"alternation"}, stuckAgents["ops"])
	assert.NotContains(t, stuckAgents, "support")

	collectortest.Eventually(t, "stuck episodes in internal telemetry", func() bool {
		return c.Metric("otelcol_processor_agentguard_stuck_episodes", nil) == 7
	})
	assert.Equal(t, 1.0, c.Metric("otelcol_processor_agentguard_stuck_episodes", map[string]string{"gen_ai_agent_name": "docs", "reason": "no_progress"}))
	assert.Equal(t, 1.0, c.Metric("otelcol_processor_agentguard_stuck_episodes", map[string]string{"gen_ai_agent_name": "deploy", "reason": "wait_timeout"}))
	assert.Positive(t, c.Metric("otelcol_processor_agentguard_steps", map[string]string{"progress": "true"}))
	assert.Positive(t, c.Metric("otelcol_processor_agentguard_steps", map[string]string{"progress": "false"}))
	assert.Positive(t, c.Metric("otelcol_processor_agentguard_polls_exempt", nil))

	// Every metric the rules and dashboards may use is really served, under that name.
	for _, name := range promcheck.Served {
		assert.True(t, c.Serves(name), "the collector does not serve %s", name)
	}
}
