// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Command conventionsdoc writes docs/conventions.md from the registry, so that the page cannot drift
// from the code: the claim order and every attribute a convention reads come from agentspan.Builtin(),
// each convention's file from the package's source, its captures from testdata/sdk/expected.json. What
// the data cannot say (how a convention recognises its spans, what a key's value holds, why an SDK has
// no capture) is prose in notes.go, one entry per convention, and the rest of the page is
// conventions.md.tmpl. It fails when a convention has no note, a note names no convention, or a
// convention has neither a capture nor payloads written from its source.
//
// `make generate` runs it (go generate ./internal/agentspan/...); `make check-generate` and
// TestPageIsCurrent fail while the committed page differs from what it writes.
package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/template"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/docscheck"
)

// page is where the generated page goes, relative to the repository root.
const page = "docs/conventions.md"

//go:embed conventions.md.tmpl
var pageTemplate string

func main() {
	root := flag.String("root", ".", "the repository root")
	flag.Parse()
	out, err := render(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conventionsdoc:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(filepath.Join(*root, page), out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "conventionsdoc:", err)
		os.Exit(1)
	}
}

// render returns the page for the repository at root.
func render(root string) ([]byte, error) {
	files, err := conventionFiles(filepath.Join(root, "internal", "agentspan"))
	if err != nil {
		return nil, err
	}
	captures, err := readCaptures(root)
	if err != nil {
		return nil, err
	}
	builtin := agentspan.Builtin()
	var errs []error
	names := map[string]bool{}
	for _, c := range builtin {
		names[c.Name] = true
		if _, ok := notes[c.Name]; !ok {
			errs = append(errs, fmt.Errorf("convention %q has no note in conventionsdoc/notes.go", c.Name))
		}
		if files[c.Name] == "" {
			errs = append(errs, fmt.Errorf("convention %q: no file of internal/agentspan declares it", c.Name))
		}
	}
	for name := range notes {
		if !names[name] {
			errs = append(errs, fmt.Errorf("conventionsdoc/notes.go: %q is no registered convention", name))
		}
	}
	for _, sdk := range captures {
		if !names[sdk.Convention] {
			errs = append(errs, fmt.Errorf("testdata/sdk/expected.json: %s names convention %q, which is not registered", sdk.Name, sdk.Convention))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}

	var order, sections strings.Builder
	order.WriteString("| # | convention | instrumentation | file | captured |\n|---|---|---|---|---|\n")
	for i, c := range builtin {
		n := notes[c.Name]
		caps := capturesOf(captures, c.Name)
		if err := checkCaptured(root, c.Name, n, caps); err != nil {
			errs = append(errs, err)
			continue
		}
		file := "[`" + files[c.Name] + "`](../internal/agentspan/" + files[c.Name] + ")"
		fmt.Fprintf(&order, "| %d | [`%s`](#%s) | %s | %s | %s |\n", i+1, c.Name, c.Name, n.Title, file, capturedCell(caps))
		section(&sections, c, n, caps)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	tmpl, err := template.New("conventions.md.tmpl").Parse(pageTemplate)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = tmpl.Execute(&b, struct{ ClaimOrder, Conventions string }{
		strings.TrimRight(order.String(), "\n"), strings.TrimRight(sections.String(), "\n"),
	})
	return b.Bytes(), err
}

// conventionFiles maps each convention declared in the package's source (a package-level
// Convention{Name: "..."}) to the file that declares it.
func conventionFiles(dir string) (map[string]string, error) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			for _, spec := range gen.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					if name, ok := conventionName(v); ok {
						files[name] = filepath.Base(p)
					}
				}
			}
		}
	}
	return files, nil
}

// conventionName is the Name of a Convention composite literal.
func conventionName(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return "", false
	}
	if id, ok := lit.Type.(*ast.Ident); !ok || id.Name != "Convention" {
		return "", false
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if key, ok := kv.Key.(*ast.Ident); ok && key.Name == "Name" {
			if s, ok := kv.Value.(*ast.BasicLit); ok && s.Kind == token.STRING {
				name, err := strconv.Unquote(s.Value)
				return name, err == nil
			}
		}
	}
	return "", false
}

// capture is one real SDK capture of testdata/sdk/expected.json.
type capture struct {
	Name, File, Convention string
	// Packages are the SDK's packages and their versions, in the order expected.json gives them.
	Packages [][2]string
	// Heading is the anchor of its section in docs/fixtures.md, "" when it has none.
	Heading string
}

