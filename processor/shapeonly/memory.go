// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"hash/maphash"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/bloom"
	"github.com/agentotel/agentotel/internal/fingerprint"
	"github.com/agentotel/agentotel/internal/recent"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// memory is what one shapeonly remembers across batches, bounded in count and age: per trace and per
// run, whether it carried data-class data, its data-class call ids and the fingerprints of what was
// withheld; and the tool names learnt to be data-class from their spans' attributes. A transcript can
// arrive in a later batch than the tool span that classed its call, and a later trace of the same run
// can repeat what an earlier one withheld.
//
// A trace or run it forgets, by any bound, leaves its id in forgotten: every scope is made to remember
// data-class data (scopes with create), so every one forgotten carried some. A later batch of it then
// fails closed, as one it still remembers does (batch.TraceShaped), though which of its calls were
// data-class and what they withheld are gone.
type memory struct {
	mu     sync.Mutex
	traces *recent.Map[*scope]
	runs   *recent.Map[*scope]
	tools  *recent.Map[struct{}]
	// overFingerprints counts the scopes forgotten to keep the fingerprints bound (the maps count
	// their own evictions by age and capacity).
	overFingerprints int
	// fingerprints counts the entries held across every scope; past maxFingerprints the oldest
	// scopes are forgotten.
	fingerprints, maxFingerprints int
	// inflight counts the batches between begin and end. retired are scopes with fingerprints
	// forgotten since no batch was in flight: a batch in flight may still be searching their sets, so
	// only once none is do the sets' buffers go to the next sets built (fingerprint.Set.Release).
	// retiredFingerprints is what they held, bounded by maxRetiredShare of maxFingerprints: past it, a
	// set is left to the garbage collector.
	inflight            int
	retired             []*scope
	retiredFingerprints int
	// forgotten holds the ids of the traces and runs forgotten (max_forgotten at least); dropped counts
	// those it dropped since the last takeEvicted.
	forgotten *bloom.Filter
	dropped   int
	// stored keeps the memory on a storage extension, when the configuration names one.
	stored memoryStore
}

// The namespaces of the forgotten ids: a trace id's bytes may spell a run's name.
const (
	forgottenTrace bloom.Namespace = iota
	forgottenRun
)

// maxRetiredShare bounds the sets kept for release to an eighth of what the memory may hold, so that
// batches that never stop overlapping cannot keep forgotten traces' memory alive for long.
const maxRetiredShare = 8

// evictions counts what the memory forgot, by why, and the forgotten ids it dropped.
type evictions struct{ age, capacity, fingerprints, dropped int }

// scope is one trace's or one run's memory.
type scope struct {
	mu sync.RWMutex // guards calls, dataClass, set and saturated
	// calls are the ids of the scope's data-class calls.
	calls map[string]struct{}
	// dataClass: the scope carried data-class data.
	dataClass bool
	// set holds the fingerprints of what was withheld; nil until something is.
	set *fingerprint.Set
	// saturated: the set is full, so what is withheld can no longer be remembered: every later value
	// of the scope is withheld whole.
	saturated bool
	// added are texts whose every fingerprint set holds: a transcript repeats each earlier result on
	// every model call, batch after batch, and adding a text again would add nothing, so a repeat
	// is not read again. At most set.Len()/fingerprintsPerAddedText are kept.
	added map[textKey]struct{}

	// Guarded by memory.mu: the entries counted in memory.fingerprints, whether the scope has been
	// evicted, and (traces only) the run the trace belongs to.
	counted int
	gone    bool
	run     string
}

// maxCallsPerScope bounds one trace's remembered call ids; past it the trace is data-class as a whole,
// and unknown results in it are withheld anyway.
const maxCallsPerScope = 4096

func newMemory(cfg *Config) *memory {
	m := &memory{
		traces:          recent.New[*scope](cfg.MaxTraces, cfg.MemoryTTL),
		runs:            recent.New[*scope](cfg.MaxTraces, cfg.MemoryTTL),
		tools:           recent.New[struct{}](cfg.MaxTraces, cfg.MemoryTTL),
		maxFingerprints: cfg.MaxFingerprints,
		forgotten:       bloom.New(cfg.MaxForgotten),
	}
	forget := func(ns bloom.Namespace) func(string, *scope, bool) {
		return func(key string, s *scope, _ bool) {
			m.dropped += m.forgotten.Add(ns, zerocopy.Bytes(key))
			m.release(s)
		}
	}
	m.traces.OnEvict(forget(forgottenTrace))
	m.runs.OnEvict(forget(forgottenRun))
	return m
}

