// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// served is what the collector serves after a few runs: every agent-labelled series exists from the
// agent's first span, at zero until something happens.
const served = `# HELP otelcol_processor_agentguard_stuck_episodes Stuck episodes.
# TYPE otelcol_processor_agentguard_stuck_episodes counter
otelcol_processor_agentguard_stuck_episodes{gen_ai_agent_name="docs",reason="no_progress"} 2
otelcol_processor_agentguard_stuck_episodes{gen_ai_agent_name="docs",reason="loop"} 0
otelcol_processor_agentguard_stuck_episodes{gen_ai_agent_name="deploy",reason="wait_timeout"} 1
otelcol_processor_agentguard_stuck_episodes{gen_ai_agent_name="deploy",reason="cycle"} 0
otelcol_processor_agentguard_stuck_episodes{gen_ai_agent_name="vercel-bot",reason="loop"} 0
# TYPE otelcol_processor_agentguard_steps counter
otelcol_processor_agentguard_steps{gen_ai_agent_name="docs",progress="true"} 4
otelcol_processor_agentguard_steps{gen_ai_agent_name="docs",progress="false"} 7
otelcol_processor_agentguard_steps{gen_ai_agent_name="docs",progress="unknown"} 0
otelcol_processor_agentguard_steps{gen_ai_agent_name="deploy",progress="true"} 6
otelcol_processor_agentguard_steps{gen_ai_agent_name="deploy",progress="false"} 0
otelcol_processor_agentguard_steps{gen_ai_agent_name="deploy",progress="unknown"} 1
otelcol_processor_agentguard_steps{gen_ai_agent_name="vercel-bot",progress="true"} 0
otelcol_processor_agentguard_steps{gen_ai_agent_name="vercel-bot",progress="false"} 0
otelcol_processor_agentguard_steps{gen_ai_agent_name="vercel-bot",progress="unknown"} 5
# TYPE otelcol_processor_agentguard_tokens counter
otelcol_processor_agentguard_tokens{gen_ai_agent_name="docs",direction="input",state="progress"} 900
otelcol_processor_agentguard_tokens{gen_ai_agent_name="docs",direction="cached_input",state="progress"} 300
otelcol_processor_agentguard_tokens{gen_ai_agent_name="docs",direction="output",state="barren"} 40
otelcol_processor_agentguard_tokens{gen_ai_agent_name="docs",direction="input",state="stuck"} 700
otelcol_processor_agentguard_tokens{gen_ai_agent_name="deploy",direction="input",state="waiting"} 250
otelcol_processor_agentguard_tokens{gen_ai_agent_name="deploy",direction="input",state="unjudged"} 0
# TYPE otelcol_processor_agentguard_runs_finished counter
otelcol_processor_agentguard_runs_finished{gen_ai_agent_name="docs",outcome="answered"} 1
otelcol_processor_agentguard_runs_finished{gen_ai_agent_name="docs",outcome="stuck"} 2
otelcol_processor_agentguard_runs_finished{gen_ai_agent_name="docs",outcome="cut_off"} 0
otelcol_processor_agentguard_runs_finished{gen_ai_agent_name="deploy",outcome="over_budget"} 1
otelcol_processor_agentguard_runs_finished{gen_ai_agent_name="deploy",outcome="answered"} 0
otelcol_processor_agentguard_runs_finished{gen_ai_agent_name="vercel-bot",outcome="cut_off"} 1
otelcol_processor_agentguard_runs_finished{gen_ai_agent_name="vercel-bot",outcome="answered"} 3
otelcol_processor_agentguard_runs_finished{gen_ai_agent_name="vercel-bot",outcome="stuck"} 0
# TYPE otelcol_processor_agentguard_run_rounds histogram
otelcol_processor_agentguard_run_rounds_bucket{gen_ai_agent_name="docs",le="1"} 0
otelcol_processor_agentguard_run_rounds_bucket{gen_ai_agent_name="docs",le="+Inf"} 3
otelcol_processor_agentguard_run_rounds_sum{gen_ai_agent_name="docs"} 14
otelcol_processor_agentguard_run_rounds_count{gen_ai_agent_name="docs"} 3
# TYPE otelcol_processor_agentguard_polls_exempt counter
otelcol_processor_agentguard_polls_exempt 2
# TYPE otelcol_processor_agentguard_runs_started counter
otelcol_processor_agentguard_runs_started 9
# TYPE otelcol_processor_agentguard_runs_active gauge
otelcol_processor_agentguard_runs_active 1
# TYPE otelcol_processor_shapeonly_values_withheld counter
otelcol_processor_shapeonly_values_withheld 12
# TYPE otelcol_processor_shapeonly_content_matches counter
otelcol_processor_shapeonly_content_matches 3
# TYPE otelcol_processor_shapeonly_records_shaped counter
otelcol_processor_shapeonly_records_shaped 4
# TYPE otelcol_processor_shapeonly_values_failed counter
otelcol_processor_shapeonly_values_failed 1
# TYPE otelcol_receiver_accepted_spans counter
otelcol_receiver_accepted_spans{receiver="otlp",transport="grpc"} 40
otelcol_receiver_accepted_spans{receiver="otlp",transport="http"} 2
`

