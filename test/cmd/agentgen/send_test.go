// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"

	"github.com/agentotel/agentotel/internal/agentgen"
)

// received tallies what a test receiver got.
type received struct {
	mu               sync.Mutex
	requests, traces int
	spans            int
}

func (r *received) add(td ptrace.Traces) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests++
	r.traces += td.ResourceSpans().Len()
	r.spans += td.SpanCount()
}

func (r *received) check(t *testing.T, requests, traces, spans int) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.requests != requests || r.traces != traces || r.spans != spans {
		t.Errorf("received %d requests, %d runs, %d spans; want %d, %d, %d",
			r.requests, r.traces, r.spans, requests, traces, spans)
	}
}

type grpcReceiver struct {
	ptraceotlp.UnimplementedGRPCServer
	got *received
}

func (g *grpcReceiver) Export(_ context.Context, req ptraceotlp.ExportRequest) (ptraceotlp.ExportResponse, error) {
	g.got.add(req.Traces())
	return ptraceotlp.NewExportResponse(), nil
}

func startGRPC(t *testing.T) (string, *received) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	got := &received{}
	srv := grpc.NewServer()
	ptraceotlp.RegisterGRPCServer(srv, &grpcReceiver{got: got})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String(), got
}

// startHTTP decodes OTLP/HTTP protobuf like a collector receiver, or answers
// with status when it is not 200.
func startHTTP(t *testing.T, status int) (string, *received) {
	t.Helper()
	got := &received{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != protobuf {
			http.Error(w, "unexpected "+r.Method+" "+r.URL.Path+" "+r.Header.Get("Content-Type"), http.StatusBadRequest)
			return
		}
		if status != http.StatusOK {
			http.Error(w, "collector overloaded", status)
			return
		}
		body, _ := io.ReadAll(r.Body)
		req := ptraceotlp.NewExportRequest()
		if err := req.UnmarshalProto(body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		got.add(req.Traces())
		resp, _ := ptraceotlp.NewExportResponse().MarshalProto()
		w.Header().Set("Content-Type", protobuf)
		_, _ = w.Write(resp)
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://"), got
}

// mixSpans is what the CLI should send for a seeded mix of n runs.
func mixSpans(t *testing.T, seed uint64, n int) int {
	t.Helper()
	m, err := agentgen.NewMixer(agentgen.Options{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for range n {
		total += m.Next(time.Now()).Spans
	}
	return total
}

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestSendGRPC(t *testing.T) {
	addr, got := startGRPC(t)
	code, out, errOut := runCLI(t, "-protocol", "grpc", "-endpoint", addr, "-scenario", "mix", "-count", "23", "-batch", "5", "-seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	spans := mixSpans(t, 3, 23)
	got.check(t, 5, 23, spans)
	if !strings.Contains(out, "23 runs") || !strings.Contains(out, " spans in ") {
		t.Errorf("summary %q", out)
	}
}

func TestSendHTTP(t *testing.T) {
	addr, got := startHTTP(t, http.StatusOK)
	code, _, errOut := runCLI(t, "-protocol", "http", "-endpoint", addr, "-scenario", "seeds", "-convention", "vercel", "-seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := 0
	for i, name := range seedScenarios {
		r, err := agentgen.Generate(name, agentgen.Options{Convention: agentgen.Vercel, Seed: 1 + uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		want += r.Spans
	}
	got.check(t, 4, 4, want)
}

func TestSendFailsOnExportError(t *testing.T) {
	addr, _ := startHTTP(t, http.StatusServiceUnavailable)
	code, _, errOut := runCLI(t, "-protocol", "http", "-endpoint", addr, "-scenario", "deploy")
	if code != 1 || !strings.Contains(errOut, "503") || !strings.Contains(errOut, "collector overloaded") {
		t.Errorf("exit %d, stderr %q; want 1 and the receiver's 503", code, errOut)
	}
}

func TestRateBoundsTheLoop(t *testing.T) {
	addr, got := startGRPC(t)
	start := time.Now()
	code, _, errOut := runCLI(t, "-endpoint", addr, "-scenario", "docs", "-count", "5", "-rate", "20", "-seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Five runs at 20/s: the last leaves 4/20 s after the first.
	if el := time.Since(start); el < 190*time.Millisecond {
		t.Errorf("5 runs at 20/s took %v", el)
	}
	got.check(t, 5, 5, 5*12)
}

func TestOutWritesOTLPJSONLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	code, _, errOut := runCLI(t, "-out", path, "-scenario", "mix", "-count", "12", "-batch", "5", "-seed", "8")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := &received{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(sc.Bytes())
		if err != nil {
			t.Fatalf("line %d: %v", got.requests+1, err)
		}
		got.add(td)
	}
	got.check(t, 3, 12, mixSpans(t, 8, 12))
}
