package agentgen

import (
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
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
	for _, rs := range td.ResourceSpans().All() {
		for _, ss := range rs.ScopeSpans().All() {
			for _, s := range ss.Spans().All() {
				out = append(out, s)
			}
		}
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

// toolKey is the attribute and value that mark a tool span per convention,
// straight from docs/conventions.md.
var toolKey = map[Convention][2]string{
	GenAI:         {"gen_ai.operation.name", "execute_tool"},
	OpenInference: {"openinference.span.kind", "TOOL"},
	Vercel:        {"ai.operationId", "ai.toolCall"},
	OpenLLMetry:   {"traceloop.span.kind", "tool"},
}

func toolSpans(c Convention, td ptrace.Traces) []ptrace.Span {
	var out []ptrace.Span
	for _, s := range spans(td) {
		if k := toolKey[c]; str(s, k[0]) == k[1] {
			out = append(out, s)
		}
	}
	return out
}

// allText is every string attribute of a span, for leak checks.
func allText(s ptrace.Span) []string {
	var out []string
	for _, v := range s.Attributes().All() {
		out = append(out, v.AsString())
	}
	return out
}
