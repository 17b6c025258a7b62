// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

const protobuf = "application/x-protobuf"

// httpSink POSTs OTLP/HTTP binary protobuf, the encoding every OTLP receiver
// must accept.
type httpSink struct {
	url    string
	client *http.Client
}

func newHTTPSink(endpoint string) *httpSink {
	return &httpSink{url: "http://" + endpoint + "/v1/traces", client: &http.Client{}}
}

func (s *httpSink) export(ctx context.Context, td ptrace.Traces) error {
	body, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", protobuf)
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	// Bounded so a misdirected endpoint serving a large page cannot stall us.
	reply, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("POST %s: %s: %s", s.url, resp.Status, bytes.TrimSpace(reply[:min(len(reply), 512)]))
	}
	if resp.Header.Get("Content-Type") != protobuf || len(reply) == 0 {
		return nil
	}
	r := ptraceotlp.NewExportResponse()
	if err := r.UnmarshalProto(reply); err != nil {
		return fmt.Errorf("POST %s: bad response: %w", s.url, err)
	}
	return rejected(r)
}

func (s *httpSink) close() error {
	s.client.CloseIdleConnections()
	return nil
}
