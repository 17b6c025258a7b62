// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package ownerattr

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGetFindsWhatWasSetByOwnerAndAttribute(t *testing.T) {
	var tb Table[string]
	set := func(owner int32, attr, v string) { *tb.Get(owner, attr) = v }
	set(3, "gen_ai.input.messages", "three in")
	set(0, "gen_ai.input.messages", "zero in")
	set(3, "gen_ai.output.messages", "three out")
	set(3, "gen_ai.input.messages", "three in, later")

	for _, c := range []struct {
		owner int32
		attr  string
		want  string
	}{
		{3, "gen_ai.input.messages", "three in, later"},
		{3, "gen_ai.output.messages", "three out"},
		{0, "gen_ai.input.messages", "zero in"},
		{0, "gen_ai.output.messages", ""},
		{1, "gen_ai.input.messages", ""},
		{7, "gen_ai.input.messages", ""}, // past every owner seen
	} {
		assert.Equal(t, c.want, *tb.Get(c.owner, c.attr), "owner %d %s", c.owner, c.attr)
	}
}

func TestResetForgetsEveryValue(t *testing.T) {
	var tb Table[[]byte]
	*tb.Get(0, "a") = []byte("batch one")
	tb.Reset(nil)
	assert.Nil(t, *tb.Get(0, "a"), "a value of the batch before is zeroed")
}

// A forget func keeps what a value can use again: the next batch's new value starts from it.
func TestResetKeepsWhatForgetLeaves(t *testing.T) {
	type found struct {
		text []byte
		hits []int
	}
	var tb Table[found]
	p := tb.Get(2, "a")
	p.text, p.hits = []byte("batch one"), append(make([]int, 0, 16), 1, 2)
	tb.Reset(func(f *found) { f.text, f.hits = nil, f.hits[:0] })

	p = tb.Get(5, "b")
	assert.Nil(t, p.text, "the batch's text is forgotten")
	assert.Equal(t, 16, cap(p.hits), "the buffer is kept")
	assert.Empty(t, p.hits)
}
