// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentotel/agentotel/internal/payloads"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// cliCase is a case of a coding-agent CLI's manifest (testdata/formats/cli/<cli>/manifest.json).
type cliCase struct {
	Case   string `json:"case"`
	Expect string `json:"expect"`
	Reason string `json:"reason"`
	Files  []struct {
		Path   string `json:"path"`
		Signal string `json:"signal"`
	} `json:"files"`
}

// TestCodingAgentCLIs runs the OTLP exports of Claude Code, Gemini CLI and Codex, written from their
// source and documentation (testdata/formats/cli), through agentguard configured with the plain tool
// names a user writes (get_build_status a declared wait, edit_file a write), each CLI naming them
// behind its MCP namespace: the stuck runs are found with the reason their manifest gives, the healthy
// ones (the declared poll among them) end answered, in every order the two pipelines may deliver them
// and from the logs or the traces alone where the CLI puts its steps there.
func TestCodingAgentCLIs(t *testing.T) {
	// What a CLI's telemetry cannot show: Codex writes no content on its spans, and Gemini CLI cuts
	// a span's value at 10,000 characters, so the research run's last fetch (42,000) shows whole only
	// in its logs; Codex cuts every tool output at 2,048 bytes.
	blind := map[string]bool{"codex/traces": true}
	unjudged := map[string]int64{"codex/research/both": 1, "codex/research/logs": 1, "gemini-cli/research/traces": 1}
	for _, cli := range []string{"claude-code", "gemini-cli", "codex"} {
		dir := filepath.Join("..", "..", "testdata", "formats", "cli", cli)
		raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
		require.NoError(t, err)
		var cases []cliCase
		require.NoError(t, json.Unmarshal(raw, &cases))
		require.NotEmpty(t, cases)
		for _, c := range cases {
			for _, mode := range []string{"logs first", "traces first", "logs", "traces"} {
				t.Run(cli+"/"+c.Case+"/"+mode, func(t *testing.T) {
					var traces, logs [][]byte
					for _, f := range c.Files {
						if f.Signal == "logs" {
							logs = payloads.Requests(t, filepath.Join(dir, f.Path))
						} else {
							traces = payloads.Requests(t, filepath.Join(dir, f.Path))
						}
					}
					h := newPipelines(t, seedConfig(), mode != "logs", mode != "traces")
					send := func(signal string) {
						for _, line := range map[string][][]byte{"logs": logs, "traces": traces}[signal] {
							if signal == "logs" {
								ld, err := (&plog.JSONUnmarshaler{}).UnmarshalLogs(line)
								require.NoError(t, err)
								h.runLogs(ld)
								continue
							}
							td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(line)
							require.NoError(t, err)
							h.run(td)
						}
					}
					switch mode {
					case "logs first":
						send("logs")
						send("traces")
					case "traces first":
						send("traces")
						send("logs")
					default:
						send(mode)
					}
					h.idleOut()
					only := map[string]string{"logs first": "both", "traces first": "both"}[mode]
					if only == "" {
						only = mode
					}
					steps := map[string]int64{}
					for labels, n := range counts(t, h.tel, "otelcol_processor_agentguard_steps") {
						steps[withoutAgent(labels)] += n
					}
					finished := counts(t, h.tel, "otelcol_processor_agentguard_runs_finished")
					if blind[cli+"/"+only] {
						assert.Empty(t, steps, "nothing to judge")
						assert.Empty(t, finished, "no run")
						return
					}
					assert.Equal(t, unjudged[cli+"/"+c.Case+"/"+only], steps["progress=unknown"], "unjudged steps")
					require.Len(t, finished, 1, "one run")
					var stuck []string
					for labels := range counts(t, h.tel, "otelcol_processor_agentguard_stuck_episodes") {
						stuck = append(stuck, withoutAgent(labels))
					}
					for labels := range finished {
						if c.Expect == "stuck" {
							assert.Equal(t, "outcome=stuck", withoutAgent(labels))
							assert.Equal(t, []string{"reason=" + c.Reason}, stuck)
							continue
						}
						assert.Equal(t, "outcome=answered", withoutAgent(labels))
						assert.Empty(t, stuck, "a healthy run was flagged")
					}
				})
			}
		}
	}
}
