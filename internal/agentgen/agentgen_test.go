// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// wantSteps is the number of tool calls each scenario makes; research picks
// five to seven, so it is checked as a range.
var wantSteps = map[string]int{
	"deploy": 7, "docs": 5, "code": 12, "support": 2, "finished_poll": 5,
	"unknown_wait": 7, "wait_timeout": 26, "error_loop": 4, "alternation": 6,
	"cycle": 9, "cutoff-continued": 1, "cutoff-left": 1, "empty-nudged": 1,
	"empty-left": 1, "tool-throws": 2, "over-budget": 3, "failed-run": 1,
}

func TestEveryScenarioInEveryConvention(t *testing.T) {
	for _, c := range allConventions() {
		for _, name := range Scenarios() {
			r := mustGenerate(t, name, c, 7)
			if r.Scenario != name || r.ID == "" || r.Agent == "" {
				t.Errorf("%s/%s: incomplete run %+v", c, name, r)
			}
			if r.Expect != healthy && r.Expect != stuck {
				t.Errorf("%s/%s: Expect = %q", c, name, r.Expect)
			}
			if rs := r.Traces.ResourceSpans(); rs.Len() != 1 || rs.At(0).ScopeSpans().Len() != 1 {
				t.Fatalf("%s/%s: want one ResourceSpans with one ScopeSpans", c, name)
			}
			if got := r.Traces.SpanCount(); got != r.Spans {
				t.Errorf("%s/%s: Spans = %d, trace holds %d", c, name, r.Spans, got)
			}
			svc, _ := r.Traces.ResourceSpans().At(0).Resource().Attributes().Get("service.name")
			if svc.Str() != r.Agent+"-service" {
				t.Errorf("%s/%s: service.name = %q", c, name, svc.Str())
			}
			tools, models := len(toolSpans(c, r.Traces)), len(modelSpans(c, r.Traces))
			// the root, a model span per round and the tool spans
			if r.Spans != 1+models+tools || models != r.ExpectCounts.Rounds {
				t.Errorf("%s/%s: %d spans for %d model and %d tool calls, want %d rounds", c, name, r.Spans, models, tools, r.ExpectCounts.Rounds)
			}
			if want, ok := wantSteps[name]; ok && tools != want {
				t.Errorf("%s/%s: %d tool calls, want %d", c, name, tools, want)
			}
			if name == "research" && (tools < 5 || tools > 7) {
				t.Errorf("research: %d tool calls, want 5-7", tools)
			}
		}
	}
}

func TestExpectations(t *testing.T) {
	want := map[string][3]string{ // verdict, stuck reason, outcome
		"deploy":           {healthy, "", "answered"},
		"docs":             {stuck, reasonNoProgress, "stuck"},
		"code":             {stuck, reasonNoProgress, "stuck"},
		"support":          {healthy, "", "answered"},
		"research":         {healthy, "", "answered"},
		"finished_poll":    {stuck, reasonLoop, "stuck"},
		"unknown_wait":     {stuck, reasonLoop, "stuck"},
		"wait_timeout":     {stuck, reasonWaitTimeout, "stuck"},
		"error_loop":       {stuck, reasonRepeatedError, "stuck"},
		"alternation":      {stuck, reasonAlternation, "stuck"},
		"cycle":            {stuck, reasonCycle, "stuck"},
		"cutoff-continued": {healthy, "", "answered"},
		"cutoff-left":      {healthy, "", "cut_off"},
		"empty-nudged":     {healthy, "", "answered"},
		"empty-left":       {healthy, "", "empty"},
		"tool-throws":      {healthy, "", "answered"},
		"over-budget":      {healthy, "", "over_budget"},
		"failed-run":       {healthy, "", "failed"},
	}
	if len(want) != len(Scenarios()) {
		t.Fatalf("table has %d scenarios, test knows %d", len(Scenarios()), len(want))
	}
	for name, w := range want {
		r := mustGenerate(t, name, GenAI, 1)
		if r.Expect != w[0] || r.ExpectReason != w[1] || r.ExpectOutcome != w[2] {
			t.Errorf("%s: expect %q/%q/%q, want %q/%q/%q", name, r.Expect, r.ExpectReason, r.ExpectOutcome, w[0], w[1], w[2])
		}
		wantBudget := time.Duration(0)
		if name == "over-budget" {
			wantBudget = time.Minute
		}
		if r.ExpectBudget != wantBudget {
			t.Errorf("%s: budget %v, want %v", name, r.ExpectBudget, wantBudget)
		}
	}
}

