// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package recent

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestCapacityEvictsOldestFirst(t *testing.T) {
	m := New[int](3, time.Hour)
	for i := range 5 {
		m.Put(fmt.Sprint(i), i, t0.Add(time.Duration(i)*time.Second))
	}
	if ev := m.TakeEvicted(); m.Len() != 3 || ev.Capacity != 2 || ev.Age != 0 {
		t.Fatalf("len %d evicted %+v, want 3 and 2 by capacity", m.Len(), ev)
	}
	for i, want := range []bool{false, false, true, true, true} {
		if _, ok := m.Get([]byte(fmt.Sprint(i)), t0.Add(10*time.Second)); ok != want {
			t.Errorf("key %d present=%v, want %v", i, ok, want)
		}
	}
}

func TestAgeExpires(t *testing.T) {
	m := New[string](10, time.Minute)
	m.Put("a", "x", t0)
	m.Put("b", "y", t0.Add(30*time.Second))
	if _, ok := m.Get([]byte("a"), t0.Add(61*time.Second)); ok {
		t.Fatal("a outlived its ttl")
	}
	m.Expire(t0.Add(61 * time.Second))
	if ev := m.TakeEvicted(); ev.Age != 1 || m.Len() != 1 {
		t.Fatalf("expired %d, len %d; want 1 and 1", ev.Age, m.Len())
	}
}

func TestRefreshKeepsKeyAlive(t *testing.T) {
	m := New[int](2, time.Minute)
	m.Put("a", 1, t0)
	m.Put("b", 2, t0.Add(10*time.Second))
	m.Put("a", 1, t0.Add(50*time.Second)) // refresh
	m.Expire(t0.Add(65 * time.Second))
	if ev := m.TakeEvicted(); ev.Age != 0 {
		t.Fatalf("nothing is older than a minute since its last put, yet %d expired", ev.Age)
	}
	if _, ok := m.Get([]byte("a"), t0.Add(65*time.Second)); !ok {
		t.Fatal("refreshed key lost")
	}
	// Full: the next new key pushes out b, the oldest by last put, not a.
	if m.Put("c", 3, t0.Add(66*time.Second)); m.TakeEvicted() != (Evicted{Capacity: 1}) {
		t.Fatal("want one eviction by capacity")
	}
	if _, ok := m.Get([]byte("a"), t0.Add(66*time.Second)); !ok {
		t.Fatal("a was evicted instead of b")
	}
}

// Touch returns a live key's value and moves the key to the young end as a second Put would, without
// building a string of the key; it leaves an absent key absent and an expired one expired.
func TestTouchByBytes(t *testing.T) {
	m := New[int](2, time.Minute)
	m.Put("a", 1, t0)
	m.Put("b", 2, t0.Add(10*time.Second))
	key := []byte("a")
	if allocs := testing.AllocsPerRun(10, func() { m.Touch(key, t0.Add(50*time.Second)) }); allocs != 0 {
		t.Fatalf("Touch allocates %v times", allocs)
	}
	if v, ok := m.Touch(key, t0.Add(50*time.Second)); !ok || v != 1 {
		t.Fatalf("Touch = %d, %v; want 1, true", v, ok)
	}
	if _, ok := m.Touch([]byte("z"), t0.Add(50*time.Second)); ok || m.Len() != 2 {
		t.Fatalf("Touch of an absent key found it or added it: %d entries", m.Len())
	}
	if _, ok := m.Touch([]byte("b"), t0.Add(75*time.Second)); ok {
		t.Fatal("Touch found an expired key")
	}
	m.Expire(t0.Add(75 * time.Second))
	if _, ok := m.Get(key, t0.Add(75*time.Second)); !ok {
		t.Fatal("touched key expired")
	}
}

func TestFloodStaysBounded(t *testing.T) {
	m := New[struct{}](1000, time.Hour)
	for i := range 100_000 {
		m.Put(fmt.Sprint(i), struct{}{}, t0.Add(time.Duration(i)*time.Millisecond))
		if m.Len() > 1000 {
			t.Fatalf("len %d over bound at %d", m.Len(), i)
		}
	}
}

