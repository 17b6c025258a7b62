// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/sharedcomponent"
	"github.com/agentotel/agentotel/internal/sharedcomponent/sharedcomponenttest"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/metadata"
)

// TestFailedProcessorReleasesTheMemory: when the collector's helper cannot make the processor after
// the factory acquired its memory, the memory is given back, so a later processor of the same
// configuration gets a fresh one and the last to shut down can close it.
func TestFailedProcessorReleasesTheMemory(t *testing.T) {
	f := &factory{memories: sharedcomponent.NewMap[*Config, *memory]()}
	sharedcomponenttest.FailToMake(t, metadata.Type, createDefaultConfig(), f.createTraces, f.createLogs)
	require.Zero(t, f.memories.Len(), "a processor that was never made still holds the memory")
}
