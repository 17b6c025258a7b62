// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import (
	"slices"
	"testing"
)

func itemsOf(tool, args string) []uint64 {
	var s Scratch
	def.Call(tool, []byte(args), &s)
	return slices.Clone(s.Items())
}

// TestCallItems: an item is a one-word string argument that names something; free text, volatile
// fields and numbers are not items.
func TestCallItems(t *testing.T) {
	cases := []struct {
		args string
		n    int
	}{
		{`{"file_path":"/papers/paper-1.pdf","item_key":"ITEM0001"}`, 2},
		{`{"model":"model-7"}`, 1},
		{`{"url":"https://example.org/a?b=c"}`, 1},
		{`{"q":"refund"}`, 0},                                // a search, however short
		{`{"query":"refund policy annual plans"}`, 0},        // free text
		{`{"command":"ls -la /tmp"}`, 0},                     // a command is free text
		{`{"request_id":"r-1","page":2}`, 0},                 // a volatile field, and a number
		{`{"name":"Priya Raman"}`, 1},                        // a name of a few words
		{`{"note":"a sentence of more than four words"}`, 0}, // free text
		{`{"ids":["a1","a2"]}`, 2},                           // items in an array
		{`"bare-string"`, 1},                                 // a bare argument
	}
	for _, c := range cases {
		if got := len(itemsOf("t", c.args)); got != c.n {
			t.Errorf("%s: %d items, want %d", c.args, got, c.n)
		}
	}
	// The same item is the same fingerprint whatever the call around it.
	a, b := itemsOf("t", `{"path":"x.go"}`), itemsOf("t", `{"path":"x.go","limit":40}`)
	if len(a) != 1 || len(b) != 1 || a[0] != b[0] {
		t.Errorf("items %v and %v differ", a, b)
	}
	// A call's key is its Key.
	if def.Call("t", []byte(`{"a":1}`), nil).Key != def.Key("t", []byte(`{"a":1}`), nil) {
		t.Error("Call and Key disagree")
	}
}

func TestPauses(t *testing.T) {
	pauses := [][2]string{
		{"sleep", `{"seconds":5}`}, {"Wait", `{}`}, {"bash", `{"command":"sleep 5"}`},
		{"shell", `{"cmd":"sleep 0.5s"}`}, {"python", `{"code":"time.sleep(2)"}`},
	}
	for _, p := range pauses {
		if !def.Call(p[0], []byte(p[1]), nil).Pause {
			t.Errorf("%s %s not a pause", p[0], p[1])
		}
	}
	work := [][2]string{
		{"bash", `{"command":"sleep 5 && make"}`}, {"bash", `{"command":"make"}`}, {"wait_for_build", `{}`},
		{"read_file", `{"path":"sleep 5"}`},
	}
	for _, p := range work {
		if def.Call(p[0], []byte(p[1]), nil).Pause {
			t.Errorf("%s %s read as a pause", p[0], p[1])
		}
	}
}

// answerOf digests a result as the answer to a call.
func answerOf(tool, args, result string) (Result, []uint64) {
	var s Scratch
	def.Call(tool, []byte(args), &s)
	r := def.Answer([]byte(result), &s)
	return r, slices.Clone(s.Units())
}

// TestEchoes: a quoted echo of a free-text argument is not news; an unquoted one, and an item, are
// content.
func TestEchoes(t *testing.T) {
	a, _ := answerOf("tool_search", `{"query":"git log"}`, "2 of 21 tools matched `git log`:\n1. repo_status")
	b, _ := answerOf("tool_search", `{"query":"list branches"}`, "2 of 21 tools matched `list branches`:\n1. repo_status")
	if a.Sum != b.Sum {
		t.Error("two answers that differ only in their quoted echo of the query digest differently")
	}
	c, _ := answerOf("search_file_content", `{"pattern":"components/Button"}`, `Found 2 matches for pattern "components/Button":`)
	d, _ := answerOf("search_file_content", `{"pattern":"components/Card"}`, `Found 2 matches for pattern "components/Card":`)
	if c.Sum != d.Sum {
		t.Error("a double-quoted echo is not masked")
	}
	// A grep's hits hold its pattern as content: unquoted, it stays.
	_, hit := answerOf("grep", `{"pattern":"TARGET"}`, ".env:4:TARGET=value-1")
	if !holds(unitsOf("TARGET=value-1"), hit) {
		t.Error("an unquoted echo was masked")
	}
	// A path is an item, not free text: a result that names it keeps it.
	e, _ := answerOf("read_file", `{"path":"a.go"}`, "`a.go`: 3 lines")
	f, _ := answerOf("read_file", `{"path":"b.go"}`, "`b.go`: 3 lines")
	if e.Sum == f.Sum {
		t.Error("an item was masked as an echo")
	}
	// Of masks nothing of a call.
	var s Scratch
	def.Call("tool_search", []byte(`{"query":"git log"}`), &s)
	if def.Of([]byte("matched `git log`"), &s).Sum == def.Of([]byte("matched `other`"), &s).Sum {
		t.Error("Of masked an echo")
	}
}
