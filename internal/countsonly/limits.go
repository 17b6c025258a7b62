// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package countsonly

import "github.com/agentotel/agentotel/internal/jsonraw"

// Defaults applied by [New] for a zero (or negative) field of [Limits].
const (
	DefaultMaxDepth = jsonraw.DefaultMaxDepth
	DefaultMaxBytes = 4 << 20
)

// Limits bound the work one [Shaper.AppendJSON] call may do. A field that is zero or negative
// takes its default.
type Limits struct {
	// MaxDepth is the deepest allowed nesting of objects and arrays; a top-level object or
	// array is depth 1. Arrays count even though their contents are skipped, because they are
	// still validated and recursion must stay bounded. Default 64.
	MaxDepth int
	// MaxBytes is the largest accepted input length in bytes. Default 4 MiB.
	MaxBytes int
}

// withDefaults fills zero or negative fields with their defaults.
func (l Limits) withDefaults() Limits {
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	return l
}
