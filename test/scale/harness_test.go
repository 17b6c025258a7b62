// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

//go:build scale

// Package scale runs otelcol-agent scaled out on loopback, as deploy/scale describes it: a stateless tier 1
// that routes with the load_balancing exporter and a stateful tier 2 running agentguard and shapeonly. It
// also measures end-to-end throughput and memory. The tests start many collectors and take minutes, so they
// sit behind the scale build tag and run from `make bench-e2e`, never from `make test`:
//
//	go test -tags scale -count=1 -v -timeout 30m ./test/scale/
//
// docs/scaling.md and docs/benchmarks.md report what they measured.
package scale

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/test/internal/ackstream"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// deployTemplate is deploy/scale/<name> as a collectortest template (collectortest.Shipped).
func deployTemplate(t testing.TB, name string, edit func(cfg map[string]any)) string {
	return collectortest.Shipped(t, "deploy/scale/"+name, edit)
}

// tier1Template is deploy/scale/<name> listening on the harness's ports, logging JSON to {{.LogFile}} as
// well, so tests can read what the per-backend exporters did: load_balancing gives them a no-op meter at
// v0.161.0, so their retries and drops show only in the log.
func tier1Template(t testing.TB, name string) string {
	return deployTemplate(t, name, func(cfg map[string]any) {
		collectortest.Set(cfg, "receivers.otlp.protocols.grpc.endpoint", "{{.GRPC}}")
		collectortest.Set(cfg, "receivers.otlp.protocols.http.endpoint", "{{.HTTP}}")
		// Unsampled: by default the collector logs only the first 10 of a message per 10 s, then every 100th.
		collectortest.Set(cfg, "service.telemetry.logs", map[string]any{
			"encoding": "json", "output_paths": []any{"stderr", "{{.LogFile}}"}, "sampling": map[string]any{"enabled": false},
		})
	})
}

// tier2Template is deploy/scale/tier2.yaml with its processors and exporter queue as shipped, but
// plaintext on {{.Listen}} (the hop's TLS is TestDeployedTiersOverMutualTLS's business) and exporting to
// {{.Sink}}, a collectortest.FileSink, so a test can count and read every span that leaves it.
func tier2Template(t testing.TB) string {
	return deployTemplate(t, "tier2.yaml", func(cfg map[string]any) {
		plaintext(cfg, "{{.Listen}}")
		collectortest.Set(cfg, "processors.memory_limiter", map[string]any{"check_interval": "1s", "limit_mib": 1024})
		toSink(cfg)
		quickBatches(cfg)
	})
}

// toSink points tier 2's exporter at {{.Sink}} in plaintext, its queue as shipped.
func toSink(cfg map[string]any) {
	collectortest.Set(cfg, "exporters.otlp_grpc.endpoint", "{{.Sink}}")
	collectortest.Set(cfg, "exporters.otlp_grpc.tls", map[string]any{"insecure": true})
}

// quickBatches has tier 2's exporter send a batch after 200ms rather than 1s, so the tests wait less.
func quickBatches(cfg map[string]any) {
	collectortest.Set(cfg, "exporters.otlp_grpc.sending_queue.batch.flush_timeout", "200ms")
}

// exporterQueue is where tier 2's exporter queues what it has acknowledged.
type exporterQueue int

const (
	onDisk   exporterQueue = iota // as shipped: on file_storage, batched by the exporter
	inMemory                      // as tier 2 shipped before: in memory, behind a batch processor
)

func (q exporterQueue) String() string {
	return [...]string{"file queue", "memory queue and batch processor"}[q]
}

// memoryQueue turns tier2.yaml back into what it was before its exporter queue moved to disk: the queue
// in memory (1,000 requests) and a batch processor last in every pipeline, sending 512 spans or what
// timeout gathered, at most 1,024. What a crash loses with it is measured in TestKillLosesNoAcknowledgedSpan.
func memoryQueue(cfg map[string]any, timeout string) {
	collectortest.Set(cfg, "exporters.otlp_grpc.sending_queue", map[string]any{"enabled": true, "queue_size": 1000})
	collectortest.Set(cfg, "processors.batch", map[string]any{"timeout": timeout, "send_batch_size": 512, "send_batch_max_size": 1024})
	for _, p := range cfg["service"].(map[string]any)["pipelines"].(map[string]any) {
		pipeline := p.(map[string]any)
		pipeline["processors"] = append(pipeline["processors"].([]any), "batch")
	}
}

