// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package ownerattr

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGetFindsWhatWasSetByOwnerAndAttribute(t *testing.T) {
	var tb Table[string]
	set := func(owner int32, attr, v string) {
		p, _ := tb.Get(owner, attr)
		*p = v
	}
	set(3, "gen_ai.input.messages", "three in")
	set(0, "gen_ai.input.messages", "zero in")
	set(3, "gen_ai.output.messages", "three out")
	set(3, "gen_ai.input.messages", "three in, later")

	for _, c := range []struct {
		owner int32
		attr  string
		want  string
		held  bool
	}{
		{3, "gen_ai.input.messages", "three in, later", true},
		{3, "gen_ai.output.messages", "three out", true},
		{0, "gen_ai.input.messages", "zero in", true},
		{0, "gen_ai.output.messages", "", false},
		{1, "gen_ai.input.messages", "", false},
		{7, "gen_ai.input.messages", "", false}, // past every owner seen
	} {
		p, held := tb.Get(c.owner, c.attr)
		assert.Equal(t, c.held, held, "owner %d %s", c.owner, c.attr)
		assert.Equal(t, c.want, *p, "owner %d %s", c.owner, c.attr)
	}
}

func TestResetForgetsEveryValue(t *testing.T) {
	var tb Table[[]byte]
	p, _ := tb.Get(0, "a")
	*p = []byte("batch one")
	tb.Reset(nil)

	p, held := tb.Get(0, "a")
	assert.False(t, held)
	assert.Nil(t, *p, "a value of the batch before is zeroed")
}

// A forget func keeps what a value can use again: the next batch's new value starts from it.
func TestResetKeepsWhatForgetLeaves(t *testing.T) {
	type found struct {
		text []byte
		hits []int
	}
	var tb Table[found]
	p, _ := tb.Get(2, "a")
	p.text, p.hits = []byte("batch one"), append(make([]int, 0, 16), 1, 2)
	tb.Reset(func(f *found) { f.text, f.hits = nil, f.hits[:0] })

	p, held := tb.Get(5, "b")
	require.False(t, held)
	assert.Nil(t, p.text, "the batch's text is forgotten")
	assert.Equal(t, 16, cap(p.hits), "the buffer is kept")
	assert.Empty(t, p.hits)
}
