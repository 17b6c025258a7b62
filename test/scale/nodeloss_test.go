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
	"github.com/agentotel/agentotel/test/internal/ackstream"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// The node-loss load: nodeLossRuns runs, one request every nodeLossInterval, each run exported in two
// requests nodeLossLag requests apart (its halves in end-time order, as an SDK exports them), so runs are
// in flight on tier 2 across requests. Tier-2 collector 1 is killed (SIGKILL: no drain) once killAfter
// requests have been answered (3 s into the load) and, in the restart case, started again on the same
// address and queue directory once outage more have been (3 s later).
const (
	nodeLossRuns     = 1000
	nodeLossLag      = 50
	nodeLossInterval = 10 * time.Millisecond
	killAfter        = 300
	outage           = 300
	// lossWindow bounds how long before the kill a span can have been sent and still be in the killed
	// collector's queue: tier 1's batch (200ms), tier 2's exporter batch (200ms) and its export to the
	// sink, with room for scheduling on 2 cores.
	lossWindow = time.Second
)

// What tier 1's exporter logs for a failed request: retried after an interval, or given up on.
const (
	msgRetry = "Exporting failed. Will retry the request after interval."
	msgDrop  = "Exporting failed. Dropping data."
)

// nodeLoss is one node-loss experiment, measured.
type nodeLoss struct {
	schedule       [][]*half
	runs           []agentgen.Run
	ref, got       *observed
	killed, up     time.Time // SIGKILL sent; the restarted collector healthy (zero without restart)
	stopped        time.Time // tier 1 asked to stop, once it had nothing left to retry
	b1Accepted     int       // spans the killed collector had accepted just before the kill
	b1Exported     int       // spans its sink had received from it when it died
	tier1Log       []logLine
	b2Samples      []sample // the restarted collector's accepted spans over time
	errs           []error
	deadAddr       string
	outputs        []string // the tier-2 collectors' sinks: 0, 1 (the killed collector's, then its successor's), 2
	sentAfterKill  int
	spansSent      int
	lostHalves     []*half
	missing        map[*half]int        // spans of a lost half that no output holds
	runNodes       map[int]map[int]bool // run -> outputs its halves were written to (-1: lost)
	runOfTrace     map[pcommon.TraceID]int
	retries, drops int       // tier 1's log lines for the dead endpoint
	droppedItems   int       // spans in those drops
	stopDrops      int       // spans tier 1 dropped because it was stopped (counted in droppedItems too)
	retryDue       time.Time // when the last retry tier 1 announced for the dead endpoint is due
	last           time.Time // the last request sent
	logFile        string
}

func runNodeLoss(t *testing.T, restart bool) *nodeLoss {
	t.Helper()
	nl := &nodeLoss{runOfTrace: map[pcommon.TraceID]int{}}
	nl.runs, nl.schedule = splitLoad(nodeLossRuns, nodeLossLag, 21, agentgen.GenAI)
	for i, r := range nl.runs {
		nl.runOfTrace[r.Traces.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).TraceID()] = i
	}
	for _, req := range nl.schedule {
		for _, h := range req {
			nl.spansSent += len(h.spans)
		}
	}

	// The reference: a single collector with tier 2's pipeline, fed the same requests in the same order.
	single := startTier2(t, 1)
	require.Empty(t, newSender(t, single.addrs[0]).play(nl.schedule, 0, nil))
	nl.ref = waitDelivered(t, nl.spansSent, time.Minute, single.nodes, single.sinks)
	single.nodes[0].Stop()
	single.sinks[0].Stop()

	t2 := startTier2(t, 3)
	t1, logFile := startTier1(t, "tier1.yaml", t2.addrs, nil)
	nl.deadAddr, nl.logFile = t2.addrs[1], logFile
	nl.outputs = t2.outputs()
	live := []*collectortest.Collector{t2.nodes[0], t2.nodes[2]}
	liveSinks := []*collectortest.Collector{t2.sinks[0], t2.sinks[2]}

	s := newSender(t, t1.GRPC)
	answered := ackstream.NewProgress()
	done := make(chan struct{})
	go func() { nl.errs = s.play(nl.schedule, nodeLossInterval, answered); close(done) }()

	answered.Reach(t, killAfter, time.Minute)
	nl.b1Accepted = int(t2.nodes[1].Metric(metricAccepted, nil))
	t2.nodes[1].Kill()
	nl.killed = time.Now()
	killedAt := answered.Answered()
	nl.b1Exported = int(t2.sinks[1].Metric(metricAccepted, nil))

	var p *poller
	if restart {
		// The successor starts on the killed collector's queue directory, exporting to the same sink:
		// a pod restarted with its volume.
		answered.Reach(t, killedAt+outage, time.Minute)
		b2 := startTier2Node(t, tier2Template(t), nl.deadAddr, t2.sinks[1], t2.nodes[1].StorageDir) // returns once healthy
		nl.up = time.Now()
		live = append(live, b2)
		liveSinks = append(liveSinks, t2.sinks[1])
		p = poll(100*time.Millisecond, func() (float64, bool) {
			return scrapeValue(b2.Metrics, metricAccepted)
		})
	}
	<-done
	nl.last = time.Now()
	nl.settle(t, t1, live, liveSinks, restart)
	if restart {
		nl.b2Samples = p.end()
	}
	nl.observeOutputs(t)
	return nl
}

