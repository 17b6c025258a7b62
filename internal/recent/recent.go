// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package recent remembers what was seen lately, within a count and an age. Entries are kept in the
// order they were last put, so the oldest is always at the front: expiry and eviction pop from there
// rather than scan.
package recent

import (
	"container/list"
	"time"
)

// Evicted counts what left, by why: the one eviction count every bounded memory of the processors
// reports from.
type Evicted struct {
	// Capacity is entries pushed out by newer ones while the map was full.
	Capacity int
	// Age is entries dropped because they outlived the age limit.
	Age int
}

// Add is e and o counted together.
func (e Evicted) Add(o Evicted) Evicted {
	return Evicted{Capacity: e.Capacity + o.Capacity, Age: e.Age + o.Age}
}

// Map is a bounded, expiring map. It is not safe for concurrent use.
type Map[V any] struct {
	max     int
	ttl     time.Duration
	byKey   map[string]*list.Element
	order   *list.List // of *entry[V], least recently put first
	onEvict func(key string, v V, byAge bool)
	evicted Evicted // since the last TakeEvicted
}

type entry[V any] struct {
	key   string
	value V
	at    time.Time
}

// New returns a map that holds at most max entries, each for at most ttl after its last Put.
func New[V any](max int, ttl time.Duration) *Map[V] {
	return &Map[V]{max: max, ttl: ttl, byKey: make(map[string]*list.Element), order: list.New()}
}

// Put stores key, or refreshes it: it then lives ttl from now.
func (m *Map[V]) Put(key string, v V, now time.Time) {
	m.Expire(now)
	if el, ok := m.byKey[key]; ok {
		e := el.Value.(*entry[V])
		e.value, e.at = v, now
		m.order.MoveToBack(el)
		return
	}
	if len(m.byKey) >= m.max {
		m.evict(m.order.Front(), false)
		m.evicted.Capacity++
	}
	m.byKey[key] = m.order.PushBack(&entry[V]{key: key, value: v, at: now})
}

// Get returns the value for key if it is present and not older than ttl.
func (m *Map[V]) Get(key []byte, now time.Time) (V, bool) {
	el, ok := m.byKey[string(key)]
	if !ok || now.Sub(el.Value.(*entry[V]).at) > m.ttl {
		var zero V
		return zero, false
	}
	return el.Value.(*entry[V]).value, true
}

// Touch is Get, and makes a live key live ttl from now, as Put would, without building a string of
// it: one lookup for what would be a Get and a Put.
func (m *Map[V]) Touch(key []byte, now time.Time) (V, bool) {
	el, ok := m.byKey[string(key)]
	if !ok || now.Sub(el.Value.(*entry[V]).at) > m.ttl {
		var zero V
		return zero, false
	}
	el.Value.(*entry[V]).at = now
	m.order.MoveToBack(el)
	return el.Value.(*entry[V]).value, true
}

// AppendKeys appends the keys held (expired ones too, until Expire or Put drops them) when there are
// at most limit of them, and reports whether it did.
func (m *Map[V]) AppendKeys(dst []string, limit int) ([]string, bool) {
	if len(m.byKey) > limit {
		return dst, false
	}
	for k := range m.byKey {
		dst = append(dst, k)
	}
	return dst, true
}

// Each calls fn with every entry held, least recently put first, with the time it was last put:
// putting them in that order, at those times, into a map of the same bounds rebuilds this one (how
// state saved before a restart is loaded).
func (m *Map[V]) Each(fn func(key string, v V, at time.Time)) {
	for el := m.order.Front(); el != nil; el = el.Next() {
		e := el.Value.(*entry[V])
		fn(e.key, e.value, e.at)
	}
}

// Delete forgets key.
func (m *Map[V]) Delete(key string) {
	if el, ok := m.byKey[key]; ok {
		m.remove(el)
	}
}

// Len is the number of entries held, expired ones included until Expire or Put drops them.
func (m *Map[V]) Len() int { return len(m.byKey) }

// Expire drops entries older than ttl.
func (m *Map[V]) Expire(now time.Time) {
	for el := m.order.Front(); el != nil && now.Sub(el.Value.(*entry[V]).at) > m.ttl; el = m.order.Front() {
		m.evict(el, true)
		m.evicted.Age++
	}
}

// TakeEvicted returns what Put and Expire evicted since the last call, and starts counting again.
func (m *Map[V]) TakeEvicted() Evicted {
	ev := m.evicted
	m.evicted = Evicted{}
	return ev
}

// OnEvict registers fn to see every entry the map evicts, by capacity or by age (not those Deleted):
// state that ends when it leaves the map can report how it ended.
func (m *Map[V]) OnEvict(fn func(key string, v V, byAge bool)) { m.onEvict = fn }

// EvictOldest evicts the least recently put entry, as capacity would, for a bound the caller keeps
// (and counts) itself; false when the map is empty.
func (m *Map[V]) EvictOldest() bool {
	el := m.order.Front()
	if el == nil {
		return false
	}
	m.evict(el, false)
	return true
}

func (m *Map[V]) evict(el *list.Element, byAge bool) {
	e := el.Value.(*entry[V])
	m.remove(el)
	if m.onEvict != nil {
		m.onEvict(e.key, e.value, byAge)
	}
}

func (m *Map[V]) remove(el *list.Element) {
	delete(m.byKey, m.order.Remove(el).(*entry[V]).key)
}
