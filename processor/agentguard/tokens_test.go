// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/payloads"
	"github.com/agentotel/agentotel/internal/walk"
)

// captureConfig is the manifest testdata/sdk/expected.json gives the scenarios: the build poll a
// declared wait polled as fast as the scripted agents poll, edit_file a write whose state is its sha.
func captureConfig() *Config {
	cfg := seedConfig()
	poll := cfg.Tools["get_build_status"]
	poll.MinInterval = 0
	cfg.Tools["get_build_status"] = poll
	return cfg
}

// modelCallUsage is the test's own account of what a capture's model calls consumed, read from the
// raw attributes of the spans the SDK writes one per call, with no help from recognition: modelCall
// picks those spans by the name or kind the SDK gives them; the counts are the input and output
// (the captures' cache counts are zero, testdata/sdk/*/traces.json).
type modelCallUsage struct {
	modelCall func(name string, attrs pcommon.Map) bool
	// in and out are the keys of the counts, or members of the JSON object in doc.
	in, out, doc string
	// generations are the SDK's spans over several calls that model_calls counts as calls too, as it
	// did before tokens were counted (Mastra's model_generation); their usage is not a call's.
	generations func(name string, attrs pcommon.Map) bool
}

func spanNamed(names ...string) func(string, pcommon.Map) bool {
	return func(name string, _ pcommon.Map) bool {
		for _, n := range names {
			if name == n || strings.HasSuffix(n, " ") && strings.HasPrefix(name, n) {
				return true
			}
		}
		return false
	}
}

func attrIs(key, value string) func(string, pcommon.Map) bool {
	return func(_ string, attrs pcommon.Map) bool {
		v, ok := attrs.Get(key)
		return ok && v.AsString() == value
	}
}

var (
	genAICounts = modelCallUsage{in: "gen_ai.usage.input_tokens", out: "gen_ai.usage.output_tokens"}
	oiCounts    = modelCallUsage{modelCall: attrIs("openinference.span.kind", "LLM"), in: "llm.token_count.prompt", out: "llm.token_count.completion"}
)

func withCalls(u modelCallUsage, f func(string, pcommon.Map) bool) modelCallUsage {
	u.modelCall = f
	return u
}

// captureUsage is, per SDK of testdata/sdk/expected.json, where its model calls and their counts are.
// The SDK's aggregates (ai.generateText, invoke_agent) are not among its model calls.
var captureUsage = map[string]modelCallUsage{
	"ai-v6":                       {modelCall: spanNamed("ai.generateText.doGenerate"), in: "ai.usage.inputTokens", out: "ai.usage.outputTokens"},
	"ai-v7-otel":                  withCalls(genAICounts, spanNamed("chat ")),
	"langgraph-openinference":     oiCounts,
	"openai-agents-openinference": oiCounts,
	"anthropic-openinference":     oiCounts,
	"mastra-otel":                 {modelCall: spanNamed("chat "), in: genAICounts.in, out: genAICounts.out, generations: attrIs("mastra.span.type", "model_generation")},
	"adk-js":                      withCalls(genAICounts, spanNamed("call_llm")),
	"adk-js-generated-ids":        withCalls(genAICounts, spanNamed("call_llm")),
	"openllmetry-openai":          withCalls(genAICounts, spanNamed("chat ")),
	"langgraph-openllmetry":       withCalls(genAICounts, spanNamed("chat ")),
	"strands-js":                  withCalls(genAICounts, spanNamed("chat")),
	"strands-js-latest":           withCalls(genAICounts, spanNamed("chat")),
	"langsmith-otel":              withCalls(genAICounts, attrIs("langsmith.span.kind", "llm")),
	"anthropic-sdk-otel":          withCalls(genAICounts, spanNamed("anthropic.messages.create")),
	"openai-otel-js":              withCalls(genAICounts, spanNamed("chat ")),
	"langfuse-js": {modelCall: attrIs("langfuse.observation.type", "generation"),
		doc: "langfuse.observation.usage_details", in: "input", out: "output"},
	"genkit": {modelCall: attrIs("genkit:metadata:subtype", "model"), doc: "genkit:output", in: "usage.inputTokens", out: "usage.outputTokens"},
}

