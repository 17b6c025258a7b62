// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/payloads"
	"github.com/agentotel/agentotel/internal/repo"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// cliConfig puts both processors in the traces and the logs pipeline, as deploy/otelcol-agent.yaml
// does, with the tools named as a user writes them.
const cliConfig = `
processors:
  agentguard:
    tools:
      get_build_status: {kind: wait, progress_field: status, waiting_values: [queued, running],
                         terminal_values: [success, failed, cancelled, timed_out], max_wait: 20m, min_interval: 5s}
      edit_file: {kind: write, state_field: sha}
  shapeonly:
    tools: {find_customer: customer}
exporters:
  file/traces:
    path: {{.Output}}
    flush_interval: 100ms
  file/logs:
    path: {{.Logs}}
    flush_interval: 100ms
service:
  pipelines:
    traces:
      receivers: [otlp]
      processors: [agentguard, shapeonly]
      exporters: [file/traces]
    logs:
      receivers: [otlp]
      processors: [agentguard, shapeonly]
      exporters: [file/logs]
`

// TestCodingAgentCLIsThroughTheCollector posts the OTLP JSON exports of Claude Code, Gemini CLI and
// Codex (testdata/formats/cli) to the built distribution's OTLP/HTTP receiver, logs then traces, as the
// CLIs' exporters send them: each CLI's docs search and edit-and-revert runs are found stuck, its
// build poll (a declared wait behind its MCP namespace) and its support run are not, and the support
// run's customer record leaves the collector in neither signal.
func TestCodingAgentCLIsThroughTheCollector(t *testing.T) {
	logsOut := filepath.Join(t.TempDir(), "logs.jsonl")
	c := collectortest.Start(t, cliConfig, map[string]string{"Logs": logsOut})
	root := filepath.Join(repo.Root(t), "testdata", "formats", "cli")
	agents := map[string]string{"claude-code": "claude-code", "gemini-cli": "gemini-cli", "codex": "codex_exec"}
	for cli := range agents {
		for _, scenario := range []string{"build-poll", "docs-search", "edit-revert", "support"} {
			base := filepath.Join(root, cli, cli+"-"+scenario)
			post(t, "http://"+c.HTTP+"/v1/logs", base+".logs.json")
			post(t, "http://"+c.HTTP+"/v1/traces", base+".traces.json")
		}
	}
	for cli, agent := range agents {
		collectortest.Eventually(t, cli+"'s stuck runs in internal telemetry", func() bool {
			return c.Metric("otelcol_processor_agentguard_stuck_episodes", map[string]string{"gen_ai_agent_name": agent, "reason": "no_progress"}) == 2
		})
		assert.Zero(t, c.Metric("otelcol_processor_agentguard_stuck_episodes", map[string]string{"gen_ai_agent_name": agent, "reason": "loop"}),
			"%s: the declared build poll is no loop", cli)
		assert.Positive(t, c.Metric("otelcol_processor_agentguard_steps", map[string]string{"gen_ai_agent_name": agent, "progress": "true"}), cli)
	}
	secrets := []string{"cus_88421907", "Jane Roe-Whitfield", "jane.roe@example-mail.test", "+1 415 555 0199", "VIP; disputes every invoice since March"}
	var out []byte
	collectortest.Eventually(t, "the file exporters to write what came out", func() bool {
		traces, _ := os.ReadFile(c.Output)
		logs, _ := os.ReadFile(logsOut)
		out = append(traces, logs...)
		return bytes.Contains(traces, []byte("claude_code.tool")) && bytes.Contains(logs, []byte("codex.tool_result"))
	})
	for _, s := range secrets {
		assert.NotContains(t, string(out), s)
		assert.NotContains(t, string(out), strings.ReplaceAll(s, "@", `\u0040`))
	}
}

// post sends each export request of an OTLP JSON payload file.
func post(t *testing.T, url, path string) {
	t.Helper()
	for _, req := range payloads.Requests(t, path) {
		resp, err := http.Post(url, "application/json", bytes.NewReader(req))
		require.NoError(t, err)
		_ = resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s refused %s", url, path)
	}
}