// settle waits until every span of the load has met its fate, and nothing is left in flight: written by
// a tier-2 collector, lost with the killed one, or dropped by tier 1. Which spans tier 1 still holds for
// the killed collector's address (in its queue, or waiting to be retried) no counter says: the
// load_balancing exporter's per-backend exporters have no metrics. Its log does: every failed attempt
// announces when it will be retried, and every drop says how many spans it dropped. So, in turn:
//   - tier 1 has accepted every span, the live tier-2 collectors have exported all they accepted, and,
//     when the collector came back, every span sent after the kill has arrived;
//   - tier 1 has no retry announced for the killed collector's address that is not yet due: the requests
//     it held have been delivered or dropped;
//   - tier 1 is stopped: it finishes what it is sending and logs, as a drop, anything it still held;
//   - the live tier-2 collectors have exported everything they accepted and their queues are empty (a
//     successor's queue starts with what the killed collector left), their sinks have written all they
//     received, and nothing more can arrive.
func (nl *nodeLoss) settle(t *testing.T, t1 *collectortest.Collector, live, liveSinks []*collectortest.Collector, restart bool) {
	t.Helper()
	drained := func() (bool, string) {
		out, each, err := readFlows(live)
		if err != nil {
			return false, "live tier-2 collectors: " + err.Error()
		}
		seen := fmt.Sprintf("live tier-2 collectors %v (%s)", out, each)
		queued := 0.0
		for _, c := range live {
			q, ok := scrapeValue(c.Metrics, metricQueueSize)
			if !ok {
				return false, seen + ", queue size unread"
			}
			queued += q
		}
		if out.sent < out.accepted || queued > 0 {
			return false, fmt.Sprintf("%s, queued %.0f", seen, queued)
		}
		sinks, _, err := readFlows(liveSinks)
		if err != nil {
			return false, "sinks: " + err.Error()
		}
		written := writtenSpans(t, sinkOutputs(liveSinks)...)
		return written >= int(sinks.accepted), fmt.Sprintf("%s; sinks received %.0f, written %d", seen, sinks.accepted, written)
	}

	waitUntil(t, "tier 1 to accept every span and tier 2 to export what it accepted", 2*time.Minute, 500*time.Millisecond, func() (bool, string) {
		in, err := readFlow(t1)
		if err != nil {
			return false, "tier 1: " + err.Error()
		}
		seen := fmt.Sprintf("%d spans sent, tier 1 %v", nl.spansSent, in)
		if in.accepted < float64(nl.spansSent) {
			return false, seen
		}
		ok, liveSeen := drained()
		seen += "; " + liveSeen
		if !ok || !restart {
			return ok, seen
		}
		missing, after := nl.missingAfterKill(t)
		return missing == 0, fmt.Sprintf("%s; %d of the %d spans sent after the kill have not arrived", seen, missing, after)
	})

	waitUntil(t, "tier 1 to have no retry pending for the killed collector's address", 2*time.Minute, 250*time.Millisecond, func() (bool, string) {
		nl.readTier1Log(t)
		now := time.Now()
		return !nl.retryDue.After(now), fmt.Sprintf("%d retries and %d drops of %d spans logged for %s; the last retry due %v from now",
			nl.retries, nl.drops, nl.droppedItems, nl.deadAddr, nl.retryDue.Sub(now).Round(time.Millisecond))
	})

	nl.stopped = time.Now()
	t1.Stop()
	waitUntil(t, "the live tier-2 collectors to export and write what they accepted", 30*time.Second, pollEvery, drained)
	nl.readTier1Log(t)
}