func readCaptures(root string) ([]capture, error) {
	raw, err := os.ReadFile(filepath.Join(root, "testdata", "sdk", "expected.json"))
	if err != nil {
		return nil, err
	}
	var exp struct {
		SDKs []struct {
			Name, File, Convention string
			Packages               json.RawMessage
		}
	}
	if err := json.Unmarshal(raw, &exp); err != nil {
		return nil, fmt.Errorf("testdata/sdk/expected.json: %w", err)
	}
	headings, err := fixtureHeadings(root)
	if err != nil {
		return nil, err
	}
	var out []capture
	for _, sdk := range exp.SDKs {
		c := capture{Name: sdk.Name, File: sdk.File, Convention: sdk.Convention}
		if c.Packages, err = orderedStrings(sdk.Packages); err != nil {
			return nil, fmt.Errorf("testdata/sdk/expected.json: %s: packages: %w", sdk.Name, err)
		}
		c.Heading = headings[path.Dir(sdk.File)]
		out = append(out, c)
	}
	return out, nil
}

// orderedStrings reads a JSON object of strings, keeping its members' order.
func orderedStrings(raw json.RawMessage) ([][2]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not an object")
	}
	var out [][2]string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v string
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, [2]string{k.(string), v})
	}
	return out, nil
}

// fixtureHeadings maps each capture folder of testdata/sdk to the anchor of its section in
// docs/fixtures.md ("### <folder>: ...").
func fixtureHeadings(root string) (map[string]string, error) {
	raw, err := os.ReadFile(filepath.Join(root, "docs", "fixtures.md"))
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, h := range (docscheck.Doc{Lines: strings.Split(string(raw), "\n")}).Headings() {
		if dir, _, ok := strings.Cut(h.Text, ":"); ok && h.Level == 3 && !strings.Contains(dir, " ") {
			out[dir] = h.Anchor
		}
	}
	return out, nil
}

func capturesOf(all []capture, convention string) []capture {
	var out []capture
	for _, c := range all {
		if c.Convention == convention {
			out = append(out, c)
		}
	}
	return out
}

// checkCaptured: a convention has real captures or payloads written from its source, one or the other,
// and the payloads exist.
func checkCaptured(root, name string, n note, caps []capture) error {
	switch {
	case len(caps) > 0 && n.Uncaptured != nil:
		return fmt.Errorf("convention %q has captures in testdata/sdk and an Uncaptured note: one or the other", name)
	case len(caps) == 0 && n.Uncaptured == nil:
		return fmt.Errorf("convention %q has no capture in testdata/sdk/expected.json and no Uncaptured note naming the payloads that stand in", name)
	case n.Uncaptured != nil:
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(n.Uncaptured.Payloads)))
		if err != nil || len(matches) == 0 {
			return fmt.Errorf("convention %q: no payloads at %s", name, n.Uncaptured.Payloads)
		}
	}
	return nil
}

func capturedCell(caps []capture) string {
	if len(caps) == 0 {
		return "no: payloads written from its source"
	}
	var links []string
	for _, c := range caps {
		dir := path.Dir(c.File)
		l := "`" + dir + "`"
		if c.Heading != "" {
			l = "[" + l + "](fixtures.md#" + c.Heading + ")"
		}
		if !slices.Contains(links, l) {
			links = append(links, l)
		}
	}
	return strings.Join(links, ", ")
}

