// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/agentotel/agentotel/internal/repo"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// TestShippedConfigsValidate runs `otelcol-agent validate` on every collector config the repository
// ships: the default one make run starts, the recipes, the scale-out tiers and the configs inside the
// Kubernetes ConfigMaps, with the environment they document. A config that no longer matches the
// processors' settings fails here, not at a user's start-up.
func TestShippedConfigsValidate(t *testing.T) {
	root := filepath.Join(repo.Root(t), "deploy")
	env := []string{
		"TIER2_HOSTS=[tier2-0:4317,tier2-1:4317]", "RUN_ATTRIBUTES=[session.id]",
		"TLS_CERT_FILE=/tls/tls.crt", "TLS_KEY_FILE=/tls/tls.key", "BACKEND_ENDPOINT=backend:4317",
	}
	validate := func(t *testing.T, paths ...string) {
		args := []string{"validate"}
		for _, path := range paths {
			args = append(args, "--config", path)
		}
		cmd := exec.Command(collectortest.Binary(t), args...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		assert.NoError(t, err, "%s: %s", paths, out)
	}
	recipes, err := filepath.Glob(filepath.Join(root, "recipes", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, recipes)
	defaults := filepath.Join(root, "otelcol-agent.yaml")
	for _, path := range []string{
		defaults,
		filepath.Join(root, "scale", "tier1.yaml"),
		filepath.Join(root, "scale", "tier1-attributes.yaml"),
		filepath.Join(root, "scale", "tier2.yaml"),
	} {
		rel, _ := filepath.Rel(root, path)
		t.Run(rel, func(t *testing.T) { validate(t, path) })
	}
	// A recipe is a fragment to merge into a running config: it is validated merged over the default one,
	// as is the capture config make run adds.
	for _, path := range append(recipes, filepath.Join(root, "..", "scripts", "demo-capture.yaml")) {
		rel, _ := filepath.Rel(root, path)
		t.Run(rel, func(t *testing.T) { validate(t, defaults, path) })
	}
	for _, name := range []string{"tier1.yaml", "tier2.yaml"} {
		t.Run("scale/k8s/"+name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(root, "scale", "k8s", name))
			require.NoError(t, err)
			found := 0
			dec := yaml.NewDecoder(strings.NewReader(string(raw)))
			for {
				var doc struct {
					Kind string            `yaml:"kind"`
					Data map[string]string `yaml:"data"`
				}
				if dec.Decode(&doc) != nil {
					break
				}
				if doc.Kind != "ConfigMap" {
					continue
				}
				path := filepath.Join(t.TempDir(), "config.yaml")
				require.NoError(t, os.WriteFile(path, []byte(doc.Data["config.yaml"]), 0o600))
				validate(t, path)
				found++
			}
			assert.Equal(t, 1, found, "one collector config per manifest")
		})
	}
	// Without the required settings the shipped tier-2 config refuses to start rather than run open.
	cmd := exec.Command(collectortest.Binary(t), "validate", "--config", filepath.Join(root, "scale", "tier2.yaml"))
	cmd.Env = append(os.Environ(), "BACKEND_ENDPOINT=backend:4317")
	out, err := cmd.CombinedOutput()
	assert.Error(t, err)
	assert.Contains(t, string(out), "TLS configuration must include both certificate and key")
}
