// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package docscheck reads the markdown that documents agentotel the way its doc tests need it: the
// files, their fenced blocks, inline code spans and tables, each with the line it starts on, so a test
// can name the place of every name or block it cannot account for. The tests of this package check
// that every metric, annotation and configuration key the docs name exists; test/docs runs every
// configuration block the docs show on the built collector.
package docscheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Doc is one markdown file: its path relative to the repository root, and its lines.
type Doc struct {
	Path  string
	Lines []string
}

// Read returns the markdown that documents agentotel: README.md, CONTRIBUTING.md, the processors'
// READMEs and docs/*.md, in that order.
func Read(root string) ([]Doc, error) {
	paths := []string{"README.md", "CONTRIBUTING.md", "processor/agentguard/README.md", "processor/shapeonly/README.md"}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	if len(more) == 0 {
		return nil, fmt.Errorf("no docs/*.md under %s", root)
	}
	slices.Sort(more)
	for _, p := range more {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil, err
		}
		paths = append(paths, filepath.ToSlash(rel))
	}
	docs := make([]Doc, 0, len(paths))
	for _, p := range paths {
		raw, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			return nil, err
		}
		docs = append(docs, Doc{Path: p, Lines: strings.Split(string(raw), "\n")})
	}
	return docs, nil
}

// At names a line of the document as file:line (line counts from 1).
func (d Doc) At(line int) string { return fmt.Sprintf("%s:%d", d.Path, line) }

// Block is a fenced code block.
type Block struct {
	Line int    // the line of the opening fence
	Lang string // the info string's first word: yaml, promql, sh, or ""
	// Marker is the HTML comment on the line above the opening fence, without <!-- and -->, e.g.
	// "dropin-config"; "" when there is none.
	Marker string
	// Text is the block's content, its lines unindented by the opening fence's indentation (a block
	// inside a list item is indented with it).
	Text string
}

var fence = regexp.MustCompile("^( *)(```+|~~~+)\\s*([^`\\s]*)")

// Blocks returns the fenced code blocks of the document, in order.
func (d Doc) Blocks() []Block {
	blocks, _ := d.fenced()
	return blocks
}

// fenced reads the fenced blocks, and marks the lines they take (fences included). A block left open
// runs to the end of the document, as markdown reads it.
func (d Doc) fenced() ([]Block, []bool) {
	var blocks []Block
	fenced := make([]bool, len(d.Lines))
	for i := 0; i < len(d.Lines); i++ {
		m := fence.FindStringSubmatch(d.Lines[i])
		if m == nil {
			continue
		}
		indent, marks := len(m[1]), m[2]
		b := Block{Line: i + 1, Lang: m[3]}
		if i > 0 {
			if c := strings.TrimSpace(d.Lines[i-1]); strings.HasPrefix(c, "<!--") && strings.HasSuffix(c, "-->") {
				b.Marker = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(c, "<!--"), "-->"))
			}
		}
		fenced[i] = true
		var body []string
		for i++; i < len(d.Lines); i++ {
			fenced[i] = true
			// The closing fence: at least as many of the same marks, and nothing else.
			if t := strings.TrimLeft(d.Lines[i], " "); strings.HasPrefix(t, marks) && strings.Trim(t, marks[:1]+" ") == "" {
				break
			}
			line := d.Lines[i]
			line = line[min(indent, len(line)-len(strings.TrimLeft(line, " "))):]
			body = append(body, line)
		}
		b.Text = strings.Join(body, "\n") + "\n"
		blocks = append(blocks, b)
	}
	return blocks, fenced
}

// prose returns the document's lines with every fenced block blanked, so inline code and tables are
// read from the text only. Line numbers are kept.
func (d Doc) prose() []string {
	_, fenced := d.fenced()
	lines := slices.Clone(d.Lines)
	for i := range lines {
		if fenced[i] {
			lines[i] = ""
		}
	}
	return lines
}

// Code is an inline code span of the prose.
type Code struct {
	Line int // the line the span opens on
	Text string
}

