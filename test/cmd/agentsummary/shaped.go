// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentspan"
)

// What a changed value was to its span, as recognition reads the span. Listed in this order.
const (
	kindResult     = "tool results"
	kindArguments  = "tool arguments"
	kindTranscript = "in model transcripts"
	kindOther      = "other values"
)

var changeKinds = []string{kindResult, kindArguments, kindTranscript, kindOther}

// change is one value the collector exported differently from how it received it.
type change struct {
	trace         pcommon.TraceID
	span          ptrace.Span
	view          agentspan.View
	where         string // the attribute key, "event <name>: <key>", "span name" or "status message"
	before, after string
	kind          string
}

// comparison is what the processors changed between the spans the collector received and those it
// exported. Attributes the processors added (agentguard's annotations) are not changes.
type comparison struct {
	changes []change
	// missing counts received spans that were not exported.
	missing int
	// ids counts the run, session and tool-call ids received, and idsChanged those exported changed.
	ids        int
	idsChanged []change
}

func compare(received, exported *capture) comparison {
	var cmp comparison
	idKeys := agentspan.Default.IDKeys()
	for _, id := range received.traces {
		for _, in := range received.byTrace[id] {
			out, ok := exported.byKey[spanKey{id, in.span.SpanID()}]
			if !ok {
				cmp.missing++
				continue
			}
			view := recognize(in)
			add := func(where string, before, after string) (change, bool) {
				if before == after {
					return change{}, false
				}
				c := change{trace: id, span: in.span, view: view, where: where, before: before, after: after, kind: kindOf(view, where)}
				cmp.changes = append(cmp.changes, c)
				return c, true
			}
			add("span name", in.span.Name(), out.span.Name())
			add("status message", in.span.Status().Message(), out.span.Status().Message())
			for key, before := range in.span.Attributes().All() {
				c, changed := add(key, before.AsString(), valueOf(out.span.Attributes(), key))
				if slices.Contains(idKeys, key) {
					cmp.ids++
					if changed {
						cmp.idsChanged = append(cmp.idsChanged, c)
					}
				}
			}
			// agentguard appends its events after the span's own, so the span's own keep their places.
			for i, event := range in.span.Events().All() {
				if i >= out.span.Events().Len() {
					add("event "+event.Name(), event.Name(), "(removed)")
					continue
				}
				outEvent := out.span.Events().At(i)
				add("event name", event.Name(), outEvent.Name())
				for key, before := range event.Attributes().All() {
					add("event "+event.Name()+": "+key, before.AsString(), valueOf(outEvent.Attributes(), key))
				}
			}
		}
	}
	return cmp
}

func valueOf(attrs pcommon.Map, key string) string {
	v, ok := attrs.Get(key)
	if !ok {
		return "(removed)"
	}
	return v.AsString()
}

func recognize(ref spanRef) agentspan.View {
	return agentspan.Default.Recognize(agentspan.Span{
		Scope: ref.scope.Name(),
		Name:  ref.span.Name(),
		Attrs: ref.span.Attributes(),
		Root:  ref.span.ParentSpanID().IsEmpty(),
	})
}

func kindOf(view agentspan.View, where string) string {
	switch {
	case view.Role == agentspan.RoleTool && where == view.ResultKey:
		return kindResult
	case view.Role == agentspan.RoleTool && where == view.ArgsKey:
		return kindArguments
	case view.Role == agentspan.RoleModel:
		return kindTranscript
	}
	return kindOther
}

// valueWidth is how much of a value the received and exported lines show: enough for a customer
// record's first fields, so that what was withheld is plain, on one line of a wide terminal.
const valueWidth = 110

