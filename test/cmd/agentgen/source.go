// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"time"

	"github.com/agentotel/agentotel/internal/agentgen"
)

// source yields the next run to send, starting at base. Runs are generated
// one at a time so a long soak never holds more than a batch in memory.
type source func(base time.Time) (agentgen.Run, error)

// newSource makes run i of a named scenario, or of the -scenario seeds list in turn,
// use seed+i: reproducible, yet no two runs of one invocation share a trace id.
// A mix deals over all scenarios with varied agents and values.
func newSource(cfg config) (source, error) {
	opts := agentgen.Options{Convention: cfg.convention, Seed: cfg.seed}
	if cfg.scenario == "mix" {
		m, err := agentgen.NewMixer(opts)
		if err != nil {
			return nil, err
		}
		return func(base time.Time) (agentgen.Run, error) { return m.Next(base), nil }, nil
	}
	names := []string{cfg.scenario}
	if cfg.scenario == "seeds" {
		names = seedScenarios
	}
	i := 0
	return func(base time.Time) (agentgen.Run, error) {
		o := opts
		o.Seed += uint64(i)
		o.Base = base
		name := names[i%len(names)]
		i++
		return agentgen.Generate(name, o)
	}, nil
}
