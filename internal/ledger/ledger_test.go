// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package ledger

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/progress"
)

func TestCountedOnce(t *testing.T) {
	var l Ledger
	assert.False(t, l.Counted(7))
	l.Count(7)
	assert.True(t, l.Counted(7), "a second sighting is passed over")
	assert.False(t, l.Counted(0), "zero is no identity")
	l.Count(0)
	assert.False(t, l.Counted(0))

	// Two generations are kept: 7 is in the first, which goes when the third begins.
	for id := uint64(100); id < 100+2*generation-1; id++ {
		l.Count(id)
	}
	assert.True(t, l.Counted(7), "kept for at least 2,048 more")
	l.Count(1 << 40)
	assert.False(t, l.Counted(7), "forgotten after 4,096")
	assert.True(t, l.Counted(100+generation), "the generation before is kept")
}

func TestPendingResolvedByItsResult(t *testing.T) {
	var l Ledger
	items := []uint64{1, 2}
	given := l.Pend(9, progress.Step{Tool: "get_build_status", Items: items, Unread: true}, nil)
	assert.Empty(t, given)
	items[0] = 99 // the caller's arena is reused by the next batch
	assert.True(t, l.Pending())
	assert.True(t, l.Counted(9), "another unread sighting of the call is passed over")

	var s progress.Step
	require.True(t, l.Take(9, &s))
	assert.Equal(t, "get_build_status", s.Tool)
	assert.Equal(t, []uint64{1, 2}, s.Items, "the ledger holds its own copy")
	assert.False(t, l.Pending())
	assert.False(t, l.Take(9, nil), "taken once")
}

func TestPendingGivenUpAfterTwoModelCalls(t *testing.T) {
	var l Ledger
	l.Pend(1, progress.Step{Tool: "a"}, nil)
	assert.Empty(t, l.ModelCall(nil), "the next request may still carry it")
	l.Pend(2, progress.Step{Tool: "b"}, nil)
	given := l.ModelCall(nil)
	require.Len(t, given, 1)
	assert.Equal(t, "a", given[0].Tool, "two requests went by without its result")
	assert.True(t, l.Pending())
	given = l.Drain(nil)
	require.Len(t, given, 1)
	assert.Equal(t, "b", given[0].Tool, "the run ended")
	assert.False(t, l.Pending())
}

func TestPendingBounded(t *testing.T) {
	var l Ledger
	var given []progress.Step
	for i := range maxPending + 2 {
		given = l.Pend(uint64(i+1), progress.Step{Tool: fmt.Sprintf("t%d", i)}, given)
	}
	require.Len(t, given, 2, "past 8 the oldest are given up")
	assert.Equal(t, []string{"t0", "t1"}, []string{given[0].Tool, given[1].Tool})
	assert.Len(t, l.Drain(nil), maxPending)
}
