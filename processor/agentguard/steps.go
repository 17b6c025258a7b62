// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"strconv"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/digest"
	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/progress"
)

// stepOf turns a tool span into the step the progress state machine judges: the digests of its call
// and result, whether it failed, and the declared state, wait state, plan and goal values it carries.
// It is pure and runs outside the lock.
func (g *guard) stepOf(span ptrace.Span, v agentspan.View, scratch *digest.Scratch) progress.Step {
	attrs := span.Attributes()
	result, readable := g.registry.Result(v, attrs)
	args, argsReadable := agentspan.Args(v, attrs)
	if !readable || !argsReadable {
		// Some conventions write the call on the span's events instead.
		eventArgs, eventResult, hasArgs, hasResult := g.registry.EventCall(v, span.Events())
		if !readable && hasResult {
			result, readable = eventResult, true
		}
		if !argsReadable && hasArgs {
			args, argsReadable = eventArgs, true
		}
	}
	s := progress.Step{
		Tool:      v.Tool,
		Start:     span.StartTimestamp().AsTime(),
		CallKey:   g.normaliser.Key(v.Tool, args, scratch),
		Result:    g.normaliser.Of(result, scratch),
		Unread:    !readable,
		NoCallKey: !argsReadable,
	}
	switch {
	case span.Status().Code() == ptrace.StatusCodeError:
		s.Failed = true
		s.ErrorKey = g.normaliser.Key("error", jsonraw.StringBytes(span.Status().Message()), scratch)
	case readable:
		if msg, ok := g.errorOnly(result); ok {
			s.Failed = true
			s.ErrorKey = g.normaliser.Key("error", msg, scratch)
		}
	}
	if tool, ok := g.cfg.Tools[v.Tool]; ok {
		if tool.StateField != "" {
			s.State, s.HasState = fieldOrAttr(result, attrs, tool.StateField)
		}
		if tool.ProgressField != "" {
			s.WaitState, s.HasWaitState = fieldOrAttr(result, attrs, tool.ProgressField)
		}
	}
	if g.cfg.PlanAttribute != "" {
		s.Plan, s.HasPlan = number(attrs, g.cfg.PlanAttribute)
	}
	if g.cfg.GoalAttribute != "" {
		s.Goal, s.HasGoal = number(attrs, g.cfg.GoalAttribute)
		s.GoalTarget = g.cfg.GoalTarget
	}
	return s
}

// errorOnly reports whether a result is a tool's caught failure: an object whose only key, once
// volatile fields are set aside, is "error" ({"error": "upstream 503"}), as agent loops return a
// tool's exception to the model. It returns the error's bytes.
func (g *guard) errorOnly(result []byte) ([]byte, bool) {
	if len(result) == 0 || result[0] != '{' {
		return nil, false
	}
	var msg []byte
	other := false
	err := jsonraw.Members(result, func(m jsonraw.Member) bool {
		switch {
		case jsonraw.StringIs(m.Key, "error"):
			msg = m.Value
		case !g.volatile(m.Key):
			other = true
		}
		return !other
	})
	if err != nil || other || msg == nil {
		return nil, false
	}
	// {"error": null} or {"error": false} says there was none.
	switch string(msg) {
	case "null", "false", `""`:
		return nil, false
	}
	return msg, true
}

// volatile reports whether a raw quoted key names a volatile field (a timestamp, a request id).
func (g *guard) volatile(key []byte) bool {
	for _, f := range g.cfg.VolatileFields {
		if jsonraw.StringIs(key, f) {
			return true
		}
	}
	return false
}

// modelCallOf reads a model span's reply: why it stopped, and whether it was empty.
func (g *guard) modelCallOf(span ptrace.Span, v agentspan.View) progress.ModelCall {
	reply := g.registry.Reply(v, span.Attributes())
	if reply.Finish == agentspan.FinishUnknown {
		// Some conventions write the reply on the span's events instead.
		if onEvents, ok := g.registry.EventReply(v, span.Attributes(), span.Events()); ok {
			reply = onEvents
		}
	}
	return progress.ModelCall{
		Start:      span.StartTimestamp().AsTime(),
		Finish:     finishes[reply.Finish],
		Empty:      reply.Empty,
		EmptyKnown: reply.Known,
	}
}

// finishes maps recognition's finish reasons onto the state machine's.
var finishes = map[agentspan.Finish]progress.Finish{
	agentspan.FinishUnknown:       progress.FinishUnknown,
	agentspan.FinishStop:          progress.FinishStop,
	agentspan.FinishToolCalls:     progress.FinishToolCalls,
	agentspan.FinishLength:        progress.FinishLength,
	agentspan.FinishContentFilter: progress.FinishContentFilter,
	agentspan.FinishError:         progress.FinishError,
	agentspan.FinishOther:         progress.FinishOther,
}

// fieldOrAttr reads a declared field from the JSON result, or else from a span attribute of that name.
func fieldOrAttr(result []byte, attrs pcommon.Map, field string) (string, bool) {
	if raw, ok := jsonraw.Field(result, field); ok {
		if text, ok := jsonraw.Text(raw); ok {
			return text, true
		}
	}
	if v, ok := attrs.Get(field); ok {
		return v.AsString(), true
	}
	return "", false
}

func number(attrs pcommon.Map, key string) (float64, bool) {
	v, ok := attrs.Get(key)
	if !ok {
		return 0, false
	}
	switch v.Type() {
	case pcommon.ValueTypeInt:
		return float64(v.Int()), true
	case pcommon.ValueTypeDouble:
		return v.Double(), true
	case pcommon.ValueTypeStr:
		f, err := strconv.ParseFloat(v.Str(), 64)
		return f, err == nil
	}
	return 0, false
}
