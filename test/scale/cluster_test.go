// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

//go:build scale

package scale

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

const clusterRuns, clusterSeed = 1000, 5

// TestThreeCollectors sends 1,000 mixed runs through one tier-1 and three tier-2 collectors, and the same
// runs (same seed, same count) through a single collector with tier 2's pipeline. Scaling out must not
// change a single verdict, the stuck counters must add up, and no span may be lost. Once routed by trace
// id (tier1.yaml), once by the run attribute (tier1-attributes.yaml with OpenInference's session.id,
// which is on every span, and agentguard grouping runs by the same attribute).
func TestThreeCollectors(t *testing.T) {
	for _, tc := range []struct {
		name, tier1, convention, runAttributes string
	}{
		{"traceID", "tier1.yaml", "genai", "[]"},
		{"attributes", "tier1-attributes.yaml", "openinference", "[session.id]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("RUN_ATTRIBUTES", tc.runAttributes)
			load := []string{"-scenario", "mix", "-count", fmt.Sprint(clusterRuns), "-seed", fmt.Sprint(clusterSeed),
				"-convention", tc.convention, "-batch", "5", "-rate", "0"}

			// The single collector: the reference verdicts.
			single := startTier2(t, 1)
			sentSingle := agentgenSend(t, single.addrs[0], load...)
			ref := waitDelivered(t, sentSingle, time.Minute, single.nodes, single.sinks)

			// The same runs through the two tiers.
			t2 := startTier2(t, 3)
			t1, _ := startTier1(t, tc.tier1, t2.addrs, nil)
			sent := agentgenSend(t, t1.GRPC, load...)
			require.Equal(t, sentSingle, sent, "the same seed and count send the same load")
			got := waitDelivered(t, sent, time.Minute, []*collectortest.Collector{t1}, t2.nodes, t2.sinks)

			// No span lost: spans in equal spans out, and nothing extra appears.
			assert.Equal(t, sent, got.spans, "spans out of tier 2 = spans into tier 1")
			assert.Equal(t, float64(sent), t1.Metric(metricAccepted, nil), "tier 1 accepted every span")
			tier2, _, err := readFlows(t2.nodes)
			require.NoError(t, err)
			assert.Equal(t, float64(sent), tier2.accepted, "tier 2 accepted every span tier 1 routed")
			assert.Equal(t, float64(sent), tier2.sent, "tier 2 exported every span it accepted")

			// Routing: every run on exactly one tier-2 collector, and each collector got a share.
			for tid, nodes := range got.nodesOf {
				assert.Len(t, nodes, 1, "run %s is split over tier-2 collectors", tid)
			}
			if tc.runAttributes != "[]" {
				nodeOfRun := map[string]int{}
				for id, node := range got.node {
					key := got.runKey[got.trace[id]]
					if prev, ok := nodeOfRun[key]; ok {
						assert.Equal(t, prev, node, "run %s is split over tier-2 collectors", key)
					}
					nodeOfRun[key] = node
				}
			}
			for i, n := range got.perNode {
				assert.Greater(t, n, sent/10, "tier-2 collector %d got a share of the load", i)
			}

			// Every run gets the verdict, and every tool span the annotations, of the single collector.
			all := map[pcommon.TraceID]bool{}
			for tid := range ref.reasons {
				all[tid] = true
			}
			require.Len(t, all, clusterRuns)
			assert.Len(t, got.reasons, clusterRuns)
			differ, shaped := compareVerdicts(got, ref, all)
			assert.Empty(t, differ, "runs whose verdict changed when scaled out")
			diffReport(t, got, ref, differ)
			stuckRuns, episodes := ref.stuckRuns()
			assert.Positive(t, stuckRuns)

			// The counters, summed over tier 2, equal the single collector's, label set by label set: the
			// stuck episodes by agent and reason, the steps by agent and whether they made progress.
			// agentguard counts a batch before passing it on, so with every span exported they are final.
			wantStuck, sumStuck := sumOverTier2(t, single, t2, metricStuckEpisodes, "gen_ai_agent_name", "reason")
			assert.Equal(t, wantStuck, sumStuck, "stuck episodes summed over tier 2")
			assert.Equal(t, float64(episodes), total(wantStuck), "one count per stuck episode")
			wantSteps, sumSteps := sumOverTier2(t, single, t2, metricSteps, "gen_ai_agent_name", "progress")
			assert.Equal(t, wantSteps, sumSteps, "steps summed over tier 2")
			assert.Positive(t, total(wantSteps))
			t.Logf("%s: %d runs, %d spans in = %d spans out (per tier-2 collector %v); %d stuck runs, %d episodes, "+
				"stuck_episodes single = %.0f, summed over tier 2 = %.0f; steps single = %.0f, summed over tier 2 = %.0f; "+
				"verdicts identical; %d annotations withheld by shapeonly on one side only",
				tc.name, clusterRuns, sent, got.spans, got.perNode, stuckRuns, episodes, total(wantStuck), total(sumStuck),
				total(wantSteps), total(sumSteps), shaped)
		})
	}
}

