// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// wantCounts are the soft limits each scenario runs into, by hand: rounds are
// model calls.
var wantCounts = map[string]Counts{
	"cutoff-continued": {Rounds: 3, CutOffs: 1, Continuations: 1},
	"cutoff-left":      {Rounds: 3, CutOffs: 2, Continuations: 1},
	"empty-nudged":     {Rounds: 3, EmptyReplies: 1},
	"empty-left":       {Rounds: 3, EmptyReplies: 2},
	"tool-throws":      {Rounds: 3, ToolFailures: 1},
	"over-budget":      {Rounds: 4},
	"failed-run":       {Rounds: 1},
	"deploy":           {Rounds: 8},
	"error_loop":       {Rounds: 5, ToolFailures: 4},
}

// replyKeys are where each convention records a model call's finish reason,
// its reply text and its tool calls (docs/fixtures.md).
var replyKeys = map[Convention]struct{ finish, text, calls, outTokens string }{
	GenAI:         {"gen_ai.response.finish_reasons", "", "", "gen_ai.usage.output_tokens"},
	OpenInference: {"llm.finish_reason", "llm.output_messages.0.message.content", "llm.output_messages.0.message.tool_calls.0.tool_call.id", "llm.token_count.completion"},
	Vercel:        {"ai.response.finishReason", "ai.response.text", "ai.response.toolCalls", "ai.usage.outputTokens"},
	OpenLLMetry:   {"gen_ai.completion.0.finish_reason", "gen_ai.completion.0.content", "gen_ai.completion.0.tool_calls.0.id", "gen_ai.usage.completion_tokens"},
	Unknown:       {"mysdk.stop", "", "", "mysdk.tokens.out"},
}

// resultKey is where each convention puts a tool's result.
var resultKey = map[Convention]string{
	GenAI: "gen_ai.tool.call.result", OpenInference: "output.value", Vercel: "ai.toolCall.result",
	OpenLLMetry: "traceloop.entity.output", Unknown: "mysdk.output",
}

// readReply reads a model span's finish reason and whether its reply was
// empty, the way the convention writes them.
func readReply(t *testing.T, c Convention, s ptrace.Span) (finish string, empty bool) {
	t.Helper()
	k := replyKeys[c]
	if v, ok := s.Attributes().Get(k.finish); ok && v.Type() == pcommon.ValueTypeSlice {
		finish = v.Slice().At(0).Str()
	} else {
		finish = str(s, k.finish)
	}
	switch c {
	case GenAI:
		out := genaiMessages(t, s, "gen_ai.output.messages")
		empty = len(out) == 1 && len(out[0].Parts) == 0
	case Unknown:
		empty = str(s, "mysdk.reply") == `{"role":"assistant","text":""}`
	default:
		_, hasText := s.Attributes().Get(k.text)
		_, hasCalls := s.Attributes().Get(k.calls)
		empty = !hasText && !hasCalls
	}
	return finish, empty
}

// TestSoftLimitsInEveryConvention reads each run's model and tool calls back
// from its spans and counts the soft limits as outcome accounting would:
// replies cut at the output limit, the continuation after one, empty replies
// and failed tools.
func TestSoftLimitsInEveryConvention(t *testing.T) {
	for name, want := range wantCounts {
		for _, c := range allConventions() {
			r := mustGenerate(t, name, c, 3)
			if r.ExpectCounts != want {
				t.Errorf("%s/%s: ExpectCounts %+v, want %+v", c, name, r.ExpectCounts, want)
			}
			var got Counts
			afterCut := false
			for _, s := range modelSpans(c, r.Traces) {
				got.Rounds++
				finish, empty := readReply(t, c, s)
				if afterCut {
					got.Continuations++
					if !carries(s, continueText) {
						t.Errorf("%s/%s: a continuation's transcript lacks the request to continue", c, name)
					}
				}
				afterCut = finish == "length"
				out, _ := s.Attributes().Get(replyKeys[c].outTokens)
				switch {
				case afterCut:
					got.CutOffs++
					if out.Int() != maxOutputTokens {
						t.Errorf("%s/%s: a cut reply used %d output tokens, want the limit %d", c, name, out.Int(), maxOutputTokens)
					}
				case empty:
					got.EmptyReplies++
					if finish != "stop" || out.Int() != 0 {
						t.Errorf("%s/%s: an empty reply finished %q with %d output tokens", c, name, finish, out.Int())
					}
				}
			}
			for _, s := range toolSpans(c, r.Traces) {
				if s.Status().Code() == ptrace.StatusCodeError {
					got.ToolFailures++
				}
			}
			if got != want {
				t.Errorf("%s/%s: the spans count %+v, want %+v", c, name, got, want)
			}
		}
	}
}

