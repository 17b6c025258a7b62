// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/processor/processortest"

	"github.com/agentotel/agentotel/internal/sharedcomponent/sharedcomponenttest"
	"github.com/agentotel/agentotel/processor/agentguard/internal/metadata"
)

// TestFailedProcessorReleasesTheGuard: when the collector's helper cannot make the processor after the
// factory acquired its guard, the guard is given back (and shut down, its idle timer with it).
func TestFailedProcessorReleasesTheGuard(t *testing.T) {
	f := newFactory()
	cfg := createDefaultConfig()
	set := processortest.NewNopSettings(metadata.Type)
	set.TelemetrySettings = sharedcomponenttest.FailHelper(set.TelemetrySettings)
	_, err := f.createTraces(context.Background(), set, cfg, consumertest.NewNop())
	require.Error(t, err)
	_, err = f.createLogs(context.Background(), set, cfg, consumertest.NewNop())
	require.Error(t, err)
	require.Zero(t, f.guards.Len(), "a processor that was never made still holds the guard")
}
