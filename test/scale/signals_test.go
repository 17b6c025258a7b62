// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

//go:build scale

package scale

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// The tests never wait on the clock: they wait until the collectors' own counters say the spans got
// where they were going. Every collector serves these on its internal metrics endpoint.
const (
	metricAccepted   = "otelcol_receiver_accepted_spans"
	metricRefused    = "otelcol_receiver_refused_spans"
	metricSent       = "otelcol_exporter_sent_spans"
	metricSendFailed = "otelcol_exporter_send_failed_spans"
	metricQueueSize  = "otelcol_exporter_queue_size" // in the queue's sizer: bytes for tier 2's
)

// pollEvery is how often a wait reads its signal.
const pollEvery = 100 * time.Millisecond

// scrape reads a collector's internal metrics without failing the test, so that a wait can report what
// it could not read alongside what it could.
func scrape(addr string) (map[string]*dto.MetricFamily, error) {
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	return parser.TextToMetricFamilies(resp.Body)
}

// familyTotal sums every sample of one metric family.
func familyTotal(families map[string]*dto.MetricFamily, name string) float64 {
	total := 0.0
	if fam, ok := families[name]; ok {
		for _, m := range fam.GetMetric() {
			total += m.GetCounter().GetValue() + m.GetGauge().GetValue() + m.GetUntyped().GetValue()
		}
	}
	return total
}

// scrapeValue reads one metric family's total without failing the test.
func scrapeValue(addr, name string) (float64, bool) {
	families, err := scrape(addr)
	if err != nil {
		return 0, false
	}
	return familyTotal(families, name), true
}

// flow is what one collector, or a group of them summed, has done with spans: accepted and refused at
// its receivers, sent and failed to send at its exporters.
type flow struct{ accepted, refused, sent, failed float64 }

func (f flow) add(g flow) flow {
	return flow{f.accepted + g.accepted, f.refused + g.refused, f.sent + g.sent, f.failed + g.failed}
}

func (f flow) String() string {
	return fmt.Sprintf("accepted %.0f, refused %.0f, sent %.0f, send failed %.0f", f.accepted, f.refused, f.sent, f.failed)
}

// readFlow reads one collector's span counters in one scrape.
func readFlow(c *collectortest.Collector) (flow, error) {
	families, err := scrape(c.Metrics)
	if err != nil {
		return flow{}, err
	}
	return flow{
		accepted: familyTotal(families, metricAccepted), refused: familyTotal(families, metricRefused),
		sent: familyTotal(families, metricSent), failed: familyTotal(families, metricSendFailed),
	}, nil
}

// readFlows sums the span counters of a group of collectors, and describes each for a report.
func readFlows(cs []*collectortest.Collector) (flow, string, error) {
	var total flow
	var each []string
	for i, c := range cs {
		f, err := readFlow(c)
		if err != nil {
			return flow{}, "", fmt.Errorf("collector %d: %w", i, err)
		}
		total = total.add(f)
		each = append(each, fmt.Sprintf("[%v]", f))
	}
	return total, strings.Join(each, " "), nil
}

// waitUntil polls check until it reports done, and fails the test with check's last account of what it
// saw if timeout passes first.
func waitUntil(t testing.TB, what string, timeout, every time.Duration, check func() (done bool, seen string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		done, seen := check()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v still waiting for %s: %s", timeout, what, seen)
		}
		time.Sleep(every)
	}
}

// writtenSpans counts the spans the file exporters have written so far.
func writtenSpans(t testing.TB, outputs ...string) int {
	n := 0
	for _, p := range outputs {
		_, c := collectortest.ReadTraces(t, p)
		n += c
	}
	return n
}

// waitDelivered waits until want spans have gone through every stage and been written, then reads
// what was written. A stage is a group of collectors that between them see each span once (one
// collector, or the tier-2 collectors behind one tier 1): their receivers have accepted want spans and
// their exporters have sent as many. The last stage's file exporters hold the spans once they flush.
func waitDelivered(t testing.TB, want int, timeout time.Duration, stages ...[]*collectortest.Collector) *observed {
	t.Helper()
	var outputs []string
	for _, c := range stages[len(stages)-1] {
		outputs = append(outputs, c.Output)
	}
	waitUntil(t, fmt.Sprintf("%d spans through %d stages", want, len(stages)), timeout, pollEvery, func() (bool, string) {
		done := true
		var seen []string
		for i, stage := range stages {
			total, each, err := readFlows(stage)
			if err != nil {
				return false, fmt.Sprintf("stage %d: %v", i+1, err)
			}
			done = done && total.accepted >= float64(want) && total.sent >= float64(want)
			seen = append(seen, fmt.Sprintf("stage %d: %v (%s)", i+1, total, each))
		}
		if !done { // the files are worth reading only once the counters say everything was sent
			return false, strings.Join(seen, "; ")
		}
		written := writtenSpans(t, outputs...)
		return written >= want, fmt.Sprintf("%s; written %d of %d", strings.Join(seen, "; "), written, want)
	})
	return observe(t, outputs...)
}
