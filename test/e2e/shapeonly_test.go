// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// shapeonlyConfig is a pipeline with shapeonly exporting to a file, on the ports the test chose.
const shapeonlyConfig = `
processors:
  shapeonly:
    tools: {find_customer: customer}
  batch:
    timeout: 200ms
exporters:
  file:
    path: {{.Output}}
    flush_interval: 100ms
service:
  pipelines:
    traces:
      receivers: [otlp]
      processors: [shapeonly, batch]
      exporters: [file]
`

// TestShapeonlyThroughTheCollector sends the support scenario, whose customer-data results reappear in
// later transcripts, in every convention and over both OTLP transports, and checks that no customer
// value leaves the collector.
func TestShapeonlyThroughTheCollector(t *testing.T) {
	c := collectortest.Start(t, shapeonlyConfig, nil)
	wantSpans := 0
	var secrets []string
	for i, conv := range agentgen.Conventions() {
		protocol := []string{"grpc", "http"}[i%2]
		seed := uint64(100 + i)
		c.Send(protocol, "-scenario", "support", "-convention", string(conv), "-count", "3", "-seed", strconv.FormatUint(seed, 10))
		// agentgen gives run i of a scenario the random seed seed+i: regenerate them to know their secrets.
		for n := range uint64(3) {
			run, err := agentgen.Generate("support", agentgen.Options{Convention: conv, Seed: seed + n})
			require.NoError(t, err)
			require.NotEmpty(t, run.Secrets)
			secrets = append(secrets, run.Secrets...)
			wantSpans += run.Spans
		}
	}
	batches := c.SpansOut(wantSpans)
	all := dump(t, batches)
	for _, s := range secrets {
		assert.NotContains(t, all, s)
	}
	assert.Contains(t, all, "[withheld]")
	collectortest.Eventually(t, "withheld values in internal telemetry", func() bool {
		return c.Metric("otelcol_processor_shapeonly_values_withheld", nil) > 0
	})
	assert.Zero(t, c.Metric("otelcol_processor_shapeonly_values_failed", nil))
}

func dump(t *testing.T, batches []ptrace.Traces) string {
	var sb strings.Builder
	var m ptrace.JSONMarshaler
	for _, td := range batches {
		b, err := m.MarshalTraces(td)
		require.NoError(t, err)
		sb.Write(b)
	}
	return sb.String()
}

// spansOf is the span count of a scenario's run as agentgen sends it with -seed 1.
func spansOf(t *testing.T, scenario string) int {
	t.Helper()
	run, err := agentgen.Generate(scenario, agentgen.Options{Seed: 1})
	require.NoError(t, err)
	return run.Spans
}