// plaintext makes the OTLP gRPC receiver listen on endpoint without TLS, keeping its other settings.
func plaintext(cfg map[string]any, endpoint string) {
	grpcCfg := cfg["receivers"].(map[string]any)["otlp"].(map[string]any)["protocols"].(map[string]any)["grpc"].(map[string]any)
	grpcCfg["endpoint"] = endpoint
	delete(grpcCfg, "tls")
}

// tier is a running group of tier-2 collectors, the addresses tier 1 routes to, and the file sink each
// exports to: nodes[i] listens on addrs[i] and exports to sinks[i].
type tier struct {
	nodes []*collectortest.Collector
	sinks []*collectortest.Collector
	addrs []string
}

func startTier2(t *testing.T, n int) *tier {
	t.Helper()
	tpl := tier2Template(t)
	tr := &tier{}
	for range n {
		addr := collectortest.FreeAddr(t)
		sink := collectortest.Start(t, collectortest.FileSink, nil)
		tr.addrs = append(tr.addrs, addr)
		tr.sinks = append(tr.sinks, sink)
		tr.nodes = append(tr.nodes, startTier2Node(t, tpl, addr, sink, ""))
	}
	return tr
}

// startTier2Node starts one tier-2 collector listening on addr and exporting to sink, its queue in
// storageDir (a new directory when empty).
func startTier2Node(t *testing.T, tpl, addr string, sink *collectortest.Collector, storageDir string) *collectortest.Collector {
	t.Helper()
	return collectortest.Start(t, tpl, map[string]string{"Listen": addr, "Sink": sink.GRPC, "StorageDir": storageDir})
}

// outputs are the files the tier's sinks write, in the order of its nodes.
func (tr *tier) outputs() []string { return sinkOutputs(tr.sinks) }

// sinkOutputs are the files the given sinks write, in their order.
func sinkOutputs(sinks []*collectortest.Collector) []string {
	var out []string
	for _, s := range sinks {
		out = append(out, s.Output)
	}
	return out
}

// startTier1 starts deploy/scale/<name> routing plaintext to the tier-2 addresses.
func startTier1(t *testing.T, name string, addrs []string, env map[string]string) (*collectortest.Collector, string) {
	t.Helper()
	t.Setenv("TIER2_HOSTS", "["+strings.Join(addrs, ",")+"]")
	t.Setenv("TIER2_TLS_INSECURE", "true")
	for k, v := range env {
		t.Setenv(k, v)
	}
	logFile := filepath.Join(t.TempDir(), "tier1.log")
	return collectortest.Start(t, tier1Template(t, name), map[string]string{"LogFile": logFile}), logFile
}

