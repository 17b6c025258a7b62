// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package statestore

import (
	"sync"
	"time"
)

// Checkpoints calls save every interval, on its own goroutine, until Stop.
type Checkpoints struct {
	stop chan struct{}
	done sync.WaitGroup
}

// StartCheckpoints starts calling save every interval.
func StartCheckpoints(interval time.Duration, save func()) *Checkpoints {
	c := &Checkpoints{stop: make(chan struct{})}
	c.done.Add(1)
	go func() {
		defer c.done.Done()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				save()
			case <-c.stop:
				return
			}
		}
	}()
	return c
}

// Stop ends the checkpoints and waits for one in progress to finish; the final save at shutdown is
// the caller's, after Stop, so that it is the last write.
func (c *Checkpoints) Stop() {
	close(c.stop)
	c.done.Wait()
}
