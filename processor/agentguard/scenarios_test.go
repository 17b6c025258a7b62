// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/agentgen"
)

// TestSeedScenarios runs every agentgen scenario, in every convention, through the processor and
// checks the verdict docs/design.md#6-progress-internalprogress-internaldigest gives it.
func TestSeedScenarios(t *testing.T) {
	for _, conv := range agentgen.Conventions() {
		for _, scenario := range agentgen.Scenarios() {
			t.Run(string(conv)+"/"+scenario, func(t *testing.T) {
				run, err := agentgen.Generate(scenario, agentgen.Options{Convention: conv, Seed: 7})
				require.NoError(t, err)
				h := newHarness(t, seedConfig())
				out := h.run(run.Traces)
				events := stuckEvents(out)
				var reasons []string
				for _, r := range events {
					reasons = append(reasons, r...)
				}
				if run.Expect == "healthy" {
					assert.Empty(t, reasons, "a healthy run was flagged")
					return
				}
				require.NotEmpty(t, reasons, "a stuck run was not flagged")
				if run.ExpectReason != "" {
					assert.Contains(t, reasons, run.ExpectReason)
				}
			})
		}
	}
}
