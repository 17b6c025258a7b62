// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/payloads"
)

// TestLatestRoundOfEveryFormat reads every model call's request in the format payloads
// (testdata/formats: a run that calls find_customer and get_weather, then answers) and checks that
// each tool result is found as the latest round of exactly one request, with the call it answers:
// a later request, which repeats the conversation, brings it again under the same call id or the
// same round and place, never as a result of its own. A format whose requests do not show the calls
// their results answer brings nothing: which of its results are new cannot be told.
func TestLatestRoundOfEveryFormat(t *testing.T) {
	both := map[string]int{"find_customer": 1, "get_weather": 1}
	none := map[string]int{}
	tests := map[string]map[string]int{
		"genai/genai-structured-span.traces.json":                    both,
		"genai/genai-http-client-span.traces.json":                   {"find_customer": 1, "get_weather": 1, "send_confirmation": 1},
		"genai/genai-inference-details-log.logs.json":                both,
		"genai/genai-inference-details-span-event.traces.json":       both,
		"genai/genai-log-events-only.logs.json":                      both,
		"genai/genai-log-events-later-turn.logs.json":                both, // the later turn repeats the first turn's round
		"genai/haystack-2-agent.traces.json":                         both,
		"genai/haystack-3-agent.traces.json":                         both,
		"genai/logfire-openai-agents.traces.json":                    both,
		"genai/mlflow-genai-semconv.traces.json":                     both,
		"genai/openinference-output-tool-calls.traces.json":          {"find_customer": 1, "get_weather": 1, "update_customer": 1},
		"genai/openllmetry-completion-tool-calls-python.traces.json": {"find_customer": 1, "get_weather": 1, "update_customer": 1},
		"genai/pydantic-ai-v1-all-messages-events.traces.json":       both,
		"genai/pydantic-ai-v2-default.traces.json":                   both,
		"genai/pydantic-ai-v5-all-messages.traces.json":              both,
		"genai/strands-events.traces.json":                           both,
		"genai/strands-latest.traces.json":                           both, // on the span's events
		"providers/anthropic-openinference.traces.json":              both,
		"providers/anthropic-openllmetry.semconv.traces.json":        both,
		"providers/bedrock-converse.openinference.traces.json":       both,
		"providers/bedrock-converse.openllmetry-semconv.traces.json": both,
		"providers/gemini-function-response.traces.json":             both, // matched by name: no ids
		"providers/langchain-message-dicts.oi-0.1.61.traces.json":    both,
		"providers/langchain-message-dicts.oi-0.1.62.traces.json":    both,
		"providers/ollama.traces.json":                               both, // matched by name: no ids
		"providers/openai-legacy-function.openinference.traces.json": both,
		"providers/vercel-experimental-content.traces.json":          both,
		// Their requests flatten the results without the calls (OpenLLMetry's gen_ai.prompt.N.* keeps no
		// tool_calls on the assistant messages it replays) or carry no results at all: their tool spans
		// hold the results.
		"genai/openllmetry-completion-tool-calls-js.traces.json":   none,
		"providers/openai-legacy-function.openllmetry.traces.json": none,
		"providers/anthropic-openllmetry.traces.json":              none,
		"providers/bedrock-converse.openllmetry.traces.json":       none,
		"genai/genai-log-events-tool-span.logs.json":               none, // tool messages without the assistant message
		"genai/mastra-agent.traces.json":                           none,
		"genai/spring-ai-1.traces.json":                            none,
		"genai/spring-ai-2.traces.json":                            none,
		"genai/mlflow.traces.json":                                 none,
	}
	rr := Default.NewRequestReader()
	for file, want := range tests {
		t.Run(file, func(t *testing.T) {
			found := map[string]int{}
			seen := map[string]bool{}
			for _, req := range requestsOf(t, filepath.Join("..", "..", "testdata", "formats", file)) {
				rr.Begin()
				req(rr)
				for _, e := range rr.Latest() {
					id := string(e.CallID)
					if id == "" {
						id = fmt.Sprintf("%s#%d.%d", e.Tool, e.Round, e.Ordinal)
					}
					if seen[id] {
						continue
					}
					seen[id] = true
					found[string(e.Tool)]++
					switch string(e.Tool) {
					case "find_customer":
						assert.Contains(t, string(e.Result), "Jane Roe-Whitfield")
						assert.True(t, e.HasArgs, "the call's arguments are found")
						assert.Contains(t, string(e.Args), "Roe-Whitfield account")
					case "get_weather":
						assert.Contains(t, string(e.Result), "Oslo")
						assert.Contains(t, string(e.Args), "Oslo")
					}
				}
			}
			assert.Equal(t, want, found)
		})
	}
}

