// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/countsonly"
)

// TestToolEventsRemembered: a data-class tool span that carries its call on events (Strands, in both
// of its modes) has those events withheld whole but its call id, and what is remembered for the content
// search is the call's arguments and result alone: the customer's email is withheld where another span
// repeats it, while the call id, the tool's name and the timestamps the span also carried are left
// alone elsewhere.
func TestToolEventsRemembered(t *testing.T) {
	const (
		id     = "tooluse_Fq1xyz"
		when   = "2026-01-01T00:00:00.310Z"
		email  = "ada.lovelace@analytical-engine.example"
		result = `[{"json":{"name":"Augusta Ada Lovelace","email":"` + email + `"}}]`
	)
	details := "gen_ai.client.inference.operation.details"
	for _, tt := range []struct {
		name   string
		events map[string]map[string]any
	}{
		{"default mode", map[string]map[string]any{
			"gen_ai.tool.message": {"role": "tool", "content": `{"customer_ref":"Lovelace account"}`, "id": id},
			"gen_ai.choice":       {"message": result, "id": id},
		}},
		{"latest mode", map[string]map[string]any{
			details: {"gen_ai.output.messages": `[{"role":"tool","parts":[{"type":"tool_call_response","id":"` + id +
				`","response":` + result + `}]}]`},
			"gen_ai.client.inference.operation.details.input": {"gen_ai.input.messages": `[{"role":"tool","parts":[` +
				`{"type":"tool_call","name":"find_customer","id":"` + id + `","arguments":{"customer_ref":"Lovelace account"}}]}]`},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} })
			td := spans(
				map[string]any{"name": "execute_tool find_customer", "gen_ai.operation.name": "execute_tool",
					"gen_ai.system": "strands-agents", "gen_ai.tool.name": "find_customer", "gen_ai.tool.call.id": id,
					"gen_ai.event.start_time": when},
				map[string]any{"name": "notify", "note": "mail " + email + " today", "ref": id, "tool": "ran find_customer",
					"at": when},
			)
			td.ResourceSpans().At(0).ScopeSpans().At(0).Scope().SetName("strands-agents")
			tool := spanAt(td, 0)
			// In the order of their names, so every run builds the same span.
			for _, name := range slices.Sorted(maps.Keys(tt.events)) {
				attrs := tt.events[name]
				e := tool.Events().AppendEmpty()
				// Both of the latest mode's events share one name; the map needs two keys.
				if name == details+".input" {
					name = details
				}
				e.SetName(name)
				require.NoError(t, e.Attributes().FromRaw(attrs))
			}
			out := h.run(td)

			tool = spanAt(out, 0)
			for i := 0; i < tool.Events().Len(); i++ {
				e := tool.Events().At(i)
				for _, k := range []string{"content", "message", "gen_ai.input.messages", "gen_ai.output.messages"} {
					if got := eventAttr(e, k); got != "<missing>" {
						assert.NotContains(t, got, "Lovelace", "%s %s", e.Name(), k)
					}
				}
				if got := eventAttr(e, "id"); got != "<missing>" {
					assert.Equal(t, id, got, "the call id on %s stays", e.Name())
				}
			}
			assert.Equal(t, when, attr(out, 0, "gen_ai.event.start_time"), "a timestamp is structural")
			assert.Equal(t, "mail "+countsonly.Withheld+" today", attr(out, 1, "note"), "the result, found again")
			assert.Equal(t, id, attr(out, 1, "ref"), "the call id is not remembered")
			assert.Equal(t, "ran find_customer", attr(out, 1, "tool"), "the tool's name is not remembered")
			assert.Equal(t, when, attr(out, 1, "at"), "the timestamp is not remembered")
		})
	}
}