// carries reports whether any attribute of the span holds text.
func carries(s ptrace.Span, text string) bool {
	for _, v := range allText(s) {
		if strings.Contains(v, text) {
			return true
		}
	}
	return false
}

// TestEmptyReplyNudged checks that the nudge reaches the model after an empty
// reply, in every convention's transcript.
func TestEmptyReplyNudged(t *testing.T) {
	for _, c := range allConventions() {
		models := modelSpans(c, mustGenerate(t, "empty-nudged", c, 1).Traces)
		if carries(models[1], nudgeText) || !carries(models[2], nudgeText) {
			t.Errorf("%s: the nudge should reach the round after the empty reply, and only it", c)
		}
		if _, empty := readReply(t, c, models[2]); empty {
			t.Errorf("%s: the nudged reply is empty", c)
		}
	}
}

// TestThrownTool: the tool span of a tool that threw records the exception and
// no result, and the model sees the error as the call's result: {"error": msg}
// from the loop, or, in the AI SDK, its error-text output.
func TestThrownTool(t *testing.T) {
	for _, c := range allConventions() {
		r := mustGenerate(t, "tool-throws", c, 1)
		tools := toolSpans(c, r.Traces)
		failed, next := tools[0], tools[1]
		if failed.Status().Code() != ptrace.StatusCodeError || failed.Status().Message() != "upstream 503" {
			t.Errorf("%s: the failed tool's status is %v %q", c, failed.Status().Code(), failed.Status().Message())
		}
		if _, ok := failed.Attributes().Get(resultKey[c]); ok {
			t.Errorf("%s: the failed tool has a result", c)
		}
		if _, ok := failed.Attributes().Get("error.type"); ok {
			t.Errorf("%s: a thrown error has error.type, which the SDKs do not write", c)
		}
		if failed.Events().Len() != 1 || failed.Events().At(0).Name() != "exception" {
			t.Fatalf("%s: the failed tool lacks its exception event", c)
		}
		if msg, _ := failed.Events().At(0).Attributes().Get("exception.message"); msg.Str() != "upstream 503" {
			t.Errorf("%s: exception.message %q", c, msg.Str())
		}
		if _, ok := next.Attributes().Get(resultKey[c]); !ok || next.Status().Code() != ptrace.StatusCodeUnset {
			t.Errorf("%s: the next tool should succeed with a result", c)
		}
		want := `{"error":"upstream 503"}`
		if c == Vercel {
			want = `{"type":"error-text","value":"upstream 503"}`
		}
		models := modelSpans(c, r.Traces)
		if carries(models[0], want) || !carries(models[1], want) || !carries(models[2], want) {
			t.Errorf("%s: only the transcripts after the failure should carry %s", c, want)
		}
	}
}

func TestFailedRun(t *testing.T) {
	for _, c := range allConventions() {
		r := mustGenerate(t, "failed-run", c, 1)
		ss := spans(r.Traces)
		root, last := ss[0], ss[len(ss)-1]
		if root.Status().Code() != ptrace.StatusCodeError || root.Status().Message() == "" || root.Events().Len() != 1 {
			t.Errorf("%s: the root of a failed run has status %v %q and %d events", c, root.Status().Code(), root.Status().Message(), root.Events().Len())
		}
		if tools := toolSpans(c, r.Traces); len(tools) != 1 || tools[0] != last || last.Status().Code() != ptrace.StatusCodeUnset {
			t.Errorf("%s: the run should fail after its one successful tool call", c)
		}
		for _, key := range []string{"ai.response.text", "ai.response.finishReason", "output.value", "mysdk.answer"} {
			if _, ok := root.Attributes().Get(key); ok {
				t.Errorf("%s: the failed root records a reply in %s", c, key)
			}
		}
	}
	for _, name := range Scenarios() {
		if name == "failed-run" {
			continue
		}
		if root := spans(mustGenerate(t, name, GenAI, 1).Traces)[0]; root.Status().Code() != ptrace.StatusCodeUnset {
			t.Errorf("%s: the root span has status %v", name, root.Status().Code())
		}
	}
}