// release gives up what a forgotten scope counted against the fingerprint bound, and keeps its set
// for release once no batch is in flight, within maxRetiredShare; the caller holds mu.
func (m *memory) release(s *scope) {
	m.fingerprints -= s.counted
	if s.counted > 0 && m.retiredFingerprints+s.counted <= m.maxFingerprints/maxRetiredShare {
		m.retired = append(m.retired, s)
		m.retiredFingerprints += s.counted
	}
	s.counted, s.gone = 0, true
}

// scopes returns the memory of a trace and of its run, created when create is set (nil otherwise when
// absent), and whether the trace or the run was forgotten having carried data-class data (a scope
// made since does not know what the forgotten one did). run is the run the span names; when empty,
// the run the trace was seen in before is used, and a named run is remembered for the trace. Records
// outside any trace (log records with a zero trace id) share one trace memory: matching them with each
// other can only withhold more.
func (m *memory) scopes(trace pcommon.TraceID, run string, now time.Time, create bool) (ts, rs *scope, forgotten bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ts = m.get(m.traces, trace[:], now, create)
	if ts != nil {
		if run == "" {
			run = ts.run
		} else {
			ts.run = run
		}
	}
	forgotten = m.forgotten.Has(forgottenTrace, trace[:])
	if run != "" {
		rs = m.get(m.runs, zerocopy.Bytes(run), now, create)
		forgotten = forgotten || m.forgotten.Has(forgottenRun, zerocopy.Bytes(run))
	}
	return ts, rs, forgotten
}

// get returns a scope, refreshing its age; the caller holds mu.
func (m *memory) get(scopes *recent.Map[*scope], key []byte, now time.Time, create bool) *scope {
	if s, ok := scopes.Touch(key, now); ok {
		return s
	}
	if !create {
		return nil
	}
	s := &scope{}
	scopes.Put(string(key), s, now)
	return s
}

// account counts fingerprints added to a scope and forgets the oldest scopes past the bound.
func (m *memory) account(s *scope, added int) {
	if added == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.gone {
		return
	}
	s.counted += added
	m.fingerprints += added
	for m.fingerprints > m.maxFingerprints {
		if !m.traces.EvictOldest() && !m.runs.EvictOldest() {
			break
		}
		m.overFingerprints++
	}
}

func (m *memory) learnTool(name string, now time.Time) {
	if name == "" {
		return
	}
	m.mu.Lock()
	m.tools.Put(name, struct{}{}, now)
	m.mu.Unlock()
}

// learntAny reports whether any tool was learnt to be data-class from its spans.
func (m *memory) learntAny() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tools.Len() > 0
}

// learntTools appends the tool names learnt to be data-class when there are at most limit of them,
// and reports whether it did.
func (m *memory) learntTools(dst []string, limit int) ([]string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tools.AppendKeys(dst, limit)
}

func (m *memory) toolLearnt(name []byte, now time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.tools.Get(name, now)
	return ok
}

// begin starts a batch: it drops what outlived the age limit and counts the batch in flight until end.
func (m *memory) begin(now time.Time) {
	m.mu.Lock()
	m.inflight++
	m.traces.Expire(now)
	m.runs.Expire(now)
	m.tools.Expire(now)
	m.mu.Unlock()
}

// end ends a batch. When no batch is in flight, nothing can search a forgotten scope any more: no
// batch holds one, and none can find one. Their sets are then released.
func (m *memory) end() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.inflight--; m.inflight > 0 {
		return
	}
	for i, s := range m.retired {
		if s.set != nil {
			s.set.Release()
			s.set = nil
		}
		m.retired[i] = nil
	}
	m.retired, m.retiredFingerprints = m.retired[:0], 0
}

// takeEvicted returns and resets the eviction counts, for telemetry.
func (m *memory) takeEvicted() evictions {
	m.mu.Lock()
	defer m.mu.Unlock()
	ev := m.traces.TakeEvicted().Add(m.runs.TakeEvicted()).Add(m.tools.TakeEvicted())
	e := evictions{age: ev.Age, capacity: ev.Capacity, fingerprints: m.overFingerprints, dropped: m.dropped}
	m.overFingerprints, m.dropped = 0, 0
	return e
}

