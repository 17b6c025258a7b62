// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"encoding/json"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// vercelWriter emits the Vercel AI SDK's legacy ai.* spans in their v5+ shape:
// ai.generateText around ai.generateText.doGenerate and ai.toolCall spans,
// with tool-call parts carrying input and tool-result parts carrying
// output {type: json, value}. The SDK puts functionId and metadata on every span.
type vercelWriter struct{}

const vercelProvider = "openai.chat"

func (vercelWriter) scope() string { return "ai" }

func (vercelWriter) agent(s ptrace.Span, r runInfo) {
	s.SetName("ai.generateText")
	s.SetKind(ptrace.SpanKindInternal)
	a := s.Attributes()
	vercelCommon(a, r, "ai.generateText")
	a.PutStr("ai.model.id", modelName)
	a.PutStr("ai.model.provider", vercelProvider)
	a.PutStr("ai.prompt", jsonText(obj{{"system", systemPrompt(r.agent)}, {"prompt", r.task}}))
	// generateText reports its last step's reply, and nothing when it threw.
	if r.final != nil {
		vercelReply(a, r.final.text, r.final.finish())
	}
}

func (vercelWriter) model(s ptrace.Span, r runInfo, t turn) {
	s.SetName("ai.generateText.doGenerate")
	s.SetKind(ptrace.SpanKindClient)
	a := s.Attributes()
	vercelCommon(a, r, "ai.generateText.doGenerate")
	a.PutStr("ai.model.id", modelName)
	a.PutStr("ai.model.provider", vercelProvider)
	// The SDK also sets these gen_ai.* keys, but never gen_ai.operation.name.
	a.PutStr("gen_ai.system", vercelProvider)
	a.PutStr("gen_ai.request.model", modelName)
	a.PutStr("gen_ai.response.model", modelResponse)
	a.PutInt("ai.usage.inputTokens", int64(t.inTokens))
	a.PutInt("ai.usage.outputTokens", int64(t.outTokens))
	msgs := []obj{{{"role", "system"}, {"content", systemPrompt(r.agent)}}}
	for _, m := range t.in {
		msgs = append(msgs, vercelMessage(m))
	}
	a.PutStr("ai.prompt.messages", jsonText(msgs))
	if t.out.call != nil {
		// The provider hands back arguments as a JSON string, and the SDK records it as is.
		c := t.out.call
		a.PutStr("ai.response.toolCalls", jsonText([]obj{{{"toolCallId", c.id}, {"toolName", c.tool}, {"input", c.args}}}))
		a.PutStr("ai.response.finishReason", "tool-calls")
		return
	}
	vercelReply(a, t.out.text, t.finish)
}

// vercelReply records a text reply. An empty one has no ai.response.text at
// all, only its finish reason, as the SDK writes it.
func vercelReply(a pcommon.Map, text string, f finish) {
	if text != "" {
		a.PutStr("ai.response.text", text)
	}
	reason := "stop"
	if f == finishLength {
		reason = "length"
	}
	a.PutStr("ai.response.finishReason", reason)
}

func (vercelWriter) tool(s ptrace.Span, r runInfo, c call) {
	s.SetName("ai.toolCall")
	s.SetKind(ptrace.SpanKindInternal)
	a := s.Attributes()
	vercelCommon(a, r, "ai.toolCall")
	a.PutStr("ai.toolCall.name", c.tool)
	a.PutStr("ai.toolCall.id", c.id)
	a.PutStr("ai.toolCall.args", c.args)
	if !c.thrown {
		a.PutStr("ai.toolCall.result", c.result)
	}
}

func vercelCommon(a pcommon.Map, r runInfo, op string) {
	a.PutStr("operation.name", op+" "+r.agent)
	a.PutStr("ai.operationId", op)
	a.PutStr("resource.name", r.agent)
	a.PutStr("ai.telemetry.functionId", r.agent)
	a.PutStr("ai.telemetry.metadata.sessionId", r.id)
}

func vercelMessage(m message) obj {
	switch {
	case m.call == nil:
		return obj{{"role", m.role}, {"content", []obj{{{"type", "text"}, {"text", m.text}}}}}
	case m.role == "tool":
		out := obj{{"type", "json"}, {"value", json.RawMessage(m.call.result)}}
		if m.call.thrown {
			// The SDK hands the model a thrown tool's message as error text.
			out = obj{{"type", "error-text"}, {"value", m.call.err.msg}}
		}
		return obj{{"role", "tool"}, {"content", []obj{{
			{"type", "tool-result"}, {"toolCallId", m.call.id}, {"toolName", m.call.tool}, {"output", out},
		}}}}
	default:
		return obj{{"role", "assistant"}, {"content", []obj{{
			{"type", "tool-call"}, {"toolCallId", m.call.id}, {"toolName", m.call.tool}, {"input", json.RawMessage(m.call.args)},
		}}}}
	}
}
