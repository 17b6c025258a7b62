// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package confighint

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

type embedded struct {
	Timeout time.Duration `mapstructure:"timeout"`
}

type pointedTo struct {
	Retries int `mapstructure:"retries"`
}

type tagged struct {
	Name     string         `mapstructure:"name"`
	Untagged int            // the decoder matches the Go name, case-sensitively
	Embedded embedded       `mapstructure:",squash"`
	Pointer  *pointedTo     `mapstructure:",squash"`
	Skipped  string         `mapstructure:"-"`
	Rest     map[string]any `mapstructure:",remain"`
	hidden   int
}

func TestFieldsOfReadsTagsAsTheDecoderDoes(t *testing.T) {
	_ = tagged{}.hidden
	assert.Equal(t, []string{"name", "Untagged", "timeout", "retries"}, keysOf(fieldsOf(reflect.TypeFor[tagged]())))
}

func TestNearestFindsLikelyTypos(t *testing.T) {
	valid := []string{"no_progress_limit", "loop_window", "max_wait", "min_interval", "kind", "max_runs", "max_fingerprints_per_trace"}
	for typed, want := range map[string]string{
		"no_progres_limit":           "no_progress_limit", // a letter missing
		"no_progerss_limit":          "no_progress_limit", // two letters swapped
		"maxWait":                    "max_wait",          // case and separators do not count
		"max-wait":                   "max_wait",
		"knd":                        "kind",
		"fingerprints_per_trace":     "max_fingerprints_per_trace", // a third of the letters apart
		"max_run":                    "max_runs",
		"loop_windows":               "loop_window",
		"max_fingerprint_per_traces": "max_fingerprints_per_trace",
		"loop_win":                   "loop_window", // the start of a key
		"max_fing":                   "max_fingerprints_per_trace",
		"min_int":                    "min_interval",
	} {
		got, ok := nearest(typed, valid)
		assert.True(t, ok, typed)
		assert.Equal(t, want, got, typed)
	}
	for _, typed := range []string{"id", "frobnicate", "waiting", "limit", "budget", "max", "ma_x", "interval"} {
		got, ok := nearest(typed, valid)
		assert.False(t, ok, "%s should have no likely match, got %s", typed, got)
	}
}

func TestNearestPrefersTheKeyDeclaredFirstOnATie(t *testing.T) {
	got, _ := nearest("max_wai", []string{"max_wait", "max_wan"})
	assert.Equal(t, "max_wait", got)
	got, _ = nearest("max_wai", []string{"max_wan", "max_wait"})
	assert.Equal(t, "max_wan", got)
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"kind", "kind", 0},
		{"kind", "knd", 1}, {"kind", "kidn", 1}, {"kind", "kinds", 1}, {"kind", "mind", 1},
		{"ca", "abc", 3}, // optimal string alignment: a swapped pair is not edited again
		{"intervl", "interval", 1}, {"wait", "value", 4}, {"größe", "grösse", 2},
	} {
		assert.Equal(t, c.want, editDistance(c.a, c.b), "%q %q", c.a, c.b)
		assert.Equal(t, c.want, editDistance(c.b, c.a), "%q %q", c.b, c.a)
	}
}

type place struct {
	Tools       map[string]placeTool `mapstructure:"tools"`
	Conventions []placeConvention    `mapstructure:"conventions"`
	MaxWait     time.Duration        `mapstructure:"max_wait"`
}

type placeTool struct {
	MaxWait time.Duration `mapstructure:"max_wait"`
}

type placeConvention struct {
	Match struct {
		Attribute string `mapstructure:"attribute"`
	} `mapstructure:"match"`
	Nested []placeConvention `mapstructure:"nested"`
}

func TestPlacesOfFindsAKeyAtEveryLevel(t *testing.T) {
	root := reflect.TypeFor[place]()
	assert.Equal(t, []string{"tools::<name>::max_wait", "max_wait"}, placesOf(root, "maxWait"))
	assert.Equal(t, []string{"conventions[n]::match::attribute"}, placesOf(root, "attribute"),
		"a struct that contains itself is looked into once")
	assert.Empty(t, placesOf(root, "kind"))
}
