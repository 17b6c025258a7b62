// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"time"
)

// Mixer deals runs over every scenario for load and soak tests. Scenarios are
// dealt from a reshuffled deck rather than drawn independently, so any n at
// least the number of scenarios covers them all while the order stays random.
// Mixed runs also vary agent names and the values a single run fixes.
type Mixer struct {
	w    writer
	gen  *gen
	deck []int
}

// NewMixer checks the convention once, so Next cannot fail.
func NewMixer(opts Options) (*Mixer, error) {
	w, err := writerFor(opts.Convention)
	if err != nil {
		return nil, err
	}
	return &Mixer{w: w, gen: newGen(opts.Seed, "mix", true)}, nil
}

// Next returns the next run, starting at base.
func (m *Mixer) Next(base time.Time) Run {
	if len(m.deck) == 0 {
		m.deck = m.gen.rng.Perm(len(scenarios))
	}
	sc := scenarios[m.deck[0]]
	m.deck = m.deck[1:]
	return generate(sc, m.w, m.gen.rng.Uint64(), base, true)
}

// Mix returns n mixed runs starting a second apart from opts.Base, the same
// for the same seed. It panics on an unknown convention, which is a caller
// bug; use NewMixer to handle user input.
func Mix(n int, opts Options) []Run {
	m, err := NewMixer(opts)
	if err != nil {
		panic(err)
	}
	base := baseOr(opts.Base)
	runs := make([]Run, n)
	for i := range runs {
		runs[i] = m.Next(base.Add(time.Duration(i) * time.Second))
	}
	return runs
}
