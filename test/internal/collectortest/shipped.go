// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package collectortest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/agentotel/agentotel/internal/repo"
)

// Shipped turns a collector config the repository ships (path from the repository's root, such as
// deploy/scale/tier2.yaml) into a template for Start: its health check and internal telemetry move onto
// the collector's ports, edit rewrites the rest of the parsed YAML (listen addresses, exporters for the
// test), and every ${env:...} reference the edit leaves alone is resolved by the collector from the
// environment, as in production. Tests set that environment with t.Setenv before Start.
func Shipped(t testing.TB, path string, edit func(cfg map[string]any)) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repo.Root(t), path))
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, yaml.Unmarshal(raw, &cfg))
	Set(cfg, "extensions.health_check.endpoint", "{{.Health}}")
	Set(cfg, "service.telemetry.metrics.readers", []any{map[string]any{"pull": map[string]any{"exporter": map[string]any{
		"prometheus": map[string]any{"host": "{{.MetricsHost}}", "port": "{{.MetricsPort}}"},
	}}}})
	edit(cfg)
	out, err := yaml.Marshal(cfg)
	require.NoError(t, err)
	// The port is a number; every other template field is a string and may stay quoted.
	return strings.ReplaceAll(string(out), `'{{.MetricsPort}}'`, `{{.MetricsPort}}`)
}

// Set assigns value at a dotted path of nested maps, creating the maps on the way.
func Set(cfg map[string]any, path string, value any) {
	keys := strings.Split(path, ".")
	m := cfg
	for _, k := range keys[:len(keys)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[keys[len(keys)-1]] = value
}

// FileSink is the template of a collector that writes every span it receives to its Output: the backend
// behind a collector under test, whose file a test reads.
const FileSink = `
exporters:
  file: {path: "{{.Output}}", flush_interval: 100ms}
service:
  pipelines:
    traces: {receivers: [otlp], exporters: [file]}
`
