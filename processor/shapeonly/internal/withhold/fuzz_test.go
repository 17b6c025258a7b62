// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package withhold

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"unicode/utf8"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/jsonraw"
)

// countsShaper is the processor's value path in miniature (processor/shapeonly values.go): JSON is
// shaped by countsonly, a string holding JSON is shaped as JSON and stays a string, and anything the
// shaper cannot read becomes the withheld marker.
type countsShaper struct{ s *countsonly.Shaper }

func (c countsShaper) ShapeJSON(dst, raw []byte, _ agentspan.Owner, _ Remember) ([]byte, bool) {
	if len(raw) > 0 && raw[0] == '"' {
		text, ok := jsonraw.Unquote(raw)
		if !ok {
			return jsonraw.AppendString(dst, countsonly.Withheld), true
		}
		return jsonraw.AppendString(dst, c.ShapeText(text)), true
	}
	out, _, err := c.s.AppendJSON(dst, raw)
	if err != nil {
		return jsonraw.AppendString(dst, countsonly.Withheld), true
	}
	return out, true
}

func (c countsShaper) Unreadable(string, agentspan.Owner) string { return withheldWhole }

func (c countsShaper) ShapeValue(v pcommon.Value, _ agentspan.Owner, _ Remember) bool {
	v.SetStr(countsonly.Withheld)
	return true
}

func (c countsShaper) ShapeText(s string) string {
	b := []byte(s)
	if !countsonly.LooksLikeJSON(b) {
		return countsonly.Withheld
	}
	out, _, err := c.s.AppendJSON(nil, b)
	if err != nil {
		return countsonly.Withheld
	}
	return string(out)
}

// everyOther withholds every call whose (trimmed) id or tool name has an even length, so both
// withheld and kept calls turn up in fuzzed transcripts.
type everyOther struct{}

func (everyOther) ToolShaped(name []byte) bool                  { return len(name)%2 == 0 }
func (everyOther) CallShaped(_ agentspan.Owner, id []byte) bool { return len(id)%2 == 0 }
func (everyOther) TraceShaped(agentspan.Owner) bool             { return false }
func (everyOther) Forgotten(agentspan.Owner) bool               { return false }
func (everyOther) Remember(agentspan.Owner, []byte)             {}
func (everyOther) AnyShaped() bool                              { return true }

// depth returns the nesting depth of valid JSON, by the standard tokenizer.
func depth(doc []byte) int {
	dec := json.NewDecoder(bytes.NewReader(doc))
	d, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return deepest
		}
		if err != nil {
			return 1 << 30
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			d++
			deepest = max(deepest, d)
		case json.Delim(']'), json.Delim('}'):
			d--
		}
	}
}

