// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// TestLegacyFunctionCallFlattened: OpenInference flattens OpenAI's legacy function calling as
// llm.input_messages.N.message.function_call_name / function_call_arguments_json on the assistant
// message, then a role function message naming it (openinference-semantic-conventions:
// MESSAGE_FUNCTION_CALL_NAME, MESSAGE_FUNCTION_CALL_ARGUMENTS_JSON). With no tool span, the data-class
// call's arguments are withheld and its result too; the other call's stay.
func TestLegacyFunctionCallFlattened(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} })
	out := h.run(spans(map[string]any{
		"name": "ChatCompletion", "openinference.span.kind": "LLM",
		"llm.input_messages.0.message.role":                         "user",
		"llm.input_messages.0.message.content":                      "Who is the customer at c-881?",
		"llm.input_messages.1.message.role":                         "assistant",
		"llm.input_messages.1.message.function_call_name":           "find_customer",
		"llm.input_messages.1.message.function_call_arguments_json": `{"email":"ada@example.com"}`,
		"llm.input_messages.2.message.role":                         "function",
		"llm.input_messages.2.message.name":                         "find_customer",
		"llm.input_messages.2.message.content":                      customerResult,
		"llm.input_messages.3.message.role":                         "assistant",
		"llm.input_messages.3.message.function_call_name":           "get_weather",
		"llm.input_messages.3.message.function_call_arguments_json": `{"city":"Oslo"}`,
	}))
	assert.JSONEq(t, `{"email":"[withheld]"}`, attr(out, 0, "llm.input_messages.1.message.function_call_arguments_json"))
	assert.NotContains(t, attr(out, 0, "llm.input_messages.2.message.content"), "Ada Lovelace")
	assert.Equal(t, `{"city":"Oslo"}`, attr(out, 0, "llm.input_messages.3.message.function_call_arguments_json"))
	assert.Equal(t, "find_customer", attr(out, 0, "llm.input_messages.1.message.function_call_name"), "the tool's name is bookkeeping")
}

// TestReActScratchpad: a text ReAct agent (LangChain's classic agents) writes its calls and their
// results into its prompt: "Action: <tool>", "Observation: <result>", with no tool span, role or id
// anywhere. A prompt whose actions name a data-class tool is withheld, wherever it sits (a user
// message's content, flattened or not, or a plain-text input.value); a scratchpad of other tools stays.
func TestReActScratchpad(t *testing.T) {
	scratchpad := func(tool string) string {
		return "Answer the question. Question: who is Ada?\nThought: I should look her up\nAction: " + tool +
			"\nAction Input: Ada\nObservation: " + customerResult + "\nThought:"
	}
	for _, where := range []string{"flattened", "messages", "input.value"} {
		t.Run(where, func(t *testing.T) {
			run := func(td ptrace.Traces) ptrace.Traces {
				// A harness each: what the first withholds its memory would find in the second.
				return newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} }).run(td)
			}
			batch := func(tool string) map[string]any {
				attrs := map[string]any{"name": "ChatOpenAI", "openinference.span.kind": "LLM"}
				switch where {
				case "flattened":
					attrs["llm.input_messages.0.message.role"] = "user"
					attrs["llm.input_messages.0.message.content"] = scratchpad(tool)
				case "messages":
					attrs["input.value"] = `{"messages":[{"role":"user","content":` + jsonText(scratchpad(tool)) + `}]}`
					attrs["input.mime_type"] = "application/json"
				default:
					attrs["input.value"] = scratchpad(tool)
					attrs["input.mime_type"] = "text/plain"
				}
				return attrs
			}
			key := map[string]string{"flattened": "llm.input_messages.0.message.content", "messages": "input.value", "input.value": "input.value"}[where]
			out := run(spans(batch("find_customer")))
			assert.NotContains(t, attr(out, 0, key), "Ada Lovelace")
			out = run(spans(batch("get_weather")))
			assert.Contains(t, attr(out, 0, key), "Ada Lovelace", "another tool's scratchpad stays")
		})
	}
}
