// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/test/internal/ackstream"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// agentguard's runs across a restart of the built collector: the docs run,
// which reads the same pages again and again, with two barren steps before a SIGTERM and the rest after
// it, judged with its runs on file_storage and without; and a damaged saved value.

// agentguardConfig is agentguard alone, exporting to a file.
const agentguardConfig = `
processors:
  agentguard: {}
  batch:
    timeout: 100ms
exporters:
  file:
    path: {{.Output}}
    flush_interval: 100ms
service:
  pipelines:
    traces:
      receivers: [otlp]
      processors: [agentguard, batch]
      exporters: [file]
`

// storedAgentguard keeps agentguard's runs on the preamble's file_storage.
func storedAgentguard(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "storage.yaml")
	require.NoError(t, os.WriteFile(path, []byte("processors:\n  agentguard: {storage: file_storage}\n"), 0o600))
	return path
}

// docsRun is the docs scenario's run, one request a span in the order its spans end, and how many of
// those requests come before its third tool call: two barren steps.
func docsRun(t *testing.T) (requests []ptrace.Traces, beforeThird int) {
	run, err := agentgen.Generate("docs", agentgen.Options{Seed: 1})
	require.NoError(t, err)
	requests = ackstream.SpanRequests(run.Traces)
	tools := 0
	for i, td := range requests {
		if op, _ := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).Attributes().Get("gen_ai.operation.name"); op.Str() == "execute_tool" {
			if tools++; tools == 3 {
				return requests, i
			}
		}
	}
	t.Fatalf("the docs run has %d tool calls; the test needs at least five", tools)
	return nil, 0
}

// judged sends requests, one at a time, to a collector on agentguardConfig (and under), SIGTERMs it
// before request restartAt (never when negative) and sends the rest to one started again on its
// directory; it returns what agentguard wrote on each span, read from both.
func judged(t *testing.T, requests []ptrace.Traces, restartAt int, under ...string) map[pcommon.SpanID]string {
	c := collectortest.Start(t, agentguardConfig, nil, under...)
	verdicts := map[pcommon.SpanID]string{}
	sent := 0
	for i, td := range requests {
		if i == restartAt {
			c.SpansOut(sent)
			c.Terminate()
			maps.Copy(verdicts, ackstream.Verdicts(t, c.Output))
			c = collectortest.Start(t, agentguardConfig, map[string]string{"StorageDir": c.StorageDir}, under...)
			sent = 0
		}
		postTraces(t, c, td)
		sent++
	}
	c.SpansOut(sent)
	maps.Copy(verdicts, ackstream.Verdicts(t, c.Output))
	return verdicts
}

// TestRestartKeepsAgentguardRuns (test b): with its runs on file_storage, the docs run split by a
// SIGTERM after two barren steps is judged span for span as without the restart, stuck where it is
// stuck; without storage the count starts again and it is not found stuck.
func TestRestartKeepsAgentguardRuns(t *testing.T) {
	requests, split := docsRun(t)
	want := judged(t, requests, -1)
	require.True(t, anyStuck(want), "the docs run is stuck without a restart")

	got := judged(t, requests, split, storedAgentguard(t))
	assert.Equal(t, want, got, "with storage, the restart changes no verdict")

	without := judged(t, requests, split)
	assert.False(t, anyStuck(without), "without storage the restart resets the run")
}

func anyStuck(verdicts map[pcommon.SpanID]string) bool {
	for _, v := range verdicts {
		if strings.Contains(v, "event "+annotation.StuckEvent) {
			return true
		}
	}
	return false
}

// TestDamagedAgentguardStateStartsFresh (test d): a saved value cut short or replaced by garbage, and
// a state file of garbage, each give an error in the log and a fresh start: the collector comes up and
// judges the docs run whole as stuck.
func TestDamagedAgentguardStateStartsFresh(t *testing.T) {
	requests, _ := docsRun(t)
	for name, damageIt := range damages {
		t.Run(name, func(t *testing.T) {
			under := storedAgentguard(t)
			before := collectortest.Start(t, agentguardConfig, nil, under)
			postTraces(t, before, requests[0])
			before.SpansOut(1)
			before.Terminate()
			damageIt(t, filepath.Join(before.StorageDir, "processor_agentguard_"))
			after := collectortest.Start(t, agentguardConfig, map[string]string{"StorageDir": before.StorageDir}, under)
			collectortest.Eventually(t, "the error in the log", func() bool { return strings.Contains(after.Log(), "starting fresh") })
			for _, td := range requests {
				postTraces(t, after, td)
			}
			after.SpansOut(len(requests))
			assert.True(t, anyStuck(ackstream.Verdicts(t, after.Output)))
		})
	}
}
