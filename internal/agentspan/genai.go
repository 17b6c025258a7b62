// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import "strings"

// genAI is the OpenTelemetry GenAI semantic conventions: gen_ai.operation.name says what a span is.
// Transcripts are gen_ai.input.messages / gen_ai.output.messages, JSON text or OTLP structured values,
// on model spans and on gen_ai.client.inference.operation.details events; older instrumentations
// emit one event per message (gen_ai.user.message ... gen_ai.choice) as span events or log records.
var genAI = Convention{
	Name: "genai",
	Claim: func(s Span) (Role, bool) {
		op := str(s.Attrs, "gen_ai.operation.name")
		if op == "" {
			return RoleOther, false
		}
		switch op {
		case "invoke_agent", "create_agent":
			return RoleAgent, true
		case "execute_tool":
			return RoleTool, true
		case "chat", "text_completion", "generate_content":
			return RoleModel, true
		}
		return RoleOther, true
	},
	ToolName:  []string{"gen_ai.tool.name"},
	CallID:    []string{"gen_ai.tool.call.id"},
	Arguments: []string{"gen_ai.tool.call.arguments"},
	Result:    []string{"gen_ai.tool.call.result"},
	// The span name is "execute_tool {gen_ai.tool.name}" when the attribute is missing.
	ToolFromSpan: func(s Span) string { return afterPrefix(s.Name, "execute_tool") },
	AgentName:    []string{"gen_ai.agent.name"},
	RunID:        []string{"gen_ai.conversation.id"},
	Transcripts: []Transcript{
		{Key: "gen_ai.input.messages"},
		{Key: "gen_ai.output.messages", Output: true},
	},
	FinishReason: []string{"gen_ai.response.finish_reasons"},
	Usage:        &genAIUsage,
	Structural: []string{
		"gen_ai.operation.name", "gen_ai.agent.id", "gen_ai.agent.description", "gen_ai.tool.type",
		"gen_ai.tool.description", "gen_ai.provider.name", "gen_ai.system", "gen_ai.request.model",
		"gen_ai.response.model", "gen_ai.response.id", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens",
		"gen_ai.request.temperature", "gen_ai.request.max_tokens", "gen_ai.output.type", "gen_ai.data_source.id",
	},
	EventRoles: map[string]string{
		"gen_ai.system.message":    "system",
		"gen_ai.user.message":      "user",
		"gen_ai.assistant.message": "assistant",
		"gen_ai.tool.message":      "tool",
		"gen_ai.choice":            "assistant",
	},
	ChoiceEvents: []string{"gen_ai.choice"},
}

// genAIUsage is GenAI's usage keys (semantic-conventions, model/gen-ai/registry.yaml): input_tokens
// counts every input token, those read from and written to the cache included, which
// cache_read.input_tokens and cache_creation.input_tokens break out. The ai@7 and Mastra captures write
// all four (testdata/sdk/ai-v7-otel/traces.json, testdata/sdk/mastra-otel/traces.json); Codex's
// response spans show the inclusion (testdata/formats/cli/codex/codex-docs-search.traces.json: input
// 10716, of which 10368 cached). prompt_tokens and completion_tokens are the names before 1.27, which
// Strands and OpenLLMetry still write beside or instead of the new ones.
var genAIUsage = Usage{
	Input:      []string{"gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"},
	Output:     []string{"gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens"},
	CacheRead:  []string{"gen_ai.usage.cache_read.input_tokens"},
	CacheWrite: []string{"gen_ai.usage.cache_creation.input_tokens"},
}

// NamesNoTool reports whether a tool call's span name says nothing of its tool: empty, or only the
// operation, as GenAI names a tool's span when it does not know the tool ("execute_tool", the span name
// MLflow gives every tool span it exports in GenAI's terms).
func NamesNoTool(name string) bool {
	name = strings.TrimSpace(name)
	return name == "" || strings.EqualFold(name, "execute_tool")
}
