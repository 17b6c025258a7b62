// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"math"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/progress"
)

// annotateStep writes the verdict on a tool span or record; the step where a run becomes stuck also
// gets one agentguard.stuck event on a span (a count connector turns episodes into a pipeline metric)
// and agentguard.new_episode on a record, which has no events. An unjudged step says only that. The
// step is named with its run only when its trace does not say which run it is (nameRun); the event
// always is.
func annotateStep(c carrier, v progress.Verdict, agent, run string, nameRun bool) {
	writeVerdict(c.attrs(), v, run, nameRun)
	if v.NewEpisode {
		episode(c, c.attrs(), v, agent, run)
	}
}

// writeVerdict writes a step's verdict attributes.
func writeVerdict(attrs pcommon.Map, v progress.Verdict, run string, nameRun bool) {
	n := 2 // step, and judged or progress
	if !v.Unjudged {
		n += 2 + count(v.WaitExempt) + count(v.Waiting) + count(v.Stuck != progress.ReasonNone)
	}
	reserve(attrs, n+count(nameRun))
	attrs.PutInt(annotation.Step, int64(v.Step))
	if nameRun {
		attrs.PutStr(annotation.Run, run)
	}
	if v.Unjudged {
		attrs.PutBool(annotation.Judged, false)
		return
	}
	attrs.PutBool(annotation.Progress, v.Progress)
	attrs.PutStr(annotation.Signals, v.Signals.String())
	attrs.PutInt(annotation.Barren, int64(v.Barren))
	if v.WaitExempt {
		attrs.PutBool(annotation.WaitExempt, true)
	}
	if v.Waiting {
		attrs.PutBool(annotation.Waiting, true)
	}
	if v.Stuck != progress.ReasonNone {
		attrs.PutStr(annotation.Stuck, string(v.Stuck))
	}
}

// episode marks the step that opened a stuck episode: an event on a span, an attribute on a record
// (attrs, where the step's verdict is written).
func episode(c carrier, attrs pcommon.Map, v progress.Verdict, agent, run string) {
	if c.isRecord {
		attrs.PutBool(annotation.NewEpisode, true)
		attrs.PutInt(annotation.EpisodeTokens, v.EpisodeTokens)
		return
	}
	e := c.span.Events().AppendEmpty()
	e.SetName(annotation.StuckEvent)
	e.SetTimestamp(c.span.EndTimestamp())
	e.Attributes().PutStr(annotation.EventReason, string(v.Stuck))
	e.Attributes().PutStr(annotation.EventAgentName, agent)
	e.Attributes().PutInt(annotation.EventBarren, int64(v.Barren))
	e.Attributes().PutStr(annotation.EventRun, run)
	e.Attributes().PutInt(annotation.EpisodeTokens, v.EpisodeTokens)
}

// annotatePending marks a tool call whose result its own span or record does not show: unjudged
// here, judged where its result is read (the next model call's request).
func annotatePending(attrs pcommon.Map, run string, nameRun bool) {
	reserve(attrs, 1+count(nameRun))
	attrs.PutBool(annotation.Judged, false)
	if nameRun {
		attrs.PutStr(annotation.Run, run)
	}
}

// roundCarrier is where a step read from a request is annotated: the per-message record that carried
// its result, or the model call's span or record.
func roundCarrier(e *event, rs *roundStep, buf *buffers) carrier {
	if e.kind == eventRequest {
		return recordCarrier(buf.records[e.firstRecord+rs.record])
	}
	return e.carrier
}

// annotateRoundStep writes the verdict of a step read from a request: on a span, as an
// agentguard.step event naming the tool and call, since the span is the model call's; on a record,
// as attributes.
func annotateRoundStep(c carrier, rs *roundStep, agent, run string, nameRun bool) {
	attrs := c.attrs()
	if !c.isRecord {
		e := c.span.Events().AppendEmpty()
		e.SetName(annotation.StepEvent)
		e.SetTimestamp(c.span.StartTimestamp())
		attrs = e.Attributes()
		attrs.PutStr(annotation.EventTool, rs.step.Tool)
		if rs.callID != "" {
			attrs.PutStr(annotation.EventCallID, rs.callID)
		}
	}
	writeVerdict(attrs, rs.verdict, run, nameRun)
	if rs.verdict.NewEpisode {
		episode(c, attrs, rs.verdict, agent, run)
	}
}

