// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

type summary struct {
	runs, spans int
	elapsed     time.Duration
}

func (s summary) line(cfg config) string {
	to := cfg.protocol + " " + cfg.endpoint
	if cfg.out != "" {
		to = cfg.out
	}
	return fmt.Sprintf("agentgen: %d runs, %d spans in %.2fs to %s (scenario %s, convention %s, seed %d)",
		s.runs, s.spans, s.elapsed.Seconds(), to, cfg.scenario, cfg.convention, cfg.seed)
}

// send generates cfg.count runs and exports them cfg.batch at a time, paced
// so that run n leaves no earlier than n/rate seconds after the start. It
// stops at the first failed export: a partial load would mislead whoever
// reads the verdicts.
func send(ctx context.Context, cfg config) (sum summary, err error) {
	start := time.Now()
	defer func() { sum.elapsed = time.Since(start) }()
	next, err := newSource(cfg)
	if err != nil {
		return sum, err
	}
	out, err := openSink(cfg)
	if err != nil {
		return sum, err
	}
	defer func() { err = errors.Join(err, out.close()) }()

	for sum.runs < cfg.count {
		td := ptrace.NewTraces()
		n := min(cfg.batch, cfg.count-sum.runs)
		spans := 0
		for range n {
			r, err := next(time.Now())
			if err != nil {
				return sum, err
			}
			spans += r.Spans
			r.Traces.ResourceSpans().MoveAndAppendTo(td.ResourceSpans())
		}
		if err := export(ctx, out, td, cfg.timeout); err != nil {
			return sum, fmt.Errorf("export after %d runs: %w", sum.runs, err)
		}
		sum.runs += n
		sum.spans += spans
		if cfg.rate > 0 && sum.runs < cfg.count {
			due := start.Add(time.Duration(float64(sum.runs) / cfg.rate * float64(time.Second)))
			if err := sleepUntil(ctx, due); err != nil {
				return sum, err
			}
		}
	}
	return sum, nil
}

func export(ctx context.Context, out sink, td ptrace.Traces, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return out.export(ctx, td)
}

func sleepUntil(ctx context.Context, t time.Time) error {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
