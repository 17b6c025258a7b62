// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package docs runs every YAML block the documentation shows the way a reader would use it: a collector
// config on the built otelcol-agent, a fragment merged over the shipped configs it belongs in, a
// builder config against what test/dropin builds, Prometheus and Alertmanager YAML against the rules;
// and every block that configures shapeonly or agentguard through the processor it configures, on
// generated agent runs, so that pasting a block can never weaken what the processors promise. It also
// checks the labels the built collector really serves against the metrics' metadata.yaml. It needs the
// distribution `make build` writes to _build/.
package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/promql/parser"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/agentotel/agentotel/internal/docscheck"
	"github.com/agentotel/agentotel/internal/repo"
	"github.com/agentotel/agentotel/test/internal/collectortest"
	"github.com/agentotel/agentotel/test/promcheck"
)

// validateEnv is the environment the shipped configs document (deploy/scale); a fragment merged over
// them is validated with it, as test/e2e validates the configs themselves.
var validateEnv = []string{
	"TIER2_HOSTS=[tier2-0:4317,tier2-1:4317]", "RUN_ATTRIBUTES=[session.id]",
	"TLS_CERT_FILE=/tls/tls.crt", "TLS_KEY_FILE=/tls/tls.key", "BACKEND_ENDPOINT=backend:4317",
}

// shippedConfigs are the collector configs a fragment may be pasted into, relative to the repository.
var shippedConfigs = []string{
	"deploy/otelcol-agent.yaml", "deploy/scale/tier1.yaml", "deploy/scale/tier1-attributes.yaml", "deploy/scale/tier2.yaml",
}

// sections are the top-level keys of a collector config that configure components.
var sections = []string{"receivers", "processors", "exporters", "connectors", "extensions"}

// TestConfigBlocks places every ```yaml block of the docs and checks it by what it is. A block this test
// cannot place fails it: a new kind of block needs a check here.
func TestConfigBlocks(t *testing.T) {
	root := repo.Root(t)
	docs, err := docscheck.Read(root)
	require.NoError(t, err)
	blocks := 0
	for _, doc := range docs {
		for _, block := range doc.Blocks() {
			if block.Lang != "yaml" && block.Lang != "yml" {
				continue
			}
			blocks++
			t.Run(doc.At(block.Line), func(t *testing.T) { checkBlock(t, root, block) })
		}
	}
	require.Positive(t, blocks, "no YAML block in the docs: the scan is broken")
}

func checkBlock(t *testing.T, root string, block docscheck.Block) {
	var top map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(block.Text), &top), "the block is not YAML:\n%s", block.Text)
	require.NotEmpty(t, top, "the block is empty")
	path := filepath.Join(t.TempDir(), "block.yaml")
	require.NoError(t, os.WriteFile(path, []byte(block.Text), 0o600))
	keys := keysOf(top)

	switch {
	case block.Marker == "dropin-builder":
		// The README's builder snippet: test/dropin (TestReadmeDropIn) builds a distribution with ocb
		// from it and runs the dropin-config block on that distribution.
		assert.Subset(t, keys, []string{"processors", "replaces"})
	case top["dist"] != nil:
		checkBuilderConfig(t, root, top)
	case top["service"] != nil:
		// A whole collector config. The README's dropin-config is also validated and run by test/dropin
		// on the distribution built from the README's snippet.
		validate(t, path)
		exercise(t, top)
	case isSubset(keys, sections):
		checkFragment(t, root, path, top)
		exercise(t, top)
	case top["groups"] != nil:
		// Prometheus rules.
		promtool, err := exec.LookPath("promtool")
		require.NoError(t, err, "promtool checks Prometheus rule blocks: .ci/run installs it")
		out, err := exec.Command(promtool, "check", "rules", path).CombinedOutput()
		require.NoError(t, err, "%s", out)
		// And every metric the rules read is one otelcol-agent serves, or one the block's own recording
		// rules record; a recording rule may be a constant the reader sets (a price), selecting nothing.
		checkRuleBlock(t, path)
	case top["inhibit_rules"] != nil || top["route"] != nil:
		checkAlertmanager(t, root, block.Text)
	case top["apiVersion"] != nil && top["kind"] != nil:
		// Kubernetes: no cluster to ask here. The object must name itself, and a ConfigMap's collector
		// config must validate, as test/e2e validates the shipped manifests'.
		assert.NotEmpty(t, top["metadata"], "a Kubernetes object needs metadata")
		if data, _ := top["data"].(map[string]any); top["kind"] == "ConfigMap" && data["config.yaml"] != nil {
			config := filepath.Join(t.TempDir(), "config.yaml")
			require.NoError(t, os.WriteFile(config, []byte(data["config.yaml"].(string)), 0o600))
			validate(t, config)
		}
	default:
		t.Fatalf("this block is neither a collector config, a fragment of one, a builder config, Prometheus rules, "+
			"Alertmanager config nor a Kubernetes object (top-level keys %v): teach test/docs how to check it", keys)
	}
}

// checkRuleBlock checks a block of Prometheus rules' expressions against the served metrics and the
// series the block records itself.
func checkRuleBlock(t *testing.T, path string) {
	rules, err := promcheck.ReadRules(path)
	require.NoError(t, err)
	selectable := promcheck.Selectable(promcheck.Served, promcheck.Histograms)
	var constants []string
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			if r.Record == "" {
				continue
			}
			selectable = append(selectable, r.Record)
			if names, err := promcheck.MetricNames(r.Expr); err == nil && len(names) == 0 {
				constants = append(constants, r.Expr)
			}
		}
	}
	exprs, err := promcheck.RuleExprs(path)
	require.NoError(t, err)
	for _, e := range exprs {
		if slices.Contains(constants, e.Query) {
			continue
		}
		assert.NoError(t, promcheck.Check(e.Query, selectable), e.Name)
	}
}