// agentgen runs test/cmd/agentgen against a gRPC endpoint and returns the number of spans it sent.
func agentgenSend(t testing.TB, endpoint string, args ...string) int {
	t.Helper()
	cmd := agentgenCommand(t, endpoint, args...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s: %s", strings.Join(cmd.Args, " "), out)
	return sentSpans(t, string(out))
}

// agentgenCommand is agentgen sending to endpoint over OTLP/gRPC.
func agentgenCommand(t testing.TB, endpoint string, args ...string) *exec.Cmd {
	t.Helper()
	return exec.Command(collectortest.Agentgen(t), append([]string{"-protocol", "grpc", "-endpoint", endpoint}, args...)...)
}

var summaryRE = regexp.MustCompile(`agentgen: (\d+) runs, (\d+) spans`)

func sentSpans(t testing.TB, out string) int {
	t.Helper()
	m := summaryRE.FindStringSubmatch(out)
	require.NotNil(t, m, "agentgen summary: %s", out)
	n, err := strconv.Atoi(m[2])
	require.NoError(t, err)
	return n
}

// observed is what a set of file exporters wrote, indexed for comparing verdicts. The queues deliver at
// least once: a span written again (a collector killed between exporting a batch and recording it as
// sent resends it when it starts again) is counted in duplicates and read once.
type observed struct {
	spans      int                                  // distinct spans
	duplicates int                                  // copies of a span beyond its first
	node       map[pcommon.SpanID]int               // which output (index) a span was first written to
	trace      map[pcommon.SpanID]pcommon.TraceID   // the trace of every span
	notes      map[pcommon.SpanID]map[string]string // agentguard's annotations of a span, for comparison
	reasons    map[pcommon.TraceID][]string         // stuck reasons per trace, sorted: the run's verdict
	runKey     map[pcommon.TraceID]string           // session.id or gen_ai.conversation.id, when present
	nodesOf    map[pcommon.TraceID]map[int]struct{} // outputs a trace was written to
	name       map[pcommon.SpanID]string            // span names, for reports
	perNode    []int                                // spans per output, copies included
}

// observe reads every output in full; an output still being written is read up to its last whole line.
func observe(t testing.TB, outputs ...string) *observed {
	t.Helper()
	o := &observed{
		node: map[pcommon.SpanID]int{}, name: map[pcommon.SpanID]string{}, trace: map[pcommon.SpanID]pcommon.TraceID{}, notes: map[pcommon.SpanID]map[string]string{},
		reasons: map[pcommon.TraceID][]string{}, runKey: map[pcommon.TraceID]string{},
		nodesOf: map[pcommon.TraceID]map[int]struct{}{}, perNode: make([]int, len(outputs)),
	}
	for i, path := range outputs {
		batches, n := collectortest.ReadTraces(t, path)
		o.perNode[i] = n
		for _, td := range batches {
			for _, s := range walk.Spans(td) {
				o.add(i, s)
			}
		}
	}
	for id := range o.reasons {
		sort.Strings(o.reasons[id])
	}
	return o
}

// verdictKeys are the attributes agentguard writes on a span: what two observations of the same load
// must agree on.
var verdictKeys = func() map[string]bool {
	keys := map[string]bool{}
	for _, k := range annotation.Keys() {
		keys[k] = true
	}
	return keys
}()

func (o *observed) add(node int, s ptrace.Span) {
	id, tid := s.SpanID(), s.TraceID()
	if _, seen := o.node[id]; seen {
		o.duplicates++
		return
	}
	o.spans++
	o.node[id] = node
	o.name[id] = s.Name()
	o.trace[id] = tid
	if o.nodesOf[tid] == nil {
		o.nodesOf[tid] = map[int]struct{}{}
	}
	o.nodesOf[tid][node] = struct{}{}
	if _, ok := o.reasons[tid]; !ok {
		o.reasons[tid] = []string{}
	}
	for _, k := range []string{"session.id", "gen_ai.conversation.id"} {
		if v, ok := s.Attributes().Get(k); ok {
			o.runKey[tid] = v.Str()
		}
	}
	note := map[string]string{}
	s.Attributes().Range(func(k string, v pcommon.Value) bool {
		if verdictKeys[k] {
			note[k] = v.AsString()
		}
		return true
	})
	for i := 0; i < s.Events().Len(); i++ {
		e := s.Events().At(i)
		if e.Name() != annotation.StuckEvent {
			continue
		}
		reason, _ := e.Attributes().Get(annotation.EventReason)
		barren, _ := e.Attributes().Get(annotation.EventBarren)
		o.reasons[tid] = append(o.reasons[tid], reason.Str())
		// The agent name is left out: it depends on which spans shared a batch (agentguard's README).
		note["event "+strconv.Itoa(i)] = "reason=" + reason.Str() + ",barren=" + barren.AsString()
	}
	o.notes[id] = note
}

// stuckRuns counts runs with at least one stuck episode and the episodes in all.
func (o *observed) stuckRuns() (runs, episodes int) {
	for _, r := range o.reasons {
		if len(r) > 0 {
			runs++
			episodes += len(r)
		}
	}
	return runs, episodes
}

// The processors' own metrics the tests read (each processor's documentation.md lists them).
const (
	metricStuckEpisodes = "otelcol_processor_agentguard_stuck_episodes"
	metricSteps         = "otelcol_processor_agentguard_steps"
	metricRunsActive    = "otelcol_processor_agentguard_runs_active"
	metricRunsEvicted   = "otelcol_processor_agentguard_runs_evicted"
	metricMemoryEvicted = "otelcol_processor_shapeonly_memory_evicted"
)

// metricByLabels scrapes one metric family and sums its samples per value of the given labels. The
// family must be served (a renamed metric fails here rather than compare as empty). Series at zero are
// left out: the processors serve an agent's series from zero once they see the agent, and collectors
// that saw different agents should compare by what they counted.
func metricByLabels(t testing.TB, c *collectortest.Collector, name string, labels ...string) map[string]float64 {
	t.Helper()
	families, err := scrape(c.Metrics)
	require.NoError(t, err)
	fam, ok := families[name]
	require.True(t, ok, "the collector serves no %s", name)
	out := map[string]float64{}
	for _, m := range fam.GetMetric() {
		v := m.GetCounter().GetValue() + m.GetGauge().GetValue() + m.GetUntyped().GetValue()
		if v == 0 {
			continue
		}
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		var key []string
		for _, l := range labels {
			key = append(key, l+"="+have[l])
		}
		out[strings.Join(key, ",")] += v
	}
	return out
}

// logLine is the part of a collector JSON log line the tests read.
type logLine struct {
	TS           time.Time `json:"ts"`
	Level        string    `json:"level"`
	Msg          string    `json:"msg"`
	Error        string    `json:"error"`
	Endpoint     string    `json:"endpoint"`
	DroppedItems int       `json:"dropped_items"`
	Interval     string    `json:"interval"` // of a retry: how long until the request is tried again
}

// readLog parses a collector's JSON log; lines that are not JSON are skipped.
func readLog(t testing.TB, path string) []logLine {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	defer f.Close()
	var lines []logLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var l logLine
		if json.Unmarshal(sc.Bytes(), &l) == nil {
			lines = append(lines, l)
		}
	}
	return lines
}