// metricsServer serves body as a collector serves its metrics.
func metricsServer(body string) *httptest.Server {
	return metricsServerFunc(func() string { return body })
}

// metricsServerFunc serves what body returns at each scrape.
func metricsServerFunc(body func() string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		_, _ = w.Write([]byte(body()))
	}))
}

// summaryOf runs the summary against an endpoint serving body.
func summaryOf(t *testing.T, body string) string {
	t.Helper()
	srv := metricsServer(body)
	defer srv.Close()
	var out strings.Builder
	if err := run(&out, options{metrics: srv.URL, timeout: time.Second}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestSummaryReadsTheServedMetrics(t *testing.T) {
	got := summaryOf(t, served)
	want := `== the collector's own metrics (URL) ==
spans received:   42
shapeonly:        12 values withheld (3 found again by content) in 4 spans and log records, 1 withheld whole after a failure
agentguard runs:  9 seen, 1 held now
agentguard steps: 10 with progress, 7 barren, 6 unjudged, 2 exempt polls
agentguard tokens: 2190, by the run's state at each model call: 1200 progress, 250 waiting, 40 barren, 700 stuck, 0 unjudged
runs finished:    8
  deploy                   over_budget 1
  docs                     answered 1, stuck 2
  vercel-bot               answered 3, cut_off 1
unjudged steps (agentguard could not read the tool results):
  deploy                   1 of 7
  vercel-bot               5 of 5
stuck episodes:   3
  deploy                   wait_timeout     1
  docs                     no_progress      2
`
	if got := regexp.MustCompile(`\(http://[^)]+\)`).ReplaceAllString(got, "(URL)"); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
}

// With every step judged the unjudged block is left out, and an outcome a newer collector adds is
// listed after the known ones.
func TestSummaryLeavesOutWhatDidNotHappen(t *testing.T) {
	got := summaryOf(t, `# TYPE otelcol_processor_agentguard_steps counter
otelcol_processor_agentguard_steps{gen_ai_agent_name="docs",progress="true"} 3
otelcol_processor_agentguard_steps{gen_ai_agent_name="docs",progress="unknown"} 0
# TYPE otelcol_processor_agentguard_runs_finished counter
otelcol_processor_agentguard_runs_finished{gen_ai_agent_name="docs",outcome="handed_off"} 1
otelcol_processor_agentguard_runs_finished{gen_ai_agent_name="docs",outcome="answered"} 2
otelcol_processor_agentguard_runs_finished{gen_ai_agent_name="idle",outcome="answered"} 0
# TYPE otelcol_processor_agentguard_stuck_episodes counter
otelcol_processor_agentguard_stuck_episodes{gen_ai_agent_name="docs",reason="loop"} 0
`)
	for _, want := range []string{"runs finished:    3\n  docs                     answered 2, handed_off 1\nstuck episodes:   0\n  none\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"unjudged steps (", "idle", "loop"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("summary holds %q:\n%s", unwanted, got)
		}
	}
}

func TestSummaryFailsClearlyWithoutACollector(t *testing.T) {
	var out strings.Builder
	if err := run(&out, options{metrics: "http://127.0.0.1:1/metrics", timeout: 200 * time.Millisecond}); err == nil {
		t.Fatal("no error without a collector")
	}
}
