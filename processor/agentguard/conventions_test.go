// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/walk"
)

// mysdkRun is a docs-agent run from an SDK agentotel does not ship: its tool spans say what they are
// in mysdk.* attributes, with the same search returning nothing six times.
func mysdkRun() ptrace.Traces {
	td := ptrace.NewTraces()
	ss := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
	ss.Scope().SetName("mysdk")
	trace := pcommon.TraceID{9, 9, 9}
	t0 := time.Date(2026, 3, 17, 9, 0, 0, 0, time.UTC)
	root := ss.Spans().AppendEmpty()
	root.SetTraceID(trace)
	root.SetSpanID(pcommon.SpanID{1})
	root.SetName("agent run")
	root.Attributes().PutStr("mysdk.agent", "docs")
	root.Attributes().PutStr("mysdk.session", "sess-42")
	root.SetStartTimestamp(pcommon.NewTimestampFromTime(t0))
	root.SetEndTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Minute)))
	for i := range 6 {
		s := ss.Spans().AppendEmpty()
		s.SetTraceID(trace)
		s.SetSpanID(pcommon.SpanID{byte(i + 2)})
		s.SetParentSpanID(pcommon.SpanID{1})
		s.SetName("tool search_docs")
		s.SetStartTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(i) * time.Second)))
		s.SetEndTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(i)*time.Second + 100*time.Millisecond)))
		a := s.Attributes()
		a.PutStr("mysdk.kind", "tool")
		a.PutStr("mysdk.tool", "search_docs")
		// The GenAI name lets any convention recognise the span as a tool call, but nothing here says
		// where its result is: only the declaration below does.
		a.PutStr("gen_ai.tool.name", "search_docs")
		a.PutStr("mysdk.call_id", fmt.Sprintf("c%d", i))
		a.PutStr("mysdk.args", fmt.Sprintf(`{"query":"refund policy %d"}`, i))
		a.PutStr("mysdk.output", `{"results":[],"total":0}`)
	}
	return td
}

var mysdk = agentspan.Declared{
	Name:      "mysdk",
	Match:     agentspan.Match{Attribute: "mysdk.kind", Value: "tool"},
	ToolName:  "mysdk.tool",
	CallID:    "mysdk.call_id",
	Arguments: "mysdk.args",
	Result:    "mysdk.output",
	RunID:     "mysdk.session",
}

// TestUnknownConventionIsNeverJudged: a run whose results agentguard cannot read is not judged at all:
// every step says so, counts as unknown, and the run is never called stuck, though it is stuck.
func TestUnknownConventionIsNeverJudged(t *testing.T) {
	h := newHarness(t, seedConfig())
	out := h.run(mysdkRun())
	steps := 0
	for _, span := range walk.Spans(out) {
		if _, ok := span.Attributes().Get(annotation.Step); !ok {
			continue
		}
		steps++
		judged, ok := span.Attributes().Get(annotation.Judged)
		require.True(t, ok, "an unjudged step says so")
		assert.False(t, judged.Bool())
		for _, k := range []string{annotation.Progress, annotation.Signals, annotation.Barren, annotation.Stuck} {
			_, ok := span.Attributes().Get(k)
			assert.False(t, ok, "%s on an unjudged step", k)
		}
	}
	assert.Equal(t, 6, steps)
	assert.Empty(t, stuckEvents(out), "a run agentguard cannot read is never stuck")
	assert.Equal(t, map[string]int64{"gen_ai.agent.name=unknown,progress=unknown": 6},
		counts(t, h.tel, "otelcol_processor_agentguard_steps"))
}

// TestDeclaredConventionIsJudged: the same run, with the SDK's attributes declared in configuration,
// is judged and found stuck; the run is named by the declared run id, where it is named: on its stuck
// event and its root span (its steps are found by their trace). The run id is on the root span, so the
// declaration matches the SDK's spans by their scope: a declared key is read only on the spans the
// declaration matches.
func TestDeclaredConventionIsJudged(t *testing.T) {
	cfg := seedConfig()
	byScope := mysdk
	byScope.Match = agentspan.Match{Scope: "mysdk"}
	cfg.Conventions = []agentspan.Declared{byScope}
	h := newHarness(t, cfg)
	out := h.run(mysdkRun())
	assert.Equal(t, map[string][]string{pcommon.TraceID{9, 9, 9}.String(): {"no_progress"}}, stuckEvents(out))
	steps := 0
	for _, span := range walk.Spans(out) {
		if _, ok := span.Attributes().Get(annotation.Step); ok {
			steps++
			_, unjudged := span.Attributes().Get(annotation.Judged)
			assert.False(t, unjudged)
		}
	}
	assert.Equal(t, 6, steps)
	assert.Equal(t, map[string]int{"root": 1, "event": 1}, runNames(out, "sess-42"))
}