func TestUnknownNames(t *testing.T) {
	_, err := Generate("nope", Options{})
	if err == nil || !strings.Contains(err.Error(), "deploy") || !strings.Contains(err.Error(), "alternation") {
		t.Errorf("unknown scenario error should list the allowed names, got %v", err)
	}
	if _, err := Generate("deploy", Options{Convention: "otel"}); err == nil || !strings.Contains(err.Error(), "openllmetry") ||
		!strings.Contains(err.Error(), "unknown]") {
		t.Errorf("unknown convention error should list the allowed ones, got %v", err)
	}
	if _, err := NewMixer(Options{Convention: "otel"}); err == nil {
		t.Error("NewMixer accepted an unknown convention")
	}
}

func TestDeterministic(t *testing.T) {
	m := ptrace.ProtoMarshaler{}
	for _, c := range allConventions() {
		for _, name := range Scenarios() {
			a, _ := m.MarshalTraces(mustGenerate(t, name, c, 42).Traces)
			b, _ := m.MarshalTraces(mustGenerate(t, name, c, 42).Traces)
			if string(a) != string(b) {
				t.Errorf("%s/%s: same seed, different traces", c, name)
			}
		}
	}
	x, y := mustGenerate(t, "deploy", GenAI, 1), mustGenerate(t, "deploy", GenAI, 2)
	if x.ID == y.ID || spans(x.Traces)[0].TraceID() == spans(y.Traces)[0].TraceID() {
		t.Error("different seeds gave the same run or trace id")
	}
	// The same seed in two scenarios must not collide in a backend.
	d := mustGenerate(t, "docs", GenAI, 1)
	if d.ID == x.ID || spans(d.Traces)[0].TraceID() == spans(x.Traces)[0].TraceID() {
		t.Error("deploy and docs share ids for one seed")
	}
}

func TestDefaultBaseIsFixed(t *testing.T) {
	a, _ := Generate("deploy", Options{Seed: 3})
	b, _ := Generate("deploy", Options{Seed: 3})
	if sa, sb := spans(a.Traces)[0], spans(b.Traces)[0]; sa.StartTimestamp() != sb.StartTimestamp() ||
		sa.StartTimestamp().AsTime() != defaultBase {
		t.Errorf("zero Base should start at %v, got %v and %v", defaultBase, sa.StartTimestamp(), sb.StartTimestamp())
	}
}

func TestMix(t *testing.T) {
	runs := Mix(len(Scenarios()), Options{Seed: 9, Base: testBase})
	seen := map[string]bool{}
	for _, r := range runs {
		seen[r.Scenario] = true
	}
	if len(seen) != len(Scenarios()) {
		t.Errorf("Mix(%d) covered %d scenarios", len(runs), len(seen))
	}

	// A deck per round: every scenario is dealt once per len(Scenarios()) runs.
	n := 10 * len(Scenarios())
	runs = Mix(n, Options{Seed: 9, Base: testBase})
	count := map[string]int{}
	agents, ids := map[string]bool{}, map[string]bool{}
	for _, r := range runs {
		count[r.Scenario]++
		agents[r.Agent] = true
		ids[r.ID] = true
	}
	for _, name := range Scenarios() {
		if count[name] != 10 {
			t.Errorf("Mix(%d) dealt %s %d times, want 10", n, name, count[name])
		}
	}
	if len(ids) != n {
		t.Errorf("Mix(%d) produced %d distinct run ids", n, len(ids))
	}
	bases := map[string]bool{}
	for _, sc := range scenarios {
		bases[sc.agent] = true
	}
	if len(agents) <= len(bases) {
		t.Errorf("Mix agent names do not vary: %v", agents)
	}

	again := Mix(n, Options{Seed: 9, Base: testBase})
	for i := range runs {
		if runs[i].ID != again[i].ID || runs[i].Scenario != again[i].Scenario {
			t.Fatalf("Mix is not deterministic at run %d", i)
		}
	}
	if other := Mix(10, Options{Seed: 10, Base: testBase}); other[0].ID == runs[0].ID {
		t.Error("different mix seeds gave the same first run")
	}
}

