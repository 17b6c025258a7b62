// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// buildPolls is a run of GenAI tool spans polling a build through a tool named name: running, then
// success polled again.
func buildPolls(name string) ptrace.Traces {
	td := ptrace.NewTraces()
	ss := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
	t0 := time.Date(2026, 3, 17, 9, 0, 0, 0, time.UTC)
	for i, status := range []string{"running", "success", "success"} {
		s := ss.Spans().AppendEmpty()
		s.SetTraceID(pcommon.TraceID{4, 2})
		s.SetSpanID(pcommon.SpanID{byte(i + 1)})
		s.SetName("execute_tool " + name)
		start := t0.Add(time.Duration(i) * 10 * time.Second)
		s.SetStartTimestamp(pcommon.NewTimestampFromTime(start))
		s.SetEndTimestamp(pcommon.NewTimestampFromTime(start.Add(time.Second)))
		a := s.Attributes()
		a.PutStr("gen_ai.operation.name", "execute_tool")
		a.PutStr("gen_ai.tool.name", name)
		a.PutStr("gen_ai.tool.call.id", fmt.Sprint("c", i))
		a.PutStr("gen_ai.tool.call.arguments", `{"build_id":"b_1"}`)
		a.PutStr("gen_ai.tool.call.result", fmt.Sprintf(`{"status":%q}`, status))
	}
	return td
}

// TestNamespacedToolNames: a tools entry applies to its tool under the names MCP clients and agent
// frameworks give it. Here the manifest's terminal values make a finished build polled again a loop at
// once; without the entry, that poll would only be barren.
func TestNamespacedToolNames(t *testing.T) {
	for _, name := range []string{"get_build_status", "mcp__ci__get_build_status", "mcp_ci_get_build_status", "CI-get_build_status", "ci.get_build_status"} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, seedConfig())
			out := h.run(buildPolls(name))
			assert.Equal(t, map[string][]string{pcommon.TraceID{4, 2}.String(): {"loop"}}, stuckEvents(out))
		})
	}
	h := newHarness(t, seedConfig())
	assert.Empty(t, stuckEvents(h.run(buildPolls("get_build_status_v2"))), "another tool's name is not the entry's")
}

func TestToolEntriesNamingOneToolAreRefused(t *testing.T) {
	cfg := seedConfig()
	cfg.Tools["Get_Build_Status"] = cfg.Tools["get_build_status"]
	assert.ErrorContains(t, cfg.Validate(), "tools::get_build_status: names the same tool as tools::Get_Build_Status (names compare case-insensitively)")
}