// held is the fingerprints held, for telemetry.
func (m *memory) held() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.fingerprints
}

// remember marks the scope data-class and, with an id, remembers the call.
func (s *scope) remember(id []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dataClass = true
	if len(id) == 0 {
		return
	}
	if s.calls == nil {
		s.calls = map[string]struct{}{}
	}
	// A call is remembered wherever the batch shows it (its span, each transcript that repeats it):
	// only a new id costs a key.
	if _, known := s.calls[string(id)]; !known && len(s.calls) < maxCallsPerScope {
		s.calls[string(id)] = struct{}{}
	}
}

func (s *scope) hasCall(id []byte) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.calls[string(id)]
	return ok
}

func (s *scope) shaped() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.dataClass
}

// add remembers withheld leaves, those of a JSON document (kept says which keys keep their values;
// l, when complete, is what shaping listed of them) or text as one leaf, as key says. They are
// searched for once the scope is built.
func (s *scope) add(bounds setBounds, key textKey, text []byte, kept func([]byte) bool, l listing) {
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.writable(bounds)
	if set == nil {
		return
	}
	if _, done := s.added[key]; done {
		return
	}
	var full bool
	switch {
	case key.json && l.complete:
		full = set.AddWithheld(text, l.leaves, kept)
	case key.json:
		full, _ = set.AddJSONLeaves(text, kept)
	default:
		full = set.AddLeaf(text)
	}
	s.saturated = full
	if !full {
		s.noteAdded(key)
	}
}

// addLeaves remembers withheld texts, each as one leaf. A leaf is short, and adding one again adds
// nothing, so they are not noted in added.
func (s *scope) addLeaves(bounds setBounds, leaves [][]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if set := s.writable(bounds); set != nil {
		s.saturated = set.AddLeaves(leaves)
	}
}

// build makes what the scope was given in this batch searchable, and returns how many fingerprints it
// added: a batch builds each scope once, after shaping, however many results it remembered in it.
func (s *scope) build() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.set == nil {
		return 0
	}
	return s.set.Build()
}

// setBounds are what a scope's fingerprint set is made with: the fingerprints it may hold
// (max_fingerprints_per_trace), and how deep the JSON whose leaves it is given may nest (max_depth).
// setBounds are what a new fingerprint set is made with: its bounds, and the words it never remembers.
type setBounds struct {
	fingerprints, depth int
	vocabulary          func(leaf []byte) bool
}

// writable marks the scope data-class and returns its set, created on first use, or nil once the set
// is full; the caller holds mu.
func (s *scope) writable(bounds setBounds) *fingerprint.Set {
	s.dataClass = true
	if s.saturated {
		return nil
	}
	if s.set == nil {
		s.set = fingerprint.NewSet(bounds.fingerprints)
		s.set.MaxDepth = bounds.depth
		s.set.Vocabulary = bounds.vocabulary
	}
	return s.set
}

// fingerprintsPerAddedText bounds scope.added by the fingerprints the scope holds, and so, through
// max_fingerprints, the memory all scopes spend on it: an entry of about 40 bytes per 64
// fingerprints, which take 512 bytes of table.
const fingerprintsPerAddedText = 64

// noteAdded records that every fingerprint of the text with key is in the set; past the bound the
// texts noted before are forgotten (they are only read again if they come back).
func (s *scope) noteAdded(key textKey) {
	limit := s.set.Len() / fingerprintsPerAddedText
	if limit == 0 {
		return
	}
	if len(s.added) >= limit {
		clear(s.added)
	}
	if s.added == nil {
		s.added = map[textKey]struct{}{}
	}
	s.added[key] = struct{}{}
}

// A textKey stands for a text given to a scope, and for how it was given (as JSON leaves or as one
// leaf), without holding it: its length and a 64-bit hash under a seed drawn when the process starts.
// Two texts that shared a key would leave the second unremembered; for texts written without knowing
// that seed, the odds are about 2^-64 a pair of the same length.
type textKey struct {
	hash uint64
	n    int
	json bool
}

var textSeed = maphash.MakeSeed()

func keyOf(json bool, text []byte) textKey {
	return textKey{hash: maphash.Bytes(textSeed, text), n: len(text), json: json}
}
