// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package docscheck_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/repo"
)

// maxReadme is the most README.md may hold: a front page (what the processors do, the two commands, a
// config, the pipeline order, where to read next), whose details live in the component READMEs, docs/
// and CONTRIBUTING.md.
const maxReadme = 12 * 1024

// TestReadmeIsAFrontPage: README.md stays within maxReadme bytes, so what grows goes where it belongs.
func TestReadmeIsAFrontPage(t *testing.T) {
	info, err := os.Stat(filepath.Join(repo.Root(t), "README.md"))
	require.NoError(t, err)
	require.LessOrEqual(t, info.Size(), int64(maxReadme),
		"README.md is %d bytes, more than %d: move the detail to processor/*/README.md, docs/ or CONTRIBUTING.md and link it",
		info.Size(), maxReadme)
}
