// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package countsonly shapes a JSON document so that its structure survives and its content does not.
//
// One pass over the bytes replaces every array with the string "[N withheld]" (N is the
// element count) and every string with "[withheld]", except strings sitting directly under an
// object key on the kept list (by default: query, question, status, source, kind, title,
// description, error) that hold text: a string that holds a JSON document (one an SDK stringified
// into another) is data whatever key holds it, and is withheld. Object keys, numbers, booleans and null are copied as they are, so a
// reader can still see what a tool returned and how much of it, without seeing the data. A caller
// that remembers what was withheld can have [Shaper.AppendValue] list it ([Leaves]) in the same pass.
//
// # Fail-closed contract
//
// The scanner validates the whole document (RFC 8259 grammar, UTF-8, nesting depth, size)
// before the caller may use the result. Any problem yields a non-nil error and dst unchanged:
// nothing from a document that could not be fully understood is ever emitted, and callers are
// expected to withhold the entire value instead. A shaper that guessed at malformed input
// could be steered into copying a value it should have withheld.
package countsonly