// Code returns the inline code spans outside fenced blocks, in order. A span may continue on the next
// line of its paragraph, as markdown allows; its text then has a space for the line break.
func (d Doc) Code() []Code {
	var spans []Code
	lines := d.prose()
	for start := 0; start < len(lines); {
		// One paragraph at a time: a code span never crosses a blank line.
		end := start
		for end < len(lines) && strings.TrimSpace(lines[end]) != "" {
			end++
		}
		if end == start {
			start++
			continue
		}
		para := strings.Join(lines[start:end], "\n")
		for i := 0; i < len(para); {
			if para[i] != '`' {
				i++
				continue
			}
			n := backticks(para[i:])
			// The span closes at the next run of exactly as many backticks.
			closing := -1
			for j := i + n; j < len(para); {
				k := strings.IndexByte(para[j:], '`')
				if k < 0 {
					break
				}
				if m := backticks(para[j+k:]); m != n {
					j += k + m
					continue
				}
				closing = j + k
				break
			}
			if closing < 0 {
				i += n
				continue
			}
			text := strings.ReplaceAll(para[i+n:closing], "\n", " ")
			if n > 1 {
				text = strings.TrimSpace(text)
			}
			spans = append(spans, Code{Line: start + 1 + strings.Count(para[:i], "\n"), Text: text})
			i = closing + n
		}
		start = end
	}
	return spans
}

// backticks is the length of the run of backticks s starts with.
func backticks(s string) int {
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	return n
}

// Table is a markdown table of the prose.
type Table struct {
	Line   int // the header row's line
	Header []string
	Rows   []Row
}

// Row is one body row of a table.
type Row struct {
	Line  int
	Cells []string
}

var delimiterRow = regexp.MustCompile(`^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)

// Tables returns the document's tables, in order. Cells are trimmed; an escaped pipe (\|) is a pipe
// inside a cell.
func (d Doc) Tables() []Table {
	var tables []Table
	lines := d.prose()
	for i := 0; i+1 < len(lines); i++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), "|") || !delimiterRow.MatchString(strings.TrimSpace(lines[i+1])) {
			continue
		}
		t := Table{Line: i + 1, Header: cells(lines[i])}
		for i += 2; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
			t.Rows = append(t.Rows, Row{Line: i + 1, Cells: cells(lines[i])})
		}
		tables = append(tables, t)
	}
	return tables
}

func cells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var out []string
	var cell strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cell.WriteByte('|')
			i++
		case line[i] == '|':
			out = append(out, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(line[i])
		}
	}
	return append(out, strings.TrimSpace(cell.String()))
}

// Quoted returns the inline code spans of a table cell, in order.
func Quoted(cell string) []string {
	var out []string
	for _, c := range (Doc{Lines: []string{cell}}).Code() {
		out = append(out, c.Text)
	}
	return out
}

// Label is a metric label a docs table names, with the values it lists for it.
type Label struct {
	Name   string
	Values []string
}

var (
	parenthesised = regexp.MustCompile(`^\(([^()]*)\)`)
	// afterColon is the values of a label written `name`: `a`, `b` or `c`.
	afterColon = regexp.MustCompile("^:\\s*((?:`[^`]*`(?:\\s*(?:,|or|,\\s*or)\\s*)?)+)")
)

// Metric is a row of a metric table: a table whose first column is "metric".
type Metric struct {
	Line int
	Name string // the metric the row's first cell names, "" when it names none
	// Labels are those the row gives the metric, from name{label=a|b,other} in its first cell, or else
	// from the table's labels (or attributes) column, written `a`, `b` (`x`, `y`), `c`: `p` or `q`: a
	// label's values are the inline code in the parentheses that follow it, or after its colon to the
	// end of the cell (so that label comes last).
	Labels []Label
	// Listed reports whether the row says which labels the metric has: the table has a labels column,
	// or the name carries its labels.
	Listed bool
}

// LabelNames are the names of the row's labels, in order.
func (m Metric) LabelNames() []string {
	names := make([]string, 0, len(m.Labels))
	for _, l := range m.Labels {
		names = append(names, l.Name)
	}
	return names
}

