// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package zerocopy converts between strings and byte slices without copying, and tells where a slice's
// bytes are: the one place agentotel uses package unsafe for either (elsewhere it only asks for sizes,
// unsafe.Sizeof, to state what its state costs).
//
// Attribute values arrive as strings, and transcripts of tens of kilobytes sit on every model span;
// copying them to scan them, or copying what shaping wrote to store it, would cost more than the work
// itself. Both conversions hold under one invariant: the bytes are never written while the other view
// of them is alive. Bytes gives a view of a string to read; String takes over a buffer nothing writes
// again (a shaped or redacted value written to its own buffer, then stored), or views bytes only while
// they stay as they are (a comparison, a map lookup).
package zerocopy

import "unsafe"

// Bytes views a string's bytes, for reading only.
func Bytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// String views bytes as a string: the bytes must not change for as long as the string is used.
func String(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// At is where a slice's bytes are: its first byte's address and its length. Two views of the same bytes
// have the same At, so a value met again through another view (a transcript read once for its span
// and again for its event) is known by where it is, without reading it; equal bytes elsewhere are not
// the same At.
type At struct {
	data *byte
	n    int
}

// AtOf is where b's bytes are.
func AtOf(b []byte) At { return At{data: unsafe.SliceData(b), n: len(b)} }
