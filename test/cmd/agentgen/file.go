// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"context"
	"errors"
	"os"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// fileSink writes one OTLP JSON export request per line, the format of the
// collector's file exporter, so the output replays through otlpjsonfile.
type fileSink struct {
	f *os.File
	w *bufio.Writer
}

func openFile(path string) (*fileSink, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &fileSink{f: f, w: bufio.NewWriter(f)}, nil
}

func (s *fileSink) export(_ context.Context, td ptrace.Traces) error {
	b, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	if err != nil {
		return err
	}
	if _, err := s.w.Write(b); err != nil {
		return err
	}
	return s.w.WriteByte('\n')
}

func (s *fileSink) close() error {
	return errors.Join(s.w.Flush(), s.f.Close())
}
