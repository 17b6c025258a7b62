// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/metric/metricdata/metricdatatest"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/metadatatest"
)

const customerResult = `{"rows":[{"name":"Ada Lovelace","email":"ada@example.com"}],"total":1,"status":"ok","note":"VIP since 2019"}`
const shapedCustomerResult = `{"rows":"[1 withheld]","total":1,"status":"ok","note":"[withheld]"}`

func TestGenAIToolSpanByAttribute(t *testing.T) {
	h := newHarness(t, nil)
	out := h.run(spans(map[string]any{
		"name":                       "execute_tool find_customer",
		"gen_ai.operation.name":      "execute_tool",
		"gen_ai.tool.name":           "find_customer",
		"gen_ai.tool.call.id":        "call_1",
		"tool.data_class":            "customer",
		"gen_ai.tool.call.arguments": `{"query":"Ada","account":"acct-99812"}`,
		"gen_ai.tool.call.result":    customerResult,
		"app.note":                   "free text about Ada",
		"app.tags":                   []any{"a", "b"},
		"app.count":                  3,
	}))
	assert.JSONEq(t, shapedCustomerResult, attr(out, 0, "gen_ai.tool.call.result"))
	assert.JSONEq(t, `{"query":"Ada","account":"[withheld]"}`, attr(out, 0, "gen_ai.tool.call.arguments"))
	assert.Equal(t, "[withheld]", attr(out, 0, "app.note"))
	assert.Equal(t, "[2 withheld]", attr(out, 0, "app.tags"))
	assert.Equal(t, "3", attr(out, 0, "app.count"))
	// Structural attributes describe the call, not its data.
	assert.Equal(t, "find_customer", attr(out, 0, "gen_ai.tool.name"))
	assert.Equal(t, "call_1", attr(out, 0, "gen_ai.tool.call.id"))
	assert.Equal(t, "customer", attr(out, 0, "tool.data_class"))

	// rows, note, account, app.note, app.tags
	metadatatest.AssertEqualProcessorShapeonlyValuesWithheld(t, h.tel, []metricdata.DataPoint[int64]{{Value: 5}}, metricdatatest.IgnoreTimestamp())
	metadatatest.AssertEqualProcessorShapeonlyRecordsShaped(t, h.tel, []metricdata.DataPoint[int64]{{Value: 1}}, metricdatatest.IgnoreTimestamp())
}

func TestToolWithoutDataClassIsUntouched(t *testing.T) {
	h := newHarness(t, nil)
	out := h.run(spans(map[string]any{
		"gen_ai.operation.name":   "execute_tool",
		"gen_ai.tool.name":        "get_weather",
		"gen_ai.tool.call.id":     "call_9",
		"gen_ai.tool.call.result": `{"city":"Oslo","temp":3}`,
	}))
	assert.Equal(t, `{"city":"Oslo","temp":3}`, attr(out, 0, "gen_ai.tool.call.result"))
}

func TestGenAITranscriptWithholdsLinkedResults(t *testing.T) {
	h := newHarness(t, nil)
	transcript := `[{"role":"user","parts":[{"type":"text","content":"who is Ada?"}]},
 {"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"find_customer","arguments":{"query":"Ada"}},
                              {"type":"tool_call","id":"call_2","name":"get_weather","arguments":{"city":"Oslo"}}]},
 {"role":"tool","parts":[{"type":"tool_call_response","id":" call_1 ","response":` + customerResult + `}]},
 {"role":"tool","parts":[{"type":"tool_call_response","id":"call_2","result":{"city":"Oslo","temp":3}}]}]`
	out := h.run(spans(
		map[string]any{"name": "chat gpt", "gen_ai.operation.name": "chat", "gen_ai.input.messages": transcript},
		map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer", "gen_ai.tool.call.id": "call_1",
			"tool.data_class": "customer", "gen_ai.tool.call.result": customerResult},
	))
	got := attr(out, 0, "gen_ai.input.messages")
	assert.NotContains(t, got, "Ada Lovelace")
	assert.NotContains(t, got, "ada@example.com")
	assert.NotContains(t, got, "VIP since")
	assert.Contains(t, got, shapedCustomerResult)
	assert.Contains(t, got, `{"city":"Oslo","temp":3}`, "results of other tools stay")
	assert.Contains(t, got, `"who is Ada?"`, "user text is not a tool result")
	assert.JSONEq(t, shapedCustomerResult, attr(out, 1, "gen_ai.tool.call.result"))
}