func TestDeleteThenPutAgain(t *testing.T) {
	m := New[int](2, time.Minute)
	m.Put("a", 1, t0)
	m.Delete("a")
	if _, ok := m.Get([]byte("a"), t0); ok || m.Len() != 0 {
		t.Fatal("deleted key still present")
	}
	m.Put("a", 2, t0.Add(time.Second))
	m.Put("b", 3, t0.Add(2*time.Second))
	if v, ok := m.Get([]byte("a"), t0.Add(3*time.Second)); !ok || v != 2 || m.Len() != 2 {
		t.Fatalf("got %d %v len %d", v, ok, m.Len())
	}
}

func TestOnEvictSeesEveryEvictionButNotDeletes(t *testing.T) {
	m := New[int](2, time.Minute)
	type seen struct {
		key   string
		v     int
		byAge bool
	}
	var got []seen
	m.OnEvict(func(k string, v int, byAge bool) { got = append(got, seen{k, v, byAge}) })
	m.Put("a", 1, t0)
	m.Put("b", 2, t0)
	m.Put("c", 3, t0) // a leaves by capacity
	m.Delete("b")     // not an eviction
	m.Put("d", 4, t0.Add(30*time.Second))
	m.Expire(t0.Add(61 * time.Second)) // c leaves by age
	if !m.EvictOldest() {              // d leaves by capacity
		t.Fatal("EvictOldest on a non-empty map")
	}
	if m.EvictOldest() {
		t.Fatal("EvictOldest on an empty map")
	}
	want := []seen{{"a", 1, false}, {"c", 3, true}, {"d", 4, false}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("evicted %v, want %v", got, want)
	}
	// The map counts its own evictions; EvictOldest serves a bound its caller counts.
	if ev := m.TakeEvicted(); ev != (Evicted{Capacity: 1, Age: 1}) {
		t.Errorf("counted %+v, want one by capacity and one by age", ev)
	}
	if ev := m.TakeEvicted(); ev != (Evicted{}) {
		t.Errorf("TakeEvicted does not reset: %+v", ev)
	}
}

// AppendKeys lists the keys when they are few enough, and nothing otherwise.
func TestAppendKeysWithinLimit(t *testing.T) {
	m := New[int](10, time.Minute)
	m.Put("a", 1, t0)
	m.Put("b", 2, t0)
	keys, ok := m.AppendKeys([]string{"x"}, 2)
	slices.Sort(keys)
	if !ok || !slices.Equal(keys, []string{"a", "b", "x"}) {
		t.Fatalf("AppendKeys = %v, %v", keys, ok)
	}
	if keys, ok := m.AppendKeys(nil, 1); ok || keys != nil {
		t.Fatalf("AppendKeys past the limit = %v, %v", keys, ok)
	}
}

// A map rebuilt from Each, in its order and at its times, holds the same entries and forgets them at
// the same moments; rebuilt into smaller bounds, it keeps the most recent.
func TestEachRebuildsTheMap(t *testing.T) {
	m := New[int](4, time.Minute)
	for i := range 4 {
		m.Put(fmt.Sprint(i), i, t0.Add(time.Duration(i)*time.Second))
	}
	m.Put("0", 10, t0.Add(5*time.Second)) // refreshed: now the most recent
	type held struct {
		key string
		v   int
		at  time.Time
	}
	var order []held
	m.Each(func(k string, v int, at time.Time) { order = append(order, held{k, v, at}) })
	want := []held{{"1", 1, t0.Add(time.Second)}, {"2", 2, t0.Add(2 * time.Second)}, {"3", 3, t0.Add(3 * time.Second)}, {"0", 10, t0.Add(5 * time.Second)}}
	if !slices.Equal(order, want) {
		t.Fatalf("Each gave %v, want %v", order, want)
	}
	small := New[int](2, time.Minute)
	for _, h := range order {
		small.Put(h.key, h.v, h.at)
	}
	if ev := small.TakeEvicted(); ev.Capacity != 2 {
		t.Fatalf("rebuilt into 2 entries evicted %+v, want 2 by capacity", ev)
	}
	now := t0.Add(62 * time.Second) // 3 was put at 3s: gone at 63s; 0 at 5s lives until 65s
	if _, ok := small.Get([]byte("3"), now); !ok {
		t.Error("3 lost before its ttl")
	}
	if v, ok := small.Get([]byte("0"), t0.Add(64*time.Second)); !ok || v != 10 {
		t.Errorf("0 = %d, %v; want 10 until 65s", v, ok)
	}
	if _, ok := small.Get([]byte("1"), now); ok {
		t.Error("1 kept past the smaller bound")
	}
}
