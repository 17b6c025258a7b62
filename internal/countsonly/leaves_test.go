// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package countsonly

import (
	"fmt"
	"slices"
	"testing"
)

// TestLeavesListWhatIsWithheld: the strings replaced by the marker and every string inside a withheld
// array, kept keys or not, in document order; kept strings, keys and numbers are not listed, and a
// string value (shaped decoded) leaves the list incomplete.
func TestLeavesListWhatIsWithheld(t *testing.T) {
	s := New([]string{"status"}, Limits{})
	var leaves Leaves
	raw := []byte(`{"status":"ok","name":"Jane\u0020Roe","tags":["vip",{"status":"in array"}],"n":5,"o":{"k":"v"}}`)
	out, _, stats, err := s.AppendValue(nil, raw, nil, &leaves)
	if err != nil || !leaves.Complete || leaves.Nesting != 3 {
		t.Fatalf("err %v, complete %v, nesting %d", err, leaves.Complete, leaves.Nesting)
	}
	var got []string
	for _, l := range leaves.List {
		got = append(got, fmt.Sprintf("%s %v %v", raw[l.Start:l.End], l.Escaped, l.InArray))
	}
	want := []string{`"Jane\u0020Roe" true false`, `"vip" false true`, `"in array" false true`, `"v" false false`}
	if !slices.Equal(got, want) {
		t.Errorf("leaves %q, want %q (shaped %s)", got, want, out)
	}
	if stats.Strings != 2 || stats.Arrays != 1 {
		t.Errorf("stats %+v", stats)
	}
	if _, _, _, err := s.AppendValue(nil, []byte(`{"a":[1,}`), nil, &leaves); err == nil || leaves.Complete {
		t.Errorf("invalid JSON: err %v, complete %v", err, leaves.Complete)
	}
	if s.AppendValue(nil, []byte(`"{\"a\":\"b\"}"`), nil, &leaves); leaves.Complete {
		t.Error("a string holding JSON listed its leaves as complete")
	}
}
