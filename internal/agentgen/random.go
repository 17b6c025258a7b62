// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"encoding/hex"
	"hash/fnv"
	"math/rand/v2"
	"strings"
)

// gen is the one random source of a run, plus whether to vary article values.
type gen struct {
	rng  *rand.Rand
	vary bool
}

// newGen seeds a source from seed and a stream name. The name keeps two
// scenarios generated with the same seed from sharing trace and run ids,
// which a backend would merge into one trace.
func newGen(seed uint64, stream string, vary bool) *gen {
	h := fnv.New64a()
	h.Write([]byte(stream))
	return &gen{rng: rand.New(rand.NewPCG(seed, h.Sum64())), vary: vary}
}

// article returns the reference value (the one docs/design.md's examples use), or a fresh one in a mix.
func (g *gen) article(value string, fresh func() string) string {
	if g.vary {
		return fresh()
	}
	return value
}

func (g *gen) hex(n int) string {
	b := make([]byte, (n+1)/2)
	g.bytes(b)
	return hex.EncodeToString(b)[:n]
}

func (g *gen) bytes(b []byte) {
	for i := range b {
		b[i] = byte(g.rng.Uint32())
	}
}

func (g *gen) pick(from []string) string { return from[g.rng.IntN(len(from))] }

// between returns an int in [lo, hi].
func (g *gen) between(lo, hi int) int { return lo + g.rng.IntN(hi-lo+1) }

func (g *gen) words(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = g.pick(wordList)
	}
	return strings.Join(w, " ")
}

// Names are long on purpose: a secret must not turn up in other text by chance.
var (
	firstNames = []string{
		"Ottoline", "Bartholomew", "Rosalind", "Evander", "Marguerite", "Thaddeus", "Henrietta",
		"Leopold", "Cordelia", "Ignatius", "Wilhelmina", "Percival", "Seraphina", "Augustin",
		"Philippa", "Cornelius", "Genevieve", "Lysander", "Clementine", "Barnaby",
	}
	lastNames = []string{
		"Brackenridge", "Featherstone", "Okonkwo", "Lindqvist", "Achterberg", "Montgomery",
		"Castellanos", "Wojciechowski", "Fairweather", "Thistlewood", "Abernathy", "Halvorsen",
		"Nakamura", "Delacroix", "Pemberton", "Kowalczyk", "Ravenscroft", "Oyelaran",
		"Sutherland", "Valdivieso",
	}
	mailDomains   = []string{"fastmail.com", "proton.me", "gmail.com", "outlook.com", "hey.com"}
	agentSuffixes = []string{"eu", "us", "apac", "canary", "blue", "green", "batch", "staging"}
	wordList      = []string{
		"amber", "harbor", "lantern", "quiet", "meadow", "copper", "orchard", "velvet", "thunder",
		"saffron", "glacier", "willow", "ember", "cobalt", "prairie", "marble", "juniper",
		"falcon", "tundra", "pebble", "crimson", "lagoon", "cinder", "thistle", "beacon",
		"mosaic", "sierra", "quartz", "hollow", "bramble", "lilac", "garnet", "estuary",
		"kestrel", "basalt", "fennel", "monsoon", "ivory", "canyon", "drizzle",
	}
)
