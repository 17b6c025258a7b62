// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import (
	"encoding/json"
	"testing"
)

func TestSkipMatchesTheStandardValidator(t *testing.T) {
	for _, doc := range []string{
		`{}`, `[]`, `{"a":[1,2,{"b":null}],"c":"\u00e9\n","d":-0.5e+10}`, ` [ true , false ] `, `"x"`, `0`,
		`{"a":}`, `[1,]`, `{"a" 1}`, `01`, `1.`, `"\x"`, `"abc`, `{"a":1}}`, `[1 2]`, "\"\x01\"", `-`, `tru`,
	} {
		if got, want := Valid([]byte(doc)), json.Valid([]byte(doc)); got != want {
			t.Errorf("Valid(%s) = %v, encoding/json says %v", doc, got, want)
		}
	}
}

func TestMembersAndField(t *testing.T) {
	doc := []byte(`{"status":"running","jobs":{"done":1,"total":4},"n":12,"esc\u0061ped":"yes"}`)
	for path, want := range map[string]string{"status": "running", "jobs.done": "1", "n": "12", "escaped": "yes"} {
		raw, ok := Field(doc, path)
		got, _ := Text(raw)
		if !ok || got != want {
			t.Errorf("Field(%q) = %q, %v; want %q", path, got, ok, want)
		}
	}
	if _, ok := Field(doc, "missing"); ok {
		t.Error("found a missing field")
	}
	if _, ok := Field([]byte(`[1]`), "a"); ok {
		t.Error("found a field in an array")
	}
}

func TestAppendStringIsValidJSON(t *testing.T) {
	for _, s := range []string{"plain", `q"uote\`, "ctl\x01\n", "bad\xffutf8", "é✓"} {
		out := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q -> %s: %v", s, out, err)
		}
	}
}

// A growing array is read from where the array before it ended; one that differs before that point is
// read whole, and so is one that is not an array.
func TestGrowing(t *testing.T) {
	var g Growing
	for _, step := range []struct {
		doc   string
		valid bool
		end   string // what g remembers of the last array, up to its last element
	}{
		{`[{"role":"user"}]`, true, `[{"role":"user"}`},
		{`[{"role":"user"} , {"role":"assistant"}] `, true, `[{"role":"user"} , {"role":"assistant"}`},
		// The same bytes up to the last element, then something that is not JSON.
		{`[{"role":"user"} , {"role":"assistant"},]`, false, `[{"role":"user"} , {"role":"assistant"}`},
		// Different before the shared part ends (and invalid there): read whole.
		{`[{"role":"user"} , {"role":"assistant"x}, 1]`, false, ``},
		{`[1]`, true, `[1`},
		{`{"a":1}`, true, `[1`},
		{`[]`, true, ``},
	} {
		if got := g.Valid([]byte(step.doc)); got != step.valid {
			t.Errorf("Valid(%s) = %v, want %v", step.doc, got, step.valid)
		}
		if got := string(g.last[:g.end]); got != step.end {
			t.Errorf("after %s: remembers %q, want %q", step.doc, got, step.end)
		}
	}
}
