// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/agentotel/agentotel/internal/agentgen"
)

// seedScenarios are the four scenarios sent by default: a healthy build poll, a docs search that gets
// nowhere, an edit and its revert, and a customer lookup.
var seedScenarios = []string{"deploy", "docs", "code", "support"}

type config struct {
	endpoint   string
	protocol   string
	scenario   string // a scenario name, "seeds" or "mix"
	convention agentgen.Convention
	count      int
	rate       float64 // runs per second; 0 sends as fast as the endpoint takes them
	seed       uint64
	batch      int // runs per export request
	timeout    time.Duration
	list       bool
	out        string
}

// clock seeds runs when -seed is unset; tests set it.
var clock = time.Now

func parseConfig(args []string, stderr io.Writer) (config, error) {
	var cfg config
	var convention string
	fs := flag.NewFlagSet("agentgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.endpoint, "endpoint", "", "OTLP host:port (default 127.0.0.1:4317 for grpc, 127.0.0.1:4318 for http)")
	fs.StringVar(&cfg.protocol, "protocol", "grpc", "OTLP transport: grpc or http")
	fs.StringVar(&cfg.scenario, "scenario", "seeds", "a scenario name, seeds ("+strings.Join(seedScenarios, ",")+") or mix")
	fs.StringVar(&convention, "convention", string(agentgen.GenAI), "span convention: "+joinConventions())
	fs.IntVar(&cfg.count, "count", 0, "runs to send (default 1 per seed scenario or named scenario, 100 for mix)")
	fs.Float64Var(&cfg.rate, "rate", 0, "runs per second; 0 = as fast as possible")
	fs.Uint64Var(&cfg.seed, "seed", 0, "random seed (default: from the clock, printed in the summary)")
	fs.IntVar(&cfg.batch, "batch", 1, "runs per export request")
	fs.DurationVar(&cfg.timeout, "timeout", 10*time.Second, "timeout per export request")
	fs.BoolVar(&cfg.list, "list", false, "print the scenarios with their expected verdicts and outcomes and exit")
	fs.StringVar(&cfg.out, "out", "", "write OTLP JSON to this file, one export request per line, instead of sending")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg.convention = agentgen.Convention(convention)
	// An unset seed must differ per invocation, or repeated sends would reuse
	// trace ids and a backend would merge different runs into one trace.
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet {
		cfg.seed = uint64(clock().UnixNano())
	}
	return cfg, cfg.resolve()
}

// resolve validates the flags and fills the defaults that depend on others.
func (c *config) resolve() error {
	var errs []error
	switch c.protocol {
	case "grpc":
		c.endpoint = or(c.endpoint, "127.0.0.1:4317")
	case "http":
		c.endpoint = or(c.endpoint, "127.0.0.1:4318")
	default:
		errs = append(errs, fmt.Errorf("-protocol %q: want grpc or http", c.protocol))
	}
	if strings.Contains(c.endpoint, "/") {
		errs = append(errs, fmt.Errorf("-endpoint %q: want host:port, without scheme or path", c.endpoint))
	}
	if !slices.Contains(conventions(), c.convention) {
		errs = append(errs, fmt.Errorf("-convention %q: want one of %s", c.convention, joinConventions()))
	}
	switch {
	case c.scenario == "mix":
		c.count = orInt(c.count, 100)
	case c.scenario == "seeds":
		c.count = orInt(c.count, len(seedScenarios))
	case slices.Contains(agentgen.Scenarios(), c.scenario):
		c.count = orInt(c.count, 1)
	default:
		errs = append(errs, fmt.Errorf("-scenario %q: want seeds, mix or one of %s", c.scenario, strings.Join(agentgen.Scenarios(), ", ")))
	}
	if c.count < 0 {
		errs = append(errs, fmt.Errorf("-count %d: must not be negative", c.count))
	}
	if c.rate < 0 {
		errs = append(errs, fmt.Errorf("-rate %g: must not be negative", c.rate))
	}
	if c.batch < 1 {
		errs = append(errs, fmt.Errorf("-batch %d: must be at least 1", c.batch))
	}
	if c.timeout <= 0 {
		errs = append(errs, fmt.Errorf("-timeout %v: must be positive", c.timeout))
	}
	return errors.Join(errs...)
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// orInt treats 0 as unset: a count of zero runs is never what anyone wants.
func orInt(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// conventions are the known conventions and the unknown SDK, which tests that
// a detector judges nothing it cannot read.
func conventions() []agentgen.Convention {
	return append(agentgen.Conventions(), agentgen.Unknown)
}

func joinConventions() string {
	var names []string
	for _, c := range conventions() {
		names = append(names, string(c))
	}
	return strings.Join(names, ", ")
}
