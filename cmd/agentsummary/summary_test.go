package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const served = `# HELP otelcol_processor_agentguard_stuck_episodes Stuck episodes.
# TYPE otelcol_processor_agentguard_stuck_episodes counter
otelcol_processor_agentguard_stuck_episodes{gen_ai_agent_name="docs",otel_scope_name="x",reason="no_progress"} 2
otelcol_processor_agentguard_stuck_episodes{gen_ai_agent_name="deploy",otel_scope_name="x",reason="wait_timeout"} 1
# TYPE otelcol_processor_agentguard_steps counter
otelcol_processor_agentguard_steps{progress="true"} 10
otelcol_processor_agentguard_steps{progress="false"} 7
# TYPE otelcol_processor_agentguard_polls_exempt counter
otelcol_processor_agentguard_polls_exempt 2
# TYPE otelcol_processor_agentguard_runs_started counter
otelcol_processor_agentguard_runs_started 5
# TYPE otelcol_processor_agentguard_runs_active gauge
otelcol_processor_agentguard_runs_active 1
# TYPE otelcol_processor_shapeonly_values_withheld counter
otelcol_processor_shapeonly_values_withheld 12
# TYPE otelcol_processor_shapeonly_records_shaped counter
otelcol_processor_shapeonly_records_shaped 4
# TYPE otelcol_processor_shapeonly_values_failed counter
otelcol_processor_shapeonly_values_failed 1
# TYPE otelcol_receiver_accepted_spans counter
otelcol_receiver_accepted_spans{receiver="otlp",transport="grpc"} 40
otelcol_receiver_accepted_spans{receiver="otlp",transport="http"} 2
`

func TestSummaryReadsTheServedMetrics(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		_, _ = w.Write([]byte(served))
	}))
	defer srv.Close()
	var out strings.Builder
	if err := run(&out, srv.URL, time.Second); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"spans received:   42", "12 values withheld in 4 spans and log records, 1 withheld whole", "5 seen, 1 held now", "10 with progress, 7 barren, 2 exempt polls",
		"stuck episodes:   3", "deploy                   wait_timeout     1", "docs                     no_progress      2",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
}

func TestSummaryFailsClearlyWithoutACollector(t *testing.T) {
	var out strings.Builder
	if err := run(&out, "http://127.0.0.1:1/metrics", 200*time.Millisecond); err == nil {
		t.Fatal("no error without a collector")
	}
}
