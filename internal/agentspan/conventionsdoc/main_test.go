// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPageIsCurrent: docs/conventions.md is what the generator writes from the registry, the captures
// and the notes. render fails when a convention has no note or no file, a note or a capture names no
// convention, or a convention has neither a capture nor payloads written from its source, so the page,
// the fixtures and the registry cannot drift apart.
func TestPageIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	want, err := render(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, page))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s is stale: run make generate and commit it", page)
	}
}
