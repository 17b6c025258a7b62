// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package ascii

import "testing"

func TestEqualFold(t *testing.T) {
	cases := []struct {
		b, word string
		want    bool
	}{
		{"Error: x", "error", true}, {"ERROR", "error", true}, {"errors", "error", true},
		{"Errol", "error", false}, {"\u212a", "k", false}, // the Kelvin sign is not ASCII K
		{"find_Customer", "find_customer", true}, {"", "", true},
	}
	for _, c := range cases {
		if got := EqualFold([]byte(c.b), c.word); got != c.want {
			t.Errorf("EqualFold(%q, %q) = %v, want %v", c.b, c.word, got, c.want)
		}
	}
}