// FuzzWithhold feeds arbitrary bytes as gen_ai.input.messages (and as the OpenAI-style input.value).
// Withhold must never panic; a transcript that is valid JSON (UTF-8, within the walker's nesting
// limit) must come out valid JSON; one that starts like JSON but is not must come out as the
// withheld marker and nothing else; and anything else must come out untouched.
func FuzzWithhold(f *testing.F) {
	for _, seed := range []string{
		`[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"find_customer","arguments":{"query":"Ada"}}]},` +
			`{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":{"rows":[{"name":"Ada"}]}}]},` +
			`{"role":"assistant","parts":[{"type":"text","content":"Ada is a VIP"}]}]`,
		`[{"role":"tool","content":[{"type":"tool-result","toolCallId":"v2","toolName":"f","output":{"type":"json","value":{"a":"b"}}}]}]`,
		`[{"role":"tool","content":[{"type":"tool-result","toolCallId":"v1","toolName":"f","result":"{\"email\":\"a@b.c\"}"}]}]`,
		`{"messages":[{"role":"assistant","tool_calls":[{"id":"cc","type":"function","function":{"name":"f","arguments":"{\"q\":1}"}}]},` +
			`{"role":"tool","tool_call_id":"cc","content":"Ada Lovelace"}]}`,
		`[{"toolCallType":"function","toolCallId":"xx","toolName":"f","args":"{\"q\":\"Ada\"}"}]`,
		`{"messages":[{"role":"model","content":[{"toolRequest":{"name":"find_customer","ref":"r1","input":{"q":"Ada"}}}]},` +
			`{"role":"tool","content":[{"toolResponse":{"name":"find_customer","ref":"r1","output":{"rows":[{"name":"Ada"}]}}}]}]}`,
		`[{"type":"tool_call_response","id":"c\u0031 ","response":"x"}]`,
		`[{"type":"tool_call_response","id":"ab","response":"\"not json\""}]`,
		`[{"type":"tool_call_response","id":"ab","response":"[1,2"}]`,
		`[{"id":"ab","role":"tool","content":{"type":"text","value":1}}]`,
		`[]`, `{}`, ` [ ] `, `[`, `[1,]`, `{"a":01}`, "[\"\xff\"]", `"[]"`, `x`, ``,
	} {
		f.Add([]byte(seed))
	}
	shaper := countsShaper{countsonly.New(countsonly.DefaultKeptKeys(), countsonly.Limits{})}
	f.Fuzz(func(t *testing.T, data []byte) {
		valid := json.Valid(data) && utf8.Valid(data) && depth(data) <= jsonraw.DefaultMaxDepth
		// A declared transcript (gen_ai.input.messages) must be a JSON container from its first byte,
		// or it is withheld whole; input.value may hold plain text, which is left to the content
		// search; any other attribute is read when it is JSON. JSON read comes out JSON.
		attrs := attrsOf(t, map[string]any{"gen_ai.input.messages": string(data), "input.value": string(data), "other": string(data)})
		Withhold(attrs, everyOther{}, shaper, true)
		strict := get(t, attrs, "gen_ai.input.messages")
		switch {
		case len(data) == 0 || data[0] != '{' && data[0] != '[' || !jsonraw.Valid(data):
			if strict != withheldWhole {
				t.Fatalf("unreadable transcript %q came out as %q, want it withheld whole", data, strict)
			}
		case valid && !json.Valid([]byte(strict)):
			t.Fatalf("valid transcript %q came out invalid: %q", data, strict)
		}
		for _, key := range []string{"input.value", "other"} {
			got := get(t, attrs, key)
			switch {
			case !jsonraw.Valid(data) || !jsonraw.IsContainer(data):
				if got != string(data) {
					t.Fatalf("%s: text that is not JSON %q changed to %q", key, data, got)
				}
			case valid && !json.Valid([]byte(got)):
				t.Fatalf("%s: valid JSON %q came out invalid: %q", key, data, got)
			}
		}
	})
}

// TestWithholdTooDeepIsWithheldWhole pins what the fuzz target allows past the walker's nesting limit:
// valid JSON deeper than jsonraw.DefaultMaxDepth is withheld whole, as the JSON string "[withheld]".
func TestWithholdTooDeepIsWithheldWhole(t *testing.T) {
	deep := bytes.Repeat([]byte("["), jsonraw.DefaultMaxDepth+1)
	deep = append(deep, bytes.Repeat([]byte("]"), jsonraw.DefaultMaxDepth+1)...)
	if !json.Valid(deep) {
		t.Fatal("test bug")
	}
	attrs := attrsOf(t, map[string]any{"gen_ai.input.messages": string(deep)})
	Withhold(attrs, everyOther{}, countsShaper{countsonly.New(nil, countsonly.Limits{})}, false)
	if got := get(t, attrs, "gen_ai.input.messages"); got != withheldWhole {
		t.Errorf("too deep: %q", got)
	}
}

// withheldWhole is a transcript withheld whole: the marker as a JSON string.
const withheldWhole = `"` + countsonly.Withheld + `"`
