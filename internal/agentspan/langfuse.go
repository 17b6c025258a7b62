// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

// langfuse is Langfuse's SDKs (@langfuse/tracing, and the Python langfuse SDK from v3), which write
// every observation as a span: langfuse.observation.type says what it is (agent, tool, generation,
// span, chain, ...), a span is named after its observation (a tool's after the tool), and its input
// and output are in langfuse.observation.input and output, JSON unless they were text. A generation
// an integration made (@langfuse/openai) holds the request ({"messages": [..]}) and the reply message.
// The session id is session.id, on the spans Langfuse's own span processor copies it to.
var langfuse = Convention{
	Name: "langfuse",
	Claim: func(s Span) (Role, bool) {
		switch str(s.Attrs, "langfuse.observation.type") {
		case "":
			return RoleOther, false
		case "tool":
			return RoleTool, true
		case "generation":
			return RoleModel, true
		case "agent":
			return RoleAgent, true
		}
		return RoleOther, true
	},
	ToolFromSpan:      spanName,
	Arguments:         []string{"langfuse.observation.input"},
	Result:            []string{"langfuse.observation.output"},
	AgentFromSpanName: true,
	RunID:             []string{"session.id", "langfuse.session.id"},
	Transcripts: []Transcript{
		{Key: "langfuse.observation.input", MayBeText: true},
		{Key: "langfuse.observation.output", Output: true, MayBeText: true},
	},
	// A generation's usage is a JSON object of Langfuse's usage types (testdata/sdk/langfuse-js/traces.json:
	// {"input","output","total"}), which Langfuse prices one by one: "input" is the input the cache did not
	// serve, and the cache reads are a type of their own.
	Usage: &Usage{
		In: "langfuse.observation.usage_details", Input: []string{"input"}, Output: []string{"output"},
		CacheRead:          []string{"input_cached_tokens", "cache_read_input_tokens"},
		CacheWrite:         []string{"cache_creation_input_tokens"},
		InputExcludesCache: true,
	},
	Structural: []string{
		"langfuse.observation.type", "langfuse.observation.model.name", "langfuse.observation.model.parameters",
		"langfuse.observation.usage_details", "langfuse.observation.cost_details", "langfuse.observation.level",
		"langfuse.observation.completion_start_time", "langfuse.observation.prompt.name",
		"langfuse.observation.prompt.version", "langfuse.trace.name", "langfuse.environment", "langfuse.release",
		"langfuse.version", "user.id", "langfuse.user.id",
	},
}
