// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"strconv"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// openllmetryWriter emits Traceloop OpenLLMetry spans: traceloop.span.kind
// agent and tool from the SDK's decorators, and openai.chat spans with the
// flattened gen_ai.prompt.{i}.* / gen_ai.completion.{i}.* transcript. Like the
// SDK, it never sets gen_ai.operation.name, and it propagates the workflow name
// and association properties to every span.
type openllmetryWriter struct{}

func (openllmetryWriter) scope() string { return "opentelemetry.instrumentation.openai.v1" }

func (openllmetryWriter) agent(s ptrace.Span, r runInfo) {
	s.SetName(r.agent + ".agent")
	s.SetKind(ptrace.SpanKindInternal)
	a := s.Attributes()
	tlCommon(a, r)
	a.PutStr("traceloop.span.kind", "agent")
	a.PutStr("traceloop.entity.name", r.agent)
}

func (openllmetryWriter) model(s ptrace.Span, r runInfo, t turn) {
	s.SetName("openai.chat")
	s.SetKind(ptrace.SpanKindClient)
	a := s.Attributes()
	tlCommon(a, r)
	a.PutStr("llm.request.type", "chat")
	a.PutStr("gen_ai.system", "openai")
	a.PutStr("gen_ai.request.model", modelName)
	a.PutStr("gen_ai.response.model", modelResponse)
	a.PutInt("gen_ai.usage.prompt_tokens", int64(t.inTokens))
	a.PutInt("gen_ai.usage.completion_tokens", int64(t.outTokens))
	a.PutInt("llm.usage.total_tokens", int64(t.inTokens+t.outTokens))
	a.PutStr("gen_ai.prompt.0.role", "system")
	a.PutStr("gen_ai.prompt.0.content", systemPrompt(r.agent))
	for i, m := range t.in {
		tlMessage(a, "gen_ai.prompt."+strconv.Itoa(i+1)+".", m)
	}
	tlMessage(a, "gen_ai.completion.0.", t.out)
	a.PutStr("gen_ai.completion.0.finish_reason", openaiFinish(t.finish))
}

func (openllmetryWriter) tool(s ptrace.Span, r runInfo, c call) {
	s.SetName(c.tool + ".tool")
	s.SetKind(ptrace.SpanKindInternal)
	a := s.Attributes()
	tlCommon(a, r)
	a.PutStr("traceloop.span.kind", "tool")
	a.PutStr("traceloop.entity.name", c.tool)
	a.PutStr("traceloop.entity.tool_call_id", c.id)
	a.PutStr("traceloop.entity.input", c.args)
	if !c.thrown {
		a.PutStr("traceloop.entity.output", c.result)
	}
}

func tlCommon(a pcommon.Map, r runInfo) {
	a.PutStr("traceloop.workflow.name", r.agent)
	a.PutStr("traceloop.association.properties.session_id", r.id)
}

// tlMessage flattens a message. An empty reply has no content attribute at
// all: the instrumentation drops an empty string.
func tlMessage(a pcommon.Map, p string, m message) {
	a.PutStr(p+"role", m.role)
	switch {
	case m.empty():
	case m.call == nil:
		a.PutStr(p+"content", m.text)
	case m.role == "tool":
		a.PutStr(p+"tool_call_id", m.call.id)
		a.PutStr(p+"content", m.call.result)
	default:
		a.PutStr(p+"tool_calls.0.id", m.call.id)
		a.PutStr(p+"tool_calls.0.name", m.call.tool)
		a.PutStr(p+"tool_calls.0.arguments", m.call.args)
	}
}