// expectedTokens sums the counts of a batch's model calls, as the SDK wrote them; calls counts them
// (and the generations).
func (u modelCallUsage) expectedTokens(t *testing.T, td ptrace.Traces) (tokens, calls int64) {
	t.Helper()
	for _, span := range walk.Spans(td) {
		if u.generations != nil && u.generations(span.Name(), span.Attributes()) {
			calls++
		}
		if !u.modelCall(span.Name(), span.Attributes()) {
			continue
		}
		calls++
		if u.doc == "" {
			for _, k := range []string{u.in, u.out} {
				if v, ok := span.Attributes().Get(k); ok {
					tokens += v.Int()
				}
			}
			continue
		}
		v, ok := span.Attributes().Get(u.doc)
		require.True(t, ok, "%s: no %s", span.Name(), u.doc)
		var doc map[string]any
		require.NoError(t, json.Unmarshal([]byte(v.Str()), &doc))
		for _, path := range []string{u.in, u.out} {
			var at any = doc
			for _, part := range strings.Split(path, ".") {
				at = at.(map[string]any)[part]
			}
			tokens += int64(at.(float64))
		}
	}
	return tokens, calls
}

// tokensByLabel sums the token counter by the value of one label: by state, or by direction.
func tokensByLabel(t *testing.T, h *harness, label string) map[string]int64 {
	return byLabel(t, counts(t, h.tel, "otelcol_processor_agentguard_tokens"), label)
}

