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
// judged (each brought a result not seen before), and the model calls' finish reasons, the provider's
// own in one string ("["TOOL_CALLS"]"), are read.
func TestSpringAIStepsAreJudged(t *testing.T) {
	for _, file := range []string{"spring-ai-1.traces.json", "spring-ai-2.traces.json"} {
		t.Run(file, func(t *testing.T) { assertFormatJudged(t, file, "tool_calls", "stop") })
	}
}

// TestPydanticAIStepsAreJudged: Pydantic AI's instrumentation versions 1 and 2 (2 is the default
// through Pydantic AI 1.x) write a tool span's arguments and result in tool_arguments and
// tool_response; version 5 in GenAI's keys. Every version's steps are judged.
func TestPydanticAIStepsAreJudged(t *testing.T) {
	for _, file := range []string{"pydantic-ai-v1-all-messages-events.traces.json", "pydantic-ai-v2-default.traces.json",
		"pydantic-ai-v5-all-messages.traces.json"} {
		t.Run(file, func(t *testing.T) { assertFormatJudged(t, file, "tool_calls", "stop") })
	}
}

// TestLogfireOpenAIAgentsStepsAreJudged: Logfire's OpenAI Agents spans are named by their message
// template ("Function: {name}") and name the tool in name, its arguments in input and its result in
// output. The steps are judged; the Responses API spans say no finish reason.
func TestLogfireOpenAIAgentsStepsAreJudged(t *testing.T) {
	assertFormatJudged(t, "logfire-openai-agents.traces.json", "unknown", "unknown")
}

// TestMLflowStepsAreJudged: MLflow's spans say what they are in mlflow.spanType and hold a traced
// function's arguments and return value, and a model call's request and response, in
// mlflow.spanInputs / mlflow.spanOutputs, every value JSON text. The steps are judged and each model
// call's finish reason is read from its response. Exported in GenAI's terms instead, its tool spans name
// no tool but still carry their results: judged too.
func TestMLflowStepsAreJudged(t *testing.T) {
	assertFormatJudged(t, "mlflow.traces.json", "tool_calls", "stop")
	assertFormatJudged(t, "mlflow-genai-semconv.traces.json", "tool_calls", "stop")
}

// assertFormatJudged runs a payload of testdata/formats/genai, a run of two tool calls between two
// model calls, through agentguard and checks that both steps were judged, each bringing a new result,
// and that the model calls' finish reasons were read as finishes says.
func assertFormatJudged(t *testing.T, file string, finishes ...string) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "formats", "genai", file))
	require.NoError(t, err)
	td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(raw)
	require.NoError(t, err)
	steps, finished := map[string]string{}, []string{}
	for _, span := range walk.Spans(newHarness(t, seedConfig()).run(td)) {
		a := span.Attributes()
		if v, ok := a.Get(annotation.Finish); ok {
			finished = append(finished, v.Str())
		}
		step, ok := a.Get(annotation.Step)
		if !ok {
			continue
		}
		annotated := func(key string) string {
			if v, ok := a.Get(key); ok {
				return key + "=" + v.AsString()
			}
			return ""
		}
		steps[step.AsString()] = annotated(annotation.Judged) + annotated(annotation.Progress) + " " + annotated(annotation.Signals)
	}
	judged := annotation.Progress + "=true " + annotation.Signals + "=result"
	assert.Equal(t, map[string]string{"1": judged, "2": judged}, steps)
	assert.Equal(t, finishes, finished)
}

// TestHaystackStepsAreJudged: Haystack 3.x runs each tool call in a haystack.agent.step.tool span that
// names the tool and holds its arguments and what it returned; its model calls' replies are Haystack's
// ChatMessage dicts, their finish reasons in the meta. The steps are judged and the finish reasons read.
// In 2.x one ToolInvoker span runs every call of a message: there is no step to judge, but the chat
// generators' component spans are model calls, their finish reasons read.
func TestHaystackStepsAreJudged(t *testing.T) {
	assertFormatJudged(t, "haystack-3-agent.traces.json", "tool_calls", "stop")

	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "formats", "genai", "haystack-2-agent.traces.json"))
	require.NoError(t, err)
	td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(raw)
	require.NoError(t, err)
	var finished []string
	for _, span := range walk.Spans(newHarness(t, seedConfig()).run(td)) {
		_, step := span.Attributes().Get(annotation.Step)
		assert.False(t, step, "%s is no step", span.Name())
		if v, ok := span.Attributes().Get(annotation.Finish); ok {
			finished = append(finished, v.Str())
		}
	}
	assert.Equal(t, []string{"tool_calls", "stop"}, finished)
}
