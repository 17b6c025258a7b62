// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// sink takes one export request's worth of traces.
type sink interface {
	export(ctx context.Context, td ptrace.Traces) error
	close() error
}

func openSink(cfg config) (sink, error) {
	switch {
	case cfg.out != "":
		return openFile(cfg.out)
	case cfg.protocol == "http":
		return newHTTPSink(cfg.endpoint), nil
	default:
		return dialGRPC(cfg.endpoint)
	}
}

// rejected turns an OTLP partial success into an error: spans the receiver
// dropped are spans the run's verdict will be missing.
func rejected(resp ptraceotlp.ExportResponse) error {
	ps := resp.PartialSuccess()
	if ps.RejectedSpans() == 0 {
		return nil
	}
	return fmt.Errorf("receiver rejected %d spans: %s", ps.RejectedSpans(), ps.ErrorMessage())
}
