// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package docscheck_test

import (
	"fmt"
	"go/constant"
	"go/importer"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/docscheck"
	"github.com/agentotel/agentotel/internal/repo"
	"github.com/agentotel/agentotel/processor/agentguard"
	"github.com/agentotel/agentotel/processor/shapeonly"
)

func readDocs(t *testing.T) []docscheck.Doc {
	t.Helper()
	docs, err := docscheck.Read(repo.Root(t))
	require.NoError(t, err)
	return docs
}

// servedMetrics are the metrics processor/*/metadata.yaml declares, by the names the collector serves.
func servedMetrics(t *testing.T) map[string]docscheck.Declared {
	t.Helper()
	served, err := docscheck.DeclaredMetrics(repo.Root(t))
	require.NoError(t, err)
	return served
}

var metricName = regexp.MustCompile(`otelcol_processor_(?:agentguard|shapeonly)_[a-z0-9_]*`)

// TestMetricNamesExist: every otelcol_processor_agentguard_* and otelcol_processor_shapeonly_* name
// anywhere in the docs (prose, tables, PromQL and YAML blocks) is a metric a metadata.yaml declares, a
// histogram's _bucket, _sum or _count series, or a prefix followed by * that some metric has.
func TestMetricNamesExist(t *testing.T) {
	served := servedMetrics(t)
	mentions := 0
	for _, doc := range readDocs(t) {
		for i, line := range doc.Lines {
			for _, loc := range metricName.FindAllStringIndex(line, -1) {
				mentions++
				name := line[loc[0]:loc[1]]
				if strings.HasSuffix(name, "_") {
					if loc[1] < len(line) && line[loc[1]] == '*' && slices.ContainsFunc(slices.Collect(maps.Keys(served)),
						func(m string) bool { return strings.HasPrefix(m, name) }) {
						continue
					}
					t.Errorf("%s: %s is neither a metric nor the prefix (followed by *) of one", doc.At(i+1), name)
					continue
				}
				if _, ok := served[name]; ok {
					continue
				}
				base, suffix := name, ""
				for _, s := range []string{"_bucket", "_sum", "_count"} {
					if b, ok := strings.CutSuffix(name, s); ok {
						base, suffix = b, s
					}
				}
				switch m, ok := served[base]; {
				case !ok:
					t.Errorf("%s: %s is not a metric of processor/*/metadata.yaml", doc.At(i+1), name)
				case suffix == "":
				case !m.Histogram:
					t.Errorf("%s: %s: %s is not a histogram, so it has no %s series", doc.At(i+1), name, base, suffix)
				}
			}
		}
	}
	require.Positive(t, mentions, "the docs name no metric: the scan is broken")
}

// annotationNames returns the values of internal/annotation's exported string constants that name
// something agentguard writes (agentguard.*), read from the package as the compiler sees it.
func annotationNames(t *testing.T) map[string]bool {
	t.Helper()
	pkg, err := importer.ForCompiler(token.NewFileSet(), "source", nil).Import("github.com/agentotel/agentotel/internal/annotation")
	require.NoError(t, err)
	names := map[string]bool{}
	for _, id := range pkg.Scope().Names() {
		c, ok := pkg.Scope().Lookup(id).(*types.Const)
		if !ok || !c.Exported() || c.Val().Kind() != constant.String {
			continue
		}
		if v := constant.StringVal(c.Val()); strings.HasPrefix(v, "agentguard.") {
			names[v] = true
		}
	}
	// The package as compiled into this test must agree, or the read above found the wrong package.
	for _, k := range append(annotation.Keys(), annotation.StuckEvent) {
		require.True(t, names[k], "%s is missing from the constants read from internal/annotation", k)
	}
	return names
}

