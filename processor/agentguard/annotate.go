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

// annotateStep writes the verdict on a tool span; the step where a run becomes stuck also gets one
// agentguard.stuck event, so a count connector can turn episodes into a pipeline metric. An unjudged
// step says only that. The span is named with its run only when its trace does not say which run it
// is (nameRun); the event always is.
func annotateStep(span ptrace.Span, v progress.Verdict, agent, run string, nameRun bool) {
	attrs := span.Attributes()
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
	if v.NewEpisode {
		e := span.Events().AppendEmpty()
		e.SetName(annotation.StuckEvent)
		e.SetTimestamp(span.EndTimestamp())
		e.Attributes().PutStr(annotation.EventReason, string(v.Stuck))
		e.Attributes().PutStr(annotation.EventAgentName, agent)
		e.Attributes().PutInt(annotation.EventBarren, int64(v.Barren))
		e.Attributes().PutStr(annotation.EventRun, run)
	}
}

// annotateModel writes what a model call's reply was, and names its run when its trace does not say
// which run it is (nameRun).
func annotateModel(span ptrace.Span, v progress.ModelVerdict, c progress.ModelCall, run string, nameRun bool) {
	attrs := span.Attributes()
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
	reserve(attrs, 5+count(!math.IsNaN(s.TurnEfficiency)))
	attrs.PutStr(annotation.Outcome, string(s.Outcome))
	attrs.PutInt(annotation.Rounds, int64(s.Rounds))
	if !math.IsNaN(s.TurnEfficiency) {
		attrs.PutDouble(annotation.TurnEfficiency, s.TurnEfficiency)
	}
	attrs.PutInt(annotation.CutOffs, int64(s.CutOffs))
	attrs.PutInt(annotation.ToolFailures, int64(s.ToolFailures))
	attrs.PutStr(annotation.Run, run)
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
