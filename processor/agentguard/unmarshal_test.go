// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

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
	assert.Equal(t, []string{
		"max_wait: unknown key here; did you mean tools::<name>::max_wait? Valid keys here: no_progress_limit, loop_window, " +
			"volatile_fields, run_attributes, plan_attribute, goal_attribute, goal_target, tools, run_budget, undeclared_max_wait, max_runs, " +
			"run_idle_timeout, max_agent_names, max_tool_names, conventions, storage, checkpoint_interval",
		"no_progres_limit: unknown key; did you mean no_progress_limit?",
		"tools::edit_file::retries: unknown key; valid keys here: kind, state_field, progress_field, waiting_values, " +
			"terminal_values, max_wait, min_interval",
		"tools::get_build_status::min_intervl: unknown key; did you mean min_interval?",
		"conventions[0]::match::atribute: unknown key; did you mean attribute?",
	}, confighinttest.Mistakes(t, NewFactory(), "unknown_keys"))
}

func TestDurationsGetAnExample(t *testing.T) {
	const expected = "expected a duration, a number with one of the units h, m, s, ms, us, ns (e.g. 20m, 1h30m or 500ms)"
	assert.Equal(t, []string{
		`tools::get_build_status::max_wait: got "20mins" (unknown unit "mins"), ` + expected,
		`tools::get_build_status::min_interval: got "5sec" (unknown unit "sec"), ` + expected,
		`run_budget: got "1 hour" (unknown unit " hour"), ` + expected,
		`run_idle_timeout: got "10" (missing unit), ` + expected,
	}, confighinttest.Mistakes(t, NewFactory(), "durations"))
}

// TestBareNumberDurationsAreRefused: max_wait: 20 would be 20 nanoseconds, a wait over before its
// first poll; the collector does not start, and says which field needs a unit.
func TestBareNumberDurationsAreRefused(t *testing.T) {
	const expected = "expected a duration with its unit (e.g. 20m, 1h30m or 500ms): a bare number is read as nanoseconds"
	assert.Equal(t, []string{
		`tools::get_build_status::max_wait: got the number 20, ` + expected,
		`run_idle_timeout: got the number 600, ` + expected,
	}, confighinttest.Mistakes(t, NewFactory(), "bare_durations"))
}

func TestWrongTypesGetTheExpectedTypeAndAnExample(t *testing.T) {
	assert.Equal(t, []string{
		`no_progress_limit: got "four", expected a whole number (e.g. 10)`,
		`volatile_fields: got a map, expected a list of strings (e.g. ["value"])`,
		`run_attributes[1]: got a list, expected a string (e.g. "value")`,
		`goal_target: got "high", expected a number (e.g. 0.5)`,
		`tools: got a list, expected a map from names to maps with the keys kind, state_field, progress_field, ` +
			`waiting_values, terminal_values, max_wait, min_interval (e.g. {name: {kind: "value"}})`,
		`conventions: got a map, expected a list of maps with the keys name, match, tool_name, call_id, arguments, ` +
			`result, transcripts, run_id, agent_name, finish_reason, input_tokens, output_tokens, cached_input_tokens, tool_events, reply_events (e.g. [{name: "value"}])`,
	}, confighinttest.Mistakes(t, NewFactory(), "wrong_types"))
}