// TestDeclaredKeysStayWithTheirSpans: a declared convention's keys apply to the spans its match
// selects. Another SDK's span that happens to carry the same generic key is not a tool call of it, and
// its attributes are not the declared run id.
func TestDeclaredKeysStayWithTheirSpans(t *testing.T) {
	generic := agentspan.Declared{
		Name: "generic", Match: agentspan.Match{Scope: "mysdk"},
		ToolName: "tool_name", Result: "output", RunID: "session",
	}
	cfg := seedConfig()
	cfg.Conventions = []agentspan.Declared{generic}
	h := newHarness(t, cfg)
	td := ptrace.NewTraces()
	ss := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
	ss.Scope().SetName("otherlib")
	for i := range 3 {
		s := ss.Spans().AppendEmpty()
		s.SetTraceID(pcommon.TraceID{7})
		s.SetSpanID(pcommon.SpanID{byte(i + 1)})
		s.SetName("lookup")
		s.Attributes().PutStr("tool_name", "search_docs")
		s.Attributes().PutStr("output", "0 results")
		s.Attributes().PutStr("session", "not-a-run")
	}
	out := h.run(td)
	reg := agentspan.NewRegistry(cfg.Conventions, 0)
	for _, span := range walk.Spans(out) {
		_, judged := span.Attributes().Get(annotation.Step)
		assert.False(t, judged, "a span of another scope is no step of the declared convention")
		assert.Equal(t, agentspan.RoleOther, reg.Recognize(agentspan.Span{Scope: "otherlib", Name: span.Name(), Attrs: span.Attributes()}).Role)
		assert.Empty(t, reg.RunIDOf(span.Attributes()))
	}
	assert.NotContains(t, reg.IDKeys(), "session")
}

// TestDeclaredToolEventsAreJudged: an SDK that writes a tool's result on an event of its span, not
// as an attribute, is judged once its declaration names the event; without it, never.
func TestDeclaredToolEventsAreJudged(t *testing.T) {
	onEvents := func() ptrace.Traces {
		td := mysdkRun()
		for _, span := range walk.Spans(td) {
			if out, ok := span.Attributes().Get("mysdk.output"); ok {
				e := span.Events().AppendEmpty()
				e.SetName("mysdk.tool.done")
				e.Attributes().PutStr("output", out.Str())
				e.Attributes().PutStr("call", "c0")
				span.Attributes().Remove("mysdk.output")
			}
		}
		return td
	}
	blind := newHarness(t, seedConfig())
	assert.Empty(t, stuckEvents(blind.run(onEvents())), "a result no declaration locates is not judged")

	cfg := seedConfig()
	declared := mysdk
	declared.Result = ""
	declared.ToolEvents = []agentspan.ToolEvent{{Name: "mysdk.tool.done", Result: "output", CallID: "call"}}
	cfg.Conventions = []agentspan.Declared{declared}
	require.NoError(t, cfg.Validate())
	out := newHarness(t, cfg).run(onEvents())
	assert.Equal(t, map[string][]string{pcommon.TraceID{9, 9, 9}.String(): {"no_progress"}}, stuckEvents(out))
}

// TestDeclaredReplyEventsAreRead: an SDK that writes a model call's reply and why it stopped on an event
// of its span is read there once its declaration names the event; without it, the finish is unknown.
func TestDeclaredReplyEventsAreRead(t *testing.T) {
	call := func() ptrace.Traces {
		td := ptrace.NewTraces()
		ss := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
		ss.Scope().SetName("mysdk")
		s := ss.Spans().AppendEmpty()
		s.SetTraceID(pcommon.TraceID{5})
		s.SetSpanID(pcommon.SpanID{2})
		s.SetParentSpanID(pcommon.SpanID{1})
		s.SetName("llm call")
		s.Attributes().PutStr("mysdk.prompt", `[{"role":"user","content":"summarise the incident"}]`)
		e := s.Events().AppendEmpty()
		e.SetName("mysdk.reply")
		e.Attributes().PutStr("text", `{"role":"assistant","content":"The incident began at"}`)
		e.Attributes().PutStr("stop", "max_tokens")
		return td
	}
	declared := agentspan.Declared{Name: "mysdk", Match: agentspan.Match{Scope: "mysdk"}, Transcripts: []string{"mysdk.prompt"}}
	finish := func(d agentspan.Declared) string {
		cfg := seedConfig()
		cfg.Conventions = []agentspan.Declared{d}
		require.NoError(t, cfg.Validate())
		out := newHarness(t, cfg).run(call())
		v, _ := out.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).Attributes().Get(annotation.Finish)
		return v.AsString()
	}
	assert.Equal(t, "unknown", finish(declared))
	declared.ReplyEvents = []agentspan.ReplyEvent{{Name: "mysdk.reply", Reply: "text", FinishReason: "stop"}}
	assert.Equal(t, "length", finish(declared))
}

