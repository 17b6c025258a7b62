// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// strandsResults is one Strands tool message: both results of a turn as content blocks, in the
// content attribute of a gen_ai.tool.message span event, as JSON text.
const strandsResults = `[{"toolResult":{"toolUseId":"tooluse_1","status":"success","content":[{"json":{"email":"ada@example.test"}}]}},` +
	`{"toolResult":{"toolUseId":"tooluse_2","status":"success","content":[{"text":"overcast"}]}}]`

// TestEventCall: a Strands tool span's arguments and result are read from its events, in both of
// the SDK's modes; a result of one content block is its value.
func TestEventCall(t *testing.T) {
	span := func(events map[string]map[string]any) (View, ptrace.Span) {
		s := ptrace.NewSpan()
		s.SetName("execute_tool find_customer")
		s.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
		s.Attributes().PutStr("gen_ai.system", "strands-agents")
		s.Attributes().PutStr("gen_ai.tool.name", "find_customer")
		for name, attrs := range events {
			e := s.Events().AppendEmpty()
			e.SetName(name)
			if err := e.Attributes().FromRaw(attrs); err != nil {
				t.Fatal(err)
			}
		}
		return Default.Recognize(Span{Scope: "strands-agents", Name: s.Name(), Attrs: s.Attributes()}), s
	}
	details := "gen_ai.client.inference.operation.details"
	for _, tt := range []struct {
		name         string
		events       map[string]map[string]any
		args, result string
	}{
		{"default mode", map[string]map[string]any{
			"gen_ai.tool.message": {"role": "tool", "content": `{"query":"Ada"}`, "id": "t1"},
			"gen_ai.choice":       {"message": `[{"json":{"rows":1}}]`, "id": "t1"},
		}, `{"query":"Ada"}`, `{"rows":1}`},
		{"latest mode", map[string]map[string]any{
			details: {"gen_ai.input.messages": `[{"role":"tool","parts":[{"type":"tool_call","name":"find_customer","id":"t1","arguments":{"query":"Ada"}}]}]`},
		}, `{"query":"Ada"}`, ""},
		{"a Python tool's dict, as its repr", map[string]map[string]any{
			"gen_ai.choice": {"message": `[{"text":"{'rows': 1, 'more': None}"}]`, "id": "t1"},
		}, "", `{"rows":1,"more":null}`},
		{"a Python tool's text", map[string]map[string]any{
			"gen_ai.choice": {"message": `[{"text":"no rows"}]`, "id": "t1"},
		}, "", `no rows`},
		{"several blocks", map[string]map[string]any{
			"gen_ai.choice": {"message": `[{"text":"a"},{"text":"b"}]`, "id": "t1"},
		}, "", `[{"text":"a"},{"text":"b"}]`},
		{"unreadable parts", map[string]map[string]any{
			details: {"gen_ai.output.messages": `[{"role":"tool","parts":[{"type":"text","content":"x"}]}]`},
		}, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, s := span(tt.events)
			if v.ConventionName() != "strands" || v.Role != RoleTool {
				t.Fatalf("recognised as %s %s", v.ConventionName(), v.Role)
			}
			args, result, argsOK, resultOK := Default.EventCall(v, s.Events())
			if argsOK != (tt.args != "") || string(args) != tt.args {
				t.Errorf("args %q (%v), want %q", args, argsOK, tt.args)
			}
			if resultOK != (tt.result != "") || string(result) != tt.result {
				t.Errorf("result %q (%v), want %q", result, resultOK, tt.result)
			}
		})
	}
	// The latest mode's result: the tool_call_response part's response.
	v, s := span(map[string]map[string]any{details: {"gen_ai.output.messages": `[{"role":"tool","parts":[` +
		`{"type":"tool_call_response","id":"t1","response":[{"json":{"rows":2}}]}]}]`}})
	if _, result, _, ok := Default.EventCall(v, s.Events()); !ok || string(result) != `{"rows":2}` {
		t.Errorf("latest mode result %q (%v)", result, ok)
	}
}

