// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Command agentsummary prints what the collector did with the agent traffic it saw, read from its own
// output: with the spans a file exporter wrote before the processors (-received) and after them
// (-exported), what shapeonly withheld and every run's verdict and outcome as agentguard annotated it;
// then what the collector's metrics say: values withheld, runs, how they ended and stuck episodes.
// make run uses it after sending the sample traces.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

type options struct {
	metrics string
	timeout time.Duration
	// received and exported are file exporter outputs: every span as the collector received it and as
	// it exported it.
	received, exported string
	// wait is how long to wait for the collector to have exported every span it accepted.
	wait time.Duration
}

func main() {
	var opts options
	flag.StringVar(&opts.metrics, "metrics", "http://127.0.0.1:8888/metrics", "the collector's internal metrics endpoint")
	flag.DurationVar(&opts.timeout, "timeout", 5*time.Second, "how long to wait for the endpoint")
	flag.StringVar(&opts.received, "received", "", "OTLP JSON file of the spans as the collector received them (a file exporter in a pipeline without processors)")
	flag.StringVar(&opts.exported, "exported", "", "OTLP JSON file of the spans as the collector exported them (a file exporter after agentguard and shapeonly)")
	flag.DurationVar(&opts.wait, "wait", 0, "first wait up to this long until every exporter has sent, and every file holds, each span the collector accepted")
	flag.Parse()
	if err := run(os.Stdout, opts); err != nil {
		fmt.Fprintln(os.Stderr, "agentsummary:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, opts options) error {
	if opts.received != "" && opts.exported == "" {
		return errors.New("-received needs -exported to compare with")
	}
	client := http.Client{Timeout: opts.timeout}
	if opts.wait > 0 {
		if err := settle(&client, opts); err != nil {
			return err
		}
	}
	m, err := scrape(&client, opts.metrics)
	if err != nil {
		return err
	}
	if opts.exported != "" {
		exported, err := readCapture(opts.exported)
		if err != nil {
			return err
		}
		order := exported.traces
		if opts.received != "" {
			received, err := readCapture(opts.received)
			if err != nil {
				return err
			}
			order = received.traces
			summarizeShaping(w, compare(received, exported), order, exported)
			fmt.Fprintln(w)
		}
		summarizeRuns(w, order, exported)
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "== the collector's own metrics (%s) ==\n", opts.metrics)
	summarize(w, m)
	return nil
}

func scrape(client *http.Client, endpoint string) (metrics, error) {
	resp, err := client.Get(endpoint)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered %s", endpoint, resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", endpoint, err)
	}
	return toMetrics(families), nil
}

// settlePoll is how often settle looks again: a span takes the batch processor's timeout to leave it.
const settlePoll = 100 * time.Millisecond

// settle waits until every exporter has sent as many spans as the receivers accepted, and each capture
// file holds them all: a sender's export returns once the receiver accepts, before batching and
// exporting, and a file exporter writes on its flush interval.
func settle(client *http.Client, opts options) error {
	deadline := time.Now().Add(opts.wait)
	for {
		lagging, err := lagging(client, opts)
		if err != nil {
			return err
		}
		if lagging == "" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("after %v, %s", opts.wait, lagging)
		}
		time.Sleep(settlePoll)
	}
}

// lagging says which exporter or file still lacks spans the collector accepted, or "" when none does.
func lagging(client *http.Client, opts options) (string, error) {
	m, err := scrape(client, opts.metrics)
	if err != nil {
		return "", err
	}
	accepted := m.sum("otelcol_receiver_accepted_spans")
	sent := m.by("otelcol_exporter_sent_spans", "exporter")
	for _, exporter := range sortedKeys(sent) {
		if sent[exporter] < accepted {
			return fmt.Sprintf("exporter %s has sent %.0f of the %.0f spans accepted", exporter, sent[exporter], accepted), nil
		}
	}
	for _, path := range []string{opts.received, opts.exported} {
		if path == "" {
			continue
		}
		c, err := readCapture(path)
		if errors.Is(err, os.ErrNotExist) {
			return path + " does not exist yet", nil
		}
		if err != nil {
			return "", err
		}
		if float64(c.spans) < accepted {
			return fmt.Sprintf("%s holds %d of the %.0f spans accepted", path, c.spans, accepted), nil
		}
	}
	return "", nil
}
