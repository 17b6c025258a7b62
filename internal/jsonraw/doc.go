// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package jsonraw is the one JSON lexer of this module, and the navigation built on it.
//
// The lexer ([Lexer]) is a validating cursor over RFC 8259 JSON: whitespace, the literals, numbers,
// strings (UTF-8 checked, escapes validated; unpaired surrogate escapes such as \ud800 are valid
// JSON and accepted) and containers nested no deeper than a limit. Packages that turn JSON into
// something else (countsonly, digest) drive it token by token and validate nothing themselves.
//
// The navigation helpers find where each value starts and ends, so callers can look at a few
// members of an object and copy everything else through untouched: [Skip], [Members], [Elements],
// [Field], and, over documents already validated, [EachMember] and [EachElement]. [AppendUnquote]
// decodes a string without allocating; successful calls allocate only where they return a new
// string ([Unquote], [Text]).
//
// Two helpers serve callers that read many documents repeating each other (an agent's transcript
// carries every earlier message again): [Repeats] remembers large containers validated once, so
// [Lexer.SkipRepeatable] passes over a copy by comparing bytes; and [Lexer.RecordStrings] has a
// validating skip list the strings it passes over, for callers that withhold a value whole and
// remember what it held.
//
// Nothing here falls back to encoding/json. Where the two differ, on purpose: strings holding
// bytes that are not UTF-8 are invalid here (encoding/json lets them through), and nesting is
// bounded by the caller's limit, [DefaultMaxDepth] unless configured (encoding/json allows 10000).
package jsonraw

import (
	"errors"
	"fmt"
)

// DefaultMaxDepth bounds the nesting of objects and arrays (a top-level container is depth 1)
// for every JSON consumer in this module that has no configured limit, so hostile input cannot
// exhaust the stack.
const DefaultMaxDepth = 64

// ErrSyntax reports bytes that are not JSON.
var ErrSyntax = errors.New("invalid JSON")

// ErrDepth reports nesting deeper than the caller allowed.
var ErrDepth = errors.New("JSON nested too deeply")

// A Fault says why the lexer stopped. On a fault the cursor is at the offending byte: the byte
// that breaks the grammar, or the bracket that opens a container too deep.
type Fault uint8

const (
	// NoFault: the scan succeeded.
	NoFault Fault = iota
	// FaultSyntax: the bytes are not JSON.
	FaultSyntax
	// FaultDepth: a container is nested deeper than the lexer's limit.
	FaultDepth
)

// errAt turns a fault at offset into ErrSyntax or ErrDepth with the offset. Only failures reach
// it, so its allocation never touches a successful scan.
func errAt(f Fault, offset int) error {
	if f == FaultDepth {
		return fmt.Errorf("%w at offset %d", ErrDepth, offset)
	}
	return fmt.Errorf("%w at offset %d", ErrSyntax, offset)
}
