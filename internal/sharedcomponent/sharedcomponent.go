// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package sharedcomponent lets the pipelines of one configured processor share one state: the traces
// and logs pipelines of an agentguard judge one run from its spans and its log records together, and
// those of a shapeonly withhold a call's data in the records that carry it wherever the call was
// classed. The collector creates the processor once per pipeline, from the one configuration it
// decoded for the component; each creation takes the state held for that configuration (keyed by
// it, as core's and contrib's receivers share theirs, so that two instances built from two
// configurations never share), and the state goes when the last of them shuts down, so no pipeline
// still running finds it closed.
package sharedcomponent

import (
	"context"
	"errors"
	"sync"
)

// Map holds one V per key, counted by its users.
type Map[K comparable, V any] struct {
	mu    sync.Mutex
	byKey map[K]*entry[V]
}

type entry[V any] struct {
	v     V
	users int
}

// NewMap returns an empty Map.
func NewMap[K comparable, V any]() *Map[K, V] { return &Map[K, V]{byKey: map[K]*entry[V]{}} }

// Acquire returns the V held for key, or the one create makes when none is: the caller is one more of
// its users. An error from create is returned and nothing is held.
func (m *Map[K, V]) Acquire(key K, create func() (V, error)) (V, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.byKey[key]; ok {
		e.users++
		return e.v, nil
	}
	v, err := create()
	if err != nil {
		return v, err
	}
	m.byKey[key] = &entry[V]{v: v, users: 1}
	return v, nil
}

// Release ends one use of key's V and reports whether it was the last: the caller then closes it.
func (m *Map[K, V]) Release(key K) (last bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.byKey[key]
	if !ok {
		return false
	}
	if e.users--; e.users > 0 {
		return false
	}
	delete(m.byKey, key)
	return true
}

// Len is how many keys hold a V: what a test reads to see that every user released its share.
func (m *Map[K, V]) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.byKey)
}

// Made returns p, made from a V acquired before, or, when err says p could not be made, calls release
// (p's shutdown, which gives back its share) and returns the error: a component the collector never
// got is never shut down, and must not keep the V alive.
func Made[P any](p P, err error, release func(context.Context) error) (P, error) {
	if err != nil {
		var zero P
		return zero, errors.Join(err, release(context.Background()))
	}
	return p, nil
}
