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

// TestKillKeepsVerdictsUpToTheLastCheckpoint is test c's second half: the processors' state on
// file_storage, checkpointed every 200 ms, and a SIGKILL in the middle of a stream whose split runs
// cross it (their first halves, whole runs for 1.5 s, then their second halves: ackstream.Crossing).
// The kill comes a second after the last first half was answered, so a checkpoint holds every split
// run's first half; every span the sink got then carries what an uninterrupted collector given the same
// acknowledged requests writes on it. Without storage, the split runs' second halves are judged afresh
// and spans differ: the count is the measure of what the state saves.
func TestKillKeepsVerdictsUpToTheLastCheckpoint(t *testing.T) {
	differing := map[bool]int{}
	for _, storage := range []bool{true, false} {
		tpl := shippedToSink(t, func(cfg map[string]any) {
			for _, p := range []string{"agentguard", "shapeonly"} {
				proc := cfg["processors"].(map[string]any)[p].(map[string]any)
				require.Equal(t, "file_storage", proc["storage"], "deploy/otelcol-agent.yaml keeps %s's state on file_storage", p)
				proc["checkpoint_interval"] = "200ms"
				if !storage {
					delete(proc, "storage")
				}
			}
		})
		stream := ackstream.NewCrossing(40, 150, 6)
		got := ackstream.Crash{Interval: 10 * time.Millisecond, KillAt: stream.FirstHalves + 100, Outage: 10, Stream: stream.Stream}.Run(t, tpl)
		require.Zero(t, got.LostAcked, "acknowledged spans lost")

		sink := collectortest.Start(t, collectortest.FileSink, nil)
		vars := map[string]string{"Listen": collectortest.FreeAddr(t), "Sink": sink.GRPC}
		uninterrupted := collectortest.Start(t, tpl, vars)
		ackstream.Replay(t, vars["Listen"], stream.Acknowledged())
		ackstream.Settle(t, uninterrupted, sink)

		want, seen := ackstream.Verdicts(t, sink.Output), ackstream.Verdicts(t, got.Sink)
		for id, verdict := range seen {
			if want[id] != verdict {
				differing[storage]++
			}
		}
		t.Logf("storage %v: %d of %d spans carry another verdict than without the kill", storage, differing[storage], len(seen))
	}
	assert.Zero(t, differing[true], "with storage, spans judged otherwise than without the kill")
	assert.Positive(t, differing[false], "without storage the kill must change verdicts, or the test shows nothing")
}