// recipeMetrics returns the pipeline metrics the count connector recipes in deploy/recipes make out of
// agentguard's span events, with their attribute keys.
func recipeMetrics(t *testing.T) map[string][]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(repo.Root(t), "deploy", "recipes", "*.yaml"))
	require.NoError(t, err)
	out := map[string][]string{}
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		var recipe struct {
			Connectors map[string]map[string]map[string]struct {
				Attributes []struct {
					Key string `yaml:"key"`
				} `yaml:"attributes"`
			} `yaml:"connectors"`
		}
		require.NoError(t, yaml.Unmarshal(raw, &recipe), path)
		for id, signals := range recipe.Connectors {
			if id != "count" && !strings.HasPrefix(id, "count/") {
				continue
			}
			for _, metrics := range signals {
				for name, m := range metrics {
					for _, a := range m.Attributes {
						out[name] = append(out[name], a.Key)
					}
				}
			}
		}
	}
	return out
}

var leadingName = regexp.MustCompile(`^agentguard\.[a-z0-9_.]*`)

// TestAnnotationNamesExist: every agentguard.* attribute or event name the docs quote as inline code
// is a constant of internal/annotation, or a pipeline metric a count connector recipe in deploy/recipes
// makes of agentguard's events (with the attributes the recipe gives it). `agentguard.*` stands for
// all of them.
func TestAnnotationNamesExist(t *testing.T) {
	names, recipes := annotationNames(t), recipeMetrics(t)
	mentions := 0
	for _, doc := range readDocs(t) {
		for _, code := range doc.Code() {
			name := strings.TrimSuffix(leadingName.FindString(code.Text), ".")
			if name == "" || strings.HasPrefix(code.Text[len(name):], ".*") {
				continue
			}
			mentions++
			if names[name] {
				continue
			}
			keys, ok := recipes[name]
			if !ok {
				t.Errorf("%s: `%s`: %s is not a constant of internal/annotation nor a metric of deploy/recipes", doc.At(code.Line), code.Text, name)
				continue
			}
			if rest := code.Text[len(name):]; strings.HasPrefix(rest, "{") {
				var quoted []string
				for _, l := range strings.Split(strings.Trim(rest, "{}"), ",") {
					quoted = append(quoted, strings.TrimSpace(l))
				}
				if !sameSet(quoted, keys) {
					t.Errorf("%s: `%s`: the recipe gives %s the attributes %v", doc.At(code.Line), code.Text, name, keys)
				}
			}
		}
	}
	require.Positive(t, mentions, "the docs quote no agentguard.* name: the scan is broken")
}

func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// child is the type a configuration key leads to from t: a struct field by its mapstructure tag
// (squashed embedded structs included), any key of a map, or nothing.
func child(t reflect.Type, key string) (reflect.Type, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Map:
		return t.Elem(), true
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag, opts, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
			if strings.Contains(opts, "squash") {
				if ft, ok := child(f.Type, key); ok {
					return ft, true
				}
				continue
			}
			if f.IsExported() && tag == key {
				return f.Type, true
			}
		}
	}
	return nil, false
}

// configTypes are the Config types of the processors, by component type, as their factories make them.
func configTypes() map[string]reflect.Type {
	return map[string]reflect.Type{
		"agentguard": reflect.TypeOf(agentguard.NewFactory().CreateDefaultConfig()),
		"shapeonly":  reflect.TypeOf(shapeonly.NewFactory().CreateDefaultConfig()),
	}
}

// resolve follows a key path from a config type; "<name>" (or any segment) is a map's key.
func resolve(t reflect.Type, path []string) error {
	for i, key := range path {
		next, ok := child(t, key)
		if !ok {
			return fmt.Errorf("%s is not a key of %s", strings.Join(path[:i+1], "."), t)
		}
		t = next
	}
	return nil
}

// walkYAML checks every key under a YAML mapping against a config type, a list's items against its
// element type, and reports each unknown key with its line in the block.
func walkYAML(t reflect.Type, node *yaml.Node, path string, unknown func(line int, path string, in reflect.Type)) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch node.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			next, ok := child(t, k.Value)
			if !ok {
				unknown(k.Line, path+k.Value, t)
				continue
			}
			walkYAML(next, v, path+k.Value+".", unknown)
		}
	case yaml.SequenceNode:
		if t.Kind() == reflect.Slice {
			for _, item := range node.Content {
				walkYAML(t.Elem(), item, path, unknown)
			}
		}
	}
}

