// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package confighint

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/confmap"
)

type testConfig struct {
	Limit       int                   `mapstructure:"limit"`
	Ratio       float64               `mapstructure:"ratio"`
	Budget      time.Duration         `mapstructure:"budget"`
	Fields      []string              `mapstructure:"fields"`
	Classes     map[string]string     `mapstructure:"classes"`
	Tools       map[string]testTool   `mapstructure:"tools"`
	Conventions []testConvention      `mapstructure:"conventions"`
	Optional    *testConventionMatch  `mapstructure:"optional"`
	Shared      testShared            `mapstructure:",squash"`
	Defaults    map[string]testTool   `mapstructure:"defaults"`
	Opaque      map[string]any        `mapstructure:"opaque"`
	Enabled     bool                  `mapstructure:"enabled"`
	Pairs       [2]int                `mapstructure:"pairs"`
	Labels      map[string][]string   `mapstructure:"labels"`
	Nested      map[string]testConfig `mapstructure:"nested"`
	_           struct{}
}

type testShared struct {
	Timeout time.Duration `mapstructure:"timeout"`
}

type testTool struct {
	Kind    string        `mapstructure:"kind"`
	MaxWait time.Duration `mapstructure:"max_wait"`
}

type testConvention struct {
	Name  string              `mapstructure:"name"`
	Match testConventionMatch `mapstructure:"match"`
}

type testConventionMatch struct {
	Attribute string `mapstructure:"attribute"`
	Value     string `mapstructure:"value"`
}

func defaultTestConfig() testConfig {
	return testConfig{
		Limit:    4,
		Fields:   []string{"served_at"},
		Classes:  map[string]string{"find_customer": "customer"},
		Defaults: map[string]testTool{"poll": {Kind: "wait", MaxWait: time.Minute}},
		Shared:   testShared{Timeout: time.Second},
	}
}

// problems decodes raw onto the default config with Unmarshal and returns each line of its error.
func problems(t *testing.T, raw map[string]any) []string {
	t.Helper()
	cfg := defaultTestConfig()
	err := Unmarshal(confmap.NewFromStringMap(raw), &cfg)
	require.Error(t, err)
	return strings.Split(err.Error(), "\n")
}

// TestValidInputDecodesAsConfUnmarshalDoes: what the decoder accepts decodes the same, but for bare
// numbers as durations (TestBareNumberDurationsAreRefused).
func TestValidInputDecodesAsConfUnmarshalDoes(t *testing.T) {
	for _, raw := range []map[string]any{
		{},
		{"limit": 7, "ratio": 1, "budget": "1h30m", "timeout": "5s", "enabled": true},
		{"fields": "a,b", "classes": map[string]any{"charge_card": "payment"}, "pairs": []any{1, 2}},
		{"fields": nil, "classes": nil, "defaults": map[string]any{"edit": map[string]any{"kind": "write"}}},
		{"limit": 2.0, "budget": 0, "tools": map[string]any{"poll": map[string]any{"max_wait": "20m"}, "noop": nil}},
		{"conventions": []any{map[string]any{"name": "mysdk", "match": map[string]any{"attribute": "k"}}}, "optional": map[string]any{"value": "v"}},
		{"opaque": map[string]any{"anything": []any{1, "x"}}, "labels": map[string]any{"a": "x,y"}, "nested": map[string]any{"n": map[string]any{"limit": 1}}},
	} {
		want, got := defaultTestConfig(), defaultTestConfig()
		require.NoError(t, confmap.NewFromStringMap(raw).Unmarshal(&want))
		require.NoError(t, Unmarshal(confmap.NewFromStringMap(raw), &got))
		assert.Equal(t, want, got, "%v", raw)
	}
}

func TestUnknownKeysAtEveryDepth(t *testing.T) {
	assert.Equal(t, []string{
		"Timeout: unknown key; did you mean timeout?",
		"limt: unknown key; did you mean limit?",
		"tools::poll::maxWait: unknown key; did you mean max_wait?",
		"conventions[1]::match::atribute: unknown key; did you mean attribute?",
		"nested::inner::tools::edit::knd: unknown key; did you mean kind?",
	}, problems(t, map[string]any{
		"limt":    5,
		"Timeout": "1s", // keys are case-sensitive: the decoder would not take it
		"tools":   map[string]any{"poll": map[string]any{"maxWait": "20m"}},
		"conventions": []any{
			map[string]any{"name": "ok"},
			map[string]any{"name": "mysdk", "match": map[string]any{"atribute": "k"}},
		},
		"nested": map[string]any{"inner": map[string]any{"tools": map[string]any{"edit": map[string]any{"knd": "write"}}}},
	}))
}

func TestUnknownKeyWithoutACloseMatchListsTheValidKeys(t *testing.T) {
	assert.Equal(t, []string{
		"tools::poll::frobnicate: unknown key; valid keys here: kind, max_wait",
		"conventions[0]::match::scope: unknown key; valid keys here: attribute, value",
	}, problems(t, map[string]any{
		"tools":       map[string]any{"poll": map[string]any{"frobnicate": true}},
		"conventions": []any{map[string]any{"match": map[string]any{"scope": "x"}}},
	}))
}

