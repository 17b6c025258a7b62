// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"sync"

	"go.opentelemetry.io/collector/component"
)

// The traces and logs processors of one configured shapeonly share their memory, so a call classed on
// a tool span is withheld in a gen_ai.tool.message log record too. Entries are counted so the memory
// goes when the last of them shuts down.
var shared = struct {
	sync.Mutex
	byID map[component.ID]*sharedMemory
}{byID: map[component.ID]*sharedMemory{}}

type sharedMemory struct {
	*memory
	users int
}

func acquireMemory(id component.ID, cfg *Config) *memory {
	shared.Lock()
	defer shared.Unlock()
	s, ok := shared.byID[id]
	if !ok {
		s = &sharedMemory{memory: newMemory(cfg)}
		shared.byID[id] = s
	}
	s.users++
	return s.memory
}

func releaseMemory(id component.ID) {
	shared.Lock()
	defer shared.Unlock()
	if s, ok := shared.byID[id]; ok {
		if s.users--; s.users == 0 {
			delete(shared.byID, id)
		}
	}
}
