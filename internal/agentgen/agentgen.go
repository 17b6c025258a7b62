// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package agentgen builds realistic AI-agent traces for named scenarios, so the
// stuck-run recogniser and the shape-only redaction can be exercised end to end
// against the span shapes each instrumentation really emits (docs/conventions.md).
//
// A scenario describes a run once, in a neutral form (tool calls, results, the
// transcript so far); a convention writer turns that description into spans.
package agentgen

import (
	"fmt"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Convention names the instrumentation whose span shapes a run is emitted in.
type Convention string

const (
	GenAI         Convention = "genai"
	OpenInference Convention = "openinference"
	Vercel        Convention = "vercel"
	OpenLLMetry   Convention = "openllmetry"
)

// Unknown is an SDK agentotel does not know. Its tool spans name the tool and
// the call the GenAI way (gen_ai.tool.name, gen_ai.tool.call.id), so they are
// recognised as tool calls, but its arguments, results and transcripts sit in
// attributes no convention reads, and no span says gen_ai.operation.name. A
// detector that cannot read the results must judge nothing: a Run's
// expectations say what the known conventions show. It is not among
// Conventions().
const Unknown Convention = "unknown"

// Conventions lists the conventions agentotel knows, GenAI (the default) first.
func Conventions() []Convention {
	return []Convention{GenAI, OpenInference, Vercel, OpenLLMetry}
}

// Run is one generated agent run: one trace plus what a detector should say about it.
type Run struct {
	ID, Agent, Scenario string
	Expect              string // "healthy" or "stuck"
	ExpectReason        string // "" or the stuck reason a detector should give
	// ExpectOutcome is how the run ended
	// (docs/design.md#7-how-a-run-ended-internalprogress-internalagentspanreplygo): answered, cut_off,
	// empty, failed, over_budget or stuck. It assumes the configuration Expect does, and a
	// run_budget of ExpectBudget (0: none).
	ExpectOutcome string
	ExpectBudget  time.Duration
	ExpectCounts  Counts
	Secrets       []string // customer values that must never survive shapeonly
	Traces        ptrace.Traces
	Spans         int
}

// Counts are what outcome accounting should count in a run.
type Counts struct {
	Rounds        int // model calls
	CutOffs       int // replies cut off at the output limit
	Continuations int // model calls right after a cut-off, with no tool call between
	EmptyReplies  int // replies with no text and no tool call
	ToolFailures  int // tool calls that failed
}

// Options selects the convention and makes a run reproducible.
type Options struct {
	Convention Convention // "" means GenAI
	Seed       uint64
	Base       time.Time // run start; zero means defaultBase, so a seed alone fixes the output
}

// defaultBase is the morning every run starts on when Options.Base is zero; a fixed
// instant keeps Generate deterministic when the caller does not care about time.
var defaultBase = time.Date(2026, 3, 17, 9, 0, 0, 0, time.UTC)

// Scenarios returns the scenario names in table order.
func Scenarios() []string {
	names := make([]string, len(scenarios))
	for i, sc := range scenarios {
		names[i] = sc.name
	}
	return names
}

// Generate builds one run of the named scenario with its fixed values (build ids, queries, agent
// names): only a Mixer varies them.
func Generate(scenario string, opts Options) (Run, error) {
	sc, ok := lookup(scenario)
	if !ok {
		return Run{}, fmt.Errorf("unknown scenario %q (allowed: %s)", scenario, strings.Join(Scenarios(), ", "))
	}
	w, err := writerFor(opts.Convention)
	if err != nil {
		return Run{}, err
	}
	return generate(sc, w, opts.Seed, baseOr(opts.Base), false), nil
}

func baseOr(t time.Time) time.Time {
	if t.IsZero() {
		return defaultBase
	}
	return t
}

// generate draws every random value of a run from one source seeded by seed,
// so the same seed always yields the same trace. vary randomises the values a
// scenario fixes (build ids, queries, agent names) so that mixed runs differ.
func generate(sc scenario, w writer, seed uint64, base time.Time, vary bool) Run {
	g := newGen(seed, sc.name, vary)
	agent := sc.agent
	if vary {
		agent += "-" + g.pick(agentSuffixes)
	}
	info := runInfo{id: "run_" + g.hex(16), agent: agent}
	sp := sc.build(g)
	info.task = sp.task
	if sp.fail == nil {
		replies := sp.closing()
		info.final = &replies[len(replies)-1]
	}
	td, spans := layout(w, g, info, sp, base)
	return Run{
		ID:            info.id,
		Agent:         agent,
		Scenario:      sc.name,
		Expect:        sc.expect,
		ExpectReason:  sc.reason,
		ExpectOutcome: sc.outcome,
		ExpectBudget:  sc.budget,
		ExpectCounts:  sp.counts(),
		Secrets:       sp.secrets,
		Traces:        td,
		Spans:         spans,
	}
}
