// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
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
	s.add(1<<16, asJSON, record, nil, listing{})
	require.Positive(t, s.build())
	require.Contains(t, s.added, asJSON)
	held := s.set.Len()
	s.add(1<<16, asJSON, record, nil, listing{})
	require.Zero(t, s.build())
	require.Equal(t, held, s.set.Len())
	s.add(1<<16, keyOf(false, record), record, nil, listing{})
	require.Positive(t, s.build(), "the record as one leaf is another text")

	for i := range 1000 {
		leaf := fmt.Appendf(nil, "customer note number %d, written out in full", i)
		s.add(1<<16, keyOf(false, leaf), leaf, nil, listing{})
		require.LessOrEqual(t, len(s.added), s.set.Len()/fingerprintsPerAddedText)
	}
}
