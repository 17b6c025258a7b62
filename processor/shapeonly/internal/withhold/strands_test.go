// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package withhold

import (
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/countsonly"
)

// strandsResults is one Strands tool message: both results of a turn as content blocks, in the
// content attribute of a gen_ai.tool.message span event, as JSON text.
const strandsResults = `[{"toolResult":{"toolUseId":"tooluse_1","status":"success","content":[{"json":{"email":"ada@example.test"}}]}},` +
	`{"toolResult":{"toolUseId":"tooluse_2","status":"success","content":[{"text":"overcast"}]}}]`

// TestWithholdStrandsToolMessage: a tool message that names no call but holds its results as
// content blocks in a JSON string is read block by block: the data-class call's result is withheld by
// its toolUseId and the other one stays. Anything else among the blocks leaves the message one result
// of an unknown call, withheld whole in a trace that carries data-class data.
func TestWithholdStrandsToolMessage(t *testing.T) {
	for _, tt := range []struct {
		name, content string
		results       int // payloads withheld
		kept          string
	}{
		{"result blocks", strandsResults, 1, "overcast"},
		{"result and text blocks", `[{"text":"here you go"},` + strandsResults[1:], 1, "here you go"},
		{"an object that is no block", `[{"email":"ada@example.test"},` + strandsResults[1:], 1, ""},
		{"not JSON", `[{"toolResult":`, 1, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			attrs := attrsOf(t, map[string]any{"content": tt.content})
			w := New(agentspan.Default, false)
			// The turn's calls, as the tool spans or the assistant message said them.
			w.AddToolCall(0, "tooluse_1", "find_customer", true)
			w.AddToolCall(0, "tooluse_2", "get_weather", false)
			w.Add(0, agentspan.Span{Name: "gen_ai.tool.message", Attrs: attrs}, pcommon.NewValueEmpty())
			p := policy([]string{"tooluse_1"}, nil)
			p.traceShaped = true
			w.Resolve(p)
			if rw := w.Apply(&markShaper{}); rw.Payloads != tt.results {
				t.Errorf("Rewrite %+v, want %d payloads", rw, tt.results)
			}
			got := get(t, attrs, "content")
			if strings.Contains(got, "ada@example.test") {
				t.Errorf("customer data left: %s", got)
			}
			if tt.kept != "" && !strings.Contains(got, tt.kept) {
				t.Errorf("%q withheld: %s", tt.kept, got)
			}
		})
	}
}

// FuzzToolMessage: whatever a Strands tool message's content holds, withholding in it never panics,
// read block by block or as one result.
func FuzzToolMessage(f *testing.F) {
	for _, seed := range []string{
		strandsResults,
		`[{"text":"a"},{"toolResult":{"toolUseId":"t","content":[]}}]`,
		`[{"json":{"a":1}}]`, `[{"parts":[1,{"type":1}]}]`, `[`, `[]`, ` `, `"x"`, "[\"\xff\"]",
	} {
		f.Add(seed)
	}
	shaper := countsShaper{countsonly.New(countsonly.DefaultKeptKeys(), countsonly.Limits{})}
	f.Fuzz(func(t *testing.T, data string) {
		w := New(agentspan.Default, false)
		w.Add(0, agentspan.Span{Name: "gen_ai.tool.message", Attrs: attrsOf(t, map[string]any{"content": data})}, pcommon.NewValueEmpty())
		w.Resolve(everyOther{})
		w.Apply(shaper)
	})
}
