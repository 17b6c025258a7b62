package shapeonly

import (
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/recent"
)

// memory is what the processor remembers across batches: the calls whose data is withheld, and the
// tools learnt to be data-class from their spans' attributes. A transcript can arrive in a later batch
// than the tool span that classed its call, or name a tool whose own span said what it is.
//
// A call is remembered by its trace and its id: some SDKs number calls per run (call_1, call_2, ...), so
// an id alone would withhold other runs' calls. A transcript in a later trace of the same conversation
// still names each call's tool, and tool names are remembered across traces.
type memory struct {
	mu      sync.Mutex
	calls   *recent.Map[struct{}]
	tools   *recent.Map[struct{}]
	evicted recent.Evicted
}

func newMemory(maxEntries int, ttl time.Duration) *memory {
	return &memory{calls: recent.New[struct{}](maxEntries, ttl), tools: recent.New[struct{}](maxEntries, ttl)}
}

// rememberCall marks a call, by its key (see callKey), as data-class.
func (m *memory) rememberCall(key []byte, now time.Time) {
	m.mu.Lock()
	m.add(m.calls.Put(string(key), struct{}{}, now))
	m.mu.Unlock()
}

// learnTool marks a tool name as data-class because one of its spans said so.
func (m *memory) learnTool(name string, now time.Time) {
	if name == "" {
		return
	}
	m.mu.Lock()
	m.add(m.tools.Put(name, struct{}{}, now))
	m.mu.Unlock()
}

func (m *memory) hasCall(key []byte, now time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.calls.Get(key, now)
	return ok
}

// callKey appends the memory key of a call: its trace id, then its call id.
func callKey(dst []byte, trace pcommon.TraceID, id []byte) []byte {
	return append(append(dst, trace[:]...), id...)
}

func (m *memory) learnt(name []byte, now time.Time) bool {
	if len(name) == 0 {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.tools.Get(name, now)
	return ok
}

func (m *memory) add(ev recent.Evicted) {
	m.evicted.Age += ev.Age
	m.evicted.Capacity += ev.Capacity
}

// takeEvicted returns and resets the eviction counts, for telemetry.
func (m *memory) takeEvicted() recent.Evicted {
	m.mu.Lock()
	defer m.mu.Unlock()
	ev := m.evicted
	m.evicted = recent.Evicted{}
	return ev
}
