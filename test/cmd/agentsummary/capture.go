// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/walk"
)

// spanRef is one span with the resource and scope it was sent under.
type spanRef struct {
	span     ptrace.Span
	resource pcommon.Resource
	scope    pcommon.InstrumentationScope
}

type spanKey struct {
	trace pcommon.TraceID
	span  pcommon.SpanID
}

// capture is what a collector's file exporter wrote: one OTLP JSON export request per line.
type capture struct {
	// traces lists the trace ids in the order their first span was written.
	traces  []pcommon.TraceID
	byTrace map[pcommon.TraceID][]spanRef
	byKey   map[spanKey]spanRef
	spans   int
}

// readCapture reads every complete line of a file exporter's output. A last line without its newline
// is a write still in progress and is left for the next read.
func readCapture(path string) (*capture, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c := &capture{byTrace: map[pcommon.TraceID][]spanRef{}, byKey: map[spanKey]spanRef{}}
	r := bufio.NewReader(f)
	var unmarshaler ptrace.JSONUnmarshaler
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return c, nil
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		td, err := unmarshaler.UnmarshalTraces(b)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		c.add(td)
	}
}

func (c *capture) add(td ptrace.Traces) {
	for where, span := range walk.Spans(td) {
		ref := spanRef{span: span, resource: where.Resource, scope: where.Scope}
		id := span.TraceID()
		if _, seen := c.byTrace[id]; !seen {
			c.traces = append(c.traces, id)
		}
		c.byTrace[id] = append(c.byTrace[id], ref)
		c.byKey[spanKey{id, span.SpanID()}] = ref
		c.spans++
	}
}
