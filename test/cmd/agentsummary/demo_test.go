// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap/confmaptest"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processortest"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/repo"
	"github.com/agentotel/agentotel/internal/statestore/statestoretest"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/processor/agentguard"
	"github.com/agentotel/agentotel/processor/shapeonly"
)

// demoRun is a generated run and the convention it was written in.
type demoRun struct {
	agentgen.Run
	convention agentgen.Convention
}

// conventionNames are the names recognition gives agentgen's conventions.
var conventionNames = map[agentgen.Convention]string{
	agentgen.GenAI: "genai", agentgen.OpenInference: "openinference", agentgen.Vercel: "vercel-ai", agentgen.OpenLLMetry: "openllmetry",
}

// runDemo does what make run does, without the network: the demo's runs go through agentguard and
// shapeonly configured as deploy/otelcol-agent.yaml configures them, one export request per run, and
// the spans are written as the demo's file exporters write them, before and after the processors.
func runDemo(t *testing.T) (runs []demoRun, received, exported string) {
	t.Helper()
	dir := t.TempDir()
	received, exported = filepath.Join(dir, "received.jsonl"), filepath.Join(dir, "exported.jsonl")
	sink := new(consumertest.TracesSink)
	shaper := startProcessor(t, shapeonly.NewFactory(), sink)
	guard := startProcessor(t, agentguard.NewFactory(), shaper)
	var before, after []ptrace.Traces
	seed := uint64(0)
	add := func(scenario string, convention agentgen.Convention) {
		seed++
		r, err := agentgen.Generate(scenario, agentgen.Options{Convention: convention, Seed: seed})
		require.NoError(t, err)
		in := ptrace.NewTraces()
		r.Traces.CopyTo(in)
		before = append(before, in)
		require.NoError(t, guard.ConsumeTraces(context.Background(), r.Traces))
		runs = append(runs, demoRun{r, convention})
	}
	for _, convention := range agentgen.Conventions() {
		for _, scenario := range []string{"deploy", "docs", "code", "support"} {
			add(scenario, convention)
		}
	}
	for _, scenario := range []string{"cutoff-left", "empty-left", "tool-throws", "failed-run"} {
		add(scenario, agentgen.GenAI)
	}
	after = sink.AllTraces()
	require.Len(t, after, len(before))
	writeCapture(t, received, before)
	writeCapture(t, exported, after)
	return runs, received, exported
}

// startProcessor starts a processor on the configuration deploy/otelcol-agent.yaml gives it.
func startProcessor(t *testing.T, factory processor.Factory, next consumer.Traces) processor.Traces {
	t.Helper()
	cm, err := confmaptest.LoadConf(filepath.Join(repo.Root(t), "deploy", "otelcol-agent.yaml"))
	require.NoError(t, err)
	sub, err := cm.Sub("processors::" + factory.Type().String())
	require.NoError(t, err)
	cfg := factory.CreateDefaultConfig()
	require.NoError(t, sub.Unmarshal(cfg))
	p, err := factory.CreateTraces(context.Background(), processortest.NewNopSettings(factory.Type()), cfg, next)
	require.NoError(t, err)
	// The host has the file_storage extension the config's processors keep their state on, in memory.
	host := statestoretest.Host{component.MustNewID("file_storage"): statestoretest.New()}
	require.NoError(t, p.Start(context.Background(), host))
	t.Cleanup(func() { require.NoError(t, p.Shutdown(context.Background())) })
	return p
}

func writeCapture(t *testing.T, path string, requests []ptrace.Traces) {
	t.Helper()
	var b strings.Builder
	for _, td := range requests {
		line, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
		require.NoError(t, err)
		b.Write(line)
		b.WriteByte('\n')
	}
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o600))
}

// demoSummary is what agentsummary prints for the demo's captures.
func demoSummary(t *testing.T, received, exported string) string {
	t.Helper()
	srv := metricsServer(`# TYPE otelcol_receiver_accepted_spans counter
otelcol_receiver_accepted_spans{receiver="otlp",transport="grpc"} 259
`)
	defer srv.Close()
	var out strings.Builder
	require.NoError(t, run(&out, options{metrics: srv.URL, timeout: 5 * time.Second, received: received, exported: exported}))
	return out.String()
}

