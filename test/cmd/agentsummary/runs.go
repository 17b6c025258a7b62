// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/annotation"
)

// agentRun is one trace as agentguard annotated it on the spans the collector exported.
type agentRun struct {
	trace      pcommon.TraceID
	convention string
	agent      string
	// stuck counts the run's stuck episodes by reason, in the order they began.
	stuck                        []episodes
	outcome                      string // empty while the run has not ended
	rounds                       int64
	steps, exemptPolls, unjudged int
	cutOffs, toolFailures        int64
	// tokens are what the run's model calls cost, when its root span says (tokens.known), and how many
	// of them it spent barren, stuck and waiting.
	tokens runTokens
}

// runTokens is a run's cost as its root span states it: the total of the three directions, and the
// shares spent in the states the summary names, turned back into tokens.
type runTokens struct {
	known                         bool
	total, barren, stuck, waiting int64
}

func tokensOf(attrs pcommon.Map) runTokens {
	if _, ok := attrs.Get(annotation.TokensInput); !ok {
		return runTokens{}
	}
	t := runTokens{known: true, total: intOf(attrs, annotation.TokensInput) + intOf(attrs, annotation.TokensOutput) +
		intOf(attrs, annotation.TokensCachedInput)}
	of := func(key string) int64 {
		v, _ := attrs.Get(key)
		return int64(math.Round(v.Double() * float64(t.total)))
	}
	t.barren, t.stuck, t.waiting = of(annotation.TokensBarrenShare), of(annotation.TokensStuckShare), of(annotation.TokensWaitingShare)
	return t
}

// String is the run's tokens, with those spent barren, stuck or waiting when there are any.
func (t runTokens) String() string {
	if !t.known {
		return "-"
	}
	var parts []string
	for _, p := range []struct {
		name string
		n    int64
	}{{"barren", t.barren}, {"stuck", t.stuck}, {"waiting", t.waiting}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", p.name, p.n))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprint(t.total)
	}
	return fmt.Sprintf("%d (%s)", t.total, strings.Join(parts, ", "))
}

type episodes struct {
	reason string
	n      int
}

// runOf reads a trace's annotations. The agent is named as agentguard names it: by an agent span, else
// by any span, else by the service that sent it.
func runOf(id pcommon.TraceID, c *capture) agentRun {
	r := agentRun{trace: id, convention: "unknown"}
	var agentFromAgentSpan, agentFromSpan, service string
	for _, ref := range c.byTrace[id] {
		view := recognize(ref)
		attrs := ref.span.Attributes()
		if r.convention == "unknown" || ref.span.ParentSpanID().IsEmpty() && view.Convention != nil {
			r.convention = view.ConventionName()
		}
		switch {
		case view.Agent != "" && view.Role == agentspan.RoleAgent && agentFromAgentSpan == "":
			agentFromAgentSpan = view.Agent
		case view.Agent != "" && agentFromSpan == "":
			agentFromSpan = view.Agent
		}
		if name, ok := ref.resource.Attributes().Get("service.name"); ok && service == "" {
			service = name.Str()
		}
		if _, ok := attrs.Get(annotation.Step); ok {
			r.steps++
		}
		if v, ok := attrs.Get(annotation.WaitExempt); ok && v.Bool() {
			r.exemptPolls++
		}
		if v, ok := attrs.Get(annotation.Judged); ok && !v.Bool() {
			r.unjudged++
		}
		if v, ok := attrs.Get(annotation.Outcome); ok {
			r.outcome = v.Str()
			r.rounds = intOf(attrs, annotation.Rounds)
			r.cutOffs = intOf(attrs, annotation.CutOffs)
			r.toolFailures = intOf(attrs, annotation.ToolFailures)
			r.tokens = tokensOf(attrs)
		}
		for _, event := range ref.span.Events().All() {
			if event.Name() != annotation.StuckEvent {
				continue
			}
			reason := "unknown"
			if v, ok := event.Attributes().Get(annotation.EventReason); ok {
				reason = v.Str()
			}
			r.addEpisode(reason)
		}
	}
	r.agent = firstNonEmpty(agentFromAgentSpan, agentFromSpan, service, "unknown")
	return r
}

func (r *agentRun) addEpisode(reason string) {
	for i := range r.stuck {
		if r.stuck[i].reason == reason {
			r.stuck[i].n++
			return
		}
	}
	r.stuck = append(r.stuck, episodes{reason, 1})
}

func intOf(attrs pcommon.Map, key string) int64 {
	if v, ok := attrs.Get(key); ok {
		return v.Int()
	}
	return 0
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// verdict is what agentguard concluded: the reasons a run was stuck, or that it was never flagged.
func (r agentRun) verdict() string {
	if len(r.stuck) == 0 {
		return "not flagged"
	}
	var reasons []string
	for _, e := range r.stuck {
		if e.n > 1 {
			reasons = append(reasons, fmt.Sprintf("%s ×%d", e.reason, e.n))
		} else {
			reasons = append(reasons, e.reason)
		}
	}
	return "stuck: " + strings.Join(reasons, ", ")
}

// notes are what else agentguard wrote that a reader checks the verdict against.
func (r agentRun) notes() string {
	var notes []string
	if r.exemptPolls > 0 {
		notes = append(notes, plural(int64(r.exemptPolls), "exempt poll", "exempt polls")+" (declared wait)")
	}
	if r.unjudged > 0 {
		notes = append(notes, fmt.Sprintf("%d of %d steps unjudged (result unreadable)", r.unjudged, r.steps))
	}
	if r.cutOffs > 0 {
		notes = append(notes, plural(r.cutOffs, "reply", "replies")+" cut off")
	}
	if r.toolFailures > 0 {
		notes = append(notes, plural(r.toolFailures, "tool call", "tool calls")+" failed")
	}
	return strings.Join(notes, "; ")
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// summarizeRuns lists every run in the order it was sent, healthy ones included.
func summarizeRuns(w io.Writer, order []pcommon.TraceID, exported *capture) {
	fmt.Fprintln(w, "== agentguard: every run, as annotated on the spans the collector exported ==")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TRACE ID\tCONVENTION\tAGENT\tVERDICT\tOUTCOME\tROUNDS\tTOKENS\tNOTES")
	for _, id := range order {
		if _, ok := exported.byTrace[id]; !ok {
			continue
		}
		r := runOf(id, exported)
		outcome, rounds := "(running)", "-"
		if r.outcome != "" {
			outcome, rounds = r.outcome, fmt.Sprint(r.rounds)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.trace, r.convention, r.agent, r.verdict(), outcome, rounds, r.tokens, r.notes())
	}
	tw.Flush()
}
