// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

// langSmith is LangSmith's OpenTelemetry tracing (the JS SDK's otel tracing mode, the Python SDK's
// OpenTelemetry exporter; both trace under the tracer "langsmith"), which writes each run as a span
// named after it: langsmith.span.kind is the run type (tool, llm, chain, retriever, ...), the GenAI
// operation is derived from it (execute_tool, chat, or the run type itself), and the run's inputs and
// outputs are JSON in gen_ai.prompt and gen_ai.completion. For a tool run they are its arguments and
// result; for an llm run the request ({"model", "messages"} for OpenAI's client) and the response.
// Threads are grouped by the session_id, thread_id or conversation_id metadata the application gives.
var langSmith = Convention{
	Name: "langsmith",
	Claim: func(s Span) (Role, bool) {
		if s.Scope != "langsmith" {
			return RoleOther, false
		}
		switch str(s.Attrs, "langsmith.span.kind") {
		case "tool":
			return RoleTool, true
		case "llm":
			return RoleModel, true
		}
		return RoleOther, true
	},
	// The JS SDK names a tool run in gen_ai.tool.name; its span is named after it either way. Not
	// langsmith.trace.name, which every run has: a span of another tracer carrying it is no tool call.
	ToolName:     []string{"gen_ai.tool.name"},
	ToolFromSpan: spanName,
	Arguments:    []string{"gen_ai.prompt"},
	Result:       []string{"gen_ai.completion"},
	// A LangChain tool run's outputs are {"output": <its ToolMessage>}, as LangChain's tracer records
	// them: the result is the message's content, and the message names the call.
	Unwrap:            unwrapLangChainToolMessage,
	AgentFromRootName: true,
	RunID:             []string{"langsmith.metadata.session_id", "langsmith.metadata.thread_id", "langsmith.metadata.conversation_id"},
	// JSON from LangSmith, but other instrumentations write plain text under these keys (OpenLIT's
	// gen_ai.content.prompt event): read when JSON, else left to the content search, never withheld
	// whole for not being JSON.
	Transcripts: []Transcript{
		{Key: "gen_ai.prompt", MayBeText: true},
		{Key: "gen_ai.completion", Output: true, MayBeText: true},
	},
	FinishReason: []string{"gen_ai.response.finish_reasons"},
	// LangChain's usage_metadata, in GenAI's keys: its input_tokens includes the cache reads its
	// input_token_details breaks out (testdata/sdk/langsmith-otel/traces.json).
	Usage: genAI.Usage,
	Structural: []string{
		"langsmith.span.kind", "langsmith.trace.name", "langsmith.trace.session_name", "langsmith.trace.session_id",
		"langsmith.traceable", "langsmith.span.tags", "langsmith.metadata.ls_provider", "langsmith.metadata.ls_model_type",
		"langsmith.metadata.ls_model_name", "langsmith.usage_metadata", "langsmith.metadata.usage_metadata",
		"gen_ai.usage.total_tokens", "gen_ai.response.system_fingerprint",
	},
}
