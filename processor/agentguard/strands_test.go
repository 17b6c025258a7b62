// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/walk"
)

// TestStrandsRepliesAreReadFromEvents: Strands writes a model call's reply and why it stopped
// (toolUse, endTurn) only on the chat span's events, a gen_ai.choice event or, in the latest GenAI mode,
// the output messages of a gen_ai.client.inference.operation.details event. In the real captures of
// both modes, every model call that asked for a tool is annotated tool_calls and every final answer stop.
func TestStrandsRepliesAreReadFromEvents(t *testing.T) {
	for _, file := range []string{"traces.json", "traces-latest.json"} {
		t.Run(file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("..", "..", "testdata", "sdk", "strands-js", file))
			require.NoError(t, err)
			defer f.Close()
			lines := bufio.NewScanner(f)
			lines.Buffer(nil, 16<<20)
			finishes := map[string]int{}
			for lines.Scan() {
				td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(lines.Bytes())
				require.NoError(t, err)
				for _, span := range walk.Spans(newHarness(t, seedConfig()).run(td)) {
					if v, ok := span.Attributes().Get(annotation.Finish); ok {
						finishes[v.Str()]++
					}
				}
			}
			require.NoError(t, lines.Err())
			// The five scenarios: 25 tool calls, each asked for by one model call, and five answers.
			assert.Equal(t, map[string]int{"tool_calls": 25, "stop": 5}, finishes)
		})
	}
}