// componentType is the type part of a component id: agentguard/mine is an agentguard.
func componentType(id string) string {
	typ, _, _ := strings.Cut(id, "/")
	return typ
}

// TestConfigKeysExist: every configuration key the docs give our processors is a mapstructure tag
// reachable in the processor's Config (nested tool entries and declared conventions included): the
// first column of the processors' README configuration tables, every key under processors: agentguard
// or shapeonly in the docs' YAML blocks, and the settings a table has as its columns (a benchmark's
// bounds).
func TestConfigKeysExist(t *testing.T) {
	types := configTypes()
	topLevel := map[string]bool{}
	for _, typ := range types {
		for i := 0; i < typ.Elem().NumField(); i++ {
			if tag, _, _ := strings.Cut(typ.Elem().Field(i).Tag.Get("mapstructure"), ","); tag != "" {
				topLevel[tag] = true
			}
		}
	}
	tableKeys, blockKeys := 0, 0
	for _, doc := range readDocs(t) {
		// The configuration tables of processor/<type>/README.md: dotted keys are paths (<name> is any
		// tool's name), and a bare key after one in the same cell is its sibling.
		if typ, ok := types[filepath.Base(filepath.Dir(doc.Path))]; ok {
			for _, table := range doc.Tables() {
				if len(table.Header) == 0 || table.Header[0] != "key" {
					continue
				}
				for _, row := range table.Rows {
					var parent []string
					for _, key := range docscheck.Quoted(row.Cells[0]) {
						path := strings.Split(key, ".")
						if len(path) > 1 {
							parent = path[:len(path)-1]
						} else {
							path = append(slices.Clone(parent), key)
						}
						tableKeys++
						if err := resolve(typ, path); err != nil {
							t.Errorf("%s: `%s`: %v", doc.At(row.Line), key, err)
						}
					}
				}
			}
		}
		for _, block := range doc.Blocks() {
			if block.Lang != "yaml" {
				continue
			}
			var root yaml.Node
			if yaml.Unmarshal([]byte(block.Text), &root) != nil || len(root.Content) == 0 {
				continue // test/docs fails on a block that is not YAML
			}
			processors := mappingValue(root.Content[0], "processors")
			if processors == nil || processors.Kind != yaml.MappingNode {
				continue
			}
			for i := 0; i+1 < len(processors.Content); i += 2 {
				id := processors.Content[i].Value
				typ, ok := types[componentType(id)]
				if !ok {
					continue
				}
				blockKeys++
				walkYAML(typ, processors.Content[i+1], "", func(line int, path string, in reflect.Type) {
					t.Errorf("%s: processors: %s: %s is not a key (of %s)", doc.At(block.Line+line), id, path, in)
				})
			}
		}
		// A table whose columns are settings of ours (a benchmark's bounds): every column named as a
		// setting must be one.
		for _, table := range doc.Tables() {
			var settings []string
			ours := false
			for _, h := range table.Header {
				if q := docscheck.Quoted(h); len(q) == 1 && h == "`"+q[0]+"`" && isKey(q[0]) {
					settings = append(settings, q[0])
					ours = ours || topLevel[q[0]]
				}
			}
			if !ours {
				continue
			}
			for _, s := range settings {
				tableKeys++
				if !topLevel[s] {
					t.Errorf("%s: the table has a column `%s`, which is not a setting of agentguard or shapeonly", doc.At(table.Line), s)
				}
			}
		}
	}
	require.Positive(t, tableKeys, "no configuration table found: the scan is broken")
	require.Positive(t, blockKeys, "no YAML block configures a processor of ours: the scan is broken")
}

var keyShape = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)+$`)

// isKey: a snake_case name with at least one underscore, the shape of our settings' keys.
func isKey(s string) bool { return keyShape.MatchString(s) }

// mappingValue returns the value under key in a YAML mapping node, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
