// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"reflect"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/message"
)

// stackDocs are transcripts and replies that end a walk in each way: read whole, a call or a result
// found (its object read again after a later member), invalid part-way down, nested past the limit.
var stackDocs = []string{
	`[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"find_customer","arguments":{"q":{"a":[{"b":1}]}}}]},` +
		`{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":{"rows":[{"name":"Ada"}]}}]}]`,
	`[{"role":"assistant","tool_calls":[{"id":"cc","type":"function","function":{"name":"f","arguments":"{}"}}]}]`,
	`[{"type":"tool_call_response","response":{"x":{"y":1}},"id":"ab","role":"user"}]`,
	`[{"role":"assistant","parts":[{"type":"text","content":{"deep":{"er":[1,`,
	`[{"a":{"b":{"c":01}}}]`,
	strings.Repeat(`{"a":`, jsonraw.DefaultMaxDepth+1) + `1` + strings.Repeat(`}`, jsonraw.DefaultMaxDepth+1),
}

// TestWalksGiveBackTheirObjects: the objects a walk holds, one per level, are all given back when it
// ends, however it ends, and cleared, so one TranscriptReader or reply reader serves document after
// document and keeps none of them reachable; and it makes no more of them than the levels the lexer
// admits, and one for the level it refuses.
func TestWalksGiveBackTheirObjects(t *testing.T) {
	w := NewTranscriptReader(Default)
	rr := new(replyReader)
	rr.maxDepth = jsonraw.DefaultMaxDepth
	for round := range 2 {
		for _, doc := range stackDocs {
			w.Add(0, Span{Attrs: attrsOf(t, map[string]any{"gen_ai.input.messages": doc, "other": doc})}, pcommon.NewValueEmpty())
			if top, _ := stackOf(&w.objects); top != 0 {
				t.Fatalf("round %d: the TranscriptReader still holds %d objects after %.40q", round, top, doc)
			}
			rr.readJSON([]byte(doc))
			if top, _ := stackOf(&rr.objects); top != 0 {
				t.Fatalf("round %d: the reply reader still holds %d objects after %.40q", round, top, doc)
			}
			_, wHeld := stackOf(&w.objects)
			_, rrHeld := stackOf(&rr.objects)
			for _, held := range append(wHeld, rrHeld...) {
				if !held.IsZero() {
					t.Fatalf("round %d: an object given back after %.40q still holds what it read", round, doc)
				}
			}
		}
	}
	_, wHeld := stackOf(&w.objects)
	_, rrHeld := stackOf(&rr.objects)
	for name, held := range map[string]int{"TranscriptReader": len(wHeld), "reply reader": len(rrHeld)} {
		if held == 0 || held > jsonraw.DefaultMaxDepth+1 {
			t.Errorf("the %s made %d objects, want between 1 and the nesting limit %d, plus one", name, held, jsonraw.DefaultMaxDepth)
		}
	}
}

// stackOf reads a stack of objects from outside internal/message, which exports nothing of its
// state: how many of its objects are in use, and each object it has made.
func stackOf(s *message.Objects) (inUse int, held []reflect.Value) {
	v := reflect.ValueOf(s).Elem()
	made := v.FieldByName("held")
	for i := range made.Len() {
		held = append(held, made.Index(i).Elem())
	}
	return int(v.FieldByName("top").Int()), held
}
