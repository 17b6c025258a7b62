// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package ledger

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/progress"
	"github.com/agentotel/agentotel/internal/statecodec"
)

func roundTrip(t *testing.T, l *Ledger) *Ledger {
	t.Helper()
	var e statecodec.Encoder
	l.Encode(&e)
	d := statecodec.NewDecoder(e.Data())
	var back Ledger
	back.Decode(d)
	require.NoError(t, d.Finish())
	return &back
}

// A ledger saved and loaded again passes over what it had counted, in both generations, and
// resolves and gives up its pending steps as the original does.
func TestDecodedLedgerAnswersAsTheOriginal(t *testing.T) {
	var l Ledger
	for id := uint64(1); id <= generation+10; id++ {
		l.Count(id * 7)
	}
	l.Pend(1<<40, progress.Step{Tool: "a", Items: []uint64{3}, Unread: true}, nil)
	l.ModelCall(nil)
	l.Pend(1<<41, progress.Step{Tool: "b"}, nil)
	back := roundTrip(t, &l)

	for _, id := range []uint64{7, 7 * generation, 7 * (generation + 10), 8, 1 << 40} {
		assert.Equal(t, l.Counted(id), back.Counted(id), "identity %d", id)
	}
	assert.Equal(t, l.ModelCall(nil), back.ModelCall(nil), "the step that waited a call already is given up")
	var a, b progress.Step
	assert.Equal(t, l.Take(1<<41, &a), back.Take(1<<41, &b))
	assert.Equal(t, a, b)
	assert.Equal(t, l.Drain(nil), back.Drain(nil))
	assert.Equal(t, roundTrip(t, &Ledger{}), &Ledger{}, "an empty ledger stays empty")
}

// A ledger no run could hold is refused: identities out of order would break Counted's search.
func TestDecodeRefusesIdentitiesOutOfOrder(t *testing.T) {
	var e statecodec.Encoder
	e.Uint(2)
	e.Word(9)
	e.Word(3)
	d := statecodec.NewDecoder(e.Data())
	new(Ledger).Decode(d)
	assert.ErrorContains(t, d.Err(), "out of order")
}

// Whatever the bytes, Decode does not panic, and a ledger it accepts can be used.
func FuzzDecode(f *testing.F) {
	var l Ledger
	l.Count(5)
	l.Pend(9, progress.Step{Tool: "a"}, nil)
	var e statecodec.Encoder
	l.Encode(&e)
	f.Add(e.Data())
	f.Fuzz(func(t *testing.T, payload []byte) {
		d := statecodec.NewDecoder(payload)
		var l Ledger
		l.Decode(d)
		if d.Err() != nil {
			return
		}
		l.Count(11)
		l.Pend(12, progress.Step{}, nil)
		l.ModelCall(nil)
		l.Drain(nil)
	})
}
