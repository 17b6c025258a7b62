// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.etcd.io/bbolt"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// shapeonly's memory across a restart of the built collector: a SIGTERM
// between a data-class tool span and the model call that shows its result, with the memory kept on
// file_storage and without; and a damaged state, in the value and in the file.

// storedShapeonly is shapeonlyConfig's processor keeping its memory on the preamble's file_storage.
func storedShapeonly(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "storage.yaml")
	require.NoError(t, os.WriteFile(path, []byte("processors:\n  shapeonly: {storage: file_storage}\n"), 0o600))
	return path
}

// sendCall sends trace 1's find_customer call, call_1, returning the customer record, and waits until
// it is exported.
func sendCall(t *testing.T, c *collectortest.Collector) {
	td := ptrace.NewTraces()
	addSpan(td, 1, 1, map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer",
		"gen_ai.tool.call.id": callID(1), "gen_ai.tool.call.result": customerRecord})
	postTraces(t, c, td)
	c.SpansOut(1)
}

// answerCall sends trace 1's next model call, whose transcript shows only call_1's response and, in a
// user message, the customer's name (found by content alone), and returns its exported messages; the
// collector has exported earlier spans before it.
func answerCall(t *testing.T, c *collectortest.Collector, earlier int) string {
	td := ptrace.NewTraces()
	addSpan(td, 1, 2, map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": `[` +
		`{"role":"user","parts":[{"type":"text","content":"draft a note to Jane Roe-Whitfield"}]},` +
		`{"role":"tool","parts":[{"type":"tool_call_response","id":"` + callID(1) + `","response":` + customerRecord + `}]}]`})
	postTraces(t, c, td)
	for _, out := range c.SpansOut(earlier + 1) {
		for _, span := range walk.Spans(out) {
			if messages, ok := span.Attributes().Get("gen_ai.input.messages"); ok {
				return messages.Str()
			}
		}
	}
	t.Fatal("the model call was not exported")
	return ""
}

// TestRestartKeepsShapeonlyMemory (test b): the record is withheld after a SIGTERM exactly as without
// one, the name found by content too, when the memory is on file_storage; without storage the same
// traffic lets both through.
func TestRestartKeepsShapeonlyMemory(t *testing.T) {
	t.Run("without restart", func(t *testing.T) {
		c := collectortest.Start(t, shapeonlyConfig, nil)
		sendCall(t, c)
		assertWithheld(t, answerCall(t, c, 1))
	})
	t.Run("SIGTERM, storage", func(t *testing.T) {
		under := storedShapeonly(t)
		before := collectortest.Start(t, shapeonlyConfig, nil, under)
		sendCall(t, before)
		before.Terminate()
		after := collectortest.Start(t, shapeonlyConfig, map[string]string{"StorageDir": before.StorageDir}, under)
		assert.Contains(t, after.Log(), "Memory restored")
		assertWithheld(t, answerCall(t, after, 0))
	})
	t.Run("SIGTERM, no storage", func(t *testing.T) {
		before := collectortest.Start(t, shapeonlyConfig, nil)
		sendCall(t, before)
		before.Terminate()
		after := collectortest.Start(t, shapeonlyConfig, map[string]string{"StorageDir": before.StorageDir})
		got := answerCall(t, after, 0)
		assert.Contains(t, got, "Jane Roe-Whitfield", "without storage the restart forgets the call")
	})
}

func assertWithheld(t *testing.T, messages string) {
	t.Helper()
	for _, secret := range []string{"cus_88421907", "Jane Roe-Whitfield", "jane.roe@example-mail.test"} {
		assert.NotContains(t, messages, secret)
	}
	assert.Contains(t, messages, "[withheld]")
}

// shapeonlyStateFile is the file file_storage keeps shapeonly's state in (one bbolt database per
// component, named by its kind, type and name).
func shapeonlyStateFile(dir string) string { return filepath.Join(dir, "processor_shapeonly_") }

// TestDamagedShapeonlyStateStartsFresh (test d): a saved value cut short or replaced by garbage, and a
// state file replaced by garbage, each give an error in the log and a fresh start: the collector comes
// up, and shapes. A bbolt file cut short is not among them: bbolt maps the file into memory and reads
// past its end at open, a SIGBUS in file_storage before any component is asked (the exporters' queues
// too); the README's "Across restarts" says so.
func TestDamagedShapeonlyStateStartsFresh(t *testing.T) {
	for name, damageIt := range damages {
		t.Run(name, func(t *testing.T) {
			under := storedShapeonly(t)
			before := collectortest.Start(t, shapeonlyConfig, nil, under)
			sendCall(t, before)
			before.Terminate()
			damageIt(t, shapeonlyStateFile(before.StorageDir))
			after := collectortest.Start(t, shapeonlyConfig, map[string]string{"StorageDir": before.StorageDir}, under)
			collectortest.Eventually(t, "the error in the log", func() bool { return strings.Contains(after.Log(), "starting fresh") })
			assert.NotContains(t, after.Log(), "Memory restored")
			sendCall(t, after) // the fresh memory learns the call again, and withholds what answers it
			assertWithheld(t, answerCall(t, after, 1))
		})
	}
}

// damages are what a state file may suffer between a shutdown and the next start, each done to a
// stopped collector's file.
var damages = map[string]func(t *testing.T, file string){
	"value truncated": func(t *testing.T, file string) {
		editValue(t, file, func(v []byte) []byte { return v[:len(v)/2] })
	},
	"value garbage": func(t *testing.T, file string) {
		editValue(t, file, func([]byte) []byte { return []byte("garbage, not a saved state") })
	},
	"file garbage": func(t *testing.T, file string) {
		require.NoError(t, os.WriteFile(file, []byte(strings.Repeat("garbage ", 4096)), 0o600))
	},
}

// editValue replaces the saved state value in a stopped collector's state file.
func editValue(t *testing.T, file string, edit func([]byte) []byte) {
	db, err := bbolt.Open(file, 0o600, nil)
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket([]byte("default"))
		require.NotNil(t, b, "file_storage's bucket")
		v := b.Get([]byte("state"))
		require.NotEmpty(t, v, "the saved state")
		return b.Put([]byte("state"), edit(append([]byte(nil), v...)))
	}))
}
