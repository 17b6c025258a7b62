// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package zerocopy converts between strings and byte slices without copying: the one place agentotel
// uses package unsafe to do so.
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