// TestDemoShowsCustomerDataWithheld: the support run's customer record is shown as it was received and
// as it was exported, on the tool span and in a later transcript, and what changed elsewhere is counted
// by kind, with every id kept.
func TestDemoShowsCustomerDataWithheld(t *testing.T) {
	runs, received, exported := runDemo(t)
	got := demoSummary(t, received, exported)
	support := runs[3]
	require.Equal(t, "support", support.Scenario)
	traceID := support.Traces.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).TraceID().String()

	assert.Contains(t, got, fmt.Sprintf("support run %s (genai): find_customer's result, gen_ai.tool.call.result on \"execute_tool find_customer\"\n", traceID))
	name := support.Secrets[0]
	lines := strings.Split(got, "\n")
	var shown []string
	for i, line := range lines {
		if strings.HasPrefix(line, "  received  ") {
			require.Less(t, i+1, len(lines))
			shown = append(shown, line, lines[i+1])
			assert.Contains(t, line, name, "the received value shows the customer")
			assert.True(t, strings.HasPrefix(lines[i+1], "  exported  "), "exported follows received:\n%s", got)
			assert.NotContains(t, lines[i+1], name)
			assert.Contains(t, lines[i+1], `"rows":"[1 withheld]"`)
		}
	}
	assert.Len(t, shown, 4, "a tool result and a transcript message:\n%s", got)
	assert.Contains(t, got, "in a later model call's transcript, gen_ai.input.messages, message 3 of 3 on \"chat gpt-4.1\":\n")
	assert.Regexp(t, `\nchanged: \d+ attributes on \d+ spans in 4 runs of agent support: 4 tool results, 4 tool arguments, \d+ in model transcripts\n`, got)
	assert.Regexp(t, `\nkept: every attribute of the other 16 runs, and all \d+ run, session and tool-call ids\n`, got)
}

// TestDemoListsEveryRun: every run has its row, healthy ones included, with the verdict, outcome,
// rounds and tokens agentguard wrote on the exported spans, which must be what each scenario is known
// to be.
func TestDemoListsEveryRun(t *testing.T) {
	runs, received, exported := runDemo(t)
	got := demoSummary(t, received, exported)
	for _, r := range runs {
		traceID := r.Traces.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).TraceID().String()
		verdict := "not flagged"
		if r.Expect == "stuck" {
			verdict = "stuck: " + r.ExpectReason
		}
		row := regexp.MustCompile(fmt.Sprintf(`(?m)^%s +%s +%s +%s +%s +%d +(\d+(?: \([^)]*\))?)(.*)$`, traceID, conventionNames[r.convention],
			regexp.QuoteMeta(r.Agent), regexp.QuoteMeta(verdict), r.ExpectOutcome, r.ExpectCounts.Rounds))
		m := row.FindStringSubmatch(got)
		if !assert.NotNil(t, m, "no row for %s in %s, want %s", r.Scenario, r.convention, row) {
			continue
		}
		// Every generated model call carries its usage: every run's tokens are known, and the stuck ones
		// spent some stuck, the polling one some waiting.
		tokens, notes := m[1], m[2]
		switch {
		case r.Expect == "stuck":
			assert.Regexp(t, `^\d+ \(barren \d+, stuck \d+`, tokens, r.Scenario)
		case r.Scenario == "deploy":
			assert.Contains(t, tokens, "waiting", "the deploy run's polls cost tokens")
		}
		switch r.Scenario {
		case "deploy":
			assert.Contains(t, notes, "exempt poll", "the deploy run waits on its build")
		case "cutoff-left":
			assert.Contains(t, notes, fmt.Sprintf("%d replies cut off", r.ExpectCounts.CutOffs))
		case "tool-throws":
			assert.Contains(t, notes, "1 tool call failed")
		default:
			assert.Empty(t, strings.TrimSpace(notes), r.Scenario)
		}
	}
	t.Log("\n" + got)
}

// TestChangedIDsAreNamed: an id shapeonly must keep is listed, with its values, when it changed.
func TestChangedIDsAreNamed(t *testing.T) {
	_, received, exported := runDemo(t)
	requests := readRequests(t, exported)
	var span ptrace.Span
	var id string
	for _, td := range requests {
		for _, s := range walk.Spans(td) {
			if v, ok := s.Attributes().Get("session.id"); ok && id == "" {
				span, id = s, v.Str()
			}
		}
	}
	require.NotEmpty(t, id, "no span carries session.id")
	span.Attributes().PutStr("session.id", "[withheld]")
	writeCapture(t, exported, requests)
	got := demoSummary(t, received, exported)
	assert.Regexp(t, `\nkept: every attribute of the other \d+ runs; \d+ of \d+ run, session and tool-call ids, but these changed:\n`, got)
	assert.Contains(t, got, fmt.Sprintf("  session.id on %q, trace %s: %q became %q\n", span.Name(), span.TraceID(), id, "[withheld]"))
}

func readRequests(t *testing.T, path string) []ptrace.Traces {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var requests []ptrace.Traces
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces([]byte(line))
		require.NoError(t, err)
		requests = append(requests, td)
	}
	return requests
}
