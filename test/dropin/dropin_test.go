// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package dropin checks the README's "Drop into your pipeline" instructions as a reader would follow
// them: it takes the builder snippet and the collector config out of README.md, builds a second, minimal
// distribution with ocb from an ordinary builder config plus that snippet, and runs the config on it.
package dropin

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"go.yaml.in/yaml/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	_ "google.golang.org/grpc/encoding/gzip" // the otlp_grpc exporter compresses with gzip by default

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/repo"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

const (
	// builderVersion is the ocb release the snippet's other components and these processors are built for.
	builderVersion = "v0.161.0"
	// checkoutPlaceholder is what the README tells the reader to replace with the absolute path of their
	// clone; the test puts the repository root there.
	checkoutPlaceholder = "/path/to/agentotel"
	// distributionName is dist.name in testdata/builder-config.yaml, the binary ocb writes.
	distributionName = "otelcol-dropin"
	// exporterName is the exporter the README's config sends to; the test points it at its own backend.
	exporterName = "otlp_grpc"
)

// TestReadmeDropIn builds a distribution the way the README's snippet says and sends one agent run
// through the README's collector config: the run must come out shaped (no customer value, [withheld] in
// its place) and annotated (agentguard's step numbers on the tool spans).
func TestReadmeDropIn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a collector distribution with ocb; skipped in -short mode")
	}
	builder := locateBuilder(t)
	root := repo.Root(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)

	binary := buildDistribution(t, builder, root, fencedYAML(t, string(readme), "dropin-builder"))

	components, err := exec.Command(binary, "components").CombinedOutput()
	require.NoError(t, err, string(components))
	for _, name := range []string{"agentguard", "shapeonly", "filter", "memory_limiter", "batch", exporterName} {
		assert.Contains(t, string(components), "name: "+name, "the built distribution should list %s", name)
	}

	// The README's config, verbatim: the collector must accept it as it stands.
	dir := t.TempDir()
	readmeConfig := filepath.Join(dir, "readme-config.yaml")
	require.NoError(t, os.WriteFile(readmeConfig, []byte(fencedYAML(t, string(readme), "dropin-config")), 0o600))
	out, err := exec.Command(binary, "validate", "--config", readmeConfig).CombinedOutput()
	require.NoError(t, err, "the README's collector config does not validate:\n%s", out)

	backend := startBackend(t)
	receiver := collectortest.FreeAddr(t)
	exited := startCollector(t, binary, readmeConfig, overlay(t, dir, receiver, backend.addr))

	run, err := agentgen.Generate("support", agentgen.Options{Seed: 1})
	require.NoError(t, err)
	require.NotEmpty(t, run.Secrets, "the support scenario should carry customer values to withhold")
	sendWhenReady(t, receiver, run.Traces, exited)

	var got []ptrace.Traces
	collectortest.Eventually(t, "the backend to receive the run", func() bool {
		var n int
		got, n = backend.received()
		return n >= run.Spans
	})

	var marshaler ptrace.JSONMarshaler
	var exported strings.Builder
	steps := 0
	for _, td := range got {
		b, err := marshaler.MarshalTraces(td)
		require.NoError(t, err)
		exported.Write(b)
		for _, span := range walk.Spans(td) {
			if _, ok := span.Attributes().Get(annotation.Step); ok {
				steps++
			}
		}
	}
	// Plain checks rather than assert.Contains, whose failure message would print the whole export.
	for _, secret := range run.Secrets {
		if strings.Contains(exported.String(), secret) {
			t.Errorf("the customer value %q left the collector: shapeonly should have withheld it", secret)
		}
	}
	if !strings.Contains(exported.String(), "[withheld]") {
		t.Errorf("nothing in the export is marked [withheld]: shapeonly did not shape the run")
	}
	assert.Positive(t, steps, "agentguard should annotate the tool spans with %s", annotation.Step)
}

// locateBuilder finds ocb where `make tools` installs it. CI installs it, so only its absence skips;
// another release fails, because the snippet's other components are pinned to this one.
func locateBuilder(t *testing.T) string {
	t.Helper()
	gopath, err := exec.Command("go", "env", "GOPATH").Output()
	require.NoError(t, err)
	builder := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "builder")
	if _, err := os.Stat(builder); os.IsNotExist(err) {
		t.Skipf("ocb is not installed at %s: run `make tools` (go install go.opentelemetry.io/collector/cmd/builder@%s)",
			builder, builderVersion)
	}
	version, err := exec.Command(builder, "version").CombinedOutput()
	require.NoError(t, err, string(version))
	require.Contains(t, string(version), builderVersion,
		"%s is not ocb %s: reinstall it with go install go.opentelemetry.io/collector/cmd/builder@%s",
		builder, builderVersion, builderVersion)
	return builder
}

// fencedYAML returns the yaml code block between <!-- marker --> and <!-- /marker --> in markdown.
func fencedYAML(t *testing.T, markdown, marker string) string {
	t.Helper()
	open, closing := "<!-- "+marker+" -->", "<!-- /"+marker+" -->"
	require.Equal(t, 1, strings.Count(markdown, open), "README.md should hold %s exactly once", open)
	_, rest, _ := strings.Cut(markdown, open)
	section, _, found := strings.Cut(rest, closing)
	require.True(t, found, "README.md should close %s with %s", open, closing)
	_, block, found := strings.Cut(section, "```yaml\n")
	require.True(t, found, "README.md should have a ```yaml block inside %s", open)
	block, _, found = strings.Cut(block, "```")
	require.True(t, found, "the ```yaml block inside %s should be closed", open)
	return block
}