func TestToolConfiguredByNameWithoutItsSpan(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} })
	transcript := `[{"role":"assistant","parts":[{"type":"tool_call","id":"c7","name":"find_customer","arguments":{"query":"Ada","phone":"555-0100"}}]},
 {"role":"tool","parts":[{"type":"tool_call_response","id":"c7","response":"{\"rows\":[{\"name\":\"Ada Lovelace\"}]}"}]}]`
	out := h.run(spans(map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": transcript}))
	got := attr(out, 0, "gen_ai.input.messages")
	assert.NotContains(t, got, "Ada Lovelace")
	assert.NotContains(t, got, "555-0100")
	assert.Contains(t, got, `"response":"{\"rows\":\"[1 withheld]\"}"`, "a stringified result stays a string, shaped")
	assert.Contains(t, got, `"query":"Ada"`, "kept keys survive in arguments")

	// The tool span arrives in a later batch, without the attribute: its id was learnt.
	out = h.run(spans(map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup", "gen_ai.tool.call.id": "c7",
		"gen_ai.tool.call.result": customerResult}))
	assert.JSONEq(t, shapedCustomerResult, attr(out, 0, "gen_ai.tool.call.result"))
}

// A data-class call whose arguments are all under kept keys withholds nothing: the transcript is
// written back byte for byte and records_shaped does not count its span.
func TestKeptArgumentsShapeNothing(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} })
	transcript := `[{"role":"user","parts":[{"type":"text","content":"find Ada"}]},
 {"role":"assistant","parts":[{"type":"tool_call","id":"c8","name":"find_customer","arguments":{"query":"Ada", "limit":3}}]}]`
	out := h.run(spans(map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": transcript}))
	assert.Equal(t, transcript, attr(out, 0, "gen_ai.input.messages"))
	metadatatest.AssertEqualProcessorShapeonlyRecordsShaped(t, h.tel, []metricdata.DataPoint[int64]{{Value: 0}}, metricdatatest.IgnoreTimestamp())

	// The same call with one argument to withhold counts its span once.
	transcript = `[{"role":"assistant","parts":[{"type":"tool_call","id":"c9","name":"find_customer","arguments":{"query":"Ada","phone":"555-0100"}}]}]`
	out = h.run(spans(map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": transcript}))
	assert.NotContains(t, attr(out, 0, "gen_ai.input.messages"), "555-0100")
	metadatatest.AssertEqualProcessorShapeonlyRecordsShaped(t, h.tel, []metricdata.DataPoint[int64]{{Value: 1}}, metricdatatest.IgnoreTimestamp())
}

func TestAttributeClassedCallShapedInLaterBatch(t *testing.T) {
	h := newHarness(t, nil)
	h.run(spans(map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "crm_lookup", "gen_ai.tool.call.id": "x1",
		"tool.data_class": "customer", "gen_ai.tool.call.result": customerResult}))
	// Same call id in a later transcript; and the tool name, learnt from the attribute, for a new call.
	transcript := `[{"role":"tool","parts":[{"type":"tool_call_response","id":"x1","response":` + customerResult + `}]},
 {"role":"assistant","parts":[{"type":"tool_call","id":"x2","name":"crm_lookup","arguments":{"account":"acct-1"}}]},
 {"role":"tool","parts":[{"type":"tool_call_response","id":"x2","response":{"email":"grace@example.com"}}]}]`
	out := h.run(spans(map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": transcript}))
	got := attr(out, 0, "gen_ai.input.messages")
	for _, secret := range []string{"Ada Lovelace", "acct-1", "grace@example.com"} {
		assert.NotContains(t, got, secret)
	}
}

func TestOpenInference(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"find_customer": "customer"} })
	out := h.run(spans(
		map[string]any{"openinference.span.kind": "TOOL", "tool.name": "find_customer", "tool_call.id": "oi_1",
			"input.value": `{"query":"Ada"}`, "output.value": customerResult, "input.mime_type": "application/json"},
		map[string]any{"openinference.span.kind": "LLM",
			"llm.input_messages.0.message.role":                                      "assistant",
			"llm.input_messages.0.message.tool_calls.0.tool_call.id":                 "oi_1",
			"llm.input_messages.0.message.tool_calls.0.tool_call.function.name":      "find_customer",
			"llm.input_messages.0.message.tool_calls.0.tool_call.function.arguments": `{"query":"Ada","dob":"1815-12-10"}`,
			"llm.input_messages.1.message.role":                                      "tool",
			"llm.input_messages.1.message.tool_call_id":                              "oi_1",
			"llm.input_messages.1.message.content":                                   customerResult,
			"llm.input_messages.2.message.role":                                      "user",
			"llm.input_messages.2.message.content":                                   "thanks",
			"input.value":                                                            `{"messages":[{"role":"tool","tool_call_id":"oi_1","content":"Ada Lovelace, ada@example.com"}]}`,
		},
	))
	assert.JSONEq(t, shapedCustomerResult, attr(out, 0, "output.value"))
	assert.Equal(t, "application/json", attr(out, 0, "input.mime_type"))
	assert.JSONEq(t, shapedCustomerResult, attr(out, 1, "llm.input_messages.1.message.content"))
	assert.JSONEq(t, `{"query":"Ada","dob":"[withheld]"}`, attr(out, 1, "llm.input_messages.0.message.tool_calls.0.tool_call.function.arguments"))
	assert.Equal(t, "thanks", attr(out, 1, "llm.input_messages.2.message.content"))
	assert.NotContains(t, attr(out, 1, "input.value"), "Ada Lovelace")
}

func TestVercelAISDK(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Tools = map[string]string{"findCustomer": "customer"} })
	v4 := `[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"v1","toolName":"findCustomer","args":{"query":"Ada"}}]},
 {"role":"tool","content":[{"type":"tool-result","toolCallId":"v1","toolName":"findCustomer","result":` + customerResult + `}]}]`
	v5 := `[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"v2","toolName":"findCustomer","input":{"query":"Ada"}}]},
 {"role":"tool","content":[{"type":"tool-result","toolCallId":"v2","toolName":"findCustomer","output":{"type":"json","value":` + customerResult + `}}]}]`
	out := h.run(spans(
		map[string]any{"ai.operationId": "ai.toolCall", "ai.toolCall.name": "findCustomer", "ai.toolCall.id": "v1",
			"ai.toolCall.args": `{"query":"Ada"}`, "ai.toolCall.result": customerResult},
		map[string]any{"ai.operationId": "ai.generateText.doGenerate", "ai.prompt.messages": v4},
		map[string]any{"ai.operationId": "ai.generateText.doGenerate", "ai.prompt.messages": v5},
	))
	assert.JSONEq(t, shapedCustomerResult, attr(out, 0, "ai.toolCall.result"))
	assert.Contains(t, attr(out, 1, "ai.prompt.messages"), `"result":`+shapedCustomerResult)
	assert.Contains(t, attr(out, 2, "ai.prompt.messages"), `"output":{"type":"json","value":`+shapedCustomerResult+`}`)
}

