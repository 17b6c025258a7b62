// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package ackstream sends agent runs to a collector as a sustained stream of OTLP/gRPC export requests,
// one at a time and never retried, and keeps which requests the collector answered with success: the
// spans it acknowledged. Tally then holds what a sink downstream received to that: every acknowledged
// span must arrive at least once; copies and spans of refused requests that arrived anyway are counted.
// It is what a test of a collector's crash counts with (test/e2e and test/scale).
package ackstream

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// Stream is a fixed sequence of export requests, each one run of agentgen's mix, and what became of each.
type Stream struct {
	requests []request
	answered *Progress
	start    time.Time // when Play sent its first request
}

type request struct {
	td       ptrace.Traces
	spans    []pcommon.SpanID
	err      error     // the collector's answer; nil is an acknowledgement
	sent     time.Time // when it went out
	answered time.Time // when its answer came
}

// New lays out runs runs of agentgen's mix (GenAI convention) from seed, one run a request.
func New(runs int, seed uint64) *Stream {
	s := &Stream{answered: NewProgress()}
	for _, r := range agentgen.Mix(runs, agentgen.Options{Seed: seed}) {
		s.add(r.Traces)
	}
	return s
}

// add appends a request of td.
func (s *Stream) add(td ptrace.Traces) {
	req := request{td: td}
	for _, span := range walk.Spans(td) {
		req.spans = append(req.spans, span.SpanID())
	}
	s.requests = append(s.requests, req)
}

// AnsweredAt is when request i was answered, once Play has returned.
func (s *Stream) AnsweredAt(i int) time.Time { return s.requests[i].answered }

// Acknowledged is the requests the collector answered with success, in the order they were sent, once
// Play has returned: what an uninterrupted collector is given to compare with one that was not.
func (s *Stream) Acknowledged() []ptrace.Traces {
	var acked []ptrace.Traces
	for _, req := range s.requests {
		if req.err == nil {
			acked = append(acked, req.td)
		}
	}
	return acked
}

// Requests is the number of requests in the stream.
func (s *Stream) Requests() int { return len(s.requests) }

// Answered is how many requests have been answered so far, and what a test waits on to act at a point
// of the stream.
func (s *Stream) Answered() *Progress { return s.answered }

// Play sends every request to endpoint in order, one every interval (a request answered late is followed
// by the next at once, so the stream keeps its rate on average), and returns when the last is answered.
// A request the collector refuses, or cannot be reached for, is not retried: it was not acknowledged.
// The client reconnects within 100 ms of the collector listening again, so the stream resumes as soon
// as a restarted collector can take it. It runs on a goroutine of the test's: it never fails the test.
func (s *Stream) Play(endpoint string, interval time.Duration) {
	conn, err := grpc.NewClient(endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: 20 * time.Millisecond, Multiplier: 1.6, MaxDelay: 100 * time.Millisecond},
			MinConnectTimeout: time.Second,
		}))
	if err != nil {
		for i := range s.requests {
			s.requests[i].err = err
		}
		s.answered.Count(len(s.requests))
		return
	}
	defer conn.Close()
	client := ptraceotlp.NewGRPCClient(conn)
	s.start = time.Now()
	for i := range s.requests {
		if wait := time.Until(s.start.Add(time.Duration(i) * interval)); wait > 0 {
			time.Sleep(wait)
		}
		req := &s.requests[i]
		req.sent = time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, req.err = client.Export(ctx, ptraceotlp.NewExportRequestFromTraces(req.td))
		req.answered = time.Now()
		cancel()
		s.answered.Count(i + 1)
	}
}

// Tally is what a sink received of a stream, against what the collector acknowledged.
type Tally struct {
	Requests, Acknowledged int // requests sent, and answered with success
	Spans, AckedSpans      int // spans sent, and in acknowledged requests
	Received               int // spans the sink wrote, copies included
	Distinct               int // distinct spans the sink wrote
	Duplicates             int // Received - Distinct: copies a restarted collector sent again
	LostAcked              int // acknowledged spans the sink never wrote
	UnackedArrived         int // spans of refused requests that arrived anyway
	// AckedAfter is the acknowledged requests sent after a point of the stream (Count's since): that
	// the collector took traffic again after it was restarted.
	AckedAfter int
}

func (t Tally) String() string {
	return fmt.Sprintf("%d of %d requests acknowledged (%d of %d spans); the sink wrote %d spans, %d distinct, %d copies; "+
		"%d acknowledged spans lost; %d spans of refused requests arrived anyway",
		t.Acknowledged, t.Requests, t.AckedSpans, t.Spans, t.Received, t.Distinct, t.Duplicates, t.LostAcked, t.UnackedArrived)
}

// Count reads what the sink wrote to output and tallies it against the stream's answers, once Play has
// returned. since marks a point of the stream (a restart) for AckedAfter.
func (s *Stream) Count(tb testing.TB, output string, since time.Time) Tally {
	tb.Helper()
	received := map[pcommon.SpanID]int{}
	batches, n := collectortest.ReadTraces(tb, output)
	for _, td := range batches {
		for _, span := range walk.Spans(td) {
			received[span.SpanID()]++
		}
	}
	t := Tally{Requests: len(s.requests), Received: n, Distinct: len(received)}
	t.Duplicates = t.Received - t.Distinct
	for _, req := range s.requests {
		t.Spans += len(req.spans)
		acked := req.err == nil
		if acked {
			t.Acknowledged++
			t.AckedSpans += len(req.spans)
			if req.sent.After(since) {
				t.AckedAfter++
			}
		}
		for _, id := range req.spans {
			switch arrived := received[id] > 0; {
			case acked && !arrived:
				t.LostAcked++
			case !acked && arrived:
				t.UnackedArrived++
			}
		}
	}
	require.LessOrEqual(tb, t.Distinct, t.Spans, "the sink wrote spans the stream never sent")
	return t
}
