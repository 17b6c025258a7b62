// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
)

// TestCodingAgentCLIs runs the OTLP exports of Claude Code, Gemini CLI and Codex (testdata/formats/cli,
// written from their source and documentation) through one shapeonly configured, as a user would,
// with the plain name find_customer, which each CLI writes behind its MCP namespace: the customer
// record is withheld everywhere it travels (the tool's span and record, the next requests, another
// call's arguments that copy a value of it, Gemini CLI's traces of one run each its own), in either
// order of the two pipelines; and nothing changes outside customer data, in the runs that carry none
// too, but where a Gemini CLI span value cut at 10,000 characters is no longer JSON: a transcript that
// cannot be read is withheld whole (docs/design.md#4-structure-first-internalagentspan-processorshapeonly).
func TestCodingAgentCLIs(t *testing.T) {
	truncated := "a Gemini CLI span value cut at 10,000 characters (...[TRUNCATED: original length N]) is no longer JSON, and is withheld whole"
	withheldToo := map[string][]string{
		"gemini-cli/research": {
			"gemini-cli-research.traces.json:5 span 8222430f7b3cf206 attributes[gen_ai.output.messages]",
			"gemini-cli-research.traces.json:5 span e4163fdae393bd6c attributes[gen_ai.output.messages]",
			"gemini-cli-research.traces.json:6 span 0fbfcb893e8c1218 attributes[gen_ai.input.messages]",
		},
	}
	for _, cli := range []string{"claude-code", "gemini-cli", "codex"} {
		root := filepath.Join("..", "..", "testdata", "formats", "cli", cli)
		raw, err := os.ReadFile(filepath.Join(root, "manifest.json"))
		require.NoError(t, err)
		var cases []formatCase
		require.NoError(t, json.Unmarshal(raw, &cases))
		require.NotEmpty(t, cases)
		for _, fc := range cases {
			fc.root, fc.name = root, cli+"/"+fc.Case
			fc.DataClassTools = map[string]string{"find_customer": "customer"}
			for _, path := range withheldToo[fc.name] {
				fc.WithheldToo = append(fc.WithheldToo, struct {
					Path string `json:"path"`
					Why  string `json:"why"`
				}{path, truncated})
			}
			for _, order := range []string{"logs first", "traces first"} {
				t.Run(fc.name+"/"+order, func(t *testing.T) {
					if order == "traces first" {
						slices.Reverse(fc.Files)
					}
					batches := runFormatCase(t, fc, nil)
					checkNoSecret(t, fc, batches)
					if order == "logs first" {
						checkUnchanged(t, fc, batches)
					}
				})
			}
		}
	}
}

// TestToolListIsNoMention: a record that lists the tools a CLI loaded (Gemini CLI's gemini_cli.config
// mcp_tools, a tool definition) names the data-class tool without carrying its data: nothing of it is
// withheld, its installation id and timestamps neither, claimed by a convention or not.
func TestToolListIsNoMention(t *testing.T) {
	for _, scope := range []string{"gemini-cli", "some-cli"} {
		t.Run(scope, func(t *testing.T) {
			h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} })
			ld := plog.NewLogs()
			rl := ld.ResourceLogs().AppendEmpty()
			rl.Resource().Attributes().PutStr("session.id", "aec96b0e-4d7f-40ce-b5ad-80328d0780d2")
			sl := rl.ScopeLogs().AppendEmpty()
			sl.Scope().SetName(scope)
			lr := sl.LogRecords().AppendEmpty()
			lr.Body().SetStr("CLI configuration loaded.")
			lr.Attributes().PutStr("event.name", "gemini_cli.config")
			lr.Attributes().PutStr("installation.id", "5d1c0a7e-6f0b-4d9e-9a3e-0c2b7d51f1aa")
			lr.Attributes().PutStr("mcp_tools", "mcp_crm_find_customer,mcp_ci_get_build_status")
			lr.Attributes().PutStr("event.timestamp", "2026-01-01T00:00:00.000Z")
			lr.Attributes().PutStr("tools", `[{"name":"find_customer","description":"Find a customer by name"}]`)
			want := pcommon.NewMap()
			lr.Attributes().CopyTo(want)
			out := h.runLogs(ld).ResourceLogs().At(0).ScopeLogs().At(0).LogRecords().At(0)
			assert.Equal(t, want.AsRaw(), out.Attributes().AsRaw())
			assert.Equal(t, "CLI configuration loaded.", out.Body().Str())
		})
	}
}
