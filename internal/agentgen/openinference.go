// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"strconv"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// openinferenceWriter emits Arize OpenInference spans: AGENT, LLM and TOOL
// kinds, with transcripts flattened into llm.{input,output}_messages.{i}.*.
// session.id goes on every span, as OpenInference's session context does.
type openinferenceWriter struct{}

func (openinferenceWriter) scope() string { return "openinference.instrumentation.openai" }

func (openinferenceWriter) agent(s ptrace.Span, r runInfo) {
	s.SetName(r.agent)
	s.SetKind(ptrace.SpanKindInternal)
	a := s.Attributes()
	a.PutStr("openinference.span.kind", "AGENT")
	a.PutStr("agent.name", r.agent)
	a.PutStr("session.id", r.id)
	a.PutStr("input.value", r.task)
	a.PutStr("input.mime_type", "text/plain")
	if r.final != nil && r.final.text != "" {
		a.PutStr("output.value", r.final.text)
		a.PutStr("output.mime_type", "text/plain")
	}
}

func (openinferenceWriter) model(s ptrace.Span, r runInfo, t turn) {
	s.SetName("ChatCompletion")
	s.SetKind(ptrace.SpanKindInternal)
	a := s.Attributes()
	a.PutStr("openinference.span.kind", "LLM")
	a.PutStr("session.id", r.id)
	a.PutStr("llm.model_name", modelResponse)
	a.PutStr("llm.provider", providerName)
	a.PutStr("llm.system", providerName)
	a.PutInt("llm.token_count.prompt", int64(t.inTokens))
	a.PutInt("llm.token_count.completion", int64(t.outTokens))
	a.PutInt("llm.token_count.total", int64(t.inTokens+t.outTokens))
	a.PutStr("llm.input_messages.0.message.role", "system")
	a.PutStr("llm.input_messages.0.message.content", systemPrompt(r.agent))
	for i, m := range t.in {
		oiMessage(a, "llm.input_messages."+strconv.Itoa(i+1)+".message.", m)
	}
	oiMessage(a, "llm.output_messages.0.message.", t.out)
	a.PutStr("llm.finish_reason", openaiFinish(t.finish))
}

func (openinferenceWriter) tool(s ptrace.Span, r runInfo, c call) {
	s.SetName(c.tool)
	s.SetKind(ptrace.SpanKindInternal)
	a := s.Attributes()
	a.PutStr("openinference.span.kind", "TOOL")
	a.PutStr("session.id", r.id)
	a.PutStr("tool.name", c.tool)
	a.PutStr("tool_call.id", c.id)
	a.PutStr("input.value", c.args)
	a.PutStr("input.mime_type", "application/json")
	if !c.thrown {
		a.PutStr("output.value", c.result)
		a.PutStr("output.mime_type", "application/json")
	}
}

// oiMessage flattens a message. An empty reply has no content attribute: the
// instrumentation writes content only when there is some.
func oiMessage(a pcommon.Map, p string, m message) {
	a.PutStr(p+"role", m.role)
	switch {
	case m.empty():
	case m.call == nil:
		a.PutStr(p+"content", m.text)
	case m.role == "tool":
		a.PutStr(p+"tool_call_id", m.call.id)
		a.PutStr(p+"content", m.call.result)
	default:
		a.PutStr(p+"tool_calls.0.tool_call.id", m.call.id)
		a.PutStr(p+"tool_calls.0.tool_call.function.name", m.call.tool)
		a.PutStr(p+"tool_calls.0.tool_call.function.arguments", m.call.args)
	}
}
