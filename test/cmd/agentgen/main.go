// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Command agentgen sends generated AI-agent traces (internal/agentgen) to an
// OTLP endpoint, or writes them as OTLP JSON, to drive the collector's agent
// processors with runs whose right verdict is known.
//
//	agentgen -list                                   # scenarios and expected verdicts
//	agentgen                                         # the four seed scenarios to 127.0.0.1:4317
//	agentgen -scenario mix -count 1000 -rate 50 -protocol http
//	agentgen -scenario support -convention vercel -out support.jsonl
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: exit code 2 for bad flags, 1 for a failed
// export, so scripts can tell a typo from a collector that is down.
func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseConfig(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "agentgen:", err)
		return 2
	}
	if cfg.list {
		printList(stdout)
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := send(ctx, cfg)
	fmt.Fprintln(stdout, sum.line(cfg))
	if err != nil {
		fmt.Fprintln(stderr, "agentgen:", err)
		return 1
	}
	return 0
}
