// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package docscheck_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/docscheck"
	"github.com/agentotel/agentotel/internal/repo"
)

// TestAlertingLinksEachMetricsLabels: docs/alerting.md's metric table lists every metric a
// metadata.yaml declares, once, and gives each a link to its section of its processor's generated
// documentation.md, where mdatagen writes the metric's labels and their values; the section exists.
func TestAlertingLinksEachMetricsLabels(t *testing.T) {
	root := repo.Root(t)
	declared := servedMetrics(t)
	docs := readDocs(t)
	i := slices.IndexFunc(docs, func(d docscheck.Doc) bool { return d.Path == "docs/alerting.md" })
	require.GreaterOrEqual(t, i, 0)
	doc := docs[i]

	headings := map[string][]string{}
	for _, p := range docscheck.Processors {
		raw, err := os.ReadFile(filepath.Join(root, "processor", p, "documentation.md"))
		require.NoError(t, err)
		headings[p] = strings.Split(string(raw), "\n")
	}
	listed := map[string]bool{}
	for _, table := range doc.Tables() {
		if len(table.Header) == 0 || table.Header[0] != "metric" {
			continue
		}
		column := slices.IndexFunc(table.Header, func(h string) bool { return strings.HasPrefix(h, "labels") })
		require.GreaterOrEqual(t, column, 0, "%s: the metric table has no labels column", doc.At(table.Line))
		for _, row := range table.Rows {
			quoted := docscheck.Quoted(row.Cells[0])
			require.NotEmpty(t, quoted, "%s: the metric cell names no metric", doc.At(row.Line))
			name := quoted[0]
			m, ok := declared[name]
			if !ok {
				t.Errorf("%s: %s is not a metric of processor/*/metadata.yaml", doc.At(row.Line), name)
				continue
			}
			if listed[name] {
				t.Errorf("%s: %s is listed twice", doc.At(row.Line), name)
			}
			listed[name] = true
			link := fmt.Sprintf("[documentation.md](../processor/%s/documentation.md#%s)", m.Processor, name)
			if column >= len(row.Cells) || row.Cells[column] != link {
				t.Errorf("%s: %s: the labels cell should be %s", doc.At(row.Line), name, link)
			}
			if !slices.Contains(headings[m.Processor], "### "+name) {
				t.Errorf("%s: processor/%s/documentation.md has no section ### %s", doc.At(row.Line), m.Processor, name)
			}
		}
	}
	for name := range declared {
		if !listed[name] {
			t.Errorf("docs/alerting.md's metric table does not list %s", name)
		}
	}
}
