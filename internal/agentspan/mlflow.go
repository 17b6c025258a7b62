// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"strings"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// mlflowTracing is MLflow Tracing's own spans as its OTLP export sends them (mlflow, Python; scope
// mlflow.tracing.provider): every attribute it sets is JSON text, a string too ("\"TOOL\""). A span's
// kind is mlflow.spanType (TOOL, CHAT_MODEL, LLM, AGENT, CHAIN, ...), its input and output are
// mlflow.spanInputs and mlflow.spanOutputs: a traced function's arguments by name and its return value,
// a model call's request ({"messages": [..], "tools": [..]}, OpenAI's shape for every provider
// mlflow.message.format names) and its response. A function is named in mlflow.spanFunctionName, and
// its span after it unless the application names the span. With MLFLOW_ENABLE_OTEL_GENAI_SEMCONV the
// export writes GenAI's keys instead and no mlflow.* key, which the GenAI convention reads (its tool
// spans are then all named execute_tool, with no tool name:
// docs/design.md#4-structure-first-internalagentspan-processorshapeonly).
var mlflowTracing = Convention{
	Name: "mlflow",
	Claim: func(s Span) (Role, bool) {
		kind, ok := mlflowText(s, "mlflow.spanType")
		if !ok {
			return RoleOther, false
		}
		switch kind {
		case "TOOL":
			return RoleTool, true
		case "CHAT_MODEL", "LLM":
			return RoleModel, true
		case "AGENT":
			return RoleAgent, true
		}
		return RoleOther, true
	},
	ToolFromSpan: func(s Span) string {
		if name, ok := mlflowText(s, "mlflow.spanFunctionName"); ok && name != "" {
			return name
		}
		return strings.TrimSpace(s.Name)
	},
	Arguments: []string{"mlflow.spanInputs"},
	Result:    []string{"mlflow.spanOutputs"},
	// MLflow's LangChain tracer records a tool run's output as LangChain's ToolMessage.
	Unwrap:            unwrapLangChainToolMessage,
	AgentFromSpanName: true,
	// The export copies the trace's session onto its root span, under OpenTelemetry's name.
	RunID: []string{"session.id"},
	Transcripts: []Transcript{
		// A function's input or output may be a bare JSON string or number: left to the content search.
		{Key: "mlflow.spanInputs", MayBeText: true},
		{Key: "mlflow.spanOutputs", Output: true, MayBeText: true},
	},
	// mlflow.chat.tokenUsage is MLflow's TokenUsageKey object (testdata/formats/genai/mlflow.traces.json:
	// input_tokens, output_tokens, total_tokens), input_tokens the whole prompt.
	Usage: &Usage{
		In: "mlflow.chat.tokenUsage", Input: []string{"input_tokens"}, Output: []string{"output_tokens"},
		CacheRead: []string{"cache_read_input_tokens"},
	},
	Structural: []string{
		"mlflow.spanType", "mlflow.spanFunctionName", "mlflow.traceRequestId", "mlflow.experimentId",
		"mlflow.message.format", "mlflow.chat.tokenUsage", "mlflow.chat.tools", "mlflow.llm.model",
		"mlflow.llm.provider", "mlflow.llm.cost", "mlflow.spanLogLevel", "mlflow.linkedPrompts",
		"mlflow.spanStartTimeNs",
	},
}

// mlflowText reads one of MLflow's attributes, a JSON string as MLflow writes every value, decoded; a
// value that is not JSON is taken as it is (an application may set one on the span directly).
func mlflowText(s Span, key string) (string, bool) {
	v, ok := s.Attrs.Get(key)
	if !ok {
		return "", false
	}
	raw := strings.TrimSpace(v.AsString())
	if text, ok := jsonraw.Text(zerocopy.Bytes(raw)); ok && strings.HasPrefix(raw, `"`) {
		return strings.TrimSpace(text), true
	}
	return raw, true
}
