// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package collectortest runs the built otelcol-agent distribution for end-to-end tests: it renders a
// config onto free loopback ports, starts the real binary, waits for its health check, sends agentgen
// traffic over OTLP, and reads back what the file exporter wrote and what the internal telemetry serves.
package collectortest

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"text/template"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/repo"
)

// Binary is the otelcol-agent that `make build` produced. End-to-end tests run the real distribution, so
// they fail rather than skip when it is missing.
func Binary(t testing.TB) string {
	t.Helper()
	path := filepath.Join(repo.Root(t), "_build", "otelcol-agent")
	_, err := os.Stat(path)
	require.NoError(t, err, "the end-to-end tests need the built distribution: run `make build` (make test does)")
	return path
}

var agentgen struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// Agentgen builds test/cmd/agentgen once per test binary and returns its path.
func Agentgen(t testing.TB) string {
	t.Helper()
	agentgen.once.Do(func() {
		dir, err := os.MkdirTemp("", "agentgen")
		if err != nil {
			agentgen.err = err
			return
		}
		agentgen.path = filepath.Join(dir, "agentgen")
		cmd := exec.Command("go", "build", "-o", agentgen.path, "./cmd/agentgen")
		cmd.Dir = filepath.Join(repo.Root(t), "test")
		agentgen.out, agentgen.err = cmd.CombinedOutput()
	})
	require.NoError(t, agentgen.err, string(agentgen.out))
	return agentgen.path
}

// Collector is one running otelcol-agent on free loopback ports.
type Collector struct {
	t          testing.TB
	cmd        *exec.Cmd
	done       chan struct{}
	GRPC, HTTP string // OTLP endpoints
	Metrics    string // internal telemetry endpoint, host:port
	Health     string // health_check endpoint, host:port
	Output     string // the file exporter's path
	StorageDir string // the file_storage extension's directory: STORAGE_DIR in its environment
	logs       *Output
}

// Preamble is what every test collector has: the health check Start waits on, a file_storage extension
// in the directory STORAGE_DIR names (the variable the shipped configs read too, so that they keep their
// queues in the collector's own directory and two collectors never share a database), the OTLP receiver
// on the chosen ports, and internal telemetry served for Prometheus. A test's config holds only its
// pipeline.
const Preamble = `
extensions:
  health_check:
    endpoint: {{.Health}}
  file_storage:
    directory: ${env:STORAGE_DIR}
receivers:
  otlp:
    protocols:
      grpc: {endpoint: "{{.GRPC}}"}
      http: {endpoint: "{{.HTTP}}"}
service:
  extensions: [health_check, file_storage]
  telemetry:
    metrics:
      readers:
        - pull:
            exporter:
              prometheus: {host: "{{.MetricsHost}}", port: {{.MetricsPort}}}
`

