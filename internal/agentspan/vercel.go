// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import "strings"

// vercelAI is the Vercel AI SDK's own telemetry (ai.* spans, v4 to v6): ai.operationId (or the span
// name) says what a span is; the transcript is the JSON in ai.prompt.messages.
var vercelAI = Convention{
	Name: "vercel-ai",
	Claim: func(s Span) (Role, bool) {
		op := str(s.Attrs, "ai.operationId")
		if op == "" {
			if !strings.HasPrefix(s.Name, "ai.") {
				return RoleOther, false
			}
			op = s.Name
		}
		switch {
		case op == "ai.toolCall":
			return RoleTool, true
		case strings.HasSuffix(op, ".doGenerate"), strings.HasSuffix(op, ".doStream"):
			return RoleModel, true
		case op == "ai.generateText", op == "ai.streamText", op == "ai.generateObject", op == "ai.streamObject":
			return RoleAgent, true
		}
		return RoleOther, true
	},
	ToolName: []string{"ai.toolCall.name"},
	CallID:   []string{"ai.toolCall.id"},
	// ai@6 writes args/result. Traceloop's and LangSmith's AI SDK span processors read input/output
	// first, so some releases write that spelling: both are read.
	Arguments: []string{"ai.toolCall.args", "ai.toolCall.input"},
	Result:    []string{"ai.toolCall.result", "ai.toolCall.output"},
	AgentName: []string{"ai.telemetry.functionId"},
	RunID:     []string{"ai.telemetry.metadata.sessionId"},
	Transcripts: []Transcript{
		{Key: "ai.prompt.messages"},
		{Key: "ai.prompt"},
		{Key: "ai.response.toolCalls", Output: true},
		{Key: "ai.response.text", Output: true, Text: true},
	},
	FinishReason: []string{"ai.response.finishReason", "gen_ai.response.finish_reasons"},
	// A doGenerate or doStream span is one call; the ai.generateText or ai.streamText span over them
	// repeats their sum (testdata/sdk/ai-v6/traces.json) and is an agent span, not read. ai@6's
	// inputTokens counts the cache reads and writes its inputTokenDetails break out (noCacheTokens is the
	// rest; @ai-sdk/provider, language-model-v3-usage.ts); ai@4 wrote promptTokens, ai@5
	// cachedInputTokens (language-model-v2-usage.ts).
	Usage: &Usage{
		Input:      []string{"ai.usage.inputTokens", "ai.usage.promptTokens"},
		Output:     []string{"ai.usage.outputTokens", "ai.usage.completionTokens"},
		CacheRead:  []string{"ai.usage.inputTokenDetails.cacheReadTokens", "ai.usage.cachedInputTokens"},
		CacheWrite: []string{"ai.usage.inputTokenDetails.cacheWriteTokens"},
	},
	Structural: []string{
		"ai.operationId", "operation.name", "resource.name", "ai.model.id", "ai.model.provider", "ai.response.id",
		"ai.response.model", "ai.response.timestamp", "ai.usage.promptTokens", "ai.usage.completionTokens",
		"ai.usage.inputTokens", "ai.usage.outputTokens", "ai.usage.totalTokens", "ai.settings.maxRetries",
		"ai.settings.maxSteps", "ai.settings.maxOutputTokens",
	},
}
