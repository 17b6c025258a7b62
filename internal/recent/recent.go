// Package recent remembers what was seen lately, within a count and an age. Entries leave in the order
// they arrived, which for state fed by traffic is also the order of age, so eviction is a queue pop
// rather than a scan or a heap.
package recent

import "time"

// Evicted counts what left, by why.
type Evicted struct {
	// Capacity is entries pushed out by newer ones while the map was full.
	Capacity int
	// Age is entries dropped because they outlived the age limit.
	Age int
}

// Map is a bounded, expiring map. It is not safe for concurrent use.
type Map[V any] struct {
	max    int
	ttl    time.Duration
	byKey  map[string]entry[V]
	order  []arrival // a ring: head is the oldest arrival
	head   int
	length int
}

type entry[V any] struct {
	value V
	at    time.Time
}

type arrival struct {
	key string
	at  time.Time
}

// New returns a map that holds at most max entries, each for at most ttl.
func New[V any](max int, ttl time.Duration) *Map[V] {
	return &Map[V]{max: max, ttl: ttl, byKey: make(map[string]entry[V]), order: make([]arrival, max)}
}

// Put stores key. A key put again is refreshed: it lives ttl from now.
func (m *Map[V]) Put(key string, v V, now time.Time) Evicted {
	ev := m.Expire(now)
	if _, ok := m.byKey[key]; ok {
		// Its arrival stays where it is; when it reaches the head it is requeued with this time.
		m.byKey[key] = entry[V]{value: v, at: now}
		return ev
	}
	if len(m.byKey) == m.max {
		m.popOldest()
		ev.Capacity++
	}
	m.byKey[key] = entry[V]{value: v, at: now}
	m.push(arrival{key: key, at: now})
	return ev
}

func (m *Map[V]) push(a arrival) {
	m.order[(m.head+m.length)%m.max] = a
	m.length++
}

// Get returns the value for key if it is present and not older than ttl.
func (m *Map[V]) Get(key []byte, now time.Time) (V, bool) {
	e, ok := m.byKey[string(key)]
	if !ok || now.Sub(e.at) > m.ttl {
		var zero V
		return zero, false
	}
	return e.value, true
}

// Len is the number of entries held. Expired entries count until Expire or Put reaches them: a
// refreshed entry can sit in front of them in the queue.
func (m *Map[V]) Len() int { return len(m.byKey) }

// Expire drops entries older than ttl.
func (m *Map[V]) Expire(now time.Time) Evicted {
	var ev Evicted
	for m.length > 0 {
		a := m.order[m.head]
		if now.Sub(a.at) <= m.ttl {
			break
		}
		if m.dropHead() {
			ev.Age++
		}
	}
	return ev
}

// popOldest removes the oldest live key.
func (m *Map[V]) popOldest() {
	for m.length > 0 {
		if m.dropHead() {
			return
		}
	}
}

// dropHead removes the oldest arrival and its key, unless the key was refreshed since it arrived: then
// it goes to the back with its new time. It reports whether a key went.
func (m *Map[V]) dropHead() bool {
	a := m.order[m.head]
	m.order[m.head] = arrival{}
	m.head = (m.head + 1) % m.max
	m.length--
	if e := m.byKey[a.key]; !e.at.Equal(a.at) {
		m.push(arrival{key: a.key, at: e.at})
		return false
	}
	delete(m.byKey, a.key)
	return true
}