func TestMixVariesArticleValues(t *testing.T) {
	builds := map[string]bool{}
	for _, r := range Mix(200, Options{Seed: 1}) {
		if r.Scenario != "deploy" {
			continue
		}
		builds[str(toolSpans(GenAI, r.Traces)[0], "gen_ai.tool.call.arguments")] = true
	}
	if len(builds) < 2 {
		t.Errorf("mixed deploy runs all poll the same build: %v", builds)
	}
}

// TestTiming checks the layout a wait detector depends on: the root covers
// the run, every span follows the one before it, and tool calls start exactly
// one scenario interval apart.
func TestTiming(t *testing.T) {
	for _, name := range Scenarios() {
		r := mustGenerate(t, name, GenAI, 5)
		ss := spans(r.Traces)
		root := ss[0]
		if root.StartTimestamp().AsTime() != testBase {
			t.Errorf("%s: run starts at %v, want %v", name, root.StartTimestamp().AsTime(), testBase)
		}
		prevEnd := root.StartTimestamp()
		for _, s := range ss[1:] {
			if s.ParentSpanID() != root.SpanID() {
				t.Errorf("%s: %s is not a child of the root", name, s.Name())
			}
			if s.StartTimestamp() < prevEnd || s.EndTimestamp() <= s.StartTimestamp() {
				t.Errorf("%s: %s overlaps the span before it or has no duration", name, s.Name())
			}
			prevEnd = s.EndTimestamp()
		}
		if root.EndTimestamp() < prevEnd {
			t.Errorf("%s: root ends before its last child", name)
		}
		tools := toolSpans(GenAI, r.Traces)
		var gap time.Duration
		for i := 1; i < len(tools); i++ {
			d := tools[i].StartTimestamp().AsTime().Sub(tools[i-1].StartTimestamp().AsTime())
			if i > 1 && d != gap {
				t.Errorf("%s: tool calls %v then %v apart", name, gap, d)
			}
			gap = d
		}
		if len(tools) > 1 && gap < 5*time.Second {
			t.Errorf("%s: tool calls %v apart, want at least 5s", name, gap)
		}
	}
	w := toolSpans(GenAI, mustGenerate(t, "wait_timeout", GenAI, 1).Traces)
	if span := w[len(w)-1].StartTimestamp().AsTime().Sub(w[0].StartTimestamp().AsTime()); span != 25*time.Minute {
		t.Errorf("wait_timeout polls for %v, want 25m", span)
	}
}

func TestFailedToolStatus(t *testing.T) {
	for _, c := range Conventions() {
		for _, s := range toolSpans(c, mustGenerate(t, "error_loop", c, 1).Traces) {
			if s.Status().Code() != ptrace.StatusCodeError || s.Status().Message() == "" || str(s, "error.type") == "" {
				t.Errorf("%s: failed tool span %s lacks error status, message or error.type", c, s.Name())
			}
		}
		for _, s := range toolSpans(c, mustGenerate(t, "deploy", c, 1).Traces) {
			if s.Status().Code() == ptrace.StatusCodeError {
				t.Errorf("%s: healthy tool span %s has error status", c, s.Name())
			}
		}
	}
}