// readTier1Log counts tier 1's retries and drops for the dead collector's endpoint, and finds when the
// last retry it announced is due.
func (nl *nodeLoss) readTier1Log(t *testing.T) {
	nl.retries, nl.drops, nl.droppedItems, nl.stopDrops = 0, 0, 0, 0
	nl.retryDue = time.Time{}
	nl.tier1Log = readLog(t, nl.logFile)
	for _, l := range nl.tier1Log {
		if l.Endpoint != nl.deadAddr {
			continue
		}
		switch l.Msg {
		case msgRetry:
			nl.retries++
			interval, err := time.ParseDuration(l.Interval)
			require.NoError(t, err, "tier 1 logged a retry without its interval")
			if due := l.TS.Add(interval); due.After(nl.retryDue) {
				nl.retryDue = due
			}
		case msgDrop:
			nl.drops++
			nl.droppedItems += l.DroppedItems
			if !nl.stopped.IsZero() && !l.TS.Before(nl.stopped) {
				nl.stopDrops += l.DroppedItems
			}
		}
	}
}

// observeOutputs reads every tier-2 output and places every half.
func (nl *nodeLoss) observeOutputs(t *testing.T) {
	nl.got = observe(t, nl.outputs...)
	nl.lostHalves = nil
	nl.missing = map[*half]int{}
	nl.runNodes = map[int]map[int]bool{}
	for _, req := range nl.schedule {
		for _, h := range req {
			if nl.runNodes[h.run] == nil {
				nl.runNodes[h.run] = map[int]bool{}
			}
			// A request's spans can leave in two batches (the exporter's batches split at max_size), one
			// exported before the kill and one left in the queue: all are written by one collector's sink,
			// or some are missing.
			written := map[int]bool{}
			for _, id := range h.spans {
				if n, ok := nl.got.node[id]; ok {
					written[n] = true
				} else {
					nl.missing[h]++
				}
			}
			require.LessOrEqual(t, len(written), 1, "the spans of one request of run %d are on one collector", h.run)
			for n := range written {
				nl.runNodes[h.run][n] = true
			}
			if nl.missing[h] > 0 {
				nl.runNodes[h.run][-1] = true
				nl.lostHalves = append(nl.lostHalves, h)
			}
		}
	}
}

// missingAfterKill counts, while the outputs are still being written, the spans sent after the kill
// that no output holds yet.
func (nl *nodeLoss) missingAfterKill(t *testing.T) (missing, sentAfter int) {
	written := observe(t, nl.outputs...).node
	for _, req := range nl.schedule {
		for _, h := range req {
			if !h.sent.After(nl.killed) {
				continue
			}
			sentAfter += len(h.spans)
			for _, id := range h.spans {
				if _, ok := written[id]; !ok {
					missing++
				}
			}
		}
	}
	return missing, sentAfter
}

func (nl *nodeLoss) sentAfterKillMissing() int {
	missing := 0
	nl.sentAfterKill = 0
	for _, req := range nl.schedule {
		for _, h := range req {
			if h.sent.After(nl.killed) {
				nl.sentAfterKill += len(h.spans)
			}
		}
	}
	for _, h := range nl.lostHalves {
		if h.sent.After(nl.killed) {
			missing += nl.missing[h]
		}
	}
	return missing
}

// onDeadNode tells whether a run was routed to the killed collector: written by it or its successor, or lost.
func (nl *nodeLoss) onDeadNode(run int) bool {
	n := nl.runNodes[run]
	return n[1] || n[-1]
}