// half is one export request's worth of one run: the spans a real SDK would export together.
type half struct {
	run   int
	td    ptrace.Traces
	spans []pcommon.SpanID
	sent  time.Time
}

// splitRun cuts a generated run into two requests in end-time order, as an SDK's batch span processor
// exports them: the first holds the spans that ended first, the second the rest, root span last. A run
// that spans requests is what makes a tier-2 node's in-memory state matter.
func splitRun(i int, r agentgen.Run) [2]*half {
	rs := r.Traces.ResourceSpans().At(0)
	ss := rs.ScopeSpans().At(0)
	idx := make([]int, ss.Spans().Len())
	for k := range idx {
		idx[k] = k
	}
	sort.SliceStable(idx, func(a, b int) bool {
		return ss.Spans().At(idx[a]).EndTimestamp() < ss.Spans().At(idx[b]).EndTimestamp()
	})
	cut := len(idx) / 2
	var out [2]*half
	for h, part := range [][]int{idx[:cut], idx[cut:]} {
		td := ptrace.NewTraces()
		nrs := td.ResourceSpans().AppendEmpty()
		rs.Resource().CopyTo(nrs.Resource())
		nss := nrs.ScopeSpans().AppendEmpty()
		ss.Scope().CopyTo(nss.Scope())
		hf := &half{run: i, td: td}
		for _, k := range part {
			ss.Spans().At(k).CopyTo(nss.Spans().AppendEmpty())
			hf.spans = append(hf.spans, ss.Spans().At(k).SpanID())
		}
		out[h] = hf
	}
	return out
}

// splitLoad generates n mixed runs and lays them out as a request schedule: request j carries the first
// half of run j and the second half of run j-lag, so every run has its halves lag requests apart.
func splitLoad(n, lag int, seed uint64, conv agentgen.Convention) (runs []agentgen.Run, schedule [][]*half) {
	m, err := agentgen.NewMixer(agentgen.Options{Convention: conv, Seed: seed})
	if err != nil {
		panic(err)
	}
	base := time.Now().Add(-time.Hour)
	halves := make([][2]*half, n)
	for i := range n {
		r := m.Next(base.Add(time.Duration(i) * 10 * time.Millisecond))
		runs = append(runs, r)
		halves[i] = splitRun(i, r)
	}
	for j := 0; j < n+lag; j++ {
		var req []*half
		if j < n {
			req = append(req, halves[j][0])
		}
		if j-lag >= 0 {
			req = append(req, halves[j-lag][1])
		}
		schedule = append(schedule, req)
	}
	return runs, schedule
}

// sender exports requests over OTLP/gRPC, as an instrumented application would.
type sender struct {
	conn   *grpc.ClientConn
	client ptraceotlp.GRPCClient
}

