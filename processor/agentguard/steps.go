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
// and result, what the result brought (its units) and what the call names (its items), whether it
// failed, and the declared state, wait state, plan and goal values it carries. It is pure and runs
// outside the lock; the units and items go to the batch's arena.
func (g *guard) stepOf(span ptrace.Span, v agentspan.View, scratch *digest.Scratch, arena *[]uint64) progress.Step {
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
	call := g.normaliser.Call(v.Tool, args, scratch)
	s := progress.Step{
		Tool:      g.toolEntry(v.Tool),
		Start:     span.StartTimestamp().AsTime(),
		CallKey:   call.Key,
		Pause:     call.Pause,
		Items:     keep(arena, scratch.Items()),
		Unread:    !readable,
		NoCallKey: !argsReadable,
	}
	s.Result = g.normaliser.Answer(result, scratch)
	s.Units = keep(arena, scratch.Units())
	s.Channel, s.Waiting, s.Brief = s.Result.Channel, s.Result.Waiting, s.Result.Brief
	switch {
	case span.Status().Code() == ptrace.StatusCodeError:
		// The step's outcome is its error: what it holds is what the step brought.
		msg := g.normaliser.Answer(jsonraw.StringBytes(span.Status().Message()), scratch)
		s.Failed, s.ErrorKey = true, msg.Sum
		s.Units = keep(arena, scratch.Units())
		s.Channel, s.Brief = s.Channel || msg.Channel, msg.Brief
	case readable && s.Result.Failed:
		s.Failed, s.ErrorKey = true, s.Result.Sum
	}
	if tool, ok := g.cfg.Tools[s.Tool]; ok {
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

// toolEntry is the tools entry a tool's name names, behind a namespace too (internal/toolname:
// mcp__ci__get_build_status is get_build_status), or the name itself when no entry does. An entry
// named exactly as the telemetry names the tool wins.
func (g *guard) toolEntry(name string) string {
	if _, ok := g.cfg.Tools[name]; ok || len(g.cfg.Tools) == 0 {
		return name
	}
	if t, ok := g.toolNames.Resolve(name); ok {
		return g.toolKeys[t]
	}
	return name
}

// keep copies fingerprints into the batch's arena and returns the copy (nil when there are none).
// Appending may move the arena; the slices taken before keep the array they were cut from.
func keep(arena *[]uint64, fps []uint64) []uint64 {
	if len(fps) == 0 {
		return nil
	}
	start := len(*arena)
	*arena = append(*arena, fps...)
	return (*arena)[start:len(*arena):len(*arena)]
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
