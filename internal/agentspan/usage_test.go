// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"go.opentelemetry.io/collector/pdata/pcommon"
)

// usageSpan is a span of scope and name with the attributes given (ints as ints, the rest as strings).
func usageSpan(scope, name string, root bool, attrs map[string]any) Span {
	m := pcommon.NewMap()
	for k, v := range attrs {
		switch v := v.(type) {
		case int:
			m.PutInt(k, int64(v))
		case float64:
			m.PutDouble(k, v)
		case string:
			m.PutStr(k, v)
		}
	}
	return Span{Scope: scope, Name: name, Attrs: m, Root: root}
}

// TestTokensPerConvention: each convention's model spans are read by its own rule for the cache: taken
// out of an input count that includes it, added to the input where the count leaves the cache writes
// out; the spans that sum their calls read as no usage.
func TestTokensPerConvention(t *testing.T) {
	for _, c := range []struct {
		name string
		span Span
		want Tokens
	}{
		{"genai chat: input includes the cache reads", usageSpan("gen_ai", "chat", false, map[string]any{
			"gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 1000, "gen_ai.usage.output_tokens": 40,
			"gen_ai.usage.cache_read.input_tokens": 800, "gen_ai.usage.cache_creation.input_tokens": 100,
		}), Tokens{Input: 200, Output: 40, CachedInput: 800, Known: true}},
		{"genai invoke_agent sums its chats", usageSpan("gen_ai", "invoke_agent", true, map[string]any{
			"gen_ai.operation.name": "invoke_agent", "gen_ai.usage.input_tokens": 1000, "gen_ai.usage.output_tokens": 40,
		}), Tokens{}},
		{"openllmetry's older names", usageSpan("x", "openai.chat", false, map[string]any{
			"llm.request.type": "chat", "gen_ai.usage.prompt_tokens": 90, "gen_ai.usage.completion_tokens": 9,
			"gen_ai.usage.cache_read_input_tokens": 30,
		}), Tokens{Input: 60, Output: 9, CachedInput: 30, Known: true}},
		{"claude code: Anthropic's input leaves the cache out", usageSpan("com.anthropic.claude_code.tracing", "claude_code.llm_request", false, map[string]any{
			"input_tokens": 12, "output_tokens": 300, "cache_read_tokens": 20000, "cache_creation_tokens": 1500,
		}), Tokens{Input: 1512, Output: 300, CachedInput: 20000, Known: true}},
		{"vercel doGenerate", usageSpan("ai", "ai.generateText.doGenerate", false, map[string]any{
			"ai.operationId": "ai.generateText.doGenerate", "ai.usage.inputTokens": 500, "ai.usage.outputTokens": 20,
			"ai.usage.inputTokenDetails.cacheReadTokens": 400,
		}), Tokens{Input: 100, Output: 20, CachedInput: 400, Known: true}},
		{"vercel generateText sums its doGenerate calls", usageSpan("ai", "ai.generateText", true, map[string]any{
			"ai.operationId": "ai.generateText", "ai.usage.inputTokens": 500, "ai.usage.outputTokens": 20,
		}), Tokens{}},
		{"pydantic-ai's agent span aggregates", usageSpan("pydantic-ai", "agent run", true, map[string]any{
			"gen_ai.operation.name": "invoke_agent", "gen_ai.aggregated_usage.input_tokens": 300,
			"gen_ai.usage.input_tokens": 300,
		}), Tokens{}},
		{"mastra's model_generation spans its steps", usageSpan("@mastra/otel-exporter", "model_generation", false, map[string]any{
			"mastra.span.type": "model_generation", "gen_ai.usage.input_tokens": 300, "gen_ai.usage.output_tokens": 45,
		}), Tokens{}},
		{"mastra's model_inference is a step's call", usageSpan("@mastra/otel-exporter", "chat scripted-model", false, map[string]any{
			"mastra.span.type": "model_inference", "gen_ai.usage.input_tokens": 100, "gen_ai.usage.output_tokens": 15,
		}), Tokens{Input: 100, Output: 15, Known: true}},
		{"openinference", usageSpan("x", "ChatCompletion", false, map[string]any{
			"openinference.span.kind": "LLM", "llm.token_count.prompt": 100, "llm.token_count.completion": 15,
			"llm.token_count.prompt_details.cache_read": 64,
		}), Tokens{Input: 36, Output: 15, CachedInput: 64, Known: true}},
		{"langfuse's usage types are disjoint", usageSpan("langfuse-sdk", "OpenAI.chat", false, map[string]any{
			"langfuse.observation.type": "generation", "langfuse.observation.usage_details": `{"input":100,"output":15,"input_cached_tokens":50}`,
		}), Tokens{Input: 100, Output: 15, CachedInput: 50, Known: true}},
		{"genkit's GenerateResponse", usageSpan("genkit-tracer", "scripted/deploy", false, map[string]any{
			"genkit:type": "action", "genkit:metadata:subtype": "model",
			"genkit:output": `{"message":{},"usage":{"inputTokens":100,"outputTokens":15}}`,
		}), Tokens{Input: 100, Output: 15, Known: true}},
		{"counts as strings and whole doubles", usageSpan("gen_ai", "chat", false, map[string]any{
			"gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": " 70 ", "gen_ai.usage.output_tokens": 7.0,
		}), Tokens{Input: 70, Output: 7, Known: true}},
		{"a model call without usage", usageSpan("gen_ai", "chat", false, map[string]any{"gen_ai.operation.name": "chat"}), Tokens{}},
		{"negative and broken counts are none", usageSpan("gen_ai", "chat", false, map[string]any{
			"gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": -5, "gen_ai.usage.output_tokens": "many",
		}), Tokens{}},
		{"more cached than input keeps input at zero", usageSpan("gen_ai", "chat", false, map[string]any{
			"gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 10, "gen_ai.usage.cache_read.input_tokens": 30,
		}), Tokens{CachedInput: 30, Known: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := Default.Recognize(c.span)
			assert.Equal(t, c.want, Default.Tokens(v, c.span.Attrs), "recognised as %s by %s", v.Role, v.ConventionName())
		})
	}
}

// FuzzUsageJSON: a usage object of any bytes reads as counts that are never negative, or as none.
func FuzzUsageJSON(f *testing.F) {
	f.Add(`{"input":100,"output":15,"input_cached_tokens":50}`)
	f.Add(`{"input":1e3,"output":-1}`)
	f.Add(`{"input":"100"}`)
	f.Add(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`)
	f.Fuzz(func(t *testing.T, doc string) {
		s := usageSpan("langfuse-sdk", "OpenAI.chat", false, map[string]any{
			"langfuse.observation.type": "generation", "langfuse.observation.usage_details": doc,
		})
		got := Default.Tokens(Default.Recognize(s), s.Attrs)
		if got.Input < 0 || got.Output < 0 || got.CachedInput < 0 || !got.Known && got != (Tokens{}) {
			t.Fatalf("%q: %+v", doc, got)
		}
	})
}
