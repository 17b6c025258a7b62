// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"encoding/json"
	"fmt"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

func genaiMessages(t *testing.T, s ptrace.Span, key string) []genaiMsg {
	t.Helper()
	var msgs []genaiMsg
	if err := json.Unmarshal([]byte(str(s, key)), &msgs); err != nil {
		t.Fatalf("%s on %s: %v", key, s.Name(), err)
	}
	return msgs
}

func compact(t *testing.T, raw string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("not JSON: %q: %v", raw, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestGenAIToolSpansAndTranscripts checks what the recogniser joins on: every
// tool span has a call id and arguments, and a result unless the tool threw;
// the model span before it asks for exactly that call; and every later model
// span carries the whole history — each call as a tool_call part and each
// result (a thrown tool's error), under the same id, as a tool_call_response part.
func TestGenAIToolSpansAndTranscripts(t *testing.T) {
	for _, name := range Scenarios() {
		r := mustGenerate(t, name, GenAI, 11)
		models, tools := modelSpans(GenAI, r.Traces), toolSpans(GenAI, r.Traces)
		if len(models) != r.ExpectCounts.Rounds || len(models) < len(tools) {
			t.Fatalf("%s: %d model spans for %d tool spans, want %d rounds", name, len(models), len(tools), r.ExpectCounts.Rounds)
		}
		for i, tool := range tools {
			id := str(tool, "gen_ai.tool.call.id")
			if id != fmt.Sprintf("call_%d", i+1) || str(tool, "gen_ai.tool.name") == "" {
				t.Errorf("%s: tool span %d has call id %q, name %q", name, i, id, str(tool, "gen_ai.tool.name"))
			}
			args, result := str(tool, "gen_ai.tool.call.arguments"), str(tool, "gen_ai.tool.call.result")
			_, hasResult := tool.Attributes().Get("gen_ai.tool.call.result")
			if thrown := tool.Events().Len() > 0; thrown == hasResult {
				t.Errorf("%s: %s has a result %v, threw %v", name, id, hasResult, thrown)
				continue
			}
			if !hasResult {
				result = jsonText(obj{{"error", tool.Status().Message()}})
			}
			if str(tool, "gen_ai.tool.name") == "find_customer" && str(tool, "tool.data_class") != "customer" {
				t.Errorf("%s: find_customer lacks tool.data_class=customer", name)
			}

			out := genaiMessages(t, models[i], "gen_ai.output.messages")
			if p := out[0].Parts[0]; p.Type != "tool_call" || p.ID != id || compact(t, string(p.Arguments)) != compact(t, args) {
				t.Errorf("%s: model span %d asks for %+v, tool ran %s %s", name, i, p, id, args)
			}
			// Every later transcript holds this call and its result.
			for _, later := range models[i+1:] {
				var asked, answered bool
				for _, m := range genaiMessages(t, later, "gen_ai.input.messages") {
					for _, p := range m.Parts {
						asked = asked || (p.Type == "tool_call" && p.ID == id && m.Role == "assistant")
						answered = answered || (p.Type == "tool_call_response" && p.ID == id && m.Role == "tool" &&
							compact(t, string(p.Response)) == compact(t, result))
					}
				}
				if !asked || !answered {
					t.Errorf("%s: a later transcript lacks %s (call %v, response %v)", name, id, asked, answered)
				}
			}
		}
		if r.ExpectOutcome != "answered" {
			continue
		}
		final := genaiMessages(t, models[len(models)-1], "gen_ai.output.messages")
		if p := final[0].Parts[0]; p.Type != "text" || p.Content == "" {
			t.Errorf("%s: final model span does not answer in text: %+v", name, p)
		}
	}
}

// TestGenAIControlTexts pins what the loop sends after a soft limit: a cut
// reply stays in the transcript, followed by the continuation request; an
// empty reply leaves nothing, and the nudge follows the tool result.
func TestGenAIControlTexts(t *testing.T) {
	for name, want := range map[string][]string{
		"cutoff-continued": {"tool", "assistant:cut", "user:" + continueText},
		"cutoff-left":      {"tool", "assistant:cut", "user:" + continueText},
		"empty-nudged":     {"tool", "user:" + nudgeText},
		"empty-left":       {"tool", "user:" + nudgeText},
	} {
		models := modelSpans(GenAI, mustGenerate(t, name, GenAI, 1).Traces)
		first := genaiMessages(t, models[1], "gen_ai.output.messages")
		in := genaiMessages(t, models[2], "gen_ai.input.messages")
		var got []string
		for _, m := range in[len(in)-len(want):] {
			switch {
			case m.Role == "tool":
				got = append(got, "tool")
			case m.Role == "assistant" && len(first[0].Parts) > 0 && m.Parts[0].Content == first[0].Parts[0].Content:
				got = append(got, "assistant:cut")
			default:
				got = append(got, m.Role+":"+m.Parts[0].Content)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: the third round's transcript ends %q, want %q", name, got, want)
		}
	}
}

func TestGenAIRootSpan(t *testing.T) {
	r := mustGenerate(t, "deploy", GenAI, 1)
	root := spans(r.Traces)[0]
	if root.Name() != "invoke_agent deploy" || str(root, "gen_ai.operation.name") != "invoke_agent" ||
		str(root, "gen_ai.agent.name") != "deploy" || str(root, "gen_ai.conversation.id") != r.ID {
		t.Errorf("root span %s %v does not describe the run %s", root.Name(), root.Attributes().AsRaw(), r.ID)
	}
}
