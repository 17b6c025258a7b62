// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package docscheck_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentotel/agentotel/internal/docscheck"
)

const sample = "# Title\n" + // 1
	"Text with `one` and ``two ` ticks`` and `a span\n" + // 2
	"across lines` here.\n" + // 3
	"\n" + // 4
	"<!-- marker -->\n" + // 5
	"```yaml\n" + // 6
	"a: `not code`\n" + // 7
	"```\n" + // 8
	"1. A list item:\n" + // 9
	"\n" + // 10
	"   ```yaml\n" + // 11
	"   b:\n" + // 12
	"     c: 1\n" + // 13
	"   ```\n" + // 14
	"\n" + // 15
	"| key | what |\n" + // 16
	"|---|---|\n" + // 17
	"| `x.y`, `z` | a \\| b |\n" + // 18
	"| `w` | |\n" // 19

func TestReadsMarkdown(t *testing.T) {
	doc := docscheck.Doc{Path: "sample.md", Lines: strings.Split(sample, "\n")}

	blocks := doc.Blocks()
	assert.Equal(t, []docscheck.Block{
		{Line: 6, Lang: "yaml", Marker: "marker", Text: "a: `not code`\n"},
		{Line: 11, Lang: "yaml", Text: "b:\n  c: 1\n"},
	}, blocks)

	var code []string
	for _, c := range doc.Code() {
		code = append(code, doc.At(c.Line)+" "+c.Text)
	}
	assert.Equal(t, []string{
		"sample.md:2 one", "sample.md:2 two ` ticks", "sample.md:2 a span across lines",
		"sample.md:18 x.y", "sample.md:18 z", "sample.md:19 w",
	}, code, "spans of the prose only, one continuing on the next line")

	tables := doc.Tables()
	if assert.Len(t, tables, 1) {
		assert.Equal(t, 16, tables[0].Line)
		assert.Equal(t, []string{"key", "what"}, tables[0].Header)
		assert.Equal(t, []docscheck.Row{{Line: 18, Cells: []string{"`x.y`, `z`", "a | b"}}, {Line: 19, Cells: []string{"`w`", ""}}}, tables[0].Rows)
	}
}

func TestReadsMetricTables(t *testing.T) {
	doc := docscheck.Doc{Lines: []string{
		"| metric | type | labels |", // 1
		"|---|---|---|",
		"| `m1` | counter | `a`, `b` (`x`, `y`: why), `d`, `c`: `p`, `q` or `r` |", // 3
		"| `m2` | counter | `f` (the reasons above, or `e`) |",
		"| `m3` | gauge | |",
		"| no metric | | |", // 6
		"",
		"| metric | counts |",
		"|---|---|",
		"| `m4{r=a\\|b,s}` | what |", // 10
		"| `m5` | what |",
	}}
	assert.Equal(t, []docscheck.Metric{
		{Line: 3, Name: "m1", Listed: true, Labels: []docscheck.Label{{Name: "a"}, {Name: "b", Values: []string{"x", "y"}}, {Name: "d"},
			{Name: "c", Values: []string{"p", "q", "r"}}}},
		{Line: 4, Name: "m2", Listed: true, Labels: []docscheck.Label{{Name: "f", Values: []string{"e"}}}},
		{Line: 5, Name: "m3", Listed: true},
		{Line: 6, Listed: true},
		{Line: 10, Name: "m4", Listed: true, Labels: []docscheck.Label{{Name: "r", Values: []string{"a", "b"}}, {Name: "s"}}},
		{Line: 11, Name: "m5"},
	}, doc.Metrics())
}

func TestReadsHeadingsAndLinks(t *testing.T) {
	doc := docscheck.Doc{Lines: []string{
		"# Design rules", // 1
		"## 1. Recognition (`internal/agentspan`)",                  // 2
		"See [design](design.md#2-countsonly) and `[not](a link)`.", // 3
		"```sh",                              // 4
		"# not a heading, [nor](a link)",     // 5
		"```",                                // 6
		"### What the 1.2× target asks",      // 7
		"## Limits",                          // 8
		"## Limits",                          // 9
		"[alpha]: https://example.com/alpha", // 10
		"![a picture](img/a.png) [in page](#limits-1)", // 11
	}}
	var headings []string
	for _, h := range doc.Headings() {
		headings = append(headings, h.Anchor)
	}
	assert.Equal(t, []string{"design-rules", "1-recognition-internalagentspan", "what-the-12-target-asks", "limits", "limits-1"}, headings)
	assert.Equal(t, []docscheck.Link{
		{Line: 3, Target: "design.md#2-countsonly"}, {Line: 10, Target: "https://example.com/alpha"},
		{Line: 11, Target: "img/a.png"}, {Line: 11, Target: "#limits-1"},
	}, doc.Links())
}
