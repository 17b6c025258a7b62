// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/fingerprint"
)

// TestScopeReadsARepeatOnce: a text given again, as a transcript gives every earlier result on
// each model call, is known by its key and not read again; the same bytes given the other way
// (one leaf rather than JSON leaves) are another text. What the scope keeps of the texts it
// knows stays bounded by its fingerprints.
func TestScopeReadsARepeatOnce(t *testing.T) {
	var s scope
	record := []byte(`{"name":"Jane Roe-Whitfield","notes":"prefers email; disputes every late fee","orders":[`)
	for i := range 20 {
		record = fmt.Appendf(record, `{"id":"ord_%06d","note":"left at the side door, signed by a neighbour"},`, i)
	}
	record = append(record[:len(record)-1], "]}"...)
	asJSON := keyOf(true, record)
	s.add(setBounds{fingerprints: 1 << 16}, asJSON, record, nil, listing{})
	require.Positive(t, s.build())
	require.Contains(t, s.added, asJSON)
	held := s.set.Len()
	s.add(setBounds{fingerprints: 1 << 16}, asJSON, record, nil, listing{})
	require.Zero(t, s.build())
	require.Equal(t, held, s.set.Len())
	s.add(setBounds{fingerprints: 1 << 16}, keyOf(false, record), record, nil, listing{})
	require.Positive(t, s.build(), "the record as one leaf is another text")

	for i := range 1000 {
		leaf := fmt.Appendf(nil, "customer note number %d, written out in full", i)
		s.add(setBounds{fingerprints: 1 << 16}, keyOf(false, leaf), leaf, nil, listing{})
		require.LessOrEqual(t, len(s.added), s.set.Len()/fingerprintsPerAddedText)
	}
}

// TestForgottenSetOutlivesTheBatchesInFlight: a scope forgotten for the fingerprint bound while another
// batch is in flight keeps its fingerprints until that batch ends (it may be searching them), and only
// then gives its set's buffers back.
func TestForgottenSetOutlivesTheBatchesInFlight(t *testing.T) {
	cfg := createDefaultConfig()
	cfg.MaxFingerprints = 200
	m := newMemory(cfg)
	now := time.Now()
	leaf := []byte("Jane Roe-Whitfield, 12 Juniper Hollow, prefers email")
	remember := func(trace byte) *scope {
		s, _, _ := m.scopes(pcommon.TraceID{trace}, "", now, true)
		s.add(setBounds{fingerprints: cfg.MaxFingerprintsPerTrace}, keyOf(false, leaf), leaf, nil, listing{})
		m.account(s, s.build())
		return s
	}

	m.begin(now) // batch A, which holds the first scope
	first := remember(1)
	m.begin(now) // batch B fills the memory until the first scope is forgotten
	for trace := byte(2); !first.gone; trace++ {
		remember(trace)
	}
	m.end()
	var sc fingerprint.Scanner
	require.True(t, sc.Hit([]*fingerprint.Set{first.set}, leaf), "batch A can no longer find what its scope held")
	m.end()
	require.Nil(t, first.set, "the forgotten set was not released once no batch was in flight")
	require.Empty(t, m.retired)
}