func keysOf(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func isSubset(keys, of []string) bool {
	for _, k := range keys {
		if !slices.Contains(of, k) {
			return false
		}
	}
	return true
}

// validate runs otelcol-agent validate on config files merged in order, with the documented environment.
func validate(t *testing.T, paths ...string) {
	t.Helper()
	args := []string{"validate"}
	for _, p := range paths {
		args = append(args, "--config", p)
	}
	cmd := exec.Command(collectortest.Binary(t), args...)
	cmd.Env = append(os.Environ(), validateEnv...)
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "otelcol-agent %s:\n%s", strings.Join(args, " "), out)
}

// components lists a config's component ids as section/id.
func components(config map[string]any) []string {
	var ids []string
	for _, s := range sections {
		m, _ := config[s].(map[string]any)
		for id := range m {
			ids = append(ids, s+"/"+id)
		}
	}
	return ids
}

// checkFragment validates a fragment merged over every shipped config that already configures each
// component it names (pasting it there changes settings, it adds no component a pipeline lacks). There
// must be one, or the docs show a fragment for a config the repository does not ship.
func checkFragment(t *testing.T, root, path string, fragment map[string]any) {
	bases := 0
	for _, rel := range shippedConfigs {
		raw, err := os.ReadFile(filepath.Join(root, rel))
		require.NoError(t, err)
		var base map[string]any
		require.NoError(t, yaml.Unmarshal(raw, &base), rel)
		if !isSubset(components(fragment), components(base)) {
			continue
		}
		bases++
		t.Run("over "+rel, func(t *testing.T) { validate(t, filepath.Join(root, rel), path) })
	}
	require.Positive(t, bases, "no shipped config (%v) has all of %v: the fragment belongs nowhere", shippedConfigs, components(fragment))
}

// checkBuilderConfig: docs/dropin.md shows the builder config test/dropin builds, which is
// test/dropin/testdata/builder-config.yaml plus the README's snippet; test/dropin (TestReadmeDropIn) runs
// ocb on it. This checks the page shows exactly that.
func checkBuilderConfig(t *testing.T, root string, shown map[string]any) {
	raw, err := os.ReadFile(filepath.Join(root, "test", "dropin", "testdata", "builder-config.yaml"))
	require.NoError(t, err)
	var base map[string]any
	require.NoError(t, yaml.Unmarshal(raw, &base))
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	var snippet map[string]any
	for _, b := range (docscheck.Doc{Lines: strings.Split(string(readme), "\n")}).Blocks() {
		if b.Marker == "dropin-builder" {
			require.NoError(t, yaml.Unmarshal([]byte(b.Text), &snippet))
		}
	}
	require.NotNil(t, snippet, "README.md has no dropin-builder block")

	dist, want := shown["dist"].(map[string]any), base["dist"].(map[string]any)
	for _, k := range []string{"name", "module"} {
		assert.Equal(t, want[k], dist[k], "dist.%s", k)
	}
	for _, s := range []string{"receivers", "exporters"} {
		assert.Equal(t, base[s], shown[s], s)
	}
	assert.Equal(t, append(base["processors"].([]any), snippet["processors"].([]any)...), shown["processors"], "processors")
	assert.Equal(t, snippet["replaces"], shown["replaces"], "replaces")
}

// checkAlertmanager: there is no amtool here, so an Alertmanager block is read as Alertmanager reads
// it: every matcher must parse, and every alertname it matches must be an alert of the shipped rules.
func checkAlertmanager(t *testing.T, root, text string) {
	var am struct {
		InhibitRules []struct {
			SourceMatchers []string `yaml:"source_matchers"`
			TargetMatchers []string `yaml:"target_matchers"`
			Equal          []string `yaml:"equal"`
		} `yaml:"inhibit_rules"`
	}
	dec := yaml.NewDecoder(strings.NewReader(text))
	dec.KnownFields(true)
	require.NoError(t, dec.Decode(&am), "an inhibit rule has a field Alertmanager does not know")
	rules, err := promcheck.ReadRules(filepath.Join(root, "deploy", "prometheus", "agentotel-rules.yaml"))
	require.NoError(t, err)
	// An alert's labels are those its expression aggregates by.
	alerts := map[string][]string{}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			expr, err := promcheck.Parse(r.Expr)
			require.NoError(t, err, r.Alert)
			parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
				if agg, ok := node.(*parser.AggregateExpr); ok && !agg.Without {
					alerts[r.Alert] = append(alerts[r.Alert], agg.Grouping...)
				}
				return nil
			})
		}
	}
	require.NotEmpty(t, am.InhibitRules)
	for _, rule := range am.InhibitRules {
		require.NotEmpty(t, rule.Equal, "an inhibit rule without equal inhibits across agents")
		for _, m := range append(slices.Clone(rule.SourceMatchers), rule.TargetMatchers...) {
			matchers, err := parser.NewParser(parser.Options{}).ParseMetricSelector("{" + m + "}")
			require.NoError(t, err, "matcher %s", m)
			for _, mm := range matchers {
				if mm.Name != "alertname" {
					continue
				}
				labels, ok := alerts[mm.Value]
				if !assert.True(t, ok, "no alert %s in deploy/prometheus/agentotel-rules.yaml", mm.Value) {
					continue
				}
				for _, l := range rule.Equal {
					assert.Contains(t, labels, l, "alert %s has no label %s to be equal on", mm.Value, l)
				}
			}
		}
	}
}
