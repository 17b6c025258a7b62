// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConventionsDocumented: docs/conventions.md has one row per registered convention, every real
// SDK capture names a registered convention, and every convention has one, or payloads written from its
// source where its SDK cannot run here, so the table and the fixtures cannot drift from the registry.
func TestConventionsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "conventions.md"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, c := range Builtin() {
		names[c.Name] = true
		if !strings.Contains(string(doc), "\n| `"+c.Name+"` |") {
			t.Errorf("docs/conventions.md has no row for convention %q", c.Name)
		}
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sdk", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp struct {
		SDKs []struct{ Name, Convention string }
	}
	if err := json.Unmarshal(raw, &exp); err != nil {
		t.Fatal(err)
	}
	captured := map[string]bool{}
	for _, sdk := range exp.SDKs {
		if !names[sdk.Convention] {
			t.Errorf("testdata/sdk/expected.json: %s names convention %q, which is not registered", sdk.Name, sdk.Convention)
		}
		captured[sdk.Convention] = true
	}
	for name := range names {
		_, written := uncapturable[name]
		if captured[name] == written {
			t.Errorf("convention %q: a real SDK capture in testdata/sdk %v, listed as uncapturable %v: one or the other", name, captured[name], written)
		}
	}
	for name, payloads := range uncapturable {
		matches, err := filepath.Glob(filepath.Join("..", "..", payloads))
		if err != nil || len(matches) == 0 {
			t.Errorf("convention %q: no payloads written from its source at %s", name, payloads)
		}
	}
}

// uncapturable are the conventions whose SDK cannot run here (only the Go module proxy, Debian's
// packages and npm are reachable), each with the payloads written from its source that stand in for a
// capture; docs/conventions.md says so in its row.
var uncapturable = map[string]string{
	// Coding-agent CLIs are on npm, but each needs its model provider's API to run.
	"claude-code":           "testdata/formats/cli/claude-code/claude-code-*.json",
	"gemini-cli":            "testdata/formats/cli/gemini-cli/gemini-cli-*.json",
	"codex":                 "testdata/formats/cli/codex/codex-*.json",
	"spring-ai":             "testdata/formats/genai/spring-ai-*.traces.json",           // a JVM framework, from Maven Central
	"pydantic-ai":           "testdata/formats/genai/pydantic-ai-*.traces.json",         // a Python library, from PyPI
	"logfire-openai-agents": "testdata/formats/genai/logfire-openai-agents.traces.json", // Python libraries, from PyPI
	"mlflow":                "testdata/formats/genai/mlflow*.traces.json",               // a Python library, from PyPI
	"haystack":              "testdata/formats/genai/haystack-*.traces.json",            // a Python library, from PyPI
}
