// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"encoding/json"
	"reflect"
	"testing"
)

// stripped is a tool result without the volatile envelope, which is what a
// progress detector compares after strip_volatile.
func stripped(t *testing.T, raw string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "served_at")
	delete(m, "request_id")
	return m
}

// TestResultShapes pins the property each scenario exists to exercise: which
// consecutive results of the same tool change once volatile fields are gone.
func TestResultShapes(t *testing.T) {
	changes := func(name string) (changed, same int) {
		last := map[string]map[string]any{}
		for _, s := range toolSpans(GenAI, mustGenerate(t, name, GenAI, 3).Traces) {
			tool, res := str(s, "gen_ai.tool.name"), stripped(t, str(s, "gen_ai.tool.call.result"))
			if prev, ok := last[tool]; ok {
				if reflect.DeepEqual(prev, res) {
					same++
				} else {
					changed++
				}
			}
			last[tool] = res
		}
		return changed, same
	}
	for name, want := range map[string][2]int{
		"deploy":        {4, 1}, // queued→running 1/4, running 1/4 twice, then 2/4, 3/4, success
		"docs":          {0, 4},
		"finished_poll": {0, 4},
		"unknown_wait":  {1, 5},
		"wait_timeout":  {0, 25},
		"error_loop":    {0, 3},
		"alternation":   {0, 4},
		"code":          {5, 5}, // edit_file alternates sha A/B; run_tests never changes
	} {
		if c, s := changes(name); c != want[0] || s != want[1] {
			t.Errorf("%s: %d changed and %d repeated results, want %d and %d", name, c, s, want[0], want[1])
		}
	}

	// Volatile fields must differ per call, or they would not need stripping.
	seen := map[string]bool{}
	for _, s := range toolSpans(GenAI, mustGenerate(t, "finished_poll", GenAI, 3).Traces) {
		seen[str(s, "gen_ai.tool.call.result")] = true
	}
	if len(seen) != 5 {
		t.Errorf("finished_poll raw results should all differ by served_at/request_id, got %d distinct", len(seen))
	}
}
