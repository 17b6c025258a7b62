// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package sharedcomponent

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSharedUntilTheLastUserReleases(t *testing.T) {
	type config struct{ name string }
	m := NewMap[*config, *int]()
	id := &config{"agentguard"}
	made := 0
	create := func() (*int, error) { made++; v := made; return &v, nil }

	traces, err := m.Acquire(id, create)
	require.NoError(t, err)
	logs, err := m.Acquire(id, create)
	require.NoError(t, err)
	other, err := m.Acquire(&config{"agentguard"}, create)
	require.NoError(t, err)

	assert.Same(t, traces, logs, "the pipelines of one component share its state")
	assert.NotSame(t, traces, other, "another configuration has its own, even under the same name")
	assert.False(t, m.Release(id), "the logs pipeline still uses it")
	assert.True(t, m.Release(id), "the last user closes it")
	assert.False(t, m.Release(id), "a release past the last is a no-op")

	again, err := m.Acquire(id, create)
	require.NoError(t, err)
	assert.NotSame(t, traces, again, "a component created after the last release starts afresh")
}

func TestCreateErrorHoldsNothing(t *testing.T) {
	m := NewMap[string, int]()
	id := "agentguard"
	_, err := m.Acquire(id, func() (int, error) { return 0, errors.New("bad config") })
	require.Error(t, err)
	v, err := m.Acquire(id, func() (int, error) { return 7, nil })
	require.NoError(t, err)
	assert.Equal(t, 7, v, "a failed creation left nothing behind")
}

// TestMadeReleasesOnlyOnError: a component made is returned as it is; one that could not be made is
// not, and its release runs, its error joined to the one that stopped it.
func TestMadeReleasesOnlyOnError(t *testing.T) {
	released := 0
	release := func(context.Context) error { released++; return errors.New("release") }
	v, err := Made(7, nil, release)
	require.NoError(t, err)
	assert.Equal(t, 7, v)
	assert.Zero(t, released)
	_, err = Made(7, errors.New("made"), release)
	assert.ErrorContains(t, err, "made")
	assert.ErrorContains(t, err, "release")
	assert.Equal(t, 1, released)
}
