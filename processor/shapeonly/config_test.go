package shapeonly

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/confmaptest"

	"github.com/agentotel/agentotel/processor/shapeonly/internal/metadata"
)

func loadConfig(t *testing.T, name string) *Config {
	t.Helper()
	cm, err := confmaptest.LoadConf(filepath.Join("testdata", "config.yaml"))
	require.NoError(t, err)
	sub, err := cm.Sub(component.NewIDWithName(metadata.Type, name).String())
	require.NoError(t, err)
	cfg := NewFactory().CreateDefaultConfig()
	require.NoError(t, sub.Unmarshal(cfg))
	return cfg.(*Config)
}

func TestDefaultConfigIsTheSeed(t *testing.T) {
	cfg := loadConfig(t, "")
	require.NoError(t, confmap.Validate(cfg))
	assert.Equal(t, "tool.data_class", cfg.DataClassAttribute)
	assert.Equal(t, []string{"customer"}, cfg.ShapedClasses)
	assert.Equal(t, []string{"query", "question", "status", "source", "kind", "title", "description", "error"}, cfg.KeptKeys)
	assert.False(t, cfg.TaintOutputs)
	assert.Contains(t, cfg.StructuralKeys, "gen_ai.tool.call.id")
}

func TestCustomConfig(t *testing.T) {
	cfg := loadConfig(t, "custom")
	require.NoError(t, confmap.Validate(cfg))
	assert.Equal(t, "app.data_class", cfg.DataClassAttribute)
	assert.Equal(t, map[string]string{"find_customer": "customer", "charge_card": "payment"}, cfg.Tools)
	assert.Equal(t, []string{"status", "error"}, cfg.KeptKeys)
	assert.True(t, cfg.TaintOutputs)
	assert.Equal(t, 32, cfg.MaxDepth)
	assert.Equal(t, 5000, cfg.MaxTrackedCalls)
	assert.Equal(t, 10*time.Minute, cfg.TrackedCallTTL)
}

func TestInvalidConfigNamesEveryField(t *testing.T) {
	err := confmap.Validate(loadConfig(t, "invalid"))
	require.Error(t, err)
	for _, field := range []string{"data_class_attribute", "shaped_classes", "max_depth", "max_tracked_calls", "tracked_call_ttl"} {
		assert.Contains(t, err.Error(), field)
	}
}
