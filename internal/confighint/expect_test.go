// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package confighint

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/confmap"
	"go.yaml.in/yaml/v3"
)

type shapes struct {
	Count    int               `mapstructure:"count"`
	Ratio    float64           `mapstructure:"ratio"`
	On       bool              `mapstructure:"on"`
	Name     string            `mapstructure:"name"`
	Wait     time.Duration     `mapstructure:"wait"`
	Waits    []time.Duration   `mapstructure:"waits"`
	Names    []string          `mapstructure:"names"`
	Classes  map[string]string `mapstructure:"classes"`
	Items    []shapeItem       `mapstructure:"items"`
	ByName   map[string]shapeItem
	Pointer  *shapeItem `mapstructure:"pointer"`
	Tree     shapeTree  `mapstructure:"tree"`
	Empty    struct{}   `mapstructure:"empty"`
	Unsigned uint8      `mapstructure:"unsigned"`
}

type shapeItem struct {
	Kind    string        `mapstructure:"kind"`
	MaxWait time.Duration `mapstructure:"max_wait"`
}

type shapeTree struct {
	Children []shapeTree `mapstructure:"children"`
}

// decodeYAML decodes the YAML text into a value of type t as the collector decodes a config.
func decodeYAML(t *testing.T, text string, typ reflect.Type) error {
	t.Helper()
	var parsed map[string]any
	require.NoError(t, yaml.Unmarshal([]byte("value: "+text), &parsed), text)
	holder := reflect.New(reflect.StructOf([]reflect.StructField{{Name: "Value", Type: typ, Tag: `mapstructure:"value"`}}))
	return confmap.NewFromStringMap(parsed).Unmarshal(holder.Interface())
}

func TestEveryExampleDecodesIntoItsType(t *testing.T) {
	for f := range reflect.TypeFor[shapes]().Fields() {
		example := shapeOf(f.Type).example
		assert.NotEmpty(t, example, f.Name)
		assert.NoError(t, decodeYAML(t, example, f.Type), "%s: %s", f.Name, example)
	}
	for example := range strings.SplitSeq(strings.ReplaceAll(durationExamples, " or ", ", "), ", ") {
		assert.NoError(t, decodeYAML(t, example, durationType), example)
	}
}

func TestShapesSayWhatIsExpected(t *testing.T) {
	for typ, want := range map[reflect.Type]shape{
		reflect.TypeFor[int]():               {"a whole number", "whole numbers", "10"},
		reflect.TypeFor[uint8]():             {"a whole number", "whole numbers", "10"},
		reflect.TypeFor[float64]():           {"a number", "numbers", "0.5"},
		reflect.TypeFor[bool]():              {"true or false", "true or false values", "true"},
		reflect.TypeFor[string]():            {"a string", "strings", `"value"`},
		reflect.TypeFor[[]string]():          {"a list of strings", "lists of strings", `["value"]`},
		reflect.TypeFor[map[string]string](): {"a map from names to strings", "maps from names to strings", `{name: "value"}`},
		reflect.TypeFor[*shapeItem]():        {"a map with the keys kind, max_wait", "maps with the keys kind, max_wait", `{kind: "value"}`},
		reflect.TypeFor[[]shapeItem](): {"a list of maps with the keys kind, max_wait", "lists of maps with the keys kind, max_wait",
			`[{kind: "value"}]`},
		reflect.TypeFor[shapeTree](): {"a map with the keys children", "maps with the keys children", "{children: [{}]}"},
		reflect.TypeFor[struct{}]():  {"a map", "maps", "{}"},
		durationType: {"a duration, a number with one of the units h, m, s, ms, us, ns",
			"durations, each a number with one of the units h, m, s, ms, us, ns", "20m"},
		reflect.TypeFor[[2]int](): {"a value of type [2]int", "values of type [2]int", ""},
	} {
		assert.Equal(t, want, shapeOf(typ), typ.String())
	}
}

func TestDescribedNamesTheValueAsWritten(t *testing.T) {
	for raw, want := range map[any]string{
		nil: "nothing", "deep": `"deep"`, true: "true", 3: "the number 3", 2.5: "the number 2.5",
		uint64(7): "the number 7", struct{}{}: "{}",
	} {
		assert.Equal(t, want, described(raw))
	}
	assert.Equal(t, "a list", described([]any{"a"}))
	assert.Equal(t, "a map", described(map[string]any{"a": 1}))
}

func TestWrongValueSaysWhatWasWrittenAndWhatIsExpected(t *testing.T) {
	for _, c := range []struct {
		raw  any
		typ  reflect.Type
		want string
	}{
		{"deep", reflect.TypeFor[int](), `max_depth: got "deep", expected a whole number (e.g. 10)`},
		{[]any{"a"}, reflect.TypeFor[map[string]string](), `max_depth: got a list, expected a map from names to strings (e.g. {name: "value"})`},
		{"20mins", durationType, `max_depth: got "20mins" (unknown unit "mins"), expected a duration, a number with one of the units h, m, s, ms, us, ns (e.g. 20m, 1h30m or 500ms)`},
		{"20", durationType, `max_depth: got "20" (missing unit), expected a duration, a number with one of the units h, m, s, ms, us, ns (e.g. 20m, 1h30m or 500ms)`},
		{"soon", durationType, `max_depth: got "soon", expected a duration, a number with one of the units h, m, s, ms, us, ns (e.g. 20m, 1h30m or 500ms)`},
		{[]any{"1m"}, durationType, `max_depth: got a list, expected a duration, a number with one of the units h, m, s, ms, us, ns (e.g. 20m, 1h30m or 500ms)`},
		{"x", reflect.TypeFor[[2]int](), `max_depth: got "x", expected a value of type [2]int`},
	} {
		assert.Equal(t, c.want, wrongValue("max_depth", c.raw, c.typ).Error())
	}
}

func TestDurationMistakeKeepsOnlyWhatTheTextDoesNotShow(t *testing.T) {
	assert.Equal(t, `unknown unit "mins"`, durationMistake("20mins"))
	assert.Equal(t, "missing unit", durationMistake("20"))
	assert.Empty(t, durationMistake("soon"), "an invalid duration says no more than the text")
	assert.Empty(t, durationMistake("1h30m"))
}