// TestRootReportsLastReply: where the root span records the run's reply (the AI
// SDK's generateText, OpenInference's AGENT span), it is the last one.
func TestRootReportsLastReply(t *testing.T) {
	for name, want := range map[string]string{"cutoff-left": "length", "empty-left": "stop", "cutoff-continued": "stop"} {
		r := mustGenerate(t, name, Vercel, 1)
		root, models := spans(r.Traces)[0], modelSpans(Vercel, r.Traces)
		if str(root, "ai.response.finishReason") != want || str(root, "ai.response.text") != str(models[len(models)-1], "ai.response.text") {
			t.Errorf("%s: root reports %q %q", name, str(root, "ai.response.finishReason"), str(root, "ai.response.text"))
		}
		oi := spans(mustGenerate(t, name, OpenInference, 1).Traces)[0]
		if _, ok := oi.Attributes().Get("output.value"); ok == (name == "empty-left") {
			t.Errorf("%s: OpenInference root output.value present %v", name, ok)
		}
	}
}

func TestOverBudget(t *testing.T) {
	r := mustGenerate(t, "over-budget", GenAI, 1)
	root := spans(r.Traces)[0]
	took := root.EndTimestamp().AsTime().Sub(root.StartTimestamp().AsTime())
	if took < 2*time.Minute || took > 2*time.Minute+30*time.Second || took <= r.ExpectBudget {
		t.Errorf("the run takes %v, want about two minutes, over its %v budget", took, r.ExpectBudget)
	}
	for _, s := range toolSpans(GenAI, r.Traces) {
		if d := s.EndTimestamp().AsTime().Sub(s.StartTimestamp().AsTime()); d < 40*time.Second || d > 41*time.Second {
			t.Errorf("an export takes %v, want about 40s", d)
		}
	}
}

// TestUnknownConvention: the unknown SDK's spans carry nothing a known
// convention reads but the tool name and call id, and still hold every value
// under their own keys.
func TestUnknownConvention(t *testing.T) {
	if _, err := NewMixer(Options{Convention: Unknown}); err != nil {
		t.Fatal(err)
	}
	for _, c := range Conventions() {
		if c == Unknown {
			t.Fatal("Unknown is listed among the known conventions")
		}
	}
	allowed := map[string]bool{"gen_ai.tool.name": true, "gen_ai.tool.call.id": true, "tool.data_class": true, "error.type": true}
	for _, name := range Scenarios() {
		r := mustGenerate(t, name, Unknown, 5)
		for _, s := range spans(r.Traces) {
			for k := range s.Attributes().All() {
				if !allowed[k] && !strings.HasPrefix(k, "mysdk.") {
					t.Errorf("%s: %s carries %s", name, s.Name(), k)
				}
			}
		}
		tools := toolSpans(Unknown, r.Traces)
		if len(tools) != wantSteps[name] && name != "research" {
			t.Errorf("%s: %d tool spans", name, len(tools))
		}
		for _, s := range tools {
			_, hasResult := s.Attributes().Get("mysdk.output")
			if str(s, "gen_ai.tool.name") == "" || str(s, "gen_ai.tool.call.id") == "" || str(s, "mysdk.args") == "" ||
				hasResult == (s.Events().Len() > 0) {
				t.Errorf("%s: tool span %v", name, s.Attributes().AsRaw())
			}
		}
		for _, s := range modelSpans(Unknown, r.Traces) {
			if str(s, "mysdk.prompt") == "" || str(s, "mysdk.reply") == "" {
				t.Errorf("%s: model span %v", name, s.Attributes().AsRaw())
			}
		}
	}
}
