// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/message"
)

// ToolEvent is a span event on which a tool span carries its call, for instrumentations that write a
// tool's arguments and result as events of its span rather than as attributes (Strands Agents). A
// declared convention's tool_events take the same keys.
type ToolEvent struct {
	// Name is the event's name.
	Name string `mapstructure:"event"`
	// Arguments and Result are the event attributes holding the call's arguments and its result; ""
	// when the event holds none. CallID is the attribute naming the call.
	Arguments string `mapstructure:"arguments"`
	Result    string `mapstructure:"result"`
	CallID    string `mapstructure:"call_id"`
	// Parts marks attributes holding GenAI messages: the arguments are the "arguments" of the tool_call
	// part, the result the "response" (or "result") of the tool_call_response part.
	Parts bool `mapstructure:"parts"`
}

// ToolEvent returns the convention's tool event of that name, or nil.
func (c *Convention) ToolEvent(name string) *ToolEvent {
	if c == nil {
		return nil
	}
	for i := range c.ToolEvents {
		if c.ToolEvents[i].Name == name {
			return &c.ToolEvents[i]
		}
	}
	return nil
}

// Payload returns what an attribute of the event holds of the call: the attribute's value, or, for
// GenAI messages, the arguments or response of their tool part. ok is false when the value holds
// no tool part, or is not valid JSON nested at most maxDepth deep.
func (te *ToolEvent) Payload(v pcommon.Value, result bool, maxDepth int) ([]byte, bool) {
	raw := valueBytes(v)
	if !te.Parts {
		return raw, true
	}
	if !jsonraw.ValidDepth(raw, maxDepth) || !jsonraw.IsContainer(raw) {
		return nil, false
	}
	isType, fields := message.IsCallType, []string{"arguments"}
	if result {
		isType, fields = message.IsResultType, []string{"response", "result"}
	}
	return toolPart(raw, isType, fields)
}

// toolPart finds, in valid GenAI messages ([{"role","parts":[..]}]), the first part whose type isType
// accepts, and returns its first member named in fields. The messages are validated already: each
// object is read once, without validating it again.
func toolPart(messages []byte, isType func(string) bool, fields []string) (payload []byte, found bool) {
	if messages[jsonraw.SkipSpace(messages, 0)] != '[' {
		return nil, false
	}
	jsonraw.EachElement(messages, func(msg []byte, _ int) {
		if found || msg[0] != '{' {
			return
		}
		seen := false // a repeated member counts once, its first time, as a lookup would find it
		jsonraw.EachMember(msg, func(m jsonraw.Member) {
			if seen || !jsonraw.StringIs(m.Key, "parts") {
				return
			}
			if seen = true; m.Value[0] != '[' {
				return
			}
			jsonraw.EachElement(m.Value, func(part []byte, _ int) {
				if !found && part[0] == '{' {
					payload, found = partPayload(part, isType, fields)
				}
			})
		})
	})
	return payload, found
}

// partPayload returns a part's member named first in fields when isType accepts its type (a repeated
// member counts its first time).
func partPayload(part []byte, isType func(string) bool, fields []string) (payload []byte, found bool) {
	typed, typeSeen, rank := false, false, len(fields)
	jsonraw.EachMember(part, func(m jsonraw.Member) {
		if jsonraw.StringIs(m.Key, "type") {
			if !typeSeen {
				typed, typeSeen = isType(message.JSONNode(m.Value, 0).Text()), true
			}
			return
		}
		for i, f := range fields[:rank] {
			if jsonraw.StringIs(m.Key, f) {
				payload, rank = m.Value, i
				break
			}
		}
	})
	return payload, typed && payload != nil
}

// EventCall finds a tool call's arguments and result on the events of its span, where its convention
// writes them there. ok is false for what no event holds in a form the convention says.
func (r *Registry) EventCall(v View, events ptrace.SpanEventSlice) (args, result []byte, argsOK, resultOK bool) {
	if v.Convention == nil || len(v.Convention.ToolEvents) == 0 {
		return nil, nil, false, false
	}
	for i := 0; i < events.Len(); i++ {
		e := events.At(i)
		te := v.Convention.ToolEvent(e.Name())
		if te == nil {
			continue
		}
		attrs := e.Attributes()
		if val, ok := attrs.Get(te.Arguments); te.Arguments != "" && ok && !argsOK {
			args, argsOK = te.Payload(val, false, r.maxDepth)
		}
		if val, ok := attrs.Get(te.Result); te.Result != "" && ok && !resultOK {
			result, resultOK = te.Payload(val, true, r.maxDepth)
		}
	}
	if resultOK {
		result = r.ReadResult(v, result)
	}
	return args, result, argsOK, resultOK
}
