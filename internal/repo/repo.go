// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package repo finds the repository's root from a test, in either module: the processors' at the
// root, or test/ with the suites and tools.
package repo

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Root is the repository root: the nearest directory above the working directory (a test's package
// directory) holding the distribution's builder config. The repository holds two modules, so the
// nearest go.mod is not always the root.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "builder-config.yaml")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, parent, dir, "no builder-config.yaml above the working directory")
		dir = parent
	}
}
