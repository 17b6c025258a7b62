// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package ackstream

import (
	"sync"
	"testing"
	"time"
)

// Progress counts a sender's answered requests, so a test can act at a point of a load (after its n-th
// request) rather than at a time.
type Progress struct {
	mu      sync.Mutex
	n       int
	waiting map[int]chan struct{}
}

// NewProgress is a Progress at zero.
func NewProgress() *Progress { return &Progress{waiting: map[int]chan struct{}{}} }

// Count records that n requests have been answered.
func (p *Progress) Count(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n = n
	for at, ch := range p.waiting {
		if at <= n {
			close(ch)
			delete(p.waiting, at)
		}
	}
}

// Answered is the number of requests answered so far.
func (p *Progress) Answered() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n
}

// Reach waits until n requests have been answered, failing the test after timeout.
func (p *Progress) Reach(tb testing.TB, n int, timeout time.Duration) {
	tb.Helper()
	p.mu.Lock()
	ch := make(chan struct{})
	if p.n >= n {
		close(ch)
	} else if prev, ok := p.waiting[n]; ok {
		ch = prev
	} else {
		p.waiting[n] = ch
	}
	p.mu.Unlock()
	select {
	case <-ch:
	case <-time.After(timeout):
		tb.Fatalf("the sender had %d requests answered after %v, waiting for %d", p.Answered(), timeout, n)
	}
}
