// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/pyliteral/pyliteraltest"
	"github.com/agentotel/agentotel/internal/walk"
)

// TestPythonReprResultsAreRead: a Python SDK that reports a tool's result as str(result) writes the
// repr of a dict, not JSON. Read as text, its volatile fields could not be set aside and its declared
// fields not read: every poll of a stuck wait would look new. Read as the literal it is, each scenario
// comes to what its JSON results do.
func TestPythonReprResultsAreRead(t *testing.T) {
	for _, scenario := range []string{"deploy", "docs", "wait_timeout", "finished_poll", "error_loop", "research"} {
		t.Run(scenario, func(t *testing.T) {
			run, err := agentgen.Generate(scenario, agentgen.Options{Convention: agentgen.GenAI, Seed: 11})
			require.NoError(t, err)
			converted := 0
			for _, span := range walk.Spans(run.Traces) {
				if v, ok := span.Attributes().Get("gen_ai.tool.call.result"); ok && strings.HasPrefix(v.Str(), "{") {
					v.SetStr(pythonRepr(t, v.Str()))
					converted++
				}
			}
			require.NotZero(t, converted)
			out := newHarness(t, seedConfig()).run(run.Traces)
			var reasons []string
			for _, r := range stuckEvents(out) {
				reasons = append(reasons, r...)
			}
			if run.Expect == "healthy" {
				assert.Empty(t, reasons)
			} else {
				require.NotEmpty(t, reasons, "a stuck run was not flagged")
				assert.Equal(t, run.ExpectReason, reasons[0])
			}
		})
	}
}

// pythonRepr writes a JSON document as Python's repr writes the value json.loads makes of it.
func pythonRepr(t *testing.T, doc string) string {
	var v any
	require.NoError(t, json.Unmarshal([]byte(doc), &v))
	return pyliteraltest.Repr(v)
}
