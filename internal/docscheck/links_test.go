// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package docscheck_test

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
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
	anchorsOf := headingAnchors(t, root)
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

// headingAnchors returns the anchors of a markdown file's headings, by its path from root, read once.
func headingAnchors(t *testing.T, root string) func(rel string) map[string]bool {
	anchors := map[string]map[string]bool{}
	return func(rel string) map[string]bool {
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
}

// goDocLink is a link a Go comment gives to a heading of the docs: a page under docs/ and an anchor.
var goDocLink = regexp.MustCompile(`\bdocs/[\w./-]+\.md#[\w-]+`)

// TestGoCommentLinksResolve: every docs/<page>.md#<anchor> a Go comment cites is a heading of that page,
// so a comment that states a rule by linking its heading cannot be left pointing at one that moved.
func TestGoCommentLinksResolve(t *testing.T) {
	root := repo.Root(t)
	anchorsOf := headingAnchors(t, root)
	links := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "_build" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		for i, line := range strings.Split(string(raw), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			for _, link := range goDocLink.FindAllString(line, -1) {
				links++
				file, anchor, _ := strings.Cut(link, "#")
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(file))); err != nil {
					t.Errorf("%s:%d: %s: no such page", rel, i+1, link)
				} else if !anchorsOf(file)[anchor] {
					t.Errorf("%s:%d: %s: %s has no heading #%s", rel, i+1, link, file, anchor)
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Positive(t, links, "no Go comment links a heading of the docs: the scan is broken")
}