// buildDistribution adds the README's snippet to testdata/builder-config.yaml, as the README tells a
// reader to do with their own config, and runs ocb on it. ocb runs in a directory that has nothing to do
// with the checkout, so a path that only works from the repository root would fail here.
func buildDistribution(t *testing.T, builder, root, snippet string) string {
	t.Helper()
	require.Equal(t, 1, strings.Count(snippet, checkoutPlaceholder),
		"the README's builder snippet should name %s once, as the path to edit", checkoutPlaceholder)
	snippet = strings.ReplaceAll(snippet, checkoutPlaceholder, root)

	var fromReadme struct {
		Processors []any `yaml:"processors"`
		Replaces   []any `yaml:"replaces"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(snippet), &fromReadme), "the README's builder snippet is not YAML")
	require.NotEmpty(t, fromReadme.Processors, "the README's builder snippet should list processors")

	base, err := os.ReadFile(filepath.Join("testdata", "builder-config.yaml"))
	require.NoError(t, err)
	config := map[string]any{}
	require.NoError(t, yaml.Unmarshal(base, &config))
	dir := t.TempDir()
	output := filepath.Join(dir, "dist")
	config["dist"].(map[string]any)["output_path"] = output
	config["processors"] = append(listOf(config["processors"]), fromReadme.Processors...)
	if len(fromReadme.Replaces) > 0 {
		config["replaces"] = append(listOf(config["replaces"]), fromReadme.Replaces...)
	}
	written, err := yaml.Marshal(config)
	require.NoError(t, err)
	configPath := filepath.Join(dir, "builder-config.yaml")
	require.NoError(t, os.WriteFile(configPath, written, 0o600))

	elsewhere := t.TempDir()
	cmd := exec.Command(builder, "--config", configPath)
	cmd.Dir = elsewhere
	start := time.Now()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "ocb failed on this builder config:\n%s\n%s", written, out)
	t.Logf("ocb built the distribution in %s", time.Since(start).Round(time.Second))
	return filepath.Join(output, distributionName)
}

func listOf(v any) []any {
	list, _ := v.([]any)
	return list
}

// overlay is a second config file, merged over the README's, that only moves addresses: the receiver to
// a free loopback port, the exporter to the test's backend (plaintext), and internal telemetry off the
// default port 8888, which another collector on this machine may hold.
func overlay(t *testing.T, dir, receiver, backend string) string {
	t.Helper()
	metricsHost, metricsPort, err := net.SplitHostPort(collectortest.FreeAddr(t))
	require.NoError(t, err)
	text := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      grpc: {endpoint: "%s"}
      http: {endpoint: "%s"}
exporters:
  %s:
    endpoint: "%s"
    tls: {insecure: true}
service:
  telemetry:
    metrics:
      readers:
        - pull: {exporter: {prometheus: {host: "%s", port: %s}}}
`, receiver, collectortest.FreeAddr(t), exporterName, backend, metricsHost, metricsPort)
	path := filepath.Join(dir, "addresses.yaml")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	return path
}

// startCollector runs the built distribution on the given config files until the test ends, then
// interrupts it as Ctrl-C would so the batch processor flushes. The channel closes when it exits.
func startCollector(t *testing.T, binary string, configs ...string) <-chan struct{} {
	t.Helper()
	var args []string
	for _, c := range configs {
		args = append(args, "--config", c)
	}
	cmd := exec.Command(binary, args...)
	logs := &collectortest.Output{}
	cmd.Stdout, cmd.Stderr = logs, logs
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			_ = cmd.Process.Signal(os.Interrupt)
			select {
			case <-exited:
			case <-time.After(15 * time.Second):
				_ = cmd.Process.Kill()
				<-exited
			}
		}
		if t.Failed() {
			t.Logf("collector log:\n%s", logs.String())
		}
	})
	return exited
}

// sendWhenReady exports td over OTLP/gRPC, retrying while the collector is still starting: this
// distribution has no health_check extension to wait on.
func sendWhenReady(t *testing.T, endpoint string, td ptrace.Traces, collectorExited <-chan struct{}) {
	t.Helper()
	conn, err := grpc.NewClient(endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()
	client := ptraceotlp.NewGRPCClient(conn)
	request := ptraceotlp.NewExportRequestFromTraces(td)
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err = client.Export(ctx, request)
		cancel()
		if err == nil {
			return
		}
		select {
		case <-collectorExited:
			t.Fatalf("the collector exited before it accepted the run: %v", err)
		default:
		}
		require.True(t, time.Now().Before(deadline), "the collector did not accept the run in 30s: %v", err)
		time.Sleep(200 * time.Millisecond)
	}
}

// backend is an OTLP/gRPC trace endpoint standing in for the tracing backend the README's exporter
// names, so the test sees exactly what the collector exports.
type backend struct {
	ptraceotlp.UnimplementedGRPCServer
	addr string
	mu   sync.Mutex
	got  []ptrace.Traces
	n    int
}

func startBackend(t *testing.T) *backend {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	b := &backend{addr: listener.Addr().String()}
	server := grpc.NewServer()
	ptraceotlp.RegisterGRPCServer(server, b)
	go func() { _ = server.Serve(listener) }()
	t.Cleanup(server.Stop)
	return b
}

func (b *backend) Export(_ context.Context, request ptraceotlp.ExportRequest) (ptraceotlp.ExportResponse, error) {
	td := ptrace.NewTraces()
	request.Traces().CopyTo(td)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.got = append(b.got, td)
	b.n += td.SpanCount()
	return ptraceotlp.NewExportResponse(), nil
}

// received returns what the backend has been sent so far and its span count.
func (b *backend) received() ([]ptrace.Traces, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]ptrace.Traces(nil), b.got...), b.n
}