// section writes what a convention reads, from its Convention value and its note.
func section(b *strings.Builder, c *agentspan.Convention, n note, caps []capture) {
	fmt.Fprintf(b, "### `%s`\n\n%s: recognised by %s.\n\n", c.Name, n.Title, n.Recognised)
	item := func(label, data, prose string) {
		fmt.Fprintf(b, "- **%s**: %s\n", label, join(data, prose))
	}
	item("Tool name", keys(c.ToolName), n.Tool)
	item("Call id", keys(c.CallID), n.CallID)
	var args, result []string
	if k := keys(c.Arguments); k != "" {
		args = append(args, k)
	}
	if k := keys(c.Result); k != "" {
		result = append(result, k)
	}
	for _, e := range c.ToolEvents {
		of := " of the tool span's `" + e.Name + "` event"
		if e.CallID != "" {
			of += " (the call id in `" + e.CallID + "`)"
		}
		if e.Parts {
			of += ", as GenAI parts"
		}
		if e.Arguments != "" {
			args = append(args, "`"+e.Arguments+"`"+of)
		}
		if e.Result != "" {
			result = append(result, "`"+e.Result+"`"+of)
		}
	}
	item("Arguments", strings.Join(args, "; "), n.Arguments)
	item("Result", strings.Join(result, "; "), n.Result)
	var transcripts []string
	for _, t := range c.Transcripts {
		s := "`" + t.Key + "`"
		var marks []string
		if t.Flat != nil {
			s = "`" + t.Key + "{i}.*`"
			marks = append(marks, "flattened")
		}
		if t.Output {
			marks = append(marks, "the reply")
		}
		switch {
		case t.Text:
			marks = append(marks, "text")
		case t.MayBeText:
			marks = append(marks, "JSON or text")
		}
		if len(marks) > 0 {
			s += " (" + strings.Join(marks, ", ") + ")"
		}
		transcripts = append(transcripts, s)
	}
	if len(c.EventRoles) > 0 {
		events := make([]string, 0, len(c.EventRoles))
		for name := range c.EventRoles {
			events = append(events, "`"+name+"`")
		}
		slices.Sort(events)
		transcripts = append(transcripts, "per-message events "+strings.Join(events, ", "))
	}
	for _, e := range c.ReplyEvents {
		if e.Reply != "" {
			transcripts = append(transcripts, "the reply in `"+e.Reply+"` of the model span's `"+e.Name+"` event")
		}
	}
	item("Transcripts", strings.Join(transcripts, ", "), n.Transcripts)
	run := keys(c.RunID)
	if len(c.RunKey) > 0 {
		run = join(run, "a run spans traces, grouped by "+keys(c.RunKey)+", and ends by idling")
	}
	item("Run id", run, n.Run)
	var agent []string
	if k := keys(c.AgentName); k != "" {
		agent = append(agent, k)
	}
	if k := keys(c.AgentSpanName); k != "" {
		agent = append(agent, k+" on agent spans")
	}
	if c.AgentFromSpanName {
		agent = append(agent, "the agent span's name")
	}
	if c.AgentFromRootName {
		agent = append(agent, "the root span's name")
	}
	item("Agent name", strings.Join(agent, ", else "), n.Agent)
	finish := []string{}
	if k := keys(c.FinishReason); k != "" {
		finish = append(finish, k)
	}
	for _, f := range c.FlatFinish {
		finish = append(finish, "`"+f.Prefix+"{i}."+f.Suffix+"`")
	}
	for _, e := range c.ReplyEvents {
		if e.FinishReason != "" {
			finish = append(finish, "`"+e.FinishReason+"` of the model span's `"+e.Name+"` event")
		}
	}
	item("Finish reason", strings.Join(finish, ", "), n.Finish)
	item("Token usage", usage(c.Usage), "")
	if n.Uncaptured != nil {
		item("Captured", "", "none: "+n.Uncaptured.Why+"; `"+n.Uncaptured.Payloads+"` "+n.Uncaptured.Source)
	} else {
		var list []string
		for _, cp := range caps {
			var pkgs []string
			for _, p := range cp.Packages {
				pkgs = append(pkgs, "`"+p[0]+"` "+p[1])
			}
			list = append(list, "`"+cp.Name+"` ("+strings.Join(pkgs, ", ")+")")
		}
		item("Captured", strings.Join(list, "; "), n.Captured)
	}
	if n.Configure != "" {
		item("Configure", "", n.Configure)
	}
	b.WriteString("\n")
}

// usage says where a convention's model spans carry a call's token counts, and how its input count
// treats the cache (agentspan.Usage).
func usage(u *agentspan.Usage) string {
	if u == nil {
		return ""
	}
	var parts []string
	for _, p := range []struct {
		label string
		keys  []string
	}{{"input", u.Input}, {"output", u.Output}, {"cache reads", u.CacheRead}, {"cache writes", u.CacheWrite}} {
		if len(p.keys) > 0 {
			parts = append(parts, p.label+" "+keys(p.keys))
		}
	}
	s := strings.Join(parts, "; ")
	if u.In != "" {
		s = "members of the JSON in `" + u.In + "`: " + s
	}
	if u.InputExcludesCache {
		return s + " (the input leaves the cache out: cache writes are added to it)"
	}
	return s + " (the input includes the cache: cache reads are taken out of it)"
}

// keys quotes attribute keys, in the order they are tried.
func keys(ks []string) string {
	quoted := make([]string, len(ks))
	for i, k := range ks {
		quoted[i] = "`" + k + "`"
	}
	return strings.Join(quoted, ", ")
}

// join puts what the data says before what the note adds: a note that opens with a parenthesis
// qualifies the data, any other follows it. With neither, the convention reads nothing there.
func join(data, prose string) string {
	switch {
	case data == "" && prose == "":
		return "none"
	case prose == "":
		return data
	case data == "":
		return prose
	case strings.HasPrefix(prose, "("):
		return data + " " + prose
	}
	return data + "; " + prose
}
