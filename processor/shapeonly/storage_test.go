// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/agentotel/agentotel/internal/statestore"
	"github.com/agentotel/agentotel/internal/statestore/statestoretest"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/metadata"
)

// A shapeonly with storage: keeps its memory across a restart (storage.go, memory_state.go). Each
// test runs the same traffic with and without the restart, or with and without storage, so that what
// it asserts is what the saved state does.

var storageID = component.MustNewID("file_storage")

// stored is a harness on ext, with storage: naming it, and its log.
func stored(t *testing.T, ext *statestoretest.Extension, mutate func(*Config)) (*harness, *observer.ObservedLogs) {
	core, logs := observer.New(zapcore.InfoLevel)
	h := newHarnessOn(t, statestoretest.Host{storageID: ext}, zap.New(core), func(c *Config) {
		byName(c)
		c.Storage = &storageID
		if mutate != nil {
			mutate(c)
		}
	})
	return h, logs
}

var restartTrace = pcommon.TraceID{0x5e, 1}

// classify sends a data-class call of restartTrace, call_1, returning Jane's record.
func classify(h *harness) {
	h.run(inTrace(spans(customerSpan("find_customer", map[string]any{"gen_ai.tool.call.id": "call_1"})), restartTrace))
}

// mention is a model call of restartTrace whose prompt quotes the record's name in free text, found
// only by content.
func mention(h *harness) string {
	msgs := `[{"role":"user","parts":[{"type":"text","content":"write to Jane Roe-Whitfield about her invoices"}]}]`
	return attr(h.run(chatIn(restartTrace, msgs, nil)), 0, "gen_ai.input.messages")
}

// TestRestartKeepsWhatWasWithheld: a data-class call, a shutdown, a fresh processor on the same
// storage; the transcript answering the call by id, and a prompt quoting the record by content, are
// withheld as they are without the restart. On a new store (no saved state) both pass: what withholds
// them is the state.
func TestRestartKeepsWhatWasWithheld(t *testing.T) {
	ext := statestoretest.New()
	before, _ := stored(t, ext, nil)
	classify(before)
	before.stop()

	after, logs := stored(t, ext, nil)
	assert.Equal(t, 1, logs.FilterMessage("Memory restored").Len())
	assert.NotContains(t, attr(after.run(chatIn(restartTrace, answering("call_1"), nil)), 0, "gen_ai.input.messages"), janeName)
	assert.NotContains(t, mention(after), janeName)

	fresh, _ := stored(t, statestoretest.New(), nil)
	assert.Contains(t, attr(fresh.run(chatIn(restartTrace, answering("call_1"), nil)), 0, "gen_ai.input.messages"), janeName)
	assert.Contains(t, mention(fresh), janeName)
}

// TestRestartKeepsForgottenIDs: traces forgotten by max_traces before the restart still fail closed
// after it.
func TestRestartKeepsForgottenIDs(t *testing.T) {
	small := func(c *Config) { c.MaxTraces = 20 }
	for _, withStorage := range []bool{true, false} {
		ext := statestoretest.New()
		before, _ := stored(t, ext, small)
		flood(before, 0, 60, 20)
		before.stop()
		if !withStorage {
			ext = statestoretest.New()
		}
		after, _ := stored(t, ext, small)
		got := attr(after.run(chatIn(floodTrace(3), answering("call_3"), nil)), 0, "gen_ai.input.messages")
		assert.Equal(t, !withStorage, strings.Contains(got, janeName), "storage %v: %s", withStorage, got)
	}
}