// lostWithKilled is the spans that died with the killed collector: missing, and not dropped by tier 1.
func (nl *nodeLoss) lostWithKilled() int { return nl.lostSpans() - nl.droppedItems }

func (nl *nodeLoss) lostSpans() (spans int) {
	for _, h := range nl.lostHalves {
		spans += nl.missing[h]
	}
	return spans
}

// checkCommon asserts what holds with or without a restart, and returns the runs that were routed to the
// surviving collectors.
func (nl *nodeLoss) checkCommon(t *testing.T) map[pcommon.TraceID]bool {
	assert.Empty(t, nl.errs, "tier 1 accepts every request: the agents never see the lost collector")
	for run, nodes := range nl.runNodes {
		if nl.onDeadNode(run) {
			assert.False(t, nodes[0] || nodes[2], "run %d moved between tier-2 collectors: the static ring never changes", run)
		} else {
			assert.Len(t, nodes, 1, "run %d is on one surviving collector", run)
		}
	}
	// Every missing span was dropped by tier 1 (counted in its log) or left in the killed collector's
	// queue.
	assert.LessOrEqual(t, nl.droppedItems, nl.lostSpans(), "tier 1 dropped only spans that are missing")
	for _, h := range nl.lostHalves {
		assert.True(t, nl.onDeadNode(h.run), "a lost span was routed to the killed collector")
		assert.False(t, h.sent.Before(nl.killed.Add(-lossWindow)),
			"a span sent %v before the kill was lost: only the last %v can still be in flight", nl.killed.Sub(h.sent), lossWindow)
	}
	survivors := map[pcommon.TraceID]bool{}
	for tid, run := range nl.runOfTrace {
		if !nl.onDeadNode(run) {
			survivors[tid] = true
		}
	}
	differ, _ := compareVerdicts(nl.got, nl.ref, survivors)
	assert.Empty(t, differ, "the surviving collectors' runs keep the single collector's verdicts")
	diffReport(t, nl.got, nl.ref, differ)
	assert.Greater(t, len(survivors), nodeLossRuns/3, "the survivors carry their share")
	return survivors
}

