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
	"testing"

	"github.com/stretchr/testify/require"
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