// TestUnreadableStateStartsFresh: a value cut short, one that is not ours, and one of another format
// version are each an error in the log and an empty memory: the processor starts and shapes.
func TestUnreadableStateStartsFresh(t *testing.T) {
	ext := statestoretest.New()
	before, _ := stored(t, ext, nil)
	classify(before)
	before.stop()
	id := component.NewID(metadata.Type)
	good := ext.Value(component.KindProcessor, id, "state")
	require.NotEmpty(t, good)
	otherVersion := append([]byte(nil), good...)
	otherVersion[5]++ // the format version's low byte
	for name, value := range map[string][]byte{
		"truncated":     good[:len(good)/2],
		"garbage":       []byte("not a state value at all, just bytes"),
		"other version": otherVersion,
	} {
		t.Run(name, func(t *testing.T) {
			ext.SetValue(component.KindProcessor, id, "state", value)
			h, logs := stored(t, ext, nil)
			require.Equal(t, 1, logs.FilterLevelExact(zapcore.ErrorLevel).Len(), "%v", logs.All())
			assert.Contains(t, logs.All()[0].Message, "starting fresh")
			assert.Contains(t, mention(h), janeName, "nothing was restored")
			classify(h) // and the processor works
		})
	}
}

// TestBoundsApplyToWhatIsLoaded: state saved under max_traces 100 and loaded under 10 keeps the 10
// most recent traces, counts 90 evictions by capacity, and the 90 fail closed.
func TestBoundsApplyToWhatIsLoaded(t *testing.T) {
	ext := statestoretest.New()
	before, _ := stored(t, ext, func(c *Config) { c.MaxTraces = 100 })
	flood(before, 0, 100, 25)
	before.stop()
	after, _ := stored(t, ext, func(c *Config) { c.MaxTraces = 10 })
	after.run(chatIn(floodTrace(99), answering("call_99"), nil))
	assert.Equal(t, int64(90), counts(t, after, "otelcol_processor_shapeonly_memory_evicted")["reason=capacity"])
	for _, i := range []int{0, 50, 89, 95} {
		got := attr(after.run(chatIn(floodTrace(i), answering(fmt.Sprintf("call_%d", i)), nil)), 0, "gen_ai.input.messages")
		assert.NotContains(t, got, janeName, "trace %d", i)
	}
}

// TestAgedStateExpires: a trace saved and not seen again within memory_ttl is forgotten at the first
// batch after the restart, as it would have been without one, and fails closed: a tool result in it
// is withheld.
func TestAgedStateExpires(t *testing.T) {
	ext := statestoretest.New()
	before, _ := stored(t, ext, nil)
	classify(before)
	before.stop()
	after, _ := stored(t, ext, func(c *Config) { c.MemoryTTL = time.Nanosecond })
	assert.NotContains(t, attr(after.run(chatIn(restartTrace, answering("call_1"), nil)), 0, "gen_ai.input.messages"), janeName)
	assert.Equal(t, int64(1), counts(t, after, "otelcol_processor_shapeonly_memory_evicted")["reason=age"])
}

// TestUnsearchableFingerprintsFailClosed: saved fingerprints made under keys this process cannot take
// are dropped, and their scopes withhold every later value whole.
func TestUnsearchableFingerprintsFailClosed(t *testing.T) {
	cfg := createDefaultConfig()
	byName(cfg)
	ext := statestoretest.New()
	before, _ := stored(t, ext, nil)
	classify(before)
	before.stop()
	m := newMemory(cfg)
	payload := savedPayload(t, ext)
	payload[1] ^= 0x10 // a byte of the fingerprint keys, after their length
	r, err := decodeMemory(payload, cfg, setBounds{fingerprints: cfg.MaxFingerprintsPerTrace, depth: cfg.MaxDepth})
	require.NoError(t, err)
	require.True(t, r.unsearchable)
	m.load(r)
	ts, _, _ := m.scopes(restartTrace, "", time.Now(), false)
	require.NotNil(t, ts)
	assert.True(t, ts.saturated && ts.set == nil && ts.shaped())
}

// savedPayload is the memory saved in ext, unframed.
func savedPayload(t *testing.T, ext *statestoretest.Extension) []byte {
	store, err := statestore.Open(context.Background(), statestoretest.Host{storageID: ext}, storageID, component.NewID(metadata.Type), memoryFormat, zap.NewNop())
	require.NoError(t, err)
	var payload []byte
	require.True(t, store.Restore(context.Background(), func(p []byte) error { payload = p; return nil }))
	return payload
}