func TestMisplacedKeyIsPointedToWhereItBelongs(t *testing.T) {
	// nested holds the config's own type, whose places are already listed from the top; the walk
	// does not go below a pointer (optional), as the explanation of its values does not.
	const rootKeys = "limit, ratio, budget, fields, classes, tools, conventions, optional, timeout, defaults, opaque, enabled, pairs, labels, nested"
	assert.Equal(t, []string{
		"kind: unknown key here; did you mean tools::<name>::kind or defaults::<name>::kind? Valid keys here: " + rootKeys,
		"tools::poll::limit: unknown key here; did you mean top-level limit? Valid keys here: kind, max_wait",
		"conventions[0]::attribute: unknown key here; did you mean conventions[n]::match::attribute? Valid keys here: name, match",
	}, problems(t, map[string]any{
		"kind":        "wait",
		"tools":       map[string]any{"poll": map[string]any{"limit": 3}},
		"conventions": []any{map[string]any{"attribute": "k"}},
	}))
}

func TestWrongValuesSayWhatIsExpected(t *testing.T) {
	assert.Equal(t, []string{
		`limit: got "five", expected a whole number (e.g. 10)`,
		`budget: got "20mins" (unknown unit "mins"), expected a duration, a number with one of the units h, m, s, ms, us, ns (e.g. 20m, 1h30m or 500ms)`,
		`fields[1]: got a map, expected a string (e.g. "value")`,
		`classes: got a list, expected a map from names to strings (e.g. {name: "value"})`,
		`tools::poll: got a list, expected a map with the keys kind, max_wait (e.g. {kind: "value"})`,
		`tools::wait::max_wait: got "10" (missing unit), expected a duration, a number with one of the units h, m, s, ms, us, ns (e.g. 20m, 1h30m or 500ms)`,
		`conventions: got a map, expected a list of maps with the keys name, match (e.g. [{name: "value"}])`,
		`timeout: got "soon", expected a duration, a number with one of the units h, m, s, ms, us, ns (e.g. 20m, 1h30m or 500ms)`,
		`enabled: got "yes", expected true or false (e.g. true)`,
		`pairs: got "x", expected a value of type [2]int`,
	}, problems(t, map[string]any{
		"limit":       "five",
		"budget":      "20mins",
		"fields":      []any{"a", map[string]any{"b": 1}},
		"classes":     []any{"find_customer"},
		"tools":       map[string]any{"poll": []any{"wait"}, "wait": map[string]any{"max_wait": "10"}},
		"conventions": map[string]any{"name": "mysdk"},
		"timeout":     "soon",
		"enabled":     "yes",
		"pairs":       "x",
	}))
}

// TestBareNumberDurationsAreRefused: the decoder reads max_wait: 20 as 20 nanoseconds; a writer meant
// seconds or minutes, so it is an error, wherever the duration is. 0 needs no unit and stays valid.
func TestBareNumberDurationsAreRefused(t *testing.T) {
	assert.Equal(t, []string{
		`budget: got the number 20, expected a duration with its unit (e.g. 20m, 1h30m or 500ms): a bare number is read as nanoseconds`,
		`tools::poll::max_wait: got the number 1.5, expected a duration with its unit (e.g. 20m, 1h30m or 500ms): a bare number is read as nanoseconds`,
		`timeout: got the number 30, expected a duration with its unit (e.g. 20m, 1h30m or 500ms): a bare number is read as nanoseconds`,
	}, problems(t, map[string]any{
		"budget":  20,
		"tools":   map[string]any{"poll": map[string]any{"max_wait": 1.5}},
		"timeout": 30,
	}))
	cfg := defaultTestConfig()
	require.NoError(t, Unmarshal(confmap.NewFromStringMap(map[string]any{"budget": 0, "timeout": "30s"}), &cfg))
	assert.Equal(t, 30*time.Second, cfg.Shared.Timeout)
}

func TestWhatCannotBeExplainedKeepsTheDecodersWords(t *testing.T) {
	// Below a pointer the walk does not go, so the decoder's own message stands, with its name for
	// the place; a wrong value for the pointer itself is still explained.
	assert.Equal(t, []string{
		`'optional.value' expected type 'string', got unconvertible type '[]interface {}'`,
	}, problems(t, map[string]any{"optional": map[string]any{"value": []any{"x"}}}))
	assert.Equal(t, []string{
		`optional: got "x", expected a map with the keys attribute, value (e.g. {attribute: "value"})`,
	}, problems(t, map[string]any{"optional": "x"}))
}

func TestAFailureWithoutAPlaceIsReturnedAsItIs(t *testing.T) {
	conf := confmap.NewFromStringMap(map[string]any{"limit": 1})
	want := conf.Unmarshal(testConfig{})
	require.Error(t, want, "the decoder needs a pointer")
	assert.Equal(t, want, Unmarshal(conf, testConfig{}))
}

func TestEveryMistakeIsReportedAtOnce(t *testing.T) {
	lines := problems(t, map[string]any{
		"limt":        5,
		"budget":      "1 hour",
		"tools":       map[string]any{"poll": map[string]any{"kind": []any{"wait"}, "min_interval": "5s"}},
		"conventions": []any{map[string]any{"nam": "x"}},
	})
	assert.Equal(t, []string{
		"limt: unknown key; did you mean limit?",
		`budget: got "1 hour" (unknown unit " hour"), expected a duration, a number with one of the units h, m, s, ms, us, ns (e.g. 20m, 1h30m or 500ms)`,
		"tools::poll::min_interval: unknown key; valid keys here: kind, max_wait",
		`tools::poll::kind: got a list, expected a string (e.g. "value")`,
		"conventions[0]::nam: unknown key; did you mean name?",
	}, lines)
}
