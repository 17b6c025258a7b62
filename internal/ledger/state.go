// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package ledger

import (
	"errors"
	"fmt"

	"github.com/agentotel/agentotel/internal/progress"
	"github.com/agentotel/agentotel/internal/statecodec"
)

// Encode appends the ledger, all of it: the identities counted in both generations (a call seen
// again after a restart is still passed over) and the pending steps with their patience (a result
// read after the restart still resolves its step).
func (l *Ledger) Encode(e *statecodec.Encoder) {
	for _, ids := range [...][]uint64{l.counted, l.older} {
		e.Uint(uint64(len(ids)))
		for _, id := range ids {
			e.Word(id)
		}
	}
	e.Uint(uint64(len(l.pending)))
	for i := range l.pending {
		p := &l.pending[i]
		e.Word(p.id)
		e.Uint(uint64(p.calls))
		p.step.Encode(e)
	}
}

// Decode reads a ledger Encode wrote into l, a zero Ledger. It fails the decoder on a ledger no run
// could hold: a generation past its size or out of order (Counted searches it), more pending steps
// than are kept, or one past its patience.
func (l *Ledger) Decode(d *statecodec.Decoder) {
	for _, ids := range [...]*[]uint64{&l.counted, &l.older} {
		n := d.Len(8)
		if n > generation {
			d.Fail(fmt.Errorf("a generation of %d identities, past %d", n, generation))
			return
		}
		if n == 0 {
			continue
		}
		*ids = make([]uint64, n)
		for i := range *ids {
			(*ids)[i] = d.Word()
			if i > 0 && (*ids)[i] <= (*ids)[i-1] && d.Err() == nil {
				d.Fail(errors.New("identities out of order"))
			}
		}
	}
	n := d.Len(3)
	if n > maxPending {
		d.Fail(fmt.Errorf("%d pending steps, past %d", n, maxPending))
		return
	}
	for range n {
		p := pending{id: d.Word(), calls: int(d.Uint())}
		if p.calls >= patience && d.Err() == nil {
			d.Fail(fmt.Errorf("a pending step %d model calls old, past its patience of %d", p.calls, patience))
		}
		p.step = progress.DecodeStep(d)
		if d.Err() != nil {
			return
		}
		l.pending = append(l.pending, p)
	}
}
