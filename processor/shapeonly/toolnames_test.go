// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNamespacedToolNames: a tool configured by the name its author wrote is data-class under the
// names MCP clients and agent frameworks give it (internal/toolname): on its own span, and where a
// transcript reads its result back by call id or by the call's name.
func TestNamespacedToolNames(t *testing.T) {
	for _, name := range []string{"mcp__crm__find_customer", "mcp_crm_find_customer", "crm__find_customer", "CRM-find_customer", "crm.find_customer", "crm/find_customer"} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} })
			transcript := `[{"role":"user","parts":[{"type":"text","content":"who is Ada?"}]},
 {"role":"assistant","parts":[{"type":"tool_call","id":"call_7","name":"` + name + `","arguments":{"query":"Ada"}}]},
 {"role":"tool","parts":[{"type":"tool_call_response","id":"call_7","response":` + customerResult + `}]}]`
			out := h.run(spans(
				map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": "call_1",
					"gen_ai.tool.call.result": customerResult},
				map[string]any{"name": "chat gpt", "gen_ai.operation.name": "chat", "gen_ai.input.messages": transcript},
			))
			assert.JSONEq(t, shapedCustomerResult, attr(out, 0, "gen_ai.tool.call.result"))
			assert.Equal(t, name, attr(out, 0, "gen_ai.tool.name"), "the name stays")
			got := attr(out, 1, "gen_ai.input.messages")
			assert.NotContains(t, got, "Ada Lovelace")
			assert.Contains(t, got, shapedCustomerResult)
		})
	}
	// An SDK agentotel does not know, naming its span after the tool.
	for i, name := range []string{"mcp__crm__find_customer", "tool_call mcp_crm_find_customer", "Tool: CRM-find_customer"} {
		h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} })
		result := fmt.Sprintf(`{"email":"spaced%d@%s.example"}`, i, []string{"kilo", "lima", "mike"}[i])
		out := h.run(spans(map[string]any{"name": name, "gen_ai.operation.name": "framework", "app.result": result}))
		assert.Equal(t, `{"email":"[withheld]"}`, attr(out, 0, "app.result"), name)
	}
	// A name that only contains the tool's is another tool.
	h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} })
	out := h.run(spans(map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer_report",
		"gen_ai.tool.call.id": "call_1", "gen_ai.tool.call.result": `{"rows":3}`}))
	assert.Equal(t, `{"rows":3}`, attr(out, 0, "gen_ai.tool.call.result"))
}

// TestNamespacedNameResolvesToTheLongestTool: a namespaced name is the longest configured tool it
// ends with, data-class or not, so crm.find-customer is find-customer, which is public, and not
// customer behind the namespace crm.find-, which is data-class.
func TestNamespacedNameResolvesToTheLongestTool(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.Tools = map[string]string{"customer": "customer", "find-customer": "public"}
		c.ShapedClasses, c.UnshapedClasses = []string{"customer"}, []string{"public"}
	})
	out := h.run(spans(
		map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "crm.find-customer",
			"gen_ai.tool.call.id": "call_1", "gen_ai.tool.call.result": `{"email":"found@oscar.example"}`},
		map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "crm.customer",
			"gen_ai.tool.call.id": "call_2", "gen_ai.tool.call.result": `{"email":"named@papa.example"}`},
	))
	assert.Equal(t, `{"email":"found@oscar.example"}`, attr(out, 0, "gen_ai.tool.call.result"))
	assert.Equal(t, `{"email":"[withheld]"}`, attr(out, 1, "gen_ai.tool.call.result"))
}
