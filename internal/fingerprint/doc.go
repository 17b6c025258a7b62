// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package fingerprint finds withheld values again in text nobody recognised.
//
// When shaping withholds the string leaves of a customer-data tool call, the caller remembers
// them in a Set (one per trace, one per run): keyed hashes of their 8-byte windows, never the
// values. Every later string of the same trace or run is searched with a Scanner, and what holds
// a remembered leaf is withheld: in plain text the stretch that holds it ([Scanner.Redacted] as text:
// "Jane Roe-Whitfield has one order" becomes "[withheld] has one order"), in a JSON document the
// string, key or number that holds it ([Scanner.Redacted] of a JSON document).
//
// # What is remembered
//
// A leaf is a withheld value as decoded text ([Set.AddLeaf]; [Set.AddJSONLeaves] collects the
// leaves of a shaped JSON value). Adds are listed, and searched for once [Set.Build] has inserted
// them: a batch's adds to one Set are built together. Leaves shorter than 8 bytes are not
// remembered: runs that short are too common to mean anything. Of a leaf's 8-byte windows, the
// first (flagged START), the last (flagged END) and every 4th in between are remembered, and for a
// leaf shorter than 16 bytes one fingerprint of the whole leaf (its first and last windows and its
// length): a longer leaf repeated whole is withheld as a long fragment (below). Each is a 56-bit keyed
// hash, a window's made of 32 bits of the prefilter's multiplicative hash and 24 bits of a
// 64x64-bit multiply fold, under keys drawn from crypto/rand when the process starts, so the table
// cannot be read back as text, and an unrelated window matches one by chance about once in 2^56
// lookups.
//
// # What is withheld
//
// A hit is an offset of a text whose 8-byte window some Set holds. Hits at most 4 bytes apart
// form a region, whose windows cover every byte from its first hit to the end of its last. A
// region is withheld when
//
//   - it holds a whole leaf: a START hit and an END hit whose windows and distance are those of a
//     remembered leaf (so "Jane Doe", a leaf of one window, is withheld wherever it stands); or
//   - it is at least 16 bytes long: a long fragment of a leaf. A fragment of 22 bytes or more is
//     always caught; one of 16 to 21 bytes is caught when the remembered windows fall right.
//
// A lone window (".example", "Whitfield" out of "Jane Roe-Whitfield") is neither, and is left
// alone: text that shares no whole leaf and no 16-byte run with the record is not rewritten, so a
// paraphrase ("she prefers e-mail") goes through. That is the limit of the method. A fragment
// region, which need not begin or end on a remembered window, is widened by up to 3 bytes on each
// side in text (never past a START or END hit), so that no byte of the repeated fragment
// survives; those bytes of the text around it go with it.
//
// # Encoded text
//
// The search sees through JSON string escapes: \uXXXX (Python's json.dumps writes non-ASCII that
// way), surrogate pairs, \" \\ \/ \b \f \n \r \t, and text encoded again and again. A text is
// searched as it is, then decoded once, twice and three times while it still holds a backslash,
// so a leaf JSON-encoded up to three deep (a string in a document held as a string in another
// document held as a string) is found, with any mix of escapes; a region found in a decoded view
// withholds the escape sequences it was decoded from. The bytes in front of an encoded leaf can
// spoil the decoding of its first character (a stray backslash that takes the leaf's first
// letter as an escape, "\u12" before a leaf starting "34"), so every point inside an escape
// sequence is also tried as the start of a leaf read afresh from there; nearly all are ruled out
// by the first byte or the first window they would give, without decoding anything.
//
// Each of those readings is also read with its URL escapes decoded (url.go: %XX, and '+' for a
// space as query strings write it; a reading that holds both is read once more with '+' as it is, as
// a path or an RFC 3986 query keeps it) and with its HTML character references decoded (html.go), so a
// leaf copied into a URL, or into HTML or XML, is found; only the windows that hold a decoded byte
// are looked up again (other.go).
//
// The guarantee, fuzzed by FuzzInvariant: after AddLeaf(s) and Build with len(s) >= 8, a text
// holding s verbatim, or JSON-encoded up to three times with any mix of escapes, anywhere among any
// bytes, comes back from Redacted as text holding neither s nor that encoding of it; so does one holding
// s URL-encoded or HTML-escaped (and then perhaps JSON-encoded) after a byte that ends any escape
// before it. A leaf that is part
// of the marker itself ("withheld") is the exception: the marker is what replaces it. Text that
// shares no window with any leaf comes back byte for byte.
//
// # Cost
//
// Every byte offset is tried, because a leaf of 8 bytes has one window and it can sit anywhere.
// Per offset that is one load, one multiply and one bit test in a per-Set prefilter (at most
// 128 KiB, about 256 bits per remembered window), four offsets per loop iteration; only the few
// offsets in a thousand that pass it reach the table. Decoded views are searched only where their
// escapes changed the text. A Set takes about 11 KiB per KiB of leaf text at 10 typical leaves,
// 6 KiB at 1,000 and 1.2 KiB at 10,000: most of it is the prefilter, which stops growing at
// 128 KiB (past about 4,000 remembered windows more offsets pass it, and the search slows).
// docs/benchmarks.md has the figures.
//
// Sets are not safe for concurrent use; a Scanner only reads them. A Scanner keeps its buffers
// between calls and is used by one goroutine at a time; reused, it does not allocate for text
// that holds no leaf.
package fingerprint
