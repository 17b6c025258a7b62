// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package docscheck_test

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/docscheck"
	"github.com/agentotel/agentotel/internal/repo"
)

// TestLinksResolve: every relative link of the docs names a file or folder of the repository, and every
// #anchor of a link to a markdown file (or of a link within the page) is a heading of that file, as
// GitHub spells its anchors. A section that moves takes its links with it, or this fails.
func TestLinksResolve(t *testing.T) {
	root := repo.Root(t)
	docs := readDocs(t)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(rel string) map[string]bool {
		if a, ok := anchors[rel]; ok {
			return a
		}
		raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		require.NoError(t, err)
		a := map[string]bool{}
		for _, h := range (docscheck.Doc{Path: rel, Lines: strings.Split(string(raw), "\n")}).Headings() {
			a[h.Anchor] = true
		}
		anchors[rel] = a
		return a
	}
	links := 0
	for _, doc := range docs {
		for _, l := range doc.Links() {
			if strings.Contains(l.Target, "://") || strings.HasPrefix(l.Target, "mailto:") {
				continue
			}
			links++
			file, anchor, _ := strings.Cut(l.Target, "#")
			target := doc.Path
			if file != "" {
				target = path.Clean(path.Join(path.Dir(doc.Path), file))
				if strings.HasPrefix(target, "../") {
					t.Errorf("%s: %s leads out of the repository", doc.At(l.Line), l.Target)
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
					t.Errorf("%s: %s: no such file or folder", doc.At(l.Line), l.Target)
					continue
				}
			}
			if anchor == "" || !strings.HasSuffix(target, ".md") {
				continue
			}
			if !anchorsOf(target)[anchor] {
				t.Errorf("%s: %s: %s has no heading #%s", doc.At(l.Line), l.Target, target, anchor)
			}
		}
	}
	require.Positive(t, links, "the docs hold no relative link: the scan is broken")
}