// TestTokensOfEveryCapture: on every SDK capture, each model call counts once, with the usage its
// span carries, and the run's root span says the same; the stuck runs spend tokens barren and stuck,
// and the polling run spends tokens waiting.
func TestTokensOfEveryCapture(t *testing.T) {
	var exp struct {
		ScenarioOrder []string `json:"scenario_order"`
		SDKs          []struct {
			Name string `json:"name"`
			File string `json:"file"`
		} `json:"sdks"`
	}
	root := filepath.Join("..", "..", "testdata", "sdk")
	raw, err := os.ReadFile(filepath.Join(root, "expected.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &exp))
	for _, sdk := range exp.SDKs {
		usage, ok := captureUsage[sdk.Name]
		require.True(t, ok, "%s: say where its model calls and their usage are", sdk.Name)
		lines := payloads.Requests(t, filepath.Join(root, sdk.File))
		require.Len(t, lines, len(exp.ScenarioOrder))
		for i, scenario := range exp.ScenarioOrder {
			t.Run(sdk.Name+"/"+scenario, func(t *testing.T) {
				td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(lines[i])
				require.NoError(t, err)
				want, calls := usage.expectedTokens(t, td)
				require.NotZero(t, calls, "the capture's model calls are found")
				require.NotZero(t, want, "the capture's model calls carry usage")

				h := newHarness(t, captureConfig())
				out := h.run(td)
				h.idleOut()
				byState := tokensByLabel(t, h, "state")
				assert.Equal(t, want, sum(byState), "the counter's total is the model calls' usage")
				assert.Equal(t, calls, sum(counts(t, h.tel, "otelcol_processor_agentguard_model_calls")), "every model call is counted once")
				if rootTokens, ok := rootSpanTokens(out); ok {
					assert.Equal(t, want, rootTokens, "the root span says what the run cost")
				}
				switch scenario {
				case "docs", "code":
					assert.Positive(t, byState["stuck"], "a stuck run spends tokens stuck: %v", byState)
					assert.Positive(t, byState["barren"], "a stuck run spends tokens barren on its way: %v", byState)
				case "deploy":
					assert.Positive(t, byState["waiting"], "the polling run spends tokens waiting: %v", byState)
				}
			})
		}
	}
}

// rootSpanTokens is the sum of the tokens written on the root span that ended the run, if one did.
func rootSpanTokens(td ptrace.Traces) (int64, bool) {
	for _, span := range walk.Spans(td) {
		a := span.Attributes()
		in, ok := a.Get(annotation.TokensInput)
		if !ok {
			continue
		}
		outTokens, _ := a.Get(annotation.TokensOutput)
		cached, _ := a.Get(annotation.TokensCachedInput)
		return in.Int() + outTokens.Int() + cached.Int(), true
	}
	return 0, false
}

// TestTokensOfTheSpecPayloads: the payloads written from the SDKs' sources that repeat their calls'
// usage on an agent span (Pydantic AI's gen_ai.aggregated_usage.*, Strands' invoke_agent, the AI SDK's
// ai.generateText) count each call once; Claude Code's llm_request spans, Anthropic's counts with the
// cache apart, count the cache reads as cached input and the cache writes as input.
func TestTokensOfTheSpecPayloads(t *testing.T) {
	formats := filepath.Join("..", "..", "testdata", "formats")
	chat := withCalls(genAICounts, spanNamed("chat "))
	for _, c := range []struct {
		file  string
		usage modelCallUsage
	}{
		{"genai/pydantic-ai-v1-all-messages-events.traces.json", chat},
		{"genai/pydantic-ai-v2-default.traces.json", chat},
		{"genai/pydantic-ai-v5-all-messages.traces.json", chat},
		{"genai/strands-events.traces.json", withCalls(genAICounts, spanNamed("chat"))},
		{"genai/strands-latest.traces.json", withCalls(genAICounts, spanNamed("chat"))},
		{"providers/vercel-experimental-content.traces.json", modelCallUsage{
			modelCall: spanNamed("ai.generateText.doGenerate"), in: "ai.usage.promptTokens", out: "ai.usage.completionTokens"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			h := newHarness(t, captureConfig())
			var want, calls int64
			for _, req := range payloads.Requests(t, filepath.Join(formats, c.file)) {
				td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(req)
				require.NoError(t, err)
				w, n := c.usage.expectedTokens(t, td)
				want, calls = want+w, calls+n
				h.run(td)
			}
			require.NotZero(t, want)
			assert.Equal(t, want, sum(tokensByLabel(t, h, "state")))
			assert.Equal(t, calls, sum(counts(t, h.tel, "otelcol_processor_agentguard_model_calls")))
		})
	}

	t.Run("claude-code", func(t *testing.T) {
		dir := filepath.Join(formats, "cli", "claude-code")
		files, err := filepath.Glob(filepath.Join(dir, "*.traces.json"))
		require.NoError(t, err)
		require.NotEmpty(t, files)
		for _, file := range files {
			h := newPipelines(t, captureConfig(), true, false)
			var in, cached, output int64
			for _, req := range payloads.Requests(t, file) {
				td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(req)
				require.NoError(t, err)
				for _, span := range walk.Spans(td) {
					if span.Name() != "claude_code.llm_request" {
						continue
					}
					a := span.Attributes()
					count := func(k string) int64 { v, _ := a.Get(k); return v.Int() }
					in += count("input_tokens") + count("cache_creation_tokens")
					cached += count("cache_read_tokens")
					output += count("output_tokens")
				}
				h.run(td)
			}
			require.Positive(t, cached, "%s: the capture reads from the cache", file)
			assert.Equal(t, map[string]int64{"input": in, "cached_input": cached, "output": output},
				tokensByLabel(t, h, "direction"), file)
		}
	})

	// Codex writes no usage on its model calls (codex.api_request): they are counted, their tokens not.
	t.Run("codex", func(t *testing.T) {
		dir := filepath.Join(formats, "cli", "codex")
		h := newPipelines(t, captureConfig(), false, true)
		for _, req := range payloads.Requests(t, filepath.Join(dir, "codex-docs-search.logs.json")) {
			ld, err := (&plog.JSONUnmarshaler{}).UnmarshalLogs(req)
			require.NoError(t, err)
			h.runLogs(ld)
		}
		h.idleOut()
		assert.Positive(t, sum(counts(t, h.tel, "otelcol_processor_agentguard_model_calls")))
		assert.Empty(t, counts(t, h.tel, "otelcol_processor_agentguard_tokens"))
	})
}

// TestStuckEventSaysWhatTheStreakCost: the stuck event carries the tokens the run spent since its last
// progress step, and the root span the share spent stuck and barren.
func TestStuckEventSaysWhatTheStreakCost(t *testing.T) {
	run := generate(t, "docs", 7)
	h := newHarness(t, seedConfig())
	out := h.run(run.Traces)
	var episode int64
	for _, span := range walk.Spans(out) {
		for i := 0; i < span.Events().Len(); i++ {
			if e := span.Events().At(i); e.Name() == annotation.StuckEvent {
				v, ok := e.Attributes().Get(annotation.EpisodeTokens)
				require.True(t, ok)
				episode = v.Int()
			}
		}
	}
	byState := tokensByLabel(t, h, "state")
	assert.Positive(t, episode)
	assert.LessOrEqual(t, episode, byState["barren"]+byState["progress"], "the streak began after the last progress step")
	var stuckShare, barrenShare float64
	for _, span := range walk.Spans(out) {
		if v, ok := span.Attributes().Get(annotation.TokensStuckShare); ok {
			stuckShare = v.Double()
			b, _ := span.Attributes().Get(annotation.TokensBarrenShare)
			barrenShare = b.Double()
		}
	}
	total := float64(sum(byState))
	assert.InDelta(t, float64(byState["stuck"])/total, stuckShare, 1e-9)
	assert.InDelta(t, float64(byState["barren"])/total, barrenShare, 1e-9)
	assert.Positive(t, stuckShare)
}
