// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package docscheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentotel/agentotel/internal/repo"
)

const spdx = "SPDX-License-Identifier: Apache-2.0"

// TestSourceFilesCarryLicense holds the README's promise that every source file (Go, shell, Python,
// the capture scripts, the Makefile) names its licence in its first lines; generated code is left as
// its generator writes it.
func TestSourceFilesCarryLicense(t *testing.T) {
	root := repo.Root(t)
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "_build", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if !isSource(path) {
			return nil
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		head := string(raw[:min(len(raw), 400)])
		if strings.Contains(head, "Code generated") {
			return nil
		}
		checked++
		if !strings.Contains(head, spdx) {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s: no %q in its first lines", rel, spdx)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked only %d source files: is the walk looking at the repository?", checked)
	}
}

func isSource(path string) bool {
	switch filepath.Ext(path) {
	case ".go", ".sh", ".py", ".mjs":
		return true
	}
	return filepath.Base(path) == "Makefile" || strings.HasSuffix(path, filepath.Join(".ci", "run"))
}
