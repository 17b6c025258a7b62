// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentotel/agentotel/internal/repo"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// recipeBase is what the count recipe leaves to the user's own config: the processors, and where the
// Prometheus exporter listens in this test.
const recipeBase = `
processors:
  memory_limiter: {check_interval: 1s, limit_mib: 1024}
  agentguard:
    tools:
      get_build_status: {kind: wait, progress_field: status, waiting_values: [queued, running],
                         terminal_values: [success, failed, cancelled, timed_out], max_wait: 20m, min_interval: 5s}
      edit_file: {kind: write, state_field: sha}
  shapeonly: {tools: {find_customer: customer}}
  batch: {timeout: 200ms}
exporters:
  prometheus:
    endpoint: {{.Exporter}}
`

// TestCountConnectorRecipe runs deploy/recipes/stuck-episodes-count.yaml in the built collector and
// reads the stuck episodes from the Prometheus exporter as a pipeline metric with agent and reason.
func TestCountConnectorRecipe(t *testing.T) {
	recipe := filepath.Join(repo.Root(t), "deploy", "recipes", "stuck-episodes-count.yaml")
	// The recipe as shipped, with the rest of a config merged over it; only the exporter's port moves.
	exporter := collectortest.FreeAddr(t)
	c := collectortest.Start(t, recipeBase, map[string]string{"Exporter": exporter}, recipe)

	for _, sc := range []string{"docs", "finished_poll", "deploy", "support"} {
		c.Send("grpc", "-scenario", sc, "-seed", "3")
	}
	url := "http://" + exporter + "/metrics"
	collectortest.Eventually(t, "the counted stuck episodes", func() bool {
		return collectortest.Scrape(t, url, "agentguard_stuck_episodes_total", nil) == 2
	})
	assert.Equal(t, 1.0, collectortest.Scrape(t, url, "agentguard_stuck_episodes_total",
		map[string]string{"gen_ai_agent_name": "docs", "reason": "no_progress"}))
	assert.Equal(t, 1.0, collectortest.Scrape(t, url, "agentguard_stuck_episodes_total",
		map[string]string{"gen_ai_agent_name": "deploy", "reason": "loop"}))
}
