// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"

	"github.com/agentotel/agentotel/internal/confighint/confighinttest"
	"github.com/agentotel/agentotel/processor/agentguard/internal/metadata"
)

func loadConfig(t *testing.T, name string) *Config {
	t.Helper()
	cfg, err := confighinttest.Decode(t, NewFactory(), filepath.Join("testdata", "config.yaml"),
		component.NewIDWithName(metadata.Type, name).String())
	require.NoError(t, err)
	return cfg.(*Config)
}

func TestDefaultConfig(t *testing.T) {
	cfg := loadConfig(t, "")
	require.NoError(t, confmap.Validate(cfg))
	assert.Equal(t, 4, cfg.NoProgressLimit)
	assert.Contains(t, cfg.VolatileFields, "served_at")
	assert.Empty(t, cfg.RunAttributes, "a run is a trace by default")
}

func TestSeedManifest(t *testing.T) {
	cfg := loadConfig(t, "seed")
	require.NoError(t, confmap.Validate(cfg))
	poll := cfg.Tools["get_build_status"]
	assert.Equal(t, "wait", poll.Kind)
	assert.Equal(t, []string{"queued", "running"}, poll.WaitingValues)
	assert.Equal(t, 20*time.Minute, poll.MaxWait)
	assert.Equal(t, 5*time.Second, poll.MinInterval)
	assert.Equal(t, "sha", cfg.Tools["edit_file"].StateField)
}

func TestInvalidConfigNamesEveryField(t *testing.T) {
	err := confmap.Validate(loadConfig(t, "invalid"))
	require.Error(t, err)
	for _, want := range []string{
		"no_progress_limit", "max_runs",
		"tools::get_build_status::terminal_values",
		"tools::get_build_status::max_wait: 20m0s does not fit inside run_budget 10m0s",
		"tools::poll_forever::max_wait",
		`tools::edit_file::kind: "writes": must be read, write or wait`,
		"tools::search::state_field",
	} {
		assert.Contains(t, err.Error(), want)
	}
}
