// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentgen"
)

// A file exporter writes on its flush interval, so a capture may end inside a line: only complete
// lines are read.
func TestCaptureReadsCompleteLinesOnly(t *testing.T) {
	r, err := agentgen.Generate("support", agentgen.Options{Seed: 1})
	require.NoError(t, err)
	line, err := (&ptrace.JSONMarshaler{}).MarshalTraces(r.Traces)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "spans.jsonl")
	require.NoError(t, os.WriteFile(path, append(append(line, '\n'), line[:len(line)/2]...), 0o600))
	c, err := readCapture(path)
	require.NoError(t, err)
	assert.Equal(t, r.Spans, c.spans)
	assert.Len(t, c.traces, 1)
}

// settle returns once every exporter has sent, and every file holds, each span accepted; until then
// it says which lags.
func TestSettleWaitsForEveryExporterAndFile(t *testing.T) {
	r, err := agentgen.Generate("support", agentgen.Options{Seed: 1})
	require.NoError(t, err)
	line, err := (&ptrace.JSONMarshaler{}).MarshalTraces(r.Traces)
	require.NoError(t, err)
	dir := t.TempDir()
	opts := options{received: filepath.Join(dir, "received.jsonl"), exported: filepath.Join(dir, "exported.jsonl"), timeout: time.Second}

	var sent atomic.Int64
	srv := metricsServerFunc(func() string {
		return fmt.Sprintf(`# TYPE otelcol_receiver_accepted_spans counter
otelcol_receiver_accepted_spans{receiver="otlp",transport="grpc"} %d
# TYPE otelcol_exporter_sent_spans counter
otelcol_exporter_sent_spans{exporter="file/received"} %d
otelcol_exporter_sent_spans{exporter="file/exported"} %d
`, r.Spans, r.Spans, sent.Load())
	})
	defer srv.Close()
	opts.metrics = srv.URL
	client := &http.Client{Timeout: time.Second}
	lags := func() string {
		t.Helper()
		s, err := lagging(client, opts)
		require.NoError(t, err)
		return s
	}

	assert.Equal(t, fmt.Sprintf("exporter file/exported has sent 0 of the %d spans accepted", r.Spans), lags())
	sent.Store(int64(r.Spans))
	assert.Equal(t, opts.received+" does not exist yet", lags())
	require.NoError(t, os.WriteFile(opts.received, append(line, '\n'), 0o600))
	require.NoError(t, os.WriteFile(opts.exported, nil, 0o600))
	assert.Equal(t, fmt.Sprintf("%s holds 0 of the %d spans accepted", opts.exported, r.Spans), lags())

	opts.wait = 300 * time.Millisecond
	err = settle(client, opts)
	require.Error(t, err)
	assert.Equal(t, fmt.Sprintf("after 300ms, %s holds 0 of the %d spans accepted", opts.exported, r.Spans), err.Error())

	go func() {
		time.Sleep(2 * settlePoll)
		_ = os.WriteFile(opts.exported, append(line, '\n'), 0o600)
	}()
	opts.wait = 10 * time.Second
	require.NoError(t, settle(client, opts))
	assert.Empty(t, lags())
}