// TestNodeLoss stops one of three tier-2 collectors in the middle of the load and measures what happens:
// with the collector restarted on the same address three seconds later (a pod restart: the static
// resolver, and the k8s resolver with return_hostnames, keep its place in the ring), once with tier 1's
// shipped ten consumers per backend and once with one; then with it gone for good (the static resolver
// never removes it).
func TestNodeLoss(t *testing.T) {
	t.Run("restarted", func(t *testing.T) { restarted(t, false) })
	t.Run("restarted, one consumer", func(t *testing.T) {
		t.Setenv("TIER2_QUEUE_CONSUMERS", "1")
		restarted(t, true)
	})
	t.Run("gone", func(t *testing.T) {
		t.Setenv("TIER2_RETRY_MAX_ELAPSED", "5s")
		nl := runNodeLoss(t, false)
		nl.checkCommon(t)

		// The dead collector's share of everything sent after the kill is lost: queued at tier 1, retried
		// for max_elapsed_time, then dropped, and the drop is logged with the count.
		// Share of runs: of the runs sent wholly before the kill, those on the dead collector; of the runs
		// sent wholly after it, those lost.
		first, second := map[int]*half{}, map[int]*half{}
		for _, req := range nl.schedule {
			for _, h := range req {
				if first[h.run] == nil {
					first[h.run] = h
				} else {
					second[h.run] = h
				}
			}
		}
		before, onDead, after, lostRuns := 0, 0, 0, 0
		for run, h := range first {
			switch {
			case second[run].sent.Before(nl.killed.Add(-lossWindow)):
				before++
				if nl.runNodes[run][1] {
					onDead++
				}
			case h.sent.After(nl.killed):
				after++
				if len(nl.runNodes[run]) == 1 && nl.runNodes[run][-1] {
					lostRuns++
				}
			}
		}
		lostAfter := nl.sentAfterKillMissing()
		// What the killed collector had acknowledged and not exported waits in its queue on disk, for a
		// collector started on its directory; none is here, so it is missing.
		assert.GreaterOrEqual(t, nl.lostWithKilled(), nl.b1Accepted-nl.b1Exported, "the killed collector's queue stays where it was")
		// Tier 1 works through the dead collector's queue num_consumers requests at a time, each retried
		// for max_elapsed_time: the drops trail the load (settle waited for them). How long they took:
		var lastDrop time.Time
		for _, l := range nl.tier1Log {
			if l.Endpoint == nl.deadAddr && l.Msg == msgDrop && l.TS.After(lastDrop) && l.TS.Before(nl.stopped) {
				lastDrop = l.TS
			}
		}
		msgs := map[string]int{}
		for _, l := range nl.tier1Log {
			if l.Level != "info" {
				msgs[l.Level+" "+l.Msg+" "+l.Endpoint+" "+l.Error]++
			}
		}
		for m, n := range msgs {
			t.Logf("tier 1 log: %d x %s", n, m)
		}
		share := float64(onDead) / float64(before)
		lostFrac := float64(lostRuns) / float64(after)
		assert.InDelta(t, share, lostFrac, 0.15, "after the kill, the dead collector's share of the runs is lost")
		assert.Positive(t, nl.drops, "tier 1 logged the drop")
		assert.GreaterOrEqual(t, nl.droppedItems, lostAfter, "every span sent to the dead collector after the kill was dropped by tier 1, and counted in its log")
		t.Logf("gone: %d spans sent, %d written (and %d written twice), %d lost (%d left in the killed collector's queue: it had accepted %d and exported %d "+
			"just before the kill); the dead collector's share of the runs before the kill %.2f, "+
			"of the runs sent after it %.2f lost; tier 1 logged %d retries and %d drops of %d spans for %s (%d of them when "+
			"it was stopped at the end), the last while it ran within %v of the last request (load lasted %v after the kill)",
			nl.spansSent, nl.got.spans, nl.got.duplicates, nl.lostSpans(), nl.lostWithKilled(), nl.b1Accepted, nl.b1Exported, share, lostFrac,
			nl.retries, nl.drops, nl.droppedItems, nl.deadAddr, nl.stopDrops,
			lastDrop.Sub(nl.last).Round(100*time.Millisecond), nl.last.Sub(nl.killed).Round(time.Millisecond))
	})
}

