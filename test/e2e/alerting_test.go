// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/repo"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// TestStuckRunAlertFiresInPrometheus runs Debian's Prometheus server on loopback, scraping the built
// collector with our alert rules loaded, sends one stuck and three healthy agents, and asserts through
// Prometheus's HTTP API that AgentRunStuck fires for the stuck agent only. The rule holds for one minute
// before it fires, so the test runs beside the others.
func TestStuckRunAlertFiresInPrometheus(t *testing.T) {
	t.Parallel()
	promBin, err := exec.LookPath("prometheus")
	require.NoError(t, err, "the alerting test needs Debian's prometheus package (apt-get install -y prometheus; .ci/run installs it)")

	c := collectortest.Start(t, pipelineConfig, nil)
	prom := startPrometheus(t, promBin, c.Metrics)

	c.Send("grpc", "-scenario", "docs", "-seed", "5")
	for _, healthy := range []string{"deploy", "support", "research"} {
		c.Send("grpc", "-scenario", healthy, "-seed", "5")
	}

	var firing []alert
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		firing = alerts(t, prom, "AgentRunStuck", "firing")
		if len(firing) > 0 {
			break
		}
		time.Sleep(2 * time.Second)
	}
	require.NotEmpty(t, firing, "AgentRunStuck did not fire within 3 minutes")
	for _, a := range append(firing, alerts(t, prom, "AgentRunStuck", "pending")...) {
		assert.Equal(t, "docs", a.Labels["gen_ai_agent_name"], "only the stuck agent is alerted on")
		assert.Equal(t, "no_progress", a.Labels["reason"])
	}
}

type alert struct {
	Labels map[string]string `json:"labels"`
	State  string            `json:"state"`
}

// alerts returns the alerts named name in state, from Prometheus's /api/v1/alerts.
func alerts(t *testing.T, prom, name, state string) []alert {
	t.Helper()
	resp, err := http.Get("http://" + prom + "/api/v1/alerts")
	require.NoError(t, err)
	defer resp.Body.Close()
	var body struct {
		Data struct {
			Alerts []alert `json:"alerts"`
		} `json:"data"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	var out []alert
	for _, a := range body.Data.Alerts {
		if a.Labels["alertname"] == name && a.State == state {
			out = append(out, a)
		}
	}
	return out
}

// startPrometheus runs a Prometheus server that scrapes the collector every second and evaluates our
// rules every second, and stops it when the test ends.
func startPrometheus(t *testing.T, bin, target string) string {
	t.Helper()
	dir := t.TempDir()
	rules := filepath.Join(repo.Root(t), "deploy", "prometheus", "agentotel-rules.yaml")
	cfg := fmt.Sprintf(`global: {scrape_interval: 1s, evaluation_interval: 1s}
rule_files: [%q]
scrape_configs:
  - job_name: otelcol-agent
    static_configs: [{targets: [%q]}]
`, rules, target)
	cfgPath := filepath.Join(dir, "prometheus.yaml")
	require.NoError(t, os.WriteFile(cfgPath, []byte(cfg), 0o600))
	addr := collectortest.FreeAddr(t)
	cmd := exec.Command(bin, "--config.file="+cfgPath, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr)
	logs, err := os.Create(filepath.Join(dir, "prometheus.log"))
	require.NoError(t, err)
	cmd.Stdout, cmd.Stderr = logs, logs
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
		if t.Failed() {
			out, _ := os.ReadFile(logs.Name())
			t.Logf("prometheus log:\n%s", out)
		}
	})
	collectortest.Eventually(t, "prometheus to be ready", func() bool {
		resp, err := http.Get("http://" + addr + "/-/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return addr
}
