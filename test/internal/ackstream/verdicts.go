// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package ackstream

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// Verdicts reads what agentguard wrote on each span a sink wrote to output: its agentguard.* attributes
// and its events, as one line a span (a span a restarted collector sent twice is the same line twice).
func Verdicts(tb testing.TB, output string) map[pcommon.SpanID]string {
	tb.Helper()
	verdicts := map[pcommon.SpanID]string{}
	batches, _ := collectortest.ReadTraces(tb, output)
	for _, td := range batches {
		for _, span := range walk.Spans(td) {
			verdicts[span.SpanID()] = verdictOf(span)
		}
	}
	return verdicts
}

func verdictOf(span ptrace.Span) string {
	var parts []string
	for k, v := range span.Attributes().All() {
		if strings.HasPrefix(k, "agentguard.") {
			parts = append(parts, k+"="+v.AsString())
		}
	}
	slices.Sort(parts)
	for _, e := range span.Events().All() {
		var attrs []string
		for k, v := range e.Attributes().All() {
			attrs = append(attrs, k+"="+v.AsString())
		}
		slices.Sort(attrs)
		parts = append(parts, fmt.Sprintf("event %s {%s}", e.Name(), strings.Join(attrs, " ")))
	}
	return strings.Join(parts, "; ")
}

// Replay sends batches to endpoint in order, one at a time, failing the test on a refusal: an
// uninterrupted collector given what an interrupted one acknowledged.
func Replay(tb testing.TB, endpoint string, batches []ptrace.Traces) {
	tb.Helper()
	conn, err := grpc.NewClient(endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	client := ptraceotlp.NewGRPCClient(conn)
	for i, td := range batches {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := client.Export(ctx, ptraceotlp.NewExportRequestFromTraces(td))
		cancel()
		if err != nil {
			tb.Fatalf("request %d of %d refused: %v", i, len(batches), err)
		}
	}
}
