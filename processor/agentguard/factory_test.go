// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/sharedcomponent/sharedcomponenttest"
	"github.com/agentotel/agentotel/processor/agentguard/internal/metadata"
)

// TestFailedProcessorReleasesTheGuard: when the collector's helper cannot make the processor after the
// factory acquired its guard, the guard is given back (and shut down, its idle timer with it).
func TestFailedProcessorReleasesTheGuard(t *testing.T) {
	f := newFactory()
	sharedcomponenttest.FailToMake(t, metadata.Type, createDefaultConfig(), f.createTraces, f.createLogs)
	require.Zero(t, f.guards.Len(), "a processor that was never made still holds the guard")
}