// FuzzToolEvents: whatever a Strands span event holds, reading it neither panics nor reads what is
// not there: a result read from an event is valid JSON unless it is a text block's decoded text. (A
// tool message is read block by block only when its content is a valid JSON array: FuzzResultParts,
// internal/message.)
func FuzzToolEvents(f *testing.F) {
	for _, seed := range []string{
		strandsResults,
		`[{"text":"a"},{"toolResult":{"toolUseId":"t","content":[]}}]`,
		`[{"json":{"a":1}}]`, `[{"text":"{'a': 1}"}]`, `[{"json":1,"text":"x"}]`,
		`[{"type":"text","text":"{\"a\":1}"}]`, `[{"type":"image","text":"x"}]`,
		`[{"role":"tool","parts":[{"type":"tool_call_response","id":"t1","response":[{"json":{"a":1}}]}]}]`,
		`[{"role":"tool","parts":[{"type":"tool_call","id":"t1","arguments":{"q":"x"}}]}]`,
		`[{"parts":1}]`, `[{"parts":[1,{"type":1}]}]`, `[`, `[]`, ` `, `"x"`, "[\"\xff\"]",
	} {
		f.Add(seed)
	}
	details := "gen_ai.client.inference.operation.details"
	f.Fuzz(func(t *testing.T, data string) {
		// The default mode's events hold the call as it is; the latest mode's hold GenAI messages, of
		// which only a JSON value is read.
		for _, events := range [][][2]string{
			{{"gen_ai.choice", "message"}, {"gen_ai.tool.message", "content"}},
			{{details, "gen_ai.output.messages"}, {details, "gen_ai.input.messages"}},
		} {
			s := ptrace.NewSpan()
			s.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
			s.Attributes().PutStr("gen_ai.system", "strands-agents")
			for _, ev := range events {
				e := s.Events().AppendEmpty()
				e.SetName(ev[0])
				e.Attributes().PutStr(ev[1], data)
			}
			v := Default.Recognize(Span{Scope: "strands.telemetry.tracer", Attrs: s.Attributes()})
			args, result, argsOK, resultOK := Default.EventCall(v, s.Events())
			if events[0][0] == details && (argsOK && !jsonraw.Valid(args) || resultOK && !jsonraw.Valid(result) && !strings.Contains(data, `"text"`)) {
				t.Fatalf("from GenAI messages %q: arguments %q, result %q, not JSON", data, args, result)
			}
			if events[0][0] != details && (!argsOK || !resultOK) {
				t.Fatalf("the default mode's call %q not read", data)
			}
		}
		r := NewTranscriptReader(Default)
		r.Add(0, Span{Name: "gen_ai.tool.message", Attrs: attrsOf(t, map[string]any{"content": data})}, pcommon.NewValueEmpty())
	})
}

// TestFinishReasonsOfEverySpelling: the stop reasons Strands writes, camelCase from the TypeScript SDK
// and snake_case from the Python SDK, Genkit's (blocked, interrupted, unknown), and the APIs' own, fall
// into the same finish reasons.
func TestFinishReasonsOfEverySpelling(t *testing.T) {
	for want, reasons := range map[Finish][]string{
		FinishStop:          {"stop", "end_turn", "endTurn", "stopSequence", "stop_sequence", "STOP"},
		FinishToolCalls:     {"tool_calls", "tool_use", "toolUse"},
		FinishLength:        {"length", "max_tokens", "maxTokens", "limitOutputTokens", "MAX_TOKENS"},
		FinishContentFilter: {"content_filter", "contentFiltered", "content_filtered", "guardrailIntervened", "guardrail_intervened", "blocked"},
		FinishOther:         {"cancelled", "interrupt", "pauseTurn", "interrupted", "other"},
		FinishUnknown:       {"", "  ", "unknown", "UNKNOWN"},
	} {
		for _, r := range reasons {
			if got := finishOf(r); got != want {
				t.Errorf("finishOf(%q) = %v, want %v", r, got, want)
			}
		}
	}
}