// summarizeShaping shows one tool result and one transcript message as received and as exported, then
// counts every change in every run, and the ids that must survive shaping.
func summarizeShaping(w io.Writer, cmp comparison, order []pcommon.TraceID, exported *capture) {
	fmt.Fprintln(w, "== shapeonly: customer data withheld, its shape kept ==")
	result := firstChange(cmp.changes, func(c change) bool { return c.kind == kindResult })
	if result == nil {
		fmt.Fprintln(w, "no tool result was changed")
	} else {
		run := runOf(result.trace, exported)
		fmt.Fprintf(w, "%s run %s (%s): %s's result, %s on %q\n",
			run.agent, result.trace, run.convention, result.view.Tool, result.where, result.span.Name())
		printBeforeAfter(w, result.before, result.after)
		transcript := firstChange(cmp.changes, func(c change) bool { return c.trace == result.trace && c.kind == kindTranscript })
		if transcript != nil {
			where, before, after := transcriptMessage(*transcript)
			fmt.Fprintf(w, "in a later model call's transcript, %s on %q:\n", where, transcript.span.Name())
			printBeforeAfter(w, before, after)
		}
	}
	counts := map[string]int{}
	spans, runs := map[spanKey]bool{}, map[pcommon.TraceID]bool{}
	for _, c := range cmp.changes {
		counts[c.kind]++
		spans[spanKey{c.trace, c.span.SpanID()}] = true
		runs[c.trace] = true
	}
	var parts []string
	for _, kind := range changeKinds {
		if counts[kind] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[kind], kind))
		}
	}
	fmt.Fprintf(w, "changed: %d attributes on %d spans in %s", len(cmp.changes), len(spans), runsOf(runs, order, exported))
	if len(parts) > 0 {
		fmt.Fprintf(w, ": %s", strings.Join(parts, ", "))
	}
	fmt.Fprintln(w)
	if len(cmp.idsChanged) == 0 {
		fmt.Fprintf(w, "kept: every attribute of the other %d runs, and all %d run, session and tool-call ids\n", len(order)-len(runs), cmp.ids)
	} else {
		fmt.Fprintf(w, "kept: every attribute of the other %d runs; %d of %d run, session and tool-call ids, but these changed:\n",
			len(order)-len(runs), cmp.ids-len(cmp.idsChanged), cmp.ids)
	}
	for _, c := range cmp.idsChanged {
		fmt.Fprintf(w, "  %s on %q, trace %s: %q became %q\n", c.where, c.span.Name(), c.trace, c.before, c.after)
	}
	if cmp.missing > 0 {
		fmt.Fprintf(w, "not exported: %d of the spans received\n", cmp.missing)
	}
}

func firstChange(changes []change, match func(change) bool) *change {
	for i := range changes {
		if match(changes[i]) {
			return &changes[i]
		}
	}
	return nil
}

// transcriptMessage narrows a changed transcript to its first changed message, when the transcript is
// a JSON array of messages; a flattened transcript's attribute is one message already.
func transcriptMessage(c change) (where, before, after string) {
	var in, out []json.RawMessage
	if json.Unmarshal([]byte(c.before), &in) != nil || json.Unmarshal([]byte(c.after), &out) != nil {
		return c.where, c.before, c.after
	}
	for i := range in {
		if i >= len(out) || !bytes.Equal(in[i], out[i]) {
			after := "(removed)"
			if i < len(out) {
				after = string(out[i])
			}
			return fmt.Sprintf("%s, message %d of %d", c.where, i+1, len(in)), string(in[i]), after
		}
	}
	return c.where, c.before, c.after
}

// printBeforeAfter shows both values from a little before the first place they differ, so that
// what was withheld is in view however long the value is.
func printBeforeAfter(w io.Writer, before, after string) {
	start := 0
	for start < len(before) && start < len(after) && before[start] == after[start] {
		start++
	}
	start = max(0, start-valueContext)
	for start > 0 && !utf8.RuneStart(before[start]) {
		start--
	}
	fmt.Fprintf(w, "  received  %s\n  exported  %s\n", clip(before, start), clip(after, start))
}

// valueContext is how much of what both values share is shown before they differ.
const valueContext = 40

// clip shows valueWidth runes of s from byte start, marking what it leaves out.
func clip(s string, start int) string {
	prefix := ""
	if start > 0 {
		prefix = "…"
	}
	r := []rune(s[start:])
	if len(r) > valueWidth {
		return prefix + string(r[:valueWidth-1]) + "…"
	}
	return prefix + string(r)
}

// runsOf counts runs and names their agents, each once, in the order the runs were sent.
func runsOf(runs map[pcommon.TraceID]bool, order []pcommon.TraceID, exported *capture) string {
	var agents []string
	for _, id := range order {
		if runs[id] {
			if agent := runOf(id, exported).agent; !slices.Contains(agents, agent) {
				agents = append(agents, agent)
			}
		}
	}
	switch len(agents) {
	case 0:
		return "no run"
	case 1:
		return fmt.Sprintf("%s of agent %s", plural(int64(len(runs)), "run", "runs"), agents[0])
	}
	return fmt.Sprintf("%s of agents %s", plural(int64(len(runs)), "run", "runs"), strings.Join(agents, ", "))
}
