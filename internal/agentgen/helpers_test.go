// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/walk"
)

var testBase = time.Date(2026, 3, 17, 9, 0, 0, 0, time.UTC)

func mustGenerate(t *testing.T, scenario string, c Convention, seed uint64) Run {
	t.Helper()
	r, err := Generate(scenario, Options{Convention: c, Seed: seed, Base: testBase})
	if err != nil {
		t.Fatalf("Generate(%q, %q): %v", scenario, c, err)
	}
	return r
}

func spans(td ptrace.Traces) []ptrace.Span {
	var out []ptrace.Span
	for _, s := range walk.Spans(td) {
		out = append(out, s)
	}
	return out
}

func str(s ptrace.Span, key string) string {
	v, ok := s.Attributes().Get(key)
	if !ok {
		return ""
	}
	return v.Str()
}

// toolKey and modelKey are the attribute and value that mark a tool span and a
// model span per convention, straight from docs/conventions.md. The unknown
// SDK's spans are told apart by name, as nothing else marks them.
var (
	toolKey = map[Convention][2]string{
		GenAI:         {"gen_ai.operation.name", "execute_tool"},
		OpenInference: {"openinference.span.kind", "TOOL"},
		Vercel:        {"ai.operationId", "ai.toolCall"},
		OpenLLMetry:   {"traceloop.span.kind", "tool"},
	}
	modelKey = map[Convention][2]string{
		GenAI:         {"gen_ai.operation.name", "chat"},
		OpenInference: {"openinference.span.kind", "LLM"},
		Vercel:        {"ai.operationId", "ai.generateText.doGenerate"},
		OpenLLMetry:   {"llm.request.type", "chat"},
	}
	unknownNames = map[string]string{"tool": "mysdk.tool", "model": "mysdk.llm"}
)

func marked(c Convention, keys map[Convention][2]string, role string, td ptrace.Traces) []ptrace.Span {
	var out []ptrace.Span
	for _, s := range spans(td) {
		k := keys[c]
		if (c == Unknown && s.Name() == unknownNames[role]) || (c != Unknown && str(s, k[0]) == k[1]) {
			out = append(out, s)
		}
	}
	return out
}

func toolSpans(c Convention, td ptrace.Traces) []ptrace.Span { return marked(c, toolKey, "tool", td) }
func modelSpans(c Convention, td ptrace.Traces) []ptrace.Span {
	return marked(c, modelKey, "model", td)
}

// allConventions are the known conventions and the unknown SDK.
func allConventions() []Convention { return append(Conventions(), Unknown) }

// allText is every string attribute of a span, for leak checks.
func allText(s ptrace.Span) []string {
	var out []string
	for _, v := range s.Attributes().All() {
		out = append(out, v.AsString())
	}
	return out
}
