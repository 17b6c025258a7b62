// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package withhold

import (
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/payloads"
	"github.com/agentotel/agentotel/internal/walk"
)

// TestResumedWalkApplies: the growing transcripts of one owner, each the one before and a few more
// messages, are read past what they share with the one before (agentspan's walk_resume.go, whose
// TestResumedWalkMatchesWholeWalk holds the reading to a whole walk); a batch of them comes out of
// Apply as each would alone. Every transcript array of the captured and written fixtures is cut into
// the arrays of its first elements.
func TestResumedWalkApplies(t *testing.T) {
	declared := map[string]bool{}
	for _, c := range agentspan.Default.Conventions() {
		for _, tr := range c.Transcripts {
			declared[tr.Key] = declared[tr.Key] || tr.Flat == nil
		}
	}
	checked := 0
	for _, td := range payloads.Traces(t, "../../../../testdata/formats/*/*.traces.json", "../../../../testdata/sdk/*/traces.json") {
		for _, span := range walk.Spans(td) {
			for k, v := range span.Attributes().All() {
				if declared[k] && v.Type() == pcommon.ValueTypeStr && strings.HasPrefix(v.Str(), "[") {
					checkApplied(t, k, v.Str())
					checked++
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d declared transcript arrays in the fixtures", checked)
	}
}

// checkApplied checks that the growing transcripts of one owner, Added in one batch, come out of Apply
// as each comes out of a batch of its own.
func checkApplied(t *testing.T, key, doc string) {
	t.Helper()
	if !jsonraw.Valid([]byte(doc)) {
		t.Fatalf("%s: a fixture transcript that is not valid JSON", key)
	}
	shaper := countsShaper{countsonly.New(countsonly.DefaultKeptKeys(), countsonly.Limits{})}
	var docs []string
	jsonraw.EachElement([]byte(doc), func(elem []byte, start int) { docs = append(docs, doc[:start+len(elem)]+"]") })
	w := New(agentspan.Default, true)
	spans := make([]pcommon.Map, len(docs))
	for i, d := range docs {
		spans[i] = attrsOf(t, map[string]any{key: d})
		w.Add(0, agentspan.Span{Attrs: spans[i]}, pcommon.NewValueEmpty())
	}
	w.Resolve(everyOther{})
	w.Apply(shaper)
	for i, d := range docs {
		alone := attrsOf(t, map[string]any{key: d})
		Withhold(alone, everyOther{}, shaper, true)
		if got, want := get(t, spans[i], key), get(t, alone, key); got != want {
			t.Fatalf("%s, the transcript of its first %d elements: in a batch with the ones before it\n%s\nalone\n%s", key, i+1, got, want)
		}
	}
}