// Metrics returns the rows of the document's metric tables, in order.
func (d Doc) Metrics() []Metric {
	var out []Metric
	for _, table := range d.Tables() {
		if len(table.Header) == 0 || table.Header[0] != "metric" {
			continue
		}
		column := slices.IndexFunc(table.Header, func(h string) bool { return h == "labels" || h == "attributes" })
		for _, row := range table.Rows {
			m := Metric{Line: row.Line}
			if quoted := Quoted(row.Cells[0]); len(quoted) > 0 {
				m.Name = quoted[0]
			}
			if name, braces, ok := strings.Cut(m.Name, "{"); ok {
				m.Name, m.Labels, m.Listed = name, labelsInBraces(braces), true
			} else if column >= 0 && column < len(row.Cells) {
				m.Labels, m.Listed = labelsInCell(row.Cells[column]), true
			}
			out = append(out, m)
		}
	}
	return out
}

// labelsInBraces reads label=a|b,other}.
func labelsInBraces(braces string) []Label {
	var labels []Label
	for _, part := range strings.Split(strings.TrimSuffix(braces, "}"), ",") {
		label, values, _ := strings.Cut(strings.TrimSpace(part), "=")
		l := Label{Name: label}
		if values != "" {
			l.Values = strings.Split(values, "|")
		}
		labels = append(labels, l)
	}
	return labels
}

// labelsInCell reads `a`, `b` (`x`, `y`), `c`: `p` or `q`.
func labelsInCell(cell string) []Label {
	var labels []Label
	for rest := cell; ; {
		i := strings.IndexByte(rest, '`')
		if i < 0 {
			return labels
		}
		j := strings.IndexByte(rest[i+1:], '`')
		if j < 0 {
			return labels
		}
		l := Label{Name: rest[i+1 : i+1+j]}
		rest = strings.TrimLeft(rest[i+j+2:], " ")
		for _, values := range []*regexp.Regexp{parenthesised, afterColon} {
			if m := values.FindStringSubmatchIndex(rest); m != nil {
				l.Values = Quoted(rest[m[2]:m[3]])
				rest = rest[m[1]:]
				break
			}
		}
		labels = append(labels, l)
	}
}

// Heading is an ATX heading of the prose (# to ######).
type Heading struct {
	Line  int
	Level int
	Text  string
	// Anchor is the fragment GitHub links the heading by: its text lower-cased, without punctuation
	// (hyphens and underscores stay), spaces as hyphens, and -1, -2, ... after an anchor already taken.
	Anchor string
}

var (
	atxHeading = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	inlineLink = regexp.MustCompile(`\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)`)
	// referenceLink is a link reference definition: [label]: target.
	referenceLink = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*(\S+)`)
	inlineCode    = regexp.MustCompile("`+[^`]*`+")
)

// Headings returns the document's headings, in order.
func (d Doc) Headings() []Heading {
	var out []Heading
	taken := map[string]int{}
	for i, line := range d.prose() {
		m := atxHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		h := Heading{Line: i + 1, Level: len(m[1]), Text: m[2]}
		base := slug(h.Text)
		h.Anchor = base
		if n := taken[base]; n > 0 {
			h.Anchor = fmt.Sprintf("%s-%d", base, n)
		}
		taken[base]++
		out = append(out, h)
	}
	return out
}

// slug is GitHub's anchor for a heading's text: a link in it counts by its text.
func slug(text string) string {
	text = inlineLink.ReplaceAllString(text, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Link is a link of the prose: its target as written, a path relative to the document and an optional
// #anchor, or a URL.
type Link struct {
	Line   int
	Target string
}

// Links returns the inline links, images and link reference definitions of the prose, in order;
// inline code is not read for them.
func (d Doc) Links() []Link {
	var out []Link
	for i, line := range d.prose() {
		line = inlineCode.ReplaceAllString(line, "")
		if m := referenceLink.FindStringSubmatch(line); m != nil {
			out = append(out, Link{Line: i + 1, Target: m[1]})
			continue
		}
		for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
			out = append(out, Link{Line: i + 1, Target: m[2]})
		}
	}
	return out
}
