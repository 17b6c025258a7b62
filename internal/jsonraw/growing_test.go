// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import "testing"

func TestSharedPrefixIsAllOfTheEarlierStringButItsLastByte(t *testing.T) {
	for _, c := range []struct {
		prev, text string
		want       int
	}{
		{`[{"a":1}]`, `[{"a":1},{"b":2}]`, 8},
		{`[{"a":1}]`, `[{"a":1}]`, 8}, // the same string: only its closing bracket is read again
		{`[{"a":1}]`, `[{"a":1`, 0},   // shorter than the shared part: not a later transcript
		{`[{"a":1}]`, `[{"a":2},{"b":2}]`, 0},
		{``, `[1]`, 0},
		{`]`, `[1]`, 0},
	} {
		if got := SharedPrefix([]byte(c.prev), []byte(c.text)); got != c.want {
			t.Errorf("SharedPrefix(%q, %q) = %d, want %d", c.prev, c.text, got, c.want)
		}
	}
}
