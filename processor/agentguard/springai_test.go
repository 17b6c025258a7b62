// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/walk"
)

// TestSpringAIStepsAreJudged: Spring AI's tool spans name their tool and hold its arguments and result
// in spring.ai.* attributes, and in 1.x say the GenAI operation "framework". Both versions' steps are
// judged (each brought a new result), and the model calls' finish reasons, the provider's own in one
// string ("["TOOL_CALLS"]"), are read.
func TestSpringAIStepsAreJudged(t *testing.T) {
	for _, file := range []string{"spring-ai-1.traces.json", "spring-ai-2.traces.json"} {
		t.Run(file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "formats", "genai", file))
			require.NoError(t, err)
			td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(raw)
			require.NoError(t, err)
			steps, finishes := map[string]string{}, []string{}
			for _, span := range walk.Spans(newHarness(t, seedConfig()).run(td)) {
				a := span.Attributes()
				if v, ok := a.Get(annotation.Finish); ok {
					finishes = append(finishes, v.Str())
				}
				if _, ok := a.Get(annotation.Step); !ok {
					continue
				}
				_, unjudged := a.Get(annotation.Judged)
				progress, _ := a.Get(annotation.Progress)
				signals, _ := a.Get(annotation.Signals)
				assert.False(t, unjudged, span.Name())
				steps[span.Name()] = progress.AsString() + " " + signals.AsString()
			}
			assert.Len(t, steps, 2)
			for name, verdict := range steps {
				assert.Equal(t, "true result", verdict, name)
			}
			assert.Equal(t, []string{"tool_calls", "stop"}, finishes)
		})
	}
}
