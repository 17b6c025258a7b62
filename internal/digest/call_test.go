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
