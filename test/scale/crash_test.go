// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

//go:build scale

package scale

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/test/internal/ackstream"
)

// crashLoad is the stream TestKillLosesNoAcknowledgedSpan plays: 1,200 mixed runs, one a request every
// 10 ms (about 1,800 spans/s), the collector killed 4 s in and back 3 s later.
var crashLoad = ackstream.Crash{Runs: 1200, Interval: 10 * time.Millisecond, KillAt: 400, Outage: 300, Seed: 9}

// TestKillLosesNoAcknowledgedSpan kills a tier-2 collector (deploy/scale/tier2.yaml, processors and
// exporter queue as shipped, exporting to a sink) with SIGKILL in the middle of a sustained stream, and
// starts it again on the same address and queue directory while the stream goes on: every span its
// receiver acknowledged reaches the sink, at least once. The same with the queue in memory behind a batch
// processor, as tier 2 had it before, measures what that lost.
func TestKillLosesNoAcknowledgedSpan(t *testing.T) {
	for _, queue := range []exporterQueue{onDisk, inMemory} {
		t.Run(queue.String(), func(t *testing.T) {
			tpl := deployTemplate(t, "tier2.yaml", func(cfg map[string]any) {
				plaintext(cfg, "{{.Listen}}")
				toSink(cfg)
				if queue == inMemory {
					memoryQueue(cfg, "1s")
				}
			})
			got := crashLoad.Run(t, tpl)
			t.Logf("%v: %v", queue, got)
			require.Positive(t, got.AckedAfter, "the restarted collector acknowledged requests")
			if queue == onDisk {
				assert.Zero(t, got.LostAcked, "acknowledged spans that never reached the sink")
				return
			}
			// In memory, what the batch processor gathered and the exporter had not yet sent dies with
			// the process: at 1,800 spans/s, a batch of up to 512 spans is nearly always forming.
			assert.Positive(t, got.LostAcked, "the memory queue and batch processor lose acknowledged spans on a kill")
		})
	}
}
