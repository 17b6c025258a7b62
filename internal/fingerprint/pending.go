// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import "sync"

// pending lists the fingerprints added to a Set since its last Build, each with its flags. The lists
// come from a pool: a batch's adds use them until its Build, and the next batch again.
type pending struct {
	fingerprints []uint64
}

var pendingPool = sync.Pool{New: func() any { return new(pending) }}

func (p *pending) add(fp uint64) { p.fingerprints = append(p.fingerprints, fp) }

// len is how many fingerprints are listed; a nil list has none.
func (p *pending) len() int {
	if p == nil {
		return 0
	}
	return len(p.fingerprints)
}

func (p *pending) sizeBytes() int {
	if p == nil {
		return 0
	}
	return 8 * cap(p.fingerprints)
}

// release returns the lists to the pool, unless a huge add grew them: a rare huge document should
// not pin its size in memory.
func (p *pending) release() {
	if p.sizeBytes() > maxPooledBytes {
		return
	}
	p.fingerprints = p.fingerprints[:0]
	pendingPool.Put(p)
}
