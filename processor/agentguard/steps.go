// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"strconv"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/digest"
	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/progress"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// stepOf turns a tool span or record into the step the progress state machine judges: the digests of
// its call and result, what the result brought (its units) and what the call names (its items),
// whether it failed, and the declared state, wait state, plan and goal values it carries. It is pure
// and runs outside the lock; the units and items go to the batch's arena.
func (g *guard) stepOf(dst *progress.Step, c carrier, v agentspan.View, scratch *digest.Scratch, arena *[]uint64) {
	attrs := c.attrs()
	result, readable := g.registry.Result(v, attrs)
	args, argsReadable := g.registry.Args(v, attrs)
	if !readable || !argsReadable {
		// Some conventions write the call on the span's events instead.
		eventArgs, eventResult, hasArgs, hasResult := g.registry.EventCall(v, c.events())
		if !readable && hasResult {
			result, readable = eventResult, true
		}
		if !argsReadable && hasArgs {
			args, argsReadable = eventArgs, true
		}
	}
	msg, failed := c.failed()
	g.step(dst, &toolCall{tool: v.Tool, args: args, argsReadable: argsReadable, result: result, readable: readable,
		failed: failed, failure: msg, attrs: attrs, start: c.start().AsTime()}, scratch, arena)
}

// toolCall is what was read of one tool call, wherever it was read: a tool span, a tool record, or a
// model call's request.
type toolCall struct {
	tool                   string
	args, result           []byte
	argsReadable, readable bool
	// failed: the span's status says the call failed, with failure its message.
	failed  bool
	failure string
	// attrs are the span's or record's, where a declared field may be found; a request has none.
	attrs pcommon.Map
	start time.Time
}

// noAttrs is the attributes of a call read from a request: none.
var noAttrs = pcommon.NewMap()

// step digests a call into the step the state machine judges, written into s in place: a step is
// 240 bytes, and built on the stack and copied it would take them twice more under the pipeline's
// deepest calls (docs/benchmarks-log.md, "Stack growth").
func (g *guard) step(s *progress.Step, c *toolCall, scratch *digest.Scratch, arena *[]uint64) {
	digested := g.normaliser.Call(c.tool, c.args, scratch)
	*s = progress.Step{}
	s.Tool, s.Start = g.toolEntry(c.tool), c.start
	s.CallKey, s.Pause = digested.Key, digested.Pause
	s.Items = keep(arena, scratch.Items())
	s.Unread, s.NoCallKey = !c.readable, !c.argsReadable
	s.Result = g.normaliser.Answer(c.result, scratch)
	s.Units = keep(arena, scratch.Units())
	s.Channel, s.Waiting, s.Brief = s.Result.Channel, s.Result.Waiting, s.Result.Brief
	switch {
	case c.failed:
		// The step's outcome is its error: what it holds is what the step brought.
		msg := g.normaliser.Answer(zerocopy.Bytes(c.failure), scratch)
		s.Failed, s.ErrorKey = true, msg.Sum
		s.Units = keep(arena, scratch.Units())
		s.Channel, s.Brief = s.Channel || msg.Channel, msg.Brief
	case c.readable && s.Result.Failed:
		s.Failed, s.ErrorKey = true, s.Result.Sum
	}
	if tool, ok := g.cfg.Tools[s.Tool]; ok {
		if tool.StateField != "" {
			s.State, s.HasState = fieldOrAttr(c.result, c.attrs, tool.StateField)
		}
		if tool.ProgressField != "" {
			s.WaitState, s.HasWaitState = fieldOrAttr(c.result, c.attrs, tool.ProgressField)
		}
	}
	if g.cfg.PlanAttribute != "" {
		s.Plan, s.HasPlan = number(c.attrs, g.cfg.PlanAttribute)
	}
	if g.cfg.GoalAttribute != "" {
		s.Goal, s.HasGoal = number(c.attrs, g.cfg.GoalAttribute)
		s.GoalTarget = g.cfg.GoalTarget
	}
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

// modelCallOf reads a model span's or record's reply: why it stopped, and whether it was empty.
func (g *guard) modelCallOf(c carrier, v agentspan.View) progress.ModelCall {
	reply := g.registry.Reply(v, c.attrs())
	if reply.Finish == agentspan.FinishUnknown {
		// Some conventions write the reply on the span's events instead.
		if onEvents, ok := g.registry.EventReply(v, c.attrs(), c.events()); ok {
			reply = onEvents
		}
	}
	return modelCall(reply, c.start())
}

// modelCall is the state machine's view of a reply.
func modelCall(reply agentspan.Reply, start pcommon.Timestamp) progress.ModelCall {
	return progress.ModelCall{
		Start:      start.AsTime(),
		Finish:     finishes[reply.Finish],
		Empty:      reply.Empty,
		EmptyKnown: reply.Known,
	}
}

// tokensOf is the state machine's view of a model call's usage.
func tokensOf(t agentspan.Tokens) progress.Tokens {
	return progress.Tokens{Input: t.Input, Output: t.Output, CachedInput: t.CachedInput}
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