// sumOverTier2 reads a counter by labels from the single collector and summed over the tier-2 collectors.
func sumOverTier2(t *testing.T, single, t2 *tier, name string, labels ...string) (want, sum map[string]float64) {
	t.Helper()
	want = metricByLabels(t, single.nodes[0], name, labels...)
	sum = map[string]float64{}
	for _, n := range t2.nodes {
		for k, v := range metricByLabels(t, n, name, labels...) {
			sum[k] += v
		}
	}
	return want, sum
}

func total(m map[string]float64) float64 {
	s := 0.0
	for _, v := range m {
		s += v
	}
	return s
}

// TestAttributeRoutingNeedsTheKeyOnEverySpan measures the fact deploy/scale/tier1-attributes.yaml warns
// about: load_balancing reads an attribute routing key from the resource, then from the first span of
// each trace in a request. Each run is exported in two requests, in end-time order, as an SDK's batch
// span processor would. With OpenInference's session.id, on every span, every run stays on one tier-2
// collector. With GenAI's gen_ai.conversation.id, on agent and model spans but not on execute_tool
// spans, a request that starts with a tool span is routed by the empty key: to one collector for all runs.
func TestAttributeRoutingNeedsTheKeyOnEverySpan(t *testing.T) {
	const runs = 200
	for _, tc := range []struct {
		convention agentgen.Convention
		attribute  string
		wantSplit  bool
	}{
		{agentgen.OpenInference, "session.id", false},
		{agentgen.GenAI, "gen_ai.conversation.id", true},
	} {
		t.Run(string(tc.convention), func(t *testing.T) {
			t.Setenv("RUN_ATTRIBUTES", "["+tc.attribute+"]")
			t2 := startTier2(t, 3)
			t1, _ := startTier1(t, "tier1-attributes.yaml", t2.addrs, nil)
			_, schedule := splitLoad(runs, runs, 11, tc.convention) // all first halves, then all second halves
			errs := newSender(t, t1.GRPC).play(schedule, 0, nil)
			require.Empty(t, errs)
			sent := 0
			var keyless []*half // requests whose spans of a run start with one that lacks the key
			for _, req := range schedule {
				for _, h := range req {
					sent += len(h.spans)
					first := h.td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0)
					if _, ok := first.Attributes().Get(tc.attribute); !ok {
						keyless = append(keyless, h)
					}
				}
			}
			got := waitDelivered(t, sent, time.Minute, []*collectortest.Collector{t1}, t2.nodes, t2.sinks)
			assert.Equal(t, sent, got.spans)

			split, emptyKeyNodes := 0, map[int]bool{}
			for _, h := range keyless {
				for _, id := range h.spans {
					emptyKeyNodes[got.node[id]] = true
				}
			}
			for _, nodes := range got.nodesOf {
				if len(nodes) > 1 {
					split++
				}
			}
			t.Logf("%s by %s: %d runs, %d start a request with a span lacking the key, %d split over collectors",
				tc.convention, tc.attribute, runs, len(keyless), split)
			if !tc.wantSplit {
				assert.Empty(t, keyless)
				assert.Zero(t, split, "with the key on every span, every run stays on one collector")
				return
			}
			assert.NotEmpty(t, keyless)
			assert.Len(t, emptyKeyNodes, 1, "every request that starts with a keyless span goes to the same collector")
			assert.Positive(t, split, "runs whose keyless request went elsewhere are split")
			assert.LessOrEqual(t, split, len(keyless), "only runs with a keyless request are split")
		})
	}
}
