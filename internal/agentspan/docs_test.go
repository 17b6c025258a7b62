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

// TestConventionsDocumented: docs/conventions.md has one row per registered convention, and every
// real SDK capture names a registered convention, so the table and the fixtures cannot drift from the
// registry.
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
		if !captured[name] {
			t.Errorf("convention %q has no real SDK capture in testdata/sdk", name)
		}
	}
}
