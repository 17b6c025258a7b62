package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// repoRoot is where make builds the distribution.
const repoRoot = "../.."

// collectorBinary is the otelcol-agent that `make build` produced; the end-to-end tests run the real
// distribution, so they fail rather than skip when it is missing.
func collectorBinary(t *testing.T) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join(repoRoot, "_build", "otelcol-agent"))
	require.NoError(t, err)
	_, err = os.Stat(path)
	require.NoError(t, err, "the end-to-end tests need the built distribution: run `make build` (make e2e does)")
	return path
}

// agentgenBinary builds cmd/agentgen once per test binary.
var agentgenPath string

func agentgenBinary(t *testing.T) string {
	t.Helper()
	if agentgenPath != "" {
		return agentgenPath
	}
	dir, err := os.MkdirTemp("", "agentgen")
	require.NoError(t, err)
	path := filepath.Join(dir, "agentgen")
	out, err := exec.Command("go", "build", "-o", path, "../../cmd/agentgen").CombinedOutput()
	require.NoError(t, err, string(out))
	agentgenPath = path
	return path
}

// collector is one running otelcol-agent on free loopback ports.
type collector struct {
	t          *testing.T
	cmd        *exec.Cmd
	dir        string
	GRPC, HTTP string // OTLP endpoints
	Metrics    string // internal telemetry endpoint host:port
	Health     string
	Output     string // file exporter path
	logs       *bytes.Buffer
}

// startCollector renders configTemplate with the collector's ports and paths, starts it and waits until
// its health check answers.
func startCollector(t *testing.T, configTemplate string) *collector {
	t.Helper()
	c := &collector{t: t, dir: t.TempDir(), logs: new(bytes.Buffer)}
	c.GRPC, c.HTTP, c.Metrics, c.Health = freeAddr(t), freeAddr(t), freeAddr(t), freeAddr(t)
	c.Output = filepath.Join(c.dir, "traces.jsonl")
	metricsHost, metricsPort, _ := net.SplitHostPort(c.Metrics)

	var cfg bytes.Buffer
	tmpl := template.Must(template.New("config").Parse(configTemplate))
	require.NoError(t, tmpl.Execute(&cfg, map[string]string{
		"GRPC": c.GRPC, "HTTP": c.HTTP, "Health": c.Health, "Output": c.Output,
		"MetricsHost": metricsHost, "MetricsPort": metricsPort,
	}))
	cfgPath := filepath.Join(c.dir, "config.yaml")
	require.NoError(t, os.WriteFile(cfgPath, cfg.Bytes(), 0o600))

	c.cmd = exec.Command(collectorBinary(t), "--config", cfgPath)
	c.cmd.Stdout, c.cmd.Stderr = c.logs, c.logs
	require.NoError(t, c.cmd.Start())
	t.Cleanup(c.stop)

	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + c.Health + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return c
			}
		}
		if time.Now().After(deadline) || (c.cmd.ProcessState != nil) {
			t.Fatalf("collector did not become healthy: %v\n%s", err, c.logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (c *collector) stop() {
	if c.cmd.Process == nil || c.cmd.ProcessState != nil {
		return
	}
	_ = c.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = c.cmd.Process.Kill()
		<-done
	}
	if c.t.Failed() {
		c.t.Logf("collector log:\n%s", c.logs.String())
	}
}

// send runs agentgen against the collector's OTLP endpoint with the given flags.
func (c *collector) send(protocol string, args ...string) string {
	c.t.Helper()
	endpoint := c.GRPC
	if protocol == "http" {
		endpoint = c.HTTP
	}
	all := append([]string{"-protocol", protocol, "-endpoint", endpoint}, args...)
	out, err := exec.Command(agentgenBinary(c.t), all...).CombinedOutput()
	require.NoError(c.t, err, "agentgen %s: %s", strings.Join(all, " "), out)
	return string(out)
}

// spansOut reads the file exporter's output until it holds at least want spans or the wait runs out.
func (c *collector) spansOut(want int) []ptrace.Traces {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		batches, n := readTraces(c.t, c.Output)
		if n >= want || time.Now().After(deadline) {
			require.GreaterOrEqual(c.t, n, want, "spans written by the file exporter")
			return batches
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func readTraces(t *testing.T, path string) ([]ptrace.Traces, int) {
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
			break // a line still being written
		}
		batches = append(batches, td)
		n += td.SpanCount()
	}
	return batches, n
}

// metric returns the sum of every sample of a metric family whose labels include match, from the
// collector's internal telemetry endpoint.
func (c *collector) metric(name string, match map[string]string) float64 {
	c.t.Helper()
	resp, err := http.Get("http://" + c.Metrics + "/metrics")
	require.NoError(c.t, err)
	defer resp.Body.Close()
	return sumSamples(c.t, resp, name, match)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

// eventually polls cond until it holds or 20 s pass.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal(fmt.Sprintf("timed out waiting for %s", what))
		}
		time.Sleep(200 * time.Millisecond)
	}
}
