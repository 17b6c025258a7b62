// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// grpcSink exports through pdata's own OTLP gRPC client. Plaintext, because
// the target is a local or in-cluster collector, not a public endpoint.
type grpcSink struct {
	conn   *grpc.ClientConn
	client ptraceotlp.GRPCClient
}

func dialGRPC(endpoint string) (*grpcSink, error) {
	conn, err := grpc.NewClient(endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	return &grpcSink{conn: conn, client: ptraceotlp.NewGRPCClient(conn)}, nil
}

func (s *grpcSink) export(ctx context.Context, td ptrace.Traces) error {
	resp, err := s.client.Export(ctx, ptraceotlp.NewExportRequestFromTraces(td))
	if err != nil {
		return err
	}
	return rejected(resp)
}

func (s *grpcSink) close() error { return s.conn.Close() }
