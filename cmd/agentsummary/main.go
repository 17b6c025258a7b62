// Command agentsummary prints what the collector's own metrics say about the agent traffic it saw:
// values withheld by shapeonly; runs tracked by agentguard, how they ended, steps it could not judge and
// stuck episodes. make run uses it after sending the sample traces.
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

func main() {
	endpoint := flag.String("metrics", "http://127.0.0.1:8888/metrics", "the collector's internal metrics endpoint")
	timeout := flag.Duration("timeout", 5*time.Second, "how long to wait for the endpoint")
	flag.Parse()
	if err := run(os.Stdout, *endpoint, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "agentsummary:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, endpoint string, timeout time.Duration) error {
	client := http.Client{Timeout: timeout}
	resp, err := client.Get(endpoint)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %s", endpoint, resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return fmt.Errorf("reading %s: %w", endpoint, err)
	}
	summarize(w, toMetrics(families))
	return nil
}