func TestOpenLLMetry(t *testing.T) {
	h := newHarness(t, nil)
	out := h.run(spans(
		map[string]any{"traceloop.span.kind": "tool", "traceloop.entity.name": "find_customer", "traceloop.entity.tool_call_id": "t1",
			"tool.data_class": "customer", "traceloop.entity.input": `{"query":"Ada"}`, "traceloop.entity.output": customerResult},
		map[string]any{"gen_ai.prompt.0.role": "assistant", "gen_ai.prompt.0.tool_calls.0.id": "t1", "gen_ai.prompt.0.tool_calls.0.name": "find_customer",
			"gen_ai.prompt.1.role": "tool", "gen_ai.prompt.1.tool_call_id": "t1", "gen_ai.prompt.1.content": customerResult,
			"gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.content": "Ada is a VIP"},
	))
	assert.JSONEq(t, shapedCustomerResult, attr(out, 0, "traceloop.entity.output"))
	assert.JSONEq(t, shapedCustomerResult, attr(out, 1, "gen_ai.prompt.1.content"))
	assert.Equal(t, "Ada is a VIP", attr(out, 1, "gen_ai.completion.0.content"), "outputs stay without taint_outputs")
}

func TestTaintOutputs(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.Tools = map[string]string{"find_customer": "customer"}
		c.TaintOutputs = true
	})
	transcript := `[{"role":"user","parts":[{"type":"text","content":"who?"}]},
 {"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"find_customer","arguments":{"query":"Ada"}}]},
 {"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":` + customerResult + `}]},
 {"role":"assistant","parts":[{"type":"text","content":"Ada Lovelace is a VIP"}]}]`
	output := `[{"role":"assistant","parts":[{"type":"text","content":"Her email is ada@example.com"}],"finish_reason":"stop"}]`
	out := h.run(spans(map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": transcript, "gen_ai.output.messages": output}))
	in := attr(out, 0, "gen_ai.input.messages")
	assert.Contains(t, in, `"who?"`, "text before the result stays")
	assert.NotContains(t, in, "Ada Lovelace is a VIP")
	assert.NotContains(t, attr(out, 0, "gen_ai.output.messages"), "ada@example.com")
	assert.Contains(t, attr(out, 0, "gen_ai.output.messages"), `"finish_reason":"stop"`)
}

func TestGenAIToolMessageEventsAndLogs(t *testing.T) {
	h := newHarness(t, nil)
	td := spans(
		map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer", "gen_ai.tool.call.id": "e1", "tool.data_class": "customer"},
		map[string]any{"gen_ai.operation.name": "chat"},
	)
	ev := spanAt(td, 1).Events().AppendEmpty()
	ev.SetName("gen_ai.tool.message")
	ev.Attributes().PutStr("id", "e1")
	ev.Attributes().PutStr("content", customerResult)
	out := h.run(td)
	assert.JSONEq(t, shapedCustomerResult, eventAttr(spanAt(out, 1).Events().At(0), "content"))

	ld := plog.NewLogs()
	lr := ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords().AppendEmpty()
	lr.SetEventName("gen_ai.tool.message")
	require.NoError(t, lr.Body().SetEmptyMap().FromRaw(map[string]any{"id": "e1", "content": customerResult}))
	h.run(spans(map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer", "gen_ai.tool.call.id": "e1", "tool.data_class": "customer"}))
	outLogs := h.runLogs(ld)
	body := outLogs.ResourceLogs().At(0).ScopeLogs().At(0).LogRecords().At(0).Body().Map()
	content, _ := body.Get("content")
	assert.JSONEq(t, shapedCustomerResult, content.Str())
}

func TestFailClosed(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.MaxDepth = 4 })
	deep := `{"a":{"b":{"c":{"d":{"e":"Ada Lovelace"}}}}}`
	out := h.run(spans(
		map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t", "gen_ai.tool.call.id": "f1", "tool.data_class": "customer",
			"gen_ai.tool.call.result": `{"rows":[1,2], "name":"Ada Lovelace"`, "gen_ai.tool.call.arguments": deep},
		map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": `[{"role":"tool","parts":[{"type":"tool_call_response","id":"f1","response":"Ada Lovelace"`},
	))
	assert.Equal(t, "[withheld]", attr(out, 0, "gen_ai.tool.call.result"))
	assert.Equal(t, "[withheld]", attr(out, 0, "gen_ai.tool.call.arguments"))
	assert.Equal(t, `"[withheld]"`, attr(out, 1, "gen_ai.input.messages"), "an unreadable transcript is withheld whole, as a JSON string")
	metadatatest.AssertEqualProcessorShapeonlyValuesFailed(t, h.tel, []metricdata.DataPoint[int64]{{Value: 3}}, metricdatatest.IgnoreTimestamp())
}