// Start renders Preamble and configTemplate and starts a collector on them, then waits until its health
// check answers. The templates see GRPC, HTTP, Health, Output, MetricsHost and MetricsPort, plus vars.
// The collector's STORAGE_DIR is a new empty directory unless vars names one as StorageDir: a collector
// restarted on the directory of one that died finds its queues there. The collector merges its --config
// files in order: the preamble, the files in under, then the rendered template.
func Start(t testing.TB, configTemplate string, vars map[string]string, under ...string) *Collector {
	t.Helper()
	dir := t.TempDir()
	c := &Collector{t: t, logs: new(Output), done: make(chan struct{})}
	c.GRPC, c.HTTP, c.Metrics, c.Health = FreeAddr(t), FreeAddr(t), FreeAddr(t), FreeAddr(t)
	c.Output = filepath.Join(dir, "traces.jsonl")
	c.StorageDir = vars["StorageDir"]
	if c.StorageDir == "" {
		c.StorageDir = filepath.Join(dir, "storage")
		require.NoError(t, os.Mkdir(c.StorageDir, 0o700))
	}
	metricsHost, metricsPort, _ := net.SplitHostPort(c.Metrics)

	data := map[string]string{
		"GRPC": c.GRPC, "HTTP": c.HTTP, "Health": c.Health, "Output": c.Output,
		"MetricsHost": metricsHost, "MetricsPort": metricsPort,
	}
	for k, v := range vars {
		data[k] = v
	}
	render := func(name, text string) string {
		var out bytes.Buffer
		require.NoError(t, template.Must(template.New(name).Option("missingkey=error").Parse(text)).Execute(&out, data))
		path := filepath.Join(dir, name+".yaml")
		require.NoError(t, os.WriteFile(path, out.Bytes(), 0o600))
		return path
	}
	files := append(append([]string{render("preamble", Preamble)}, under...), render("config", configTemplate))
	var args []string
	for _, path := range files {
		args = append(args, "--config", path)
	}
	c.cmd = exec.Command(Binary(t), args...)
	c.cmd.Env = append(os.Environ(), "STORAGE_DIR="+c.StorageDir)
	c.cmd.Stdout, c.cmd.Stderr = c.logs, c.logs
	require.NoError(t, c.cmd.Start())
	go func() { _ = c.cmd.Wait(); close(c.done) }()
	t.Cleanup(c.Stop)

	deadline := time.Now().Add(30 * time.Second)
	for !c.healthy() {
		select {
		case <-c.done:
			t.Fatalf("collector exited before it became healthy:\n%s", c.logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("collector did not become healthy in 30s:\n%s", c.logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	return c
}

func (c *Collector) healthy() bool {
	resp, err := http.Get("http://" + c.Health + "/")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// Stop interrupts the collector, as Ctrl-C would, and waits for it to drain and exit.
func (c *Collector) Stop() { c.stopWith(os.Interrupt) }

// Terminate sends the collector SIGTERM, as a deploy or kubelet does, and waits for it to drain and
// exit.
func (c *Collector) Terminate() { c.stopWith(syscall.SIGTERM) }

func (c *Collector) stopWith(sig os.Signal) {
	select {
	case <-c.done:
		return
	default:
	}
	_ = c.cmd.Process.Signal(sig)
	select {
	case <-c.done:
	case <-time.After(15 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.done
	}
	if c.t.Failed() {
		c.t.Logf("collector log:\n%s", c.logs.String())
	}
}

// Kill ends the collector at once, without draining: a node lost.
func (c *Collector) Kill() {
	_ = c.cmd.Process.Kill()
	<-c.done
}

// Log is what the collector has logged so far.
func (c *Collector) Log() string { return c.logs.String() }

// PID is the collector's process id, for reading its resource use.
func (c *Collector) PID() int { return c.cmd.Process.Pid }

// Send runs agentgen against the collector's OTLP endpoint (protocol grpc or http) with the given flags.
func (c *Collector) Send(protocol string, args ...string) string {
	c.t.Helper()
	endpoint := c.GRPC
	if protocol == "http" {
		endpoint = c.HTTP
	}
	all := append([]string{"-protocol", protocol, "-endpoint", endpoint}, args...)
	out, err := exec.Command(Agentgen(c.t), all...).CombinedOutput()
	require.NoError(c.t, err, "agentgen %s: %s", strings.Join(all, " "), out)
	return string(out)
}

// SpansOut reads the file exporter's output until it holds at least want spans or 20 s pass.
func (c *Collector) SpansOut(want int) []ptrace.Traces {
	c.t.Helper()
	var batches []ptrace.Traces
	n := 0
	Eventually(c.t, "the file exporter to write the spans", func() bool {
		batches, n = ReadTraces(c.t, c.Output)
		return n >= want
	})
	return batches
}

// ReadTraces reads a file exporter's OTLP JSON lines; a line still being written ends the read.
func ReadTraces(t testing.TB, path string) ([]ptrace.Traces, int) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, 0
	}
	require.NoError(t, err)
	defer f.Close()
	var batches []ptrace.Traces
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	var u ptrace.JSONUnmarshaler
	for sc.Scan() {
		td, err := u.UnmarshalTraces(sc.Bytes())
		if err != nil {
			break
		}
		batches = append(batches, td)
		n += td.SpanCount()
	}
	return batches, n
}

// Metric sums the samples of a metric family the collector serves whose labels include match.
func (c *Collector) Metric(name string, match map[string]string) float64 {
	c.t.Helper()
	return Scrape(c.t, "http://"+c.Metrics+"/metrics", name, match)
}

// FreeAddr returns a loopback address no one is listening on.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

// Eventually polls cond until it holds, failing the test after 20 s.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Output collects a process's output (a collector's log) while tests read it.
type Output struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Output) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *Output) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
