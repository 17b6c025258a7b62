// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"

	"github.com/agentotel/agentotel/internal/confighint/confighinttest"
)

func loadConfig(t *testing.T, name string) *Config {
	t.Helper()
	return confighinttest.Load[*Config](t, NewFactory(), name)
}

func TestDefaultConfigIsTheSeed(t *testing.T) {
	cfg := loadConfig(t, "")
	require.NoError(t, confmap.Validate(cfg))
	assert.Equal(t, "tool.data_class", cfg.DataClassAttribute)
	assert.Equal(t, []string{"customer"}, cfg.ShapedClasses)
	assert.Equal(t, []string{"query", "question", "status", "source", "kind", "title", "description", "error"}, cfg.KeptKeys)
	assert.False(t, cfg.TaintOutputs)
	// Structural keys are added to the built-in ones, never replace them: none by default.
	assert.Empty(t, cfg.StructuralKeys)
}

func TestCustomConfig(t *testing.T) {
	cfg := loadConfig(t, "custom")
	require.NoError(t, confmap.Validate(cfg))
	assert.Equal(t, "app.data_class", cfg.DataClassAttribute)
	assert.Equal(t, map[string]string{"find_customer": "customer", "charge_card": "payment", "get_weather": "public"}, cfg.Tools)
	assert.Equal(t, []string{"public"}, cfg.UnshapedClasses)
	assert.Equal(t, []string{"status", "error"}, cfg.KeptKeys)
	assert.Equal(t, []string{"session.id"}, cfg.RunAttributes)
	require.Len(t, cfg.Conventions, 1)
	assert.Equal(t, "mysdk", cfg.Conventions[0].Name)
	assert.Equal(t, "mysdk.kind", cfg.Conventions[0].Match.Attribute)
	assert.Equal(t, []string{"mysdk.prompt"}, cfg.Conventions[0].Transcripts)
	assert.True(t, cfg.TaintOutputs)
	assert.Equal(t, 32, cfg.MaxDepth)
	assert.Equal(t, 5000, cfg.MaxTraces)
	assert.Equal(t, 10*time.Minute, cfg.MemoryTTL)
	assert.Equal(t, 100000, cfg.MaxFingerprints)
	assert.Equal(t, 1000, cfg.MaxFingerprintsPerTrace)
	assert.Equal(t, 20000, cfg.MaxForgotten)
	assert.Equal(t, component.MustNewIDWithName("file_storage", "shapeonly"), *cfg.Storage)
	assert.Equal(t, 30*time.Second, cfg.CheckpointInterval)
}

// TestClassNotShapedNorUnshapedIsAnError: a class in tools that neither list names is most likely a
// typo, which would silently leave the tool's data unshaped. Classes compare case-insensitively.
func TestClassNotShapedNorUnshapedIsAnError(t *testing.T) {
	err := confmap.Validate(loadConfig(t, "unknown_class"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `tools::find_customer: data class "customers" is in neither shaped_classes [customer] nor unshaped_classes []`)
	assert.Contains(t, err.Error(), `tools::get_weather: data class "public"`)
	assert.NotContains(t, err.Error(), "lookup_order", "Customer is customer")
}

func TestInvalidConfigNamesEveryField(t *testing.T) {
	err := confmap.Validate(loadConfig(t, "invalid"))
	require.Error(t, err)
	for _, field := range []string{"data_class_attribute", "shaped_classes", "max_depth", "max_traces", "memory_ttl", "max_fingerprints", "max_forgotten", "checkpoint_interval"} {
		assert.Contains(t, err.Error(), field)
	}
}
