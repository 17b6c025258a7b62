// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/confighint/confighinttest"
)

func loadConfig(t *testing.T, name string) *Config {
	t.Helper()
	return confighinttest.Load[*Config](t, NewFactory(), name)
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

// storage: names the extension as an exporter's sending_queue::storage does; without it nothing is
// kept across restarts.
func TestStorageConfig(t *testing.T) {
	cfg := loadConfig(t, "storage")
	require.NoError(t, confmap.Validate(cfg))
	assert.Equal(t, component.MustNewIDWithName("file_storage", "agentguard"), *cfg.Storage)
	assert.Equal(t, 30*time.Second, cfg.CheckpointInterval)
	assert.Nil(t, loadConfig(t, "").Storage, "off by default")
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
		"checkpoint_interval: 0s: must be a positive duration when storage is set, e.g. 1m",
	} {
		assert.Contains(t, err.Error(), want)
	}
}

// TestValidateOrdersErrorsByPath: the errors of a configuration with many invalid entries, several of
// them in the tools map, come out sorted by field path, the same on every call (run with -count=20).
func TestValidateOrdersErrorsByPath(t *testing.T) {
	invalid := func() *Config {
		cfg := createDefaultConfig()
		cfg.NoProgressLimit, cfg.MaxRuns, cfg.LoopWindow = 0, 0, 1
		cfg.RunBudget = 10 * time.Minute
		cfg.Conventions = []agentspan.Declared{{Name: "mysdk", ToolName: "mysdk.tool"}}
		cfg.Tools = map[string]ToolConfig{
			"poll_forever":     {Kind: "wait", ProgressField: "status", WaitingValues: []string{"queued"}, TerminalValues: []string{"done"}},
			"edit_file":        {Kind: "writes"},
			"search":           {StateField: "sha"},
			"get_build_status": {Kind: "wait", ProgressField: "status", WaitingValues: []string{"queued"}, MaxWait: 20 * time.Minute},
			"Search":           {},
			"wait_for_it":      {Kind: "wait"},
		}
		return cfg
	}
	want := []string{
		"conventions[0]::match: set attribute (and optionally value) or scope, e.g. {attribute: mysdk.kind, value: tool}",
		"loop_window: 1: must be between 2 and 64",
		"max_runs: 0: must be between 1 and 10000000",
		"no_progress_limit: 0: must be between 1 and 1000",
		`tools::edit_file::kind: "writes": must be read, write or wait`,
		"tools::get_build_status::max_wait: 20m0s does not fit inside run_budget 10m0s",
		"tools::get_build_status::terminal_values: a wait tool must list the states that end the wait",
		"tools::poll_forever::max_wait: 0s: a wait tool needs a positive deadline, e.g. 20m",
		"tools::search: names the same tool as tools::Search (names compare case-insensitively)",
		"tools::search::state_field: only a write tool has a state_field",
		"tools::wait_for_it::max_wait: 0s: a wait tool needs a positive deadline, e.g. 20m",
		"tools::wait_for_it::progress_field: a wait tool must name the result field holding its state",
		"tools::wait_for_it::terminal_values: a wait tool must list the states that end the wait",
		"tools::wait_for_it::waiting_values: a wait tool must list the states that may repeat",
	}
	for range 20 {
		err := invalid().Validate()
		require.Error(t, err)
		require.Equal(t, want, strings.Split(err.Error(), "\n"))
	}
}
