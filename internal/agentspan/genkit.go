// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import "strings"

// genkit is Genkit's own tracing (the genkit package; its tracer is "genkit-tracer"). Every action runs in
// a span labelled genkit:type ("action", or "util" for the generate loop's turns) and, for actions,
// genkit:metadata:subtype ("flow", "model", "tool", "agent", ...), named by genkit:name, with the
// action's input and output as JSON in genkit:input and genkit:output. A tool's span holds its
// arguments and result there, but not the call's ref: its results are found by the tool's name. A
// model's span holds the request ({"messages":[..],"tools":[..]}) and the response ({"message":{..},
// "finishReason":..}); a generate turn's span the same request and the response with the request
// inside it. Messages hold parts: {"text"}, {"toolRequest":{"name","ref","input"}} and
// {"toolResponse":{"name","ref","output"}}. A flow or an agent is the run's agent, named by its span;
// an agent's session id is in genkit:metadata:agent:sessionId. Spans: <flow> > generate >
// <model>, <tool>, generate > ... (each turn nests the next).
var genkit = Convention{
	Name: "genkit",
	Claim: func(s Span) (Role, bool) {
		if str(s.Attrs, "genkit:type") == "" {
			return RoleOther, false
		}
		switch str(s.Attrs, "genkit:metadata:subtype") {
		case "tool":
			return RoleTool, true
		case "model", "background-model":
			return RoleModel, true
		case "flow", "agent":
			return RoleAgent, true
		}
		return RoleOther, true
	},
	// genkit:name names every action, so it names a tool only on the convention's tool spans.
	ToolFromSpan:      func(s Span) string { return strings.TrimSpace(str(s.Attrs, "genkit:name")) },
	Arguments:         []string{"genkit:input"},
	Result:            []string{"genkit:output"},
	AgentFromSpanName: true,
	RunID:             []string{"genkit:metadata:agent:sessionId"},
	Transcripts: []Transcript{
		// A flow's input and output may be a bare JSON string or number: left to the content search.
		{Key: "genkit:input", MayBeText: true},
		{Key: "genkit:output", Output: true, MayBeText: true},
	},
	// A model action's output is its GenerateResponse, whose usage holds the call's counts
	// (testdata/sdk/genkit/traces.json: {"inputTokens","outputTokens"}); cachedContentTokens is part of
	// inputTokens, as Gemini's promptTokenCount holds its cachedContentTokenCount.
	Usage: &Usage{
		In: "genkit:output", Input: []string{"usage.inputTokens"}, Output: []string{"usage.outputTokens"},
		CacheRead: []string{"usage.cachedContentTokens"},
	},
	Structural: []string{
		"genkit:type", "genkit:name", "genkit:key", "genkit:path", "genkit:state", "genkit:isRoot",
		"genkit:metadata:subtype", "genkit:isFailureSource", "genkit:lastKnownParentSpanId",
	},
}