// TestMaxDepthGovernsEveryReader: max_depth is the one nesting limit of everything shapeonly reads
// as JSON. A transcript nested deeper than the lexer's default but within max_depth is read, its
// data-class result shaped in place and the user's text left; past max_depth it is unreadable and
// withheld whole.
func TestMaxDepthGovernsEveryReader(t *testing.T) {
	nest := func(levels int, inner string) string {
		return strings.Repeat(`{"wrap":`, levels) + inner + strings.Repeat(`}`, levels)
	}
	// The messages sit inside a wrapper, as a framework that nests its state writes them.
	transcript := func(levels int) string {
		return `[` + nest(levels, `{"role":"user","parts":[{"type":"text","content":"who is Ada?"}]}`) + `,` +
			`{"role":"tool","parts":[{"type":"tool_call_response","id":"call_1","response":` + customerResult + `}]}]`
	}
	deeper := jsonraw.DefaultMaxDepth + 10
	for _, c := range []struct {
		maxDepth, levels int
		readable         bool
	}{
		{maxDepth: deeper + 10, levels: deeper, readable: true},
		{maxDepth: deeper - 10, levels: deeper, readable: false},
	} {
		h := newHarness(t, func(cfg *Config) { cfg.MaxDepth = c.maxDepth })
		out := h.run(spans(
			map[string]any{"name": "chat gpt", "gen_ai.operation.name": "chat", "gen_ai.input.messages": transcript(c.levels)},
			map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer", "gen_ai.tool.call.id": "call_1",
				"tool.data_class": "customer", "gen_ai.tool.call.result": customerResult},
		))
		got := attr(out, 0, "gen_ai.input.messages")
		assert.NotContains(t, got, "Ada Lovelace", "max_depth %d", c.maxDepth)
		if c.readable {
			assert.Contains(t, got, shapedCustomerResult, "max_depth %d: the result is shaped in place", c.maxDepth)
			assert.Contains(t, got, `"who is Ada?"`, "max_depth %d: the transcript was read, not withheld whole", c.maxDepth)
		} else {
			assert.Equal(t, `"[withheld]"`, got, "max_depth %d: deeper than max_depth is unreadable", c.maxDepth)
		}
	}
}
