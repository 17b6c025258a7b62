// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"encoding/json"
	"errors"
	"fmt"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// LogEventsScope is the instrumentation scope of the records LogEvents writes: the OpenAI client's
// instrumentation, which is all such an agent has.
const LogEventsScope = "opentelemetry.instrumentation.openai_v2"

// LogEvents is a GenAI run as an agent instrumented only by its model client emits it: the spans of
// the agent and of its model calls, with no content on them and no tool spans at all, and for each
// model call one log record per message of its request and one gen_ai.choice record for its reply,
// written in the model call's span. This is opentelemetry-python-contrib's openai-v2 on its default
// path (content capture on, no gen_ai_latest_experimental), as testdata/formats/genai/README.md
// describes it from its source (utils.py message_to_event and choice_to_event, commit 466ae4c): a
// record is named gen_ai.<role>.message and its body is {content}; an assistant message that calls
// tools is {tool_calls: [{id, type: "function", function: {name, arguments}}]}, a tool message
// {content, id}; a choice is {index, finish_reason, message}, with OpenAI's own finish reasons. The
// tool results reach the telemetry only in the next request's records.
//
// run must be of the GenAI convention; its spans are not changed.
func LogEvents(run Run) (ptrace.Traces, plog.Logs, error) {
	td := ptrace.NewTraces()
	run.Traces.CopyTo(td)
	ld := plog.NewLogs()
	var err error
	for i := 0; i < td.ResourceSpans().Len(); i++ {
		rs := td.ResourceSpans().At(i)
		rl := ld.ResourceLogs().AppendEmpty()
		rs.Resource().CopyTo(rl.Resource())
		records := rl.ScopeLogs().AppendEmpty()
		records.Scope().SetName(LogEventsScope)
		for j := 0; j < rs.ScopeSpans().Len(); j++ {
			rs.ScopeSpans().At(j).Spans().RemoveIf(func(s ptrace.Span) bool {
				switch op, _ := s.Attributes().Get("gen_ai.operation.name"); op.Str() {
				case "execute_tool":
					return true
				case "chat":
					err = errors.Join(err, messageEvents(s, records.LogRecords()))
				}
				return false
			})
		}
	}
	return td, ld, err
}

// messageEvents moves a chat span's transcript into per-message records.
func messageEvents(s ptrace.Span, out plog.LogRecordSlice) error {
	a := s.Attributes()
	var system []map[string]any
	var in, outMsgs []genaiMsg
	for key, dst := range map[string]any{"gen_ai.system_instructions": &system, "gen_ai.input.messages": &in, "gen_ai.output.messages": &outMsgs} {
		if v, ok := a.Get(key); ok {
			if err := json.Unmarshal([]byte(v.Str()), dst); err != nil {
				return fmt.Errorf("agentgen: %s of %q: %w", key, s.Name(), err)
			}
			a.Remove(key)
		}
	}
	a.PutStr("gen_ai.system", providerName)
	emit := func(name string, at pcommon.Timestamp, body map[string]any) {
		r := out.AppendEmpty()
		r.SetEventName(name)
		r.SetTimestamp(at)
		r.SetObservedTimestamp(at)
		r.SetTraceID(s.TraceID())
		r.SetSpanID(s.SpanID())
		r.Attributes().PutStr("gen_ai.system", providerName)
		_ = r.Body().SetEmptyMap().FromRaw(body)
	}
	for _, part := range system {
		emit("gen_ai.system.message", s.StartTimestamp(), map[string]any{"content": part["content"]})
	}
	for _, m := range in {
		emit("gen_ai."+m.Role+".message", s.StartTimestamp(), m.eventBody())
	}
	for _, m := range outMsgs {
		msg := m.eventBody()
		msg["role"] = "assistant"
		emit("gen_ai.choice", s.EndTimestamp(), map[string]any{"index": 0, "finish_reason": openAIFinish(m.FinishReason), "message": msg})
	}
	return nil
}

// genaiMsg is a message in GenAI's parts shape, as genaiMessage writes it.
type genaiMsg struct {
	Role         string      `json:"role"`
	Parts        []genaiPart `json:"parts"`
	FinishReason string      `json:"finish_reason"`
}

type genaiPart struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Response  json.RawMessage `json:"response"`
	Content   string          `json:"content"`
}

// eventBody is the message as openai-v2's message_to_event writes it: the content of a text message;
// only the calls of an assistant message that makes them, their arguments a JSON string; the
// content of a tool message, the result as the application sent it (JSON text), with its call's id.
func (m genaiMsg) eventBody() map[string]any {
	body := map[string]any{}
	var calls []any
	for _, p := range m.Parts {
		switch p.Type {
		case "text":
			body["content"] = p.Content
		case "tool_call":
			calls = append(calls, map[string]any{"id": p.ID, "type": "function",
				"function": map[string]any{"name": p.Name, "arguments": string(p.Arguments)}})
		case "tool_call_response":
			body["content"], body["id"] = string(p.Response), p.ID
		}
	}
	if calls != nil {
		return map[string]any{"tool_calls": calls}
	}
	return body
}

// openAIFinish spells a GenAI finish reason as OpenAI's API does.
func openAIFinish(f string) string {
	if f == "tool_call" {
		return "tool_calls"
	}
	return f
}
