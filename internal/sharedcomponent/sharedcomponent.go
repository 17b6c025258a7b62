// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package sharedcomponent lets the pipelines of one configured processor share one state: the traces
// and logs pipelines of an agentguard judge one run from its spans and its log records together, and
// those of a shapeonly withhold a call's data in the records that carry it wherever the call was
// classed. The collector creates the processor once per pipeline; each creation takes the state held
// for the component's id, and the state goes when the last of them shuts down, so no pipeline still
// running finds it closed.
package sharedcomponent

import (
	"sync"

	"go.opentelemetry.io/collector/component"
)

// Map holds one V per component id, counted by its users.
type Map[V any] struct {
	mu   sync.Mutex
	byID map[component.ID]*entry[V]
}

type entry[V any] struct {
	v     V
	users int
}

// NewMap returns an empty Map.
func NewMap[V any]() *Map[V] { return &Map[V]{byID: map[component.ID]*entry[V]{}} }

// Acquire returns the V held for id, or the one create makes when none is: the caller is one more of
// its users. An error from create is returned and nothing is held.
func (m *Map[V]) Acquire(id component.ID, create func() (V, error)) (V, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.byID[id]; ok {
		e.users++
		return e.v, nil
	}
	v, err := create()
	if err != nil {
		return v, err
	}
	m.byID[id] = &entry[V]{v: v, users: 1}
	return v, nil
}

// Release ends one use of id's V and reports whether it was the last: the caller then closes it.
func (m *Map[V]) Release(id component.ID) (last bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.byID[id]
	if !ok {
		return false
	}
	if e.users--; e.users > 0 {
		return false
	}
	delete(m.byID, id)
	return true
}