// annotateModel writes what a model call's reply was, and names its run when its trace does not say
// which run it is (nameRun).
func annotateModel(attrs pcommon.Map, v progress.ModelVerdict, c progress.ModelCall, run string, nameRun bool) {
	reserve(attrs, 2+count(nameRun)+count(v.Empty)+count(v.Continuation))
	attrs.PutInt(annotation.Round, int64(v.Round))
	attrs.PutStr(annotation.Finish, finishNames[c.Finish])
	if nameRun {
		attrs.PutStr(annotation.Run, run)
	}
	if v.Empty {
		attrs.PutBool(annotation.Empty, true)
	}
	if v.Continuation {
		attrs.PutBool(annotation.Continuation, true)
	}
}

// annotateRoot writes how the run ended on the root span that ended it.
func annotateRoot(span ptrace.Span, s progress.Summary, run string) {
	attrs := span.Attributes()
	reserve(attrs, 5+count(!math.IsNaN(s.TurnEfficiency))+tokenAttributes(&s.Tokens))
	attrs.PutStr(annotation.Outcome, string(s.Outcome))
	attrs.PutInt(annotation.Rounds, int64(s.Rounds))
	if !math.IsNaN(s.TurnEfficiency) {
		attrs.PutDouble(annotation.TurnEfficiency, s.TurnEfficiency)
	}
	attrs.PutInt(annotation.CutOffs, int64(s.CutOffs))
	attrs.PutInt(annotation.ToolFailures, int64(s.ToolFailures))
	attrs.PutStr(annotation.Run, run)
	annotateTokens(attrs, &s.Tokens)
}

// annotateTokens writes what a run's model calls cost, when they carried usage (a run whose calls
// carried none did not cost nothing: what it cost is not known): its tokens in each direction, and the
// shares spent barren, stuck and waiting that are above zero (each Put allocates its value, and most
// runs spend nothing stuck).
func annotateTokens(attrs pcommon.Map, t *progress.Spend) {
	if t.Total() == 0 {
		return
	}
	attrs.PutInt(annotation.TokensInput, t.Input)
	attrs.PutInt(annotation.TokensOutput, t.Output)
	attrs.PutInt(annotation.TokensCachedInput, t.CachedInput)
	for _, s := range tokenShares {
		if share := t.Share(s.state); share > 0 {
			attrs.PutDouble(s.key, share)
		}
	}
}

// tokenShares are the states whose share of a run's tokens the root span states, and their keys.
var tokenShares = []struct {
	state progress.State
	key   string
}{
	{progress.StateBarren, annotation.TokensBarrenShare},
	{progress.StateStuck, annotation.TokensStuckShare},
	{progress.StateWaiting, annotation.TokensWaitingShare},
}

// tokenAttributes is how many attributes annotateTokens writes.
func tokenAttributes(t *progress.Spend) int {
	if t.Total() == 0 {
		return 0
	}
	n := 3
	for _, s := range tokenShares {
		n += count(t.ByState[s.state] > 0)
	}
	return n
}

// reserve makes room for n more attributes at once: each Put past the capacity would copy every
// attribute again. It asks for no more than is written, since a span decoded from OTLP often has room
// to spare (its attributes were appended one by one) and a larger request would copy them all anyway.
func reserve(attrs pcommon.Map, n int) { attrs.EnsureCapacity(attrs.Len() + n) }

func count(b bool) int {
	if b {
		return 1
	}
	return 0
}

// finishNames label the finish reasons in annotations and metrics.
var finishNames = map[progress.Finish]string{
	progress.FinishUnknown:       "unknown",
	progress.FinishStop:          "stop",
	progress.FinishToolCalls:     "tool_calls",
	progress.FinishLength:        "length",
	progress.FinishContentFilter: "content_filter",
	progress.FinishError:         "error",
	progress.FinishOther:         "other",
}
