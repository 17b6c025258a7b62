// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentotel/agentotel/internal/confighint/confighinttest"
)

func TestUnmarshalDecodesAsBefore(t *testing.T) {
	// plainConfig is Config without Unmarshal: what the collector decoded into before it.
	type plainConfig Config
	confighinttest.DecodesAsBefore(t, NewFactory(), filepath.Join("testdata", "config.yaml"), 4,
		func() *plainConfig { return (*plainConfig)(createDefaultConfig()) },
		func(c *plainConfig) any { return (*Config)(c) })
}

func TestUnknownKeysGetTheNearestKeyOrTheValidOnes(t *testing.T) {
	const validKeys = "data_class_attribute, shaped_classes, unshaped_classes, tools, kept_keys, structural_keys, " +
		"run_attributes, conventions, taint_outputs, max_value_bytes, max_depth, max_traces, memory_ttl, " +
		"max_fingerprints, max_fingerprints_per_trace, max_forgotten, storage, checkpoint_interval"
	assert.Equal(t, []string{
		"data_class_attr: unknown key; did you mean data_class_attribute?",
		"max_fingerprint_per_trace: unknown key; did you mean max_fingerprints_per_trace?",
		"max_wait: unknown key; valid keys here: " + validKeys,
		"tool_name: unknown key here; did you mean conventions[n]::tool_name? Valid keys here: " + validKeys,
		"conventions[0]::trascripts: unknown key; did you mean transcripts?",
	}, confighinttest.Mistakes(t, NewFactory(), "unknown_keys"))
}

func TestDurationsGetAnExample(t *testing.T) {
	assert.Equal(t, []string{
		`memory_ttl: got "1d" (unknown unit "d"), expected a duration, a number with one of the units h, m, s, ms, us, ns ` +
			"(e.g. 20m, 1h30m or 500ms)",
	}, confighinttest.Mistakes(t, NewFactory(), "durations"))
}

func TestWrongTypesGetTheExpectedTypeAndAnExample(t *testing.T) {
	assert.Equal(t, []string{
		`shaped_classes: got a map, expected a list of strings (e.g. ["value"])`,
		`tools: got a list, expected a map from names to strings (e.g. {name: "value"})`,
		`conventions[0]::match: got "mysdk.kind", expected a map with the keys attribute, value, scope (e.g. {attribute: "value"})`,
		`taint_outputs: got "yes", expected true or false (e.g. true)`,
		`max_value_bytes: got "4MiB", expected a whole number (e.g. 10)`,
		`max_depth: got "deep", expected a whole number (e.g. 10)`,
	}, confighinttest.Mistakes(t, NewFactory(), "wrong_types"))
}