// TestLatestRoundIsTheTail: in a conversation of three rounds, each request's latest round is the
// results after its last message that made calls, whatever came before; a request that ends with the
// model's calls and no results yet brings none; the round number counts the messages that made calls.
func TestLatestRoundIsTheTail(t *testing.T) {
	call := func(id, tool, args string) string {
		return `{"role":"assistant","tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"` + tool + `","arguments":"` + args + `"}}]}`
	}
	result := func(id, content string) string {
		return `{"role":"tool","tool_call_id":"` + id + `","content":"` + content + `"}`
	}
	user := `{"role":"user","content":"deploy it"}`
	requests := []struct {
		messages []string
		want     []string // id:round.ordinal=result
	}{
		{[]string{user}, nil},
		{[]string{user, call("c1", "get_build", "{}")}, nil},
		{[]string{user, call("c1", "get_build", "{}"), result("c1", "queued")}, []string{"c1:1.0=queued"}},
		{[]string{user, call("c1", "get_build", "{}"), result("c1", "queued"), call("c2", "get_build", "{}"), result("c2", "running")},
			[]string{"c2:2.0=running"}},
		{[]string{user, call("c1", "get_build", "{}"), result("c1", "queued"), call("c2", "get_build", "{}"), result("c2", "running"),
			`{"role":"assistant","tool_calls":[{"id":"c3","type":"function","function":{"name":"get_build","arguments":"{}"}},` +
				`{"id":"c4","type":"function","function":{"name":"get_log","arguments":"{}"}}]}`, result("c3", "done"), result("c4", "ok")},
			[]string{"c3:3.0=done", "c4:3.1=ok"}},
	}
	rr := Default.NewRequestReader()
	for i, req := range requests {
		attrs := pcommon.NewMap()
		attrs.PutStr("gen_ai.input.messages", "["+strings.Join(req.messages, ",")+"]")
		rr.Begin()
		rr.AddRecord(Span{Name: "chat", Attrs: attrs}, pcommon.NewValueEmpty())
		var got []string
		for _, e := range rr.Latest() {
			got = append(got, fmt.Sprintf("%s:%d.%d=%s", e.CallID, e.Round, e.Ordinal, e.Result))
		}
		assert.Equal(t, req.want, got, "request %d", i)
	}
}

// requestsOf returns, for each model call in a payload file, a function that adds its request to a
// reader: a model span with its events, or the log records that share a span id.
func requestsOf(t *testing.T, path string) []func(*RequestReader) {
	docs := payloads.Requests(t, path)
	var out []func(*RequestReader)
	for _, doc := range docs {
		if strings.Contains(path, ".logs.") {
			ld, err := (&plog.JSONUnmarshaler{}).UnmarshalLogs(doc)
			require.NoError(t, err)
			bySpan := map[pcommon.SpanID][]plog.LogRecord{}
			var order []pcommon.SpanID
			for i := 0; i < ld.ResourceLogs().Len(); i++ {
				sls := ld.ResourceLogs().At(i).ScopeLogs()
				for j := 0; j < sls.Len(); j++ {
					lrs := sls.At(j).LogRecords()
					for k := 0; k < lrs.Len(); k++ {
						lr := lrs.At(k)
						if _, ok := bySpan[lr.SpanID()]; !ok {
							order = append(order, lr.SpanID())
						}
						bySpan[lr.SpanID()] = append(bySpan[lr.SpanID()], lr)
					}
				}
			}
			for _, id := range order {
				records := bySpan[id]
				out = append(out, func(rr *RequestReader) {
					for _, lr := range records {
						if !Default.choiceEvents[lr.EventName()] {
							rr.AddRecord(Span{Name: lr.EventName(), Attrs: lr.Attributes()}, lr.Body())
						}
					}
				})
			}
			continue
		}
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(doc)
		require.NoError(t, err)
		for i := 0; i < td.ResourceSpans().Len(); i++ {
			sss := td.ResourceSpans().At(i).ScopeSpans()
			for j := 0; j < sss.Len(); j++ {
				ss := sss.At(j)
				for k := 0; k < ss.Spans().Len(); k++ {
					s := ss.Spans().At(k)
					span := Span{Scope: ss.Scope().Name(), Name: s.Name(), Attrs: s.Attributes()}
					if Default.Recognize(span).Role != RoleModel {
						continue
					}
					out = append(out, func(rr *RequestReader) {
						rr.AddRecord(span, pcommon.NewValueEmpty())
						rr.AddSpanEvents(s.Events())
					})
				}
			}
		}
	}
	return out
}
