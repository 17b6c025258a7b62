// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package statecodec is the encoding of the state the processors save across restarts (package
// statestore frames and stores it): an Encoder that appends fields, and a Decoder that reads them back
// in the same order. The decoder never panics and never allocates more than the bytes it was given can
// describe: a count is refused when the bytes left could not hold that many elements. It is plain Go,
// so the algorithms' packages (progress, fingerprint) encode their own unexported state with it.
package statecodec
