// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package bench

import (
	"context"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// TestStackPerRequest measures the stack each contender of BenchmarkMix grows a goroutine to when it
// handles one request on it, as the OTLP receiver's gRPC server runs each export request on a goroutine
// of its own: past the goroutine's starting size the stack is doubled, and copied whole, on every
// request (docs/benchmarks.md, "Stack growth"). Each request's goroutine stays parked once
// done, with the collector off, so that its stack is neither freed nor shrunk, and the growth of the
// heap's stack spans over the requests is what they hold.
//
// Neither processor may need two and a half times the stack of the anchor: holding a kilobyte-sized
// object in the frame of each level of a JSON walk, they needed 2.7 to 4.2 times as much, and a
// collector running them spent 1.3 % more of pass-through's CPU growing stacks than one without them;
// since, they have needed at most 2.1 times as much (docs/benchmarks-log.md, "Stack growth"). The race
// detector's instrumentation doubles every contender's need, and keeps the ratios.
func TestStackPerRequest(t *testing.T) {
	requests, _ := mixRequests(t, 500)
	raw := encoded(t, requests)
	ctx := context.Background()
	agentguard, shapeonly := newMixAgentguard(t), newMixShapeonly(t)
	stack := map[string]uint64{}
	for _, c := range []struct {
		name    string
		consume func(ptrace.Traces)
	}{
		{"otlp-proto-roundtrip", protoRoundTrip(t)},
		{"agentguard", func(td ptrace.Traces) { assert.NoError(t, agentguard.ConsumeTraces(ctx, td)) }},
		{"shapeonly", func(td ptrace.Traces) { assert.NoError(t, shapeonly.ConsumeTraces(ctx, td)) }},
	} {
		// Once over the mix first, so that what is made once (metric series, pools) is made.
		for _, td := range freshCopies(t, raw, 0) {
			c.consume(td)
		}
		stack[c.name] = stackPerRequest(t, freshCopies(t, raw, 1), c.consume)
		t.Logf("%s: %d bytes of stack a request", c.name, stack[c.name])
	}
	for _, name := range []string{"agentguard", "shapeonly"} {
		if anchor := stack["otlp-proto-roundtrip"]; 2*stack[name] >= 5*anchor {
			t.Errorf("%s grows a request's goroutine to %d bytes of stack, the round trip to %d: at least two and a half times", name, stack[name], anchor)
		}
	}
}

// stackPerRequest is the stack, on average, that consume grows each request's goroutine to.
func stackPerRequest(t *testing.T, requests []ptrace.Traces, consume func(ptrace.Traces)) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	parked := make(chan struct{})
	defer close(parked)
	for _, td := range requests {
		done := make(chan struct{})
		go func() {
			consume(td)
			close(done)
			<-parked
		}()
		<-done
	}
	runtime.ReadMemStats(&after)
	require.GreaterOrEqual(t, after.StackInuse, before.StackInuse, "stack spans freed with the collector off")
	return (after.StackInuse - before.StackInuse) / uint64(len(requests))
}
