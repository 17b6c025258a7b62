// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package ackstream

import (
	"fmt"
	"testing"
	"time"

	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// Crash is a sustained stream into a collector that is killed (SIGKILL: no drain) in the middle of it and
// started again on the same address and storage directory, as a pod restarted with its volume.
type Crash struct {
	Runs     int           // runs in the stream, one a request
	Interval time.Duration // between requests
	KillAt   int           // the collector is killed once this many requests have been answered,
	Outage   int           // and started again once this many more have been
	Seed     uint64        // of agentgen's mix
	// Stream, when set, is the stream played instead of Runs runs of the mix (a Crossing's, say).
	Stream *Stream
}

// Crashed is what a Crash measured.
type Crashed struct {
	Tally
	AcceptedAtKill float64       // spans the collector had accepted when it was killed (read just before)
	ExportedAtKill float64       // spans the sink had received from it when it died
	Down           time.Duration // from the kill until the restarted collector was healthy
	Killed         time.Time     // when the collector was killed
	Sink           string        // the file the sink wrote what it received to
	StorageDir     string        // the collectors' file_storage directory
}

func (c Crashed) String() string {
	return fmt.Sprintf("%v; the killed collector had accepted %.0f spans and exported %.0f; down %v",
		c.Tally, c.AcceptedAtKill, c.ExportedAtKill, c.Down.Round(time.Millisecond))
}

// The collector counters a Crash reads (the collector's internal telemetry).
const (
	metricAccepted  = "otelcol_receiver_accepted_spans"
	metricSent      = "otelcol_exporter_sent_spans"
	metricQueueSize = "otelcol_exporter_queue_size"
)

// Run starts a collectortest.FileSink and a collector on template, which must receive OTLP/gRPC on
// {{.Listen}} and export to {{.Sink}}; plays the stream into it, kills it and starts it again as c says;
// waits until the restarted collector has sent everything it holds and the sink has written everything
// it received; and tallies the sink's file against the stream's answers.
func (c Crash) Run(tb testing.TB, template string) Crashed {
	tb.Helper()
	sink := collectortest.Start(tb, collectortest.FileSink, nil)
	vars := map[string]string{"Listen": collectortest.FreeAddr(tb), "Sink": sink.GRPC, "StorageDir": tb.TempDir()}
	collector := collectortest.Start(tb, template, vars)

	stream := c.Stream
	if stream == nil {
		stream = New(c.Runs, c.Seed)
	}
	played := make(chan struct{})
	go func() { stream.Play(vars["Listen"], c.Interval); close(played) }()
	stream.Answered().Reach(tb, c.KillAt, time.Minute)
	out := Crashed{Sink: sink.Output, StorageDir: vars["StorageDir"]}
	out.AcceptedAtKill = collector.Metric(metricAccepted, nil)
	collector.Kill()
	killed := time.Now()
	out.Killed = killed
	out.ExportedAtKill = sink.Metric(metricAccepted, nil)

	stream.Answered().Reach(tb, c.KillAt+c.Outage, time.Minute)
	restarted := collectortest.Start(tb, template, vars) // returns once healthy
	up := time.Now()
	out.Down = up.Sub(killed)
	<-played

	// The restarted collector's queue starts with what the killed one left in it.
	Settle(tb, restarted, sink)
	out.Tally = stream.Count(tb, sink.Output, up)
	return out
}

// Settle waits until collector has sent everything it holds (its queue is empty and it has sent at
// least what it accepted) and sink has written everything it received to its file.
func Settle(tb testing.TB, collector, sink *collectortest.Collector) {
	tb.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		queued := collector.Metric(metricQueueSize, nil)
		accepted, sent := collector.Metric(metricAccepted, nil), collector.Metric(metricSent, nil)
		received := sink.Metric(metricAccepted, nil)
		_, written := collectortest.ReadTraces(tb, sink.Output)
		if queued == 0 && sent >= accepted && float64(written) >= received {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the collector did not settle: queue %.0f, accepted %.0f, sent %.0f; the sink received %.0f, wrote %d",
				queued, accepted, sent, received, written)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
