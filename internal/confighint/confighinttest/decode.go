// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package confighinttest decodes a component's config files as the collector does, for the tests of
// the components whose config errors confighint words.
package confighinttest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap/confmaptest"
)

// Decode decodes the settings at key of a config file as the collector does: onto the factory's
// default config, held as a component.Config. A file that cannot be loaded, or has no key, fails t.
func Decode(t testing.TB, factory component.Factory, file, key string) (component.Config, error) {
	t.Helper()
	cm, err := confmaptest.LoadConf(file)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := cm.Sub(key)
	if err != nil {
		t.Fatal(err)
	}
	cfg := factory.CreateDefaultConfig()
	return cfg, sub.Unmarshal(&cfg)
}

// Load decodes the settings of factory's component named name ("" for the unnamed one) from
// testdata/config.yaml, where a component's tests keep its example configuration, as the collector
// does, and fails t when they do not decode.
func Load[C component.Config](t testing.TB, factory component.Factory, name string) C {
	t.Helper()
	cfg, err := Decode(t, factory, filepath.Join("testdata", "config.yaml"), component.NewIDWithName(factory.Type(), name).String())
	require.NoError(t, err)
	return cfg.(C)
}

// Mistakes decodes testdata/mistakes/<name>.yaml, a config the collector must refuse, at the key of
// factory's processor (processors::<type>), and returns the lines its error reports, without the
// decoder's heading and the empty name it gives the config's top level.
func Mistakes(t testing.TB, factory component.Factory, name string) []string {
	t.Helper()
	file := filepath.Join("testdata", "mistakes", name+".yaml")
	_, err := Decode(t, factory, file, "processors::"+factory.Type().String())
	if err == nil {
		t.Fatalf("%s: decoded without an error", file)
	}
	const heading = "decoding failed due to the following error(s):\n\n'' "
	if !strings.HasPrefix(err.Error(), heading) {
		t.Fatalf("%s: the error does not begin with the decoder's heading: %v", file, err)
	}
	return strings.Split(strings.TrimPrefix(err.Error(), heading), "\n")
}

// DecodesAsBefore requires that every config of a file decodes through a config's Unmarshal (with
// confighint's hints) to what the collector's plain decoding gives. Plain is the config type without
// its Unmarshal (`type plainConfig Config`); defaults gives the factory's default config as one, and
// asConfig turns one back into the config type for comparison. The file must hold ids configs, so the
// test cannot pass by reading none.
func DecodesAsBefore[Plain any](t *testing.T, factory component.Factory, file string, ids int, defaults func() *Plain, asConfig func(*Plain) any) {
	t.Helper()
	cm, err := confmaptest.LoadConf(file)
	require.NoError(t, err)
	configs := cm.ToStringMap()
	require.Len(t, configs, ids)
	for id := range configs {
		got, err := Decode(t, factory, file, id)
		require.NoError(t, err, id)
		sub, err := cm.Sub(id)
		require.NoError(t, err)
		want := defaults()
		require.NoError(t, sub.Unmarshal(want), id)
		assert.Equal(t, asConfig(want), got, id)
	}
}