// TestDeclaredConventionsAreValidated: a declaration is checked at start, every field named.
func TestDeclaredConventionsAreValidated(t *testing.T) {
	cfg := seedConfig()
	cfg.Conventions = []agentspan.Declared{
		{Name: "genai", CallID: "x.id"},
		{Match: agentspan.Match{Value: "tool", Scope: "mysdk"}, ToolEvents: []agentspan.ToolEvent{{CallID: "id"}},
			ReplyEvents: []agentspan.ReplyEvent{{}}, OutputTokens: "mysdk.tokens.out"},
	}
	err := cfg.Validate()
	require.Error(t, err)
	for _, want := range []string{
		`conventions[0]::name: "genai" is taken`,
		"conventions[0]::match: set attribute (and optionally value) or scope",
		"conventions[0]::tool_name: call_id, arguments and result describe tool spans",
		"conventions[1]::name: must name the convention",
		"conventions[1]::match::value: value needs an attribute",
		"conventions[1]::tool_name: declare tool_name (for tool spans) or transcripts",
		"conventions[1]::tool_name: tool_events describe tool spans",
		"conventions[1]::tool_events[0]::event: must name the span event",
		"conventions[1]::tool_events[0]::result: name the event attribute holding the arguments or the result",
		"conventions[1]::transcripts: reply_events describe model spans, which transcripts identify",
		"conventions[1]::transcripts: input_tokens, output_tokens and cached_input_tokens describe model spans",
		"conventions[1]::reply_events[0]::event: must name the span event",
		"conventions[1]::reply_events[0]::reply: name the event attribute holding the reply or its finish reason",
	} {
		assert.Contains(t, err.Error(), want)
	}
}

// TestREADMEDeclarationReadsTheUnknownSDK: the declaration docs/conventions.md shows for agentgen's unknown SDK
// turns its unjudged docs run into a judged, stuck one, and names its runs and agents.
func TestREADMEDeclarationReadsTheUnknownSDK(t *testing.T) {
	run, err := agentgen.Generate("docs", agentgen.Options{Convention: agentgen.Unknown, Seed: 5})
	require.NoError(t, err)
	blind := newHarness(t, seedConfig())
	assert.Empty(t, stuckEvents(blind.run(run.Traces)), "without the declaration nothing is judged")

	run, err = agentgen.Generate("docs", agentgen.Options{Convention: agentgen.Unknown, Seed: 5})
	require.NoError(t, err)
	cfg := seedConfig()
	cfg.Conventions = []agentspan.Declared{{
		Name: "mysdk", Match: agentspan.Match{Scope: "mysdk"}, ToolName: "gen_ai.tool.name", CallID: "gen_ai.tool.call.id",
		Arguments: "mysdk.args", Result: "mysdk.output", Transcripts: []string{"mysdk.prompt"}, FinishReason: "mysdk.stop",
		AgentName: "mysdk.agent", RunID: "mysdk.session", InputTokens: "mysdk.tokens.in", OutputTokens: "mysdk.tokens.out",
	}}
	// The SDK's own counts, read from its model spans: those carrying a transcript.
	var tokens int64
	for _, span := range walk.Spans(run.Traces) {
		if _, ok := span.Attributes().Get("mysdk.prompt"); ok {
			in, _ := span.Attributes().Get("mysdk.tokens.in")
			outTokens, _ := span.Attributes().Get("mysdk.tokens.out")
			tokens += in.Int() + outTokens.Int()
		}
	}
	require.Positive(t, tokens)
	h := newHarness(t, cfg)
	out := h.run(run.Traces)
	assert.Equal(t, tokens, sum(counts(t, h.tel, "otelcol_processor_agentguard_tokens")), "the declared counts are the run's tokens")
	assert.Equal(t, []string{run.Agent}, agentsOfEvents(out))
	rounds := 0
	for _, span := range walk.Spans(out) {
		if _, ok := span.Attributes().Get(annotation.Round); ok {
			rounds++
		}
		if v, ok := span.Attributes().Get(annotation.Outcome); ok {
			assert.Equal(t, "stuck", v.Str())
		}
	}
	assert.Equal(t, run.ExpectCounts.Rounds, rounds, "its model calls are read")
}
