// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package confighint

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestJoinByPathOrdersByFieldPath(t *testing.T) {
	err := JoinByPath(
		errors.New("tools::b::max_wait: second at its path"),
		errors.New("tools::b::kind: bad"),
		errors.Join(errors.New("conventions[10]::name: bad"), errors.New("conventions[2]::match: bad")),
		nil,
		errors.New("tools::a-b::kind: bad"),
		errors.New("tools::b::max_wait: first at its path"),
		errors.New("max_runs: bad"),
		errors.New("tools::a::kind: bad"),
		errors.New("tools::a: bad"),
	)
	assert.Equal(t, []string{
		"conventions[2]::match: bad",
		"conventions[10]::name: bad",
		"max_runs: bad",
		"tools::a: bad",
		"tools::a::kind: bad",
		"tools::a-b::kind: bad",
		"tools::b::kind: bad",
		"tools::b::max_wait: second at its path",
		"tools::b::max_wait: first at its path",
	}, strings.Split(err.Error(), "\n"))
	assert.NoError(t, JoinByPath(nil, errors.Join()))
}

func TestComparePieces(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"x[2]", "x[10]", -1},
		{"x[010]", "x[9]", 1},
		{"x[07]", "x[7]", 0},
		{"a1b", "a1c", -1},
		{"a", "a1", -1},
		{"", "", 0},
	} {
		assert.Equal(t, c.want, comparePieces(c.a, c.b), "%q vs %q", c.a, c.b)
		assert.Equal(t, -c.want, comparePieces(c.b, c.a), "%q vs %q", c.b, c.a)
	}
}
