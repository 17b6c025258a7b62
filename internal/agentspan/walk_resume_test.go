// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"reflect"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/payloads"
	"github.com/agentotel/agentotel/internal/walk"
)

// recorded is what a walk recorded for one document, in terms that do not depend on where in the
// batch it sits: item numbers and candidates relative to the document's first item, payloads by
// their offset and bytes.
type recorded struct {
	Kind     ItemKind
	IDs      []string
	Names    []string
	Payloads []string
	Starts   []int
	Cands    []int32
	Event    bool
}

// docRecords lists what the reader recorded for document d.
func (w *TranscriptReader) docRecords(d int32) []recorded {
	var out []recorded
	first := int32(-1)
	for i, it := range w.items {
		if it.doc != d {
			continue
		}
		if first < 0 {
			first = int32(i)
		}
		r := recorded{Kind: it.kind, Event: it.event}
		for _, id := range it.ids[:it.nID] {
			r.IDs = append(r.IDs, string(w.Text(id)))
		}
		for _, n := range it.names[:it.nName] {
			r.Names = append(r.Names, string(w.Text(n)))
		}
		for _, n := range w.nodes[it.first : it.first+it.n] {
			r.Payloads = append(r.Payloads, string(n.Raw()))
			r.Starts = append(r.Starts, n.Start())
		}
		for _, c := range w.cands[it.cand : it.cand+it.nc] {
			r.Cands = append(r.Cands, c-first)
		}
		out = append(out, r)
	}
	return out
}

// walkAfter walks doc as the transcript attribute key of owner 0, after the transcripts before (the
// same attribute of the same owner, so that doc may resume past what it shares with the last of
// them), and returns what was recorded for doc and whether it was read.
func walkAfter(t testing.TB, key string, before []string, doc string) ([]recorded, bool) {
	w := NewTranscriptReader(Default)
	w.ModelText = true
	for _, b := range append(before, doc) {
		w.Add(0, Span{Attrs: attrsOf(t, map[string]any{key: b})}, pcommon.NewValueEmpty())
	}
	last := int32(len(w.docs) - 1)
	if last < 0 || w.docs[last].unreadable {
		return nil, false
	}
	return w.docRecords(last), true
}

// elementEnds are the offsets past each element of doc, a JSON array, as far as it is valid.
func elementEnds(doc []byte) []int {
	l := jsonraw.NewLexer(doc, 0)
	if empty, f := l.Open(1); f != jsonraw.NoFault || empty {
		return nil
	}
	var ends []int
	for {
		if l.SkipValue(1) != jsonraw.NoFault {
			return ends
		}
		ends = append(ends, l.Pos())
		if more, ok := l.More(']'); !ok || !more {
			return ends
		}
	}
}

// checkResumed checks a transcript array against each of its prefixes: walked after the array of its
// first elements, it records what it records walked alone (and is read exactly when it is then).
func checkResumed(t *testing.T, key, doc string) {
	t.Helper()
	whole, read := walkAfter(t, key, nil, doc)
	for _, end := range elementEnds([]byte(doc)) {
		prev := doc[:end] + "]"
		got, gotRead := walkAfter(t, key, []string{prev}, doc)
		if gotRead != read || !reflect.DeepEqual(got, whole) {
			t.Fatalf("%s walked after its first elements (%q):\nread %v, recorded %+v\nwalked alone: read %v, recorded %+v", key, prev, gotRead, got, read, whole)
		}
	}
}

// TestResumedWalkMatchesWholeWalk: every transcript array of the captured and written fixtures, walked
// after the array of its first elements, records what it records walked alone. (That a batch of them
// comes out of shapeonly's rewriter as each would alone: TestResumedWalkApplies, withhold.)
func TestResumedWalkMatchesWholeWalk(t *testing.T) {
	checked := 0
	for _, td := range payloads.Traces(t, "../../testdata/formats/*/*.traces.json", "../../testdata/sdk/*/traces.json") {
		for _, span := range walk.Spans(td) {
			for k, v := range span.Attributes().All() {
				if r, ok := Default.reading[k]; !ok || !r.declared || v.Type() != pcommon.ValueTypeStr || !strings.HasPrefix(v.Str(), "[") {
					continue
				}
				checkResumed(t, k, v.Str())
				checked++
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d declared transcript arrays in the fixtures", checked)
	}
}

// FuzzResumedWalk: any JSON array, walked after the array of its first elements, records what it
// records walked alone; and the attribute of an array that is not JSON, walked after one that shares
// its first elements, is found unreadable as it is alone.
func FuzzResumedWalk(f *testing.F) {
	for _, seed := range []string{
		`[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"find_customer","arguments":{"query":"Ada"}}]},` +
			`{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":{"rows":[{"name":"Ada"}]}}]},` +
			`{"role":"assistant","parts":[{"type":"text","content":"Ada is a VIP"}]}]`,
		// An anonymous result answers the calls of the message before it, which the shared part holds.
		`[{"role":"assistant","tool_calls":[{"id":"ab","function":{"name":"f","arguments":"{}"}},{"id":"abc","function":{"name":"g","arguments":"{}"}}]},` +
			`{"role":"tool","content":"Ada"},{"role":"tool","content":"Bo"}]`,
		// Past the shared part, a new message's calls are its own, not the message's before it.
		`[{"role":"assistant","tool_calls":[{"id":"ab","function":{"name":"f","arguments":"{}"}}]},` +
			`{"role":"assistant","tool_calls":[{"id":"abc","function":{"name":"g","arguments":"{}"}}]},{"role":"tool","content":"Ada"}]`,
		// A call outside any message belongs to the message before it, across the shared part's end.
		`[{"role":"assistant","tool_calls":[{"id":"ab","function":{"name":"f","arguments":"{}"}}]},` +
			`{"toolCallType":"function","toolCallId":"xyz","toolName":"g","args":"{}"},{"role":"tool","content":"Ada"}]`,
		`[{"role":"tool","content":[{"type":"tool-result","toolCallId":"v2","toolName":"f","output":{"type":"json","value":{"a":"b"}}}]}, {"role":"user","content":"x"} ]`,
		`[1,2]`, `[1,20]`, `[1 ,2,`, `[{"a":1},{"a":`, `[[],[],[`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if !strings.HasPrefix(doc, "[") {
			return
		}
		for _, key := range []string{"gen_ai.input.messages", "ai.prompt.messages"} {
			checkResumed(t, key, doc)
		}
	})
}
