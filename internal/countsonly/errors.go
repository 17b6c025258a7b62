// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package countsonly

import (
	"errors"
	"fmt"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// Errors returned by [Shaper.AppendJSON], wrapped with the byte offset at which the problem was
// found; test with errors.Is. The lexer's own two are jsonraw's.
var (
	// ErrSyntax reports input that is not a single valid JSON value (RFC 8259, UTF-8).
	ErrSyntax = jsonraw.ErrSyntax
	// ErrDepth reports objects and arrays nested deeper than Limits.MaxDepth.
	ErrDepth = jsonraw.ErrDepth
	// ErrTooLarge reports input longer than Limits.MaxBytes; the offset is the limit.
	ErrTooLarge = errors.New("countsonly: JSON document too large")
)

// errAt wraps a sentinel with the offset of the offending byte. It is only reached on failure,
// so its allocation does not affect the zero-allocation success path.
func errAt(sentinel error, offset int) error {
	return fmt.Errorf("%w at offset %d", sentinel, offset)
}