func newSender(t testing.TB, endpoint string) *sender {
	t.Helper()
	conn, err := grpc.NewClient(endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	return &sender{conn: conn, client: ptraceotlp.NewGRPCClient(conn)}
}

func (s *sender) export(req []*half) error {
	td := ptrace.NewTraces()
	for _, h := range req {
		h.td.ResourceSpans().At(0).CopyTo(td.ResourceSpans().AppendEmpty())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := s.client.Export(ctx, ptraceotlp.NewExportRequestFromTraces(td))
	return err
}

// play sends the schedule one request per interval (0: as fast as the collector answers), stamping
// each half with its send time, counts each answered request in answered (when not nil), and returns the
// export errors. The interval sets the load's rate, beaten by a ticker: request j is due at j intervals
// from the start, and a request that falls behind (its predecessor was slow to be answered) goes out at
// once, so the load keeps its rate on average.
func (s *sender) play(schedule [][]*half, interval time.Duration, answered *ackstream.Progress) []error {
	var errs []error
	start := time.Now()
	var beat <-chan time.Time
	if interval > 0 {
		tick := time.NewTicker(interval)
		defer tick.Stop()
		beat = tick.C
	}
	for j, req := range schedule {
		for beat != nil && time.Since(start) < time.Duration(j)*interval {
			<-beat
		}
		now := time.Now()
		for _, h := range req {
			h.sent = now
		}
		if err := s.export(req); err != nil {
			errs = append(errs, fmt.Errorf("request %d: %w", j, err))
		}
		answered.Count(j + 1)
	}
	return errs
}

// withheld is what shapeonly writes in place of a value it withholds.
const withheld = "[withheld]"

// compareVerdicts lists the runs (trace ids) among traces whose verdict differs between two observations
// of the same load: their stuck reasons, or an agentguard annotation of one of their spans. An annotation
// that shapeonly withheld on one side only is not agentguard's verdict changing but shapeonly's memory of
// data-class call ids, which is per collector (docs/scaling.md): those are counted in shaped instead.
func compareVerdicts(got, ref *observed, traces map[pcommon.TraceID]bool) (differ []pcommon.TraceID, shaped int) {
	bad := map[pcommon.TraceID]bool{}
	for tid := range traces {
		if !slices.Equal(got.reasons[tid], ref.reasons[tid]) {
			bad[tid] = true
		}
	}
	for id, note := range got.notes {
		tid := got.trace[id]
		if !traces[tid] {
			continue
		}
		want := ref.notes[id]
		keys := map[string]bool{}
		for k := range note {
			keys[k] = true
		}
		for k := range want {
			keys[k] = true
		}
		for k := range keys {
			switch g, w := note[k], want[k]; {
			case g == w:
			case g == withheld || w == withheld:
				shaped++
			default:
				bad[tid] = true
			}
		}
	}
	for tid := range bad {
		differ = append(differ, tid)
	}
	return differ, shaped
}

// diffReport logs, for the first few runs whose verdict differs, what differs: for a failing test's log.
func diffReport(t testing.TB, got, ref *observed, differ []pcommon.TraceID) {
	t.Helper()
	for i, tid := range differ {
		if i == 5 {
			break
		}
		t.Logf("run %s: stuck reasons %v, single collector %v", tid, got.reasons[tid], ref.reasons[tid])
		for id, note := range got.notes {
			if got.trace[id] == tid && !maps.Equal(ref.notes[id], note) {
				t.Logf("  span %s %q: %v, single collector %v", id, got.name[id], note, ref.notes[id])
			}
		}
	}
}

// procCPU is a process's user+system CPU time, from /proc/<pid>/stat (clock ticks of 1/100 s).
func procCPU(t testing.TB, pid int) time.Duration {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	require.NoError(t, err)
	// Fields after the command name, which is in parentheses and may hold spaces.
	fields := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	utime, err := strconv.ParseInt(fields[11], 10, 64)
	require.NoError(t, err)
	stime, err := strconv.ParseInt(fields[12], 10, 64)
	require.NoError(t, err)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// procRSS is a process's resident set size in bytes, from /proc/<pid>/status.
func procRSS(t testing.TB, pid int) int64 {
	t.Helper()
	b, ok := readRSS(pid)
	require.True(t, ok, "no VmRSS in /proc/%d/status", pid)
	return b
}

// readRSS reads VmRSS without failing the test, for background sampling.
func readRSS(pid int) (int64, bool) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// poller samples a value in the background until stopped.
type poller struct {
	mu      sync.Mutex
	samples []sample
	stop    chan struct{}
	done    chan struct{}
}

type sample struct {
	at time.Time
	v  float64
}

func poll(every time.Duration, f func() (float64, bool)) *poller {
	p := &poller{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			if v, ok := f(); ok {
				p.mu.Lock()
				p.samples = append(p.samples, sample{time.Now(), v})
				p.mu.Unlock()
			}
			select {
			case <-p.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return p
}

func (p *poller) end() []sample {
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.samples
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
