// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package payloads reads the OTLP JSON payload files of testdata/ for tests: the export requests a file
// holds, one per line (the file exporter's format, the CLIs' and the formats' payloads) or one document
// indented over many.
package payloads

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Requests returns the export requests of a payload file, in order, each one JSON document; the test
// fails when the file cannot be read, is not JSON, or holds none.
func Requests(t testing.TB, path string) [][]byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var reqs [][]byte
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		var req json.RawMessage
		err := dec.Decode(&req)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, path)
		reqs = append(reqs, req)
	}
	require.NotEmpty(t, reqs, path)
	return reqs
}

// Traces returns the traces of every payload file the glob patterns match, pattern by pattern, file by
// file and request by request; the test fails when a pattern is malformed or a request is not OTLP
// JSON traces.
func Traces(t testing.TB, patterns ...string) []ptrace.Traces {
	t.Helper()
	var out []ptrace.Traces
	for _, pattern := range patterns {
		files, err := filepath.Glob(pattern)
		require.NoError(t, err)
		for _, file := range files {
			for _, req := range Requests(t, file) {
				td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(req)
				require.NoError(t, err, file)
				out = append(out, td)
			}
		}
	}
	return out
}
