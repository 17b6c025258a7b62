// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"encoding/json"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// genaiWriter emits the OpenTelemetry GenAI semantic conventions: invoke_agent,
// chat and execute_tool spans, with transcripts as gen_ai.input.messages /
// gen_ai.output.messages JSON in the parts shape.
type genaiWriter struct{}

func (genaiWriter) scope() string { return "agentgen/genai" }

func (genaiWriter) agent(s ptrace.Span, r runInfo) {
	s.SetName("invoke_agent " + r.agent)
	s.SetKind(ptrace.SpanKindInternal)
	a := s.Attributes()
	a.PutStr("gen_ai.operation.name", "invoke_agent")
	a.PutStr("gen_ai.provider.name", providerName)
	a.PutStr("gen_ai.agent.name", r.agent)
	a.PutStr("gen_ai.conversation.id", r.id)
	a.PutStr("gen_ai.request.model", modelName)
}

func (genaiWriter) model(s ptrace.Span, r runInfo, t turn) {
	s.SetName("chat " + modelName)
	s.SetKind(ptrace.SpanKindClient)
	a := s.Attributes()
	a.PutStr("gen_ai.operation.name", "chat")
	a.PutStr("gen_ai.provider.name", providerName)
	a.PutStr("gen_ai.request.model", modelName)
	a.PutStr("gen_ai.response.model", modelResponse)
	a.PutStr("gen_ai.conversation.id", r.id)
	a.PutInt("gen_ai.usage.input_tokens", int64(t.inTokens))
	a.PutInt("gen_ai.usage.output_tokens", int64(t.outTokens))
	a.PutEmptySlice("gen_ai.response.finish_reasons").AppendEmpty().SetStr(genaiFinish(t.finish))
	a.PutStr("gen_ai.system_instructions", jsonText([]obj{{{"type", "text"}, {"content", systemPrompt(r.agent)}}}))
	in := make([]obj, len(t.in))
	for i, m := range t.in {
		in[i] = genaiMessage(m)
	}
	a.PutStr("gen_ai.input.messages", jsonText(in))
	out := append(genaiMessage(t.out), field{"finish_reason", genaiFinish(t.finish)})
	a.PutStr("gen_ai.output.messages", jsonText([]obj{out}))
}

func (genaiWriter) tool(s ptrace.Span, _ runInfo, c call) {
	s.SetName("execute_tool " + c.tool)
	s.SetKind(ptrace.SpanKindInternal)
	a := s.Attributes()
	a.PutStr("gen_ai.operation.name", "execute_tool")
	a.PutStr("gen_ai.tool.name", c.tool)
	a.PutStr("gen_ai.tool.type", "function")
	a.PutStr("gen_ai.tool.call.id", c.id)
	a.PutStr("gen_ai.tool.call.arguments", c.args)
	if !c.thrown {
		a.PutStr("gen_ai.tool.call.result", c.result)
	}
}

// genaiMessage writes a message in the parts shape. An empty reply has no
// parts, as the AI SDK writes it.
func genaiMessage(m message) obj {
	var part obj
	switch {
	case m.empty():
		return obj{{"role", m.role}, {"parts", []obj{}}}
	case m.call == nil:
		part = obj{{"type", "text"}, {"content", m.text}}
	case m.role == "tool":
		part = obj{{"type", "tool_call_response"}, {"id", m.call.id}, {"response", json.RawMessage(m.call.result)}}
	default:
		part = obj{{"type", "tool_call"}, {"id", m.call.id}, {"name", m.call.tool}, {"arguments", json.RawMessage(m.call.args)}}
	}
	return obj{{"role", m.role}, {"parts", []obj{part}}}
}

// genaiFinish spells a finish reason in the GenAI enum.
func genaiFinish(f finish) string {
	switch f {
	case finishToolCalls:
		return "tool_call"
	case finishLength:
		return "length"
	}
	return "stop"
}
