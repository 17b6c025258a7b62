// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"encoding/json"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// unknownWriter emits an SDK agentotel does not know, "mysdk". Its tool spans
// name the tool and the call with gen_ai.tool.name and gen_ai.tool.call.id, so
// they are recognised as tool calls, but everything a detector would judge by
// sits under mysdk.* keys no convention reads: arguments and results, the
// transcripts and replies of its model spans, their finish reasons and token
// counts. No span says gen_ai.operation.name.
type unknownWriter struct{}

func (unknownWriter) scope() string { return "mysdk" }

func (unknownWriter) agent(s ptrace.Span, r runInfo) {
	s.SetName("mysdk.run")
	s.SetKind(ptrace.SpanKindInternal)
	a := s.Attributes()
	a.PutStr("mysdk.agent", r.agent)
	a.PutStr("mysdk.session", r.id)
	a.PutStr("mysdk.task", r.task)
	if r.final != nil && r.final.text != "" {
		a.PutStr("mysdk.answer", r.final.text)
	}
}

func (unknownWriter) model(s ptrace.Span, r runInfo, t turn) {
	s.SetName("mysdk.llm")
	s.SetKind(ptrace.SpanKindClient)
	a := s.Attributes()
	a.PutStr("mysdk.agent", r.agent)
	a.PutStr("mysdk.session", r.id)
	a.PutStr("mysdk.model", modelResponse)
	msgs := []obj{{{"role", "system"}, {"text", systemPrompt(r.agent)}}}
	for _, m := range t.in {
		msgs = append(msgs, mysdkMessage(m))
	}
	a.PutStr("mysdk.prompt", jsonText(msgs))
	a.PutStr("mysdk.reply", jsonText(mysdkMessage(t.out)))
	a.PutStr("mysdk.stop", openaiFinish(t.finish))
	a.PutInt("mysdk.tokens.in", int64(t.inTokens))
	a.PutInt("mysdk.tokens.out", int64(t.outTokens))
}

func (unknownWriter) tool(s ptrace.Span, r runInfo, c call) {
	s.SetName("mysdk.tool")
	s.SetKind(ptrace.SpanKindInternal)
	a := s.Attributes()
	a.PutStr("gen_ai.tool.name", c.tool)
	a.PutStr("gen_ai.tool.call.id", c.id)
	a.PutStr("mysdk.session", r.id)
	a.PutStr("mysdk.args", c.args)
	if !c.thrown {
		a.PutStr("mysdk.output", c.result)
	}
}

func mysdkMessage(m message) obj {
	switch {
	case m.call == nil:
		return obj{{"role", m.role}, {"text", m.text}}
	case m.role == "tool":
		return obj{{"role", "tool"}, {"for", m.call.id}, {"output", json.RawMessage(m.call.result)}}
	default:
		return obj{{"role", m.role}, {"invoke", obj{{"ref", m.call.id}, {"fn", m.call.tool}, {"with", json.RawMessage(m.call.args)}}}}
	}
}
