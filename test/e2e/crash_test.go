// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/test/internal/ackstream"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// TestKillLosesNoAcknowledgedSpan runs deploy/otelcol-agent.yaml with its processors and its exporter
// queue as shipped (on file_storage, batched by the exporter), the debug exporter swapped for OTLP to a
// sink, and kills it with SIGKILL two seconds into a stream of 500 mixed runs at 100 a second; started again
// on the same address and directory a second and a half later, it sends what it had acknowledged, and the
// stream goes on: every span the receiver acknowledged reaches the sink, at least once. test/scale's
// test of the same name measures the tier-2 config, and what the queue in memory lost.
func TestKillLosesNoAcknowledgedSpan(t *testing.T) {
	tpl := shippedToSink(t, nil)
	got := ackstream.Crash{Runs: 500, Interval: 10 * time.Millisecond, KillAt: 200, Outage: 150, Seed: 4}.Run(t, tpl)
	t.Logf("%v", got)
	require.Positive(t, got.AckedAfter, "the restarted collector acknowledged requests")
	assert.Zero(t, got.LostAcked, "acknowledged spans that never reached the sink")
}

// shippedToSink is deploy/otelcol-agent.yaml as shipped, receiving on {{.Listen}} and exporting to
// {{.Sink}} over OTLP with the shipped exporter's sending_queue (on file_storage, batched by the
// exporter) in place of the debug exporter; edit, when set, changes it further.
func shippedToSink(t *testing.T, edit func(cfg map[string]any)) string {
	return collectortest.Shipped(t, "deploy/otelcol-agent.yaml", func(cfg map[string]any) {
		collectortest.Set(cfg, "receivers.otlp.protocols.grpc.endpoint", "{{.Listen}}")
		collectortest.Set(cfg, "receivers.otlp.protocols.http.endpoint", "{{.HTTP}}")
		exporters := cfg["exporters"].(map[string]any)
		queue := exporters["debug"].(map[string]any)["sending_queue"]
		require.NotNil(t, queue, "the default config's exporter has a sending_queue")
		cfg["exporters"] = map[string]any{"otlp_grpc": map[string]any{
			"endpoint": "{{.Sink}}", "tls": map[string]any{"insecure": true}, "sending_queue": queue,
		}}
		for _, p := range cfg["service"].(map[string]any)["pipelines"].(map[string]any) {
			p.(map[string]any)["exporters"] = []any{"otlp_grpc"}
		}
		if edit != nil {
			edit(cfg)
		}
	})
}