// restarted is the node-loss experiment with the collector back on the same address after the outage.
// With inOrder (num_consumers: 1 on tier 1), tier 1 replays the dead collector's queue in order.
func restarted(t *testing.T, inOrder bool) {
	nl := runNodeLoss(t, true)
	nl.checkCommon(t)

	// Nothing sent after the kill is lost: tier 1 holds the dead collector's share in its per-backend
	// queue, retries, and delivers it to the restarted collector.
	assert.Zero(t, nl.sentAfterKillMissing(), "spans sent after the kill that never arrived")
	assert.Positive(t, nl.retries, "tier 1 retried the dead collector")
	assert.Zero(t, nl.droppedItems-nl.stopDrops, "tier 1 dropped nothing while it ran: the collector came back within max_elapsed_time")

	// Nothing the killed collector acknowledged is lost: it was in its queue on disk, and its successor,
	// started on the same directory, sent it. Tier 1 is stopped only once no retry it announced is still
	// to come, so it should drop nothing then; should a retry run late and be cut short, its spans count
	// as dropped, not as lost, and the log line says so.
	lost := nl.lostWithKilled()
	assert.Zero(t, lost, "spans the killed collector had acknowledged and its successor did not send")
	assert.Equal(t, nl.spansSent, nl.got.spans+nl.lostSpans(), "every span written (at least once) or lost")

	// Recovery: from the restarted collector's health check to the first span it received, and to the
	// point where it had received the backlog tier 1 queued for it while it was down.
	backlog := 0
	for _, req := range nl.schedule {
		for _, h := range req {
			if nl.got.node[h.spans[0]] == 1 && h.sent.After(nl.killed) && h.sent.Before(nl.up) {
				backlog += len(h.spans)
			}
		}
	}
	first, drained := time.Duration(-1), time.Duration(-1)
	for _, s := range nl.b2Samples {
		if s.v > 0 && first < 0 {
			first = s.at.Sub(nl.up)
		}
		if s.v >= float64(backlog) && drained < 0 {
			drained = s.at.Sub(nl.up)
		}
	}
	require.GreaterOrEqual(t, first, time.Duration(0), "the restarted collector received spans")
	require.GreaterOrEqual(t, drained, time.Duration(0), "the restarted collector received its backlog")
	assert.Less(t, drained, 30*time.Second, "tier 1 delivers the backlog soon after the collector is back")

	// Which runs lost state: those routed to the dead collector with a request in flight to it from
	// just before the kill until the backlog was delivered. Their steps before the kill were judged
	// by a state that died with it, or their requests were replayed out of order from tier 1's queue.
	affected := map[pcommon.TraceID]bool{}
	from, to := nl.killed.Add(-lossWindow), nl.up.Add(drained)
	// When each run's requests were sent, against the kill: before it, after it, or one of each.
	before, after := map[int]bool{}, map[int]bool{}
	for _, req := range nl.schedule {
		for _, h := range req {
			if h.sent.Before(nl.killed) {
				before[h.run] = true
			} else {
				after[h.run] = true
			}
		}
	}
	straddle := 0
	for tid, run := range nl.runOfTrace {
		if !nl.onDeadNode(run) {
			continue
		}
		if before[run] && after[run] {
			straddle++
		}
		for _, req := range nl.schedule {
			for _, h := range req {
				if h.run == run && !h.sent.Before(from) && !h.sent.After(to) {
					affected[tid] = true
				}
			}
		}
	}
	all := map[pcommon.TraceID]bool{}
	deadRuns := 0
	for tid, run := range nl.runOfTrace {
		if nl.onDeadNode(run) {
			all[tid] = true
			deadRuns++
		}
	}
	differ, shaped := compareVerdicts(nl.got, nl.ref, all)
	// Why a run changed: part of it was judged by the killed collector and the rest by its successor
	// (the kill fell between its requests), part of it was lost, or its requests were all replayed from
	// tier 1's queue and arrived out of order. Any other is a request sent just before the kill, refused
	// by the dying collector and retried to its successor.
	partKilled, partLost, reordered, other := 0, 0, 0, 0
	missed, spurious := 0, 0
	for _, tid := range differ {
		run := nl.runOfTrace[tid]
		switch refStuck, gotStuck := len(nl.ref.reasons[tid]) > 0, len(nl.got.reasons[tid]) > 0; {
		case refStuck && !gotStuck:
			missed++
		case gotStuck && !refStuck:
			spurious++
		}
		assert.True(t, affected[tid], "run %d changed verdict but had nothing in flight around the loss", run)
		switch {
		case nl.runNodes[run][-1]:
			partLost++
		case before[run] && after[run]:
			partKilled++
		case after[run]:
			reordered++
		default:
			other++
		}
	}
	if inOrder {
		assert.Zero(t, reordered, "with one consumer per backend, tier 1 replays a backend's requests in order")
	}
	t.Logf("restarted (num_consumers %s): %d spans sent, %d written (and %d written twice), %d lost in %d requests (the killed collector "+
		"had accepted %d and exported %d just before the kill); %d requests retried by tier 1, %d spans dropped when it was stopped at the end; "+
		"restarted collector healthy %v after the kill, first span %v later, backlog of %d spans received %v after it was healthy; "+
		"%d runs on the killed collector, %d with a request in flight in the window, %d with requests before and after "+
		"the kill, %d with a different verdict (%d partly judged by the killed collector, %d with a request lost, "+
		"%d replayed out of order from tier 1's queue, %d other; %d stuck runs missed, %d healthy runs flagged; "+
		"plus %d shapeonly-only differences)",
		map[bool]string{false: "10", true: "1"}[inOrder], nl.spansSent, nl.got.spans, nl.got.duplicates, lost, len(nl.lostHalves),
		nl.b1Accepted, nl.b1Exported, nl.retries, nl.stopDrops,
		nl.up.Sub(nl.killed).Round(time.Millisecond), first.Round(time.Millisecond), backlog,
		drained.Round(time.Millisecond), deadRuns, len(affected), straddle, len(differ),
		partKilled, partLost, reordered, other, missed, spurious, shaped)
}
