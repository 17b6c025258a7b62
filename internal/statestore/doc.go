// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package statestore keeps a processor's state in a storage extension (contrib's file_storage, say)
// across restarts: one value per processor, framed with a format version and a checksum, read once
// at start, written at every checkpoint and at shutdown.
//
// The rules, for every processor that uses it:
//   - A missing value is a first start. A value that cannot be read (truncated, not ours, a checksum
//     that does not match, a payload its decoder refuses) or one written by another format version is
//     an error in the log and a fresh start: never a crash, and never state misread. A new format
//     version either migrates the old one or refuses it this way.
//   - What is loaded goes through the same bounds as live traffic: a value saved under larger bounds
//     loses its oldest entries, counted as evictions.
//   - On a crash, what changed since the last checkpoint is lost; a checkpoint's cost is the encoding
//     of the whole state and one write.
//
// The payload's encoding is package statecodec's.
package statestore
