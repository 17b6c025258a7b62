// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"errors"
	"time"

	"github.com/agentotel/agentotel/internal/bloom"
	"github.com/agentotel/agentotel/internal/fingerprint"
	"github.com/agentotel/agentotel/internal/recent"
	"github.com/agentotel/agentotel/internal/statecodec"
)

// memoryFormat is the version of the saved memory's encoding: a build that changes it either reads
// the older one too or refuses it (a logged error and a fresh start, package statestore).
const memoryFormat = 1

// The saved memory is, in order: the fingerprint keys; the traces, least recently used first, each
// with its key, last use, run and scope; the runs likewise, without a run; the learnt tool names with
// their last use; and the forgotten ids. A scope is whether it carried data-class data, whether its
// set filled up, its call ids, and its fingerprints. Not saved: the texts a scope notes as added
// (a cache: a text read again adds nothing new), and the sets of scopes already forgotten.

// savedScope is one scope as listed for encoding, under the memory's lock.
type savedScope struct {
	key string
	at  time.Time
	s   *scope
	run string
}

// encode returns the memory's state. It holds the memory's lock only to list what it holds, and
// each scope's while it encodes that scope, so batches go on meanwhile; it counts itself in flight,
// so no set it encodes is released under it.
func (m *memory) encode() []byte {
	m.mu.Lock()
	m.inflight++
	list := func(scopes []savedScope, from *recent.Map[*scope]) []savedScope {
		from.Each(func(key string, s *scope, at time.Time) {
			scopes = append(scopes, savedScope{key: key, at: at, s: s, run: s.run})
		})
		return scopes
	}
	traces := list(nil, m.traces)
	runs := list(nil, m.runs)
	var e statecodec.Encoder
	// The filter, 8 bytes a fingerprint, and some 100 bytes a scope's keys, calls and flags.
	e.Grow(m.forgotten.Bytes() + 8*m.fingerprints + 100*(len(traces)+len(runs)))
	keys := fingerprint.ProcessKeys()
	e.Bytes(keys[:])
	m.mu.Unlock()
	defer m.end()

	encodeScopes(&e, traces, true)
	encodeScopes(&e, runs, false)
	m.mu.Lock()
	e.Uint(uint64(m.tools.Len()))
	m.tools.Each(func(name string, _ struct{}, at time.Time) {
		e.String(name)
		e.Int(at.UnixNano())
	})
	m.forgotten.Encode(&e)
	m.mu.Unlock()
	return e.Data()
}

func encodeScopes(e *statecodec.Encoder, scopes []savedScope, traces bool) {
	e.Uint(uint64(len(scopes)))
	for _, sc := range scopes {
		e.String(sc.key)
		e.Int(sc.at.UnixNano())
		if traces {
			e.String(sc.run)
		}
		sc.s.encode(e)
	}
}

func (s *scope) encode(e *statecodec.Encoder) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	e.Bool(s.dataClass)
	e.Bool(s.saturated)
	e.Uint(uint64(len(s.calls)))
	for id := range s.calls {
		e.String(id)
	}
	e.Bool(s.set != nil)
	if s.set != nil {
		s.set.Encode(e)
	}
}

// restored is a decoded memory, not yet in use.
type restored struct {
	traces, runs []savedScope
	tools        []savedScope // key and at only
	forgotten    *bloom.Filter
	// unsearchable: the saved sets were made under fingerprint keys this process cannot take (it
	// made sets under its own already), so their scopes are withheld whole instead.
	unsearchable bool
}

var errKeys = errors.New("the fingerprint keys are not 40 bytes")

// decodeMemory reads what encode wrote, within cfg's bounds on each scope.
func decodeMemory(payload []byte, cfg *Config, bounds setBounds) (*restored, error) {
	d := statecodec.NewDecoder(payload)
	var keys fingerprint.Keys
	raw := d.Bytes()
	if d.Err() == nil && len(raw) != len(keys) {
		d.Fail(errKeys)
	}
	copy(keys[:], raw)
	r := &restored{}
	r.traces = decodeScopes(d, bounds, true)
	r.runs = decodeScopes(d, bounds, false)
	n := d.Len(2)
	r.tools = make([]savedScope, 0, n)
	for range n {
		r.tools = append(r.tools, savedScope{key: d.String(), at: time.Unix(0, d.Int())})
	}
	r.forgotten = bloom.Decode(d, cfg.MaxForgotten)
	if err := d.Finish(); err != nil {
		r.release()
		return nil, err
	}
	if !fingerprint.AdoptKeys(keys) {
		r.unsearchable = true
	}
	return r, nil
}

func decodeScopes(d *statecodec.Decoder, bounds setBounds, traces bool) []savedScope {
	n := d.Len(5)
	out := make([]savedScope, 0, n)
	for range n {
		sc := savedScope{key: d.String(), at: time.Unix(0, d.Int())}
		if traces {
			sc.run = d.String()
		}
		sc.s = decodeScope(d, bounds)
		if d.Err() != nil {
			break
		}
		out = append(out, sc)
	}
	return out
}

func decodeScope(d *statecodec.Decoder, bounds setBounds) *scope {
	s := &scope{dataClass: d.Bool(), saturated: d.Bool()}
	if n := d.Len(1); n > 0 {
		s.calls = make(map[string]struct{}, min(n, maxCallsPerScope))
		for range n {
			if id := d.String(); len(s.calls) < maxCallsPerScope {
				s.calls[id] = struct{}{}
			}
		}
	}
	if d.Bool() {
		set, full := fingerprint.DecodeSet(d, bounds.fingerprints)
		if set != nil {
			set.MaxDepth, set.Vocabulary = bounds.depth, bounds.vocabulary
		}
		s.set, s.saturated = set, s.saturated || full
	}
	return s
}

// release gives back the buffers of sets decoded and not taken into use.
func (r *restored) release() {
	for _, list := range [][]savedScope{r.traces, r.runs} {
		for _, sc := range list {
			if sc.s != nil && sc.s.set != nil {
				sc.s.set.Release()
			}
		}
	}
}

// load puts what was restored into the memory, through its bounds: the traces and runs in the order
// they were last used, so that past max_traces the oldest are forgotten (their ids kept as forgotten,
// as any forgotten scope's are), then past max_fingerprints the oldest too, and at the next batch
// those past memory_ttl. A scope whose set cannot be searched is withheld whole.
func (m *memory) load(r *restored) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.forgotten = r.forgotten
	put := func(scopes *recent.Map[*scope], list []savedScope) {
		for _, sc := range list {
			if r.unsearchable && sc.s.set != nil {
				sc.s.set.Release()
				sc.s.set, sc.s.saturated = nil, true
			}
			sc.s.run = sc.run
			scopes.Put(sc.key, sc.s, sc.at)
			if sc.s.set != nil && !sc.s.gone {
				sc.s.counted = sc.s.set.Len()
				m.fingerprints += sc.s.counted
			}
		}
	}
	put(m.traces, r.traces)
	put(m.runs, r.runs)
	for _, t := range r.tools {
		m.tools.Put(t.key, struct{}{}, t.at)
	}
	for m.fingerprints > m.maxFingerprints {
		if !m.traces.EvictOldest() && !m.runs.EvictOldest() {
			break
		}
		m.overFingerprints++
	}
}
