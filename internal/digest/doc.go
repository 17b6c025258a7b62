// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package digest normalises a tool result and digests it in one pass, so the
// agentguard processor can tell whether a reply brought anything new.
//
// # Canonical form
//
// A result whose text, after surrounding whitespace, is one JSON value is
// rewritten into canonical JSON and the Sum is the first 16 bytes of the
// SHA-256 of that text:
//
//   - No insignificant whitespace.
//   - Objects: members whose key is a volatile field are removed at any depth
//     (with their values). The remaining members are ordered by the bytes of
//     their canonical key; members with equal keys (duplicates, which JSON
//     permits) are ordered by the bytes of their canonical value, so every
//     member is kept and no order of the input leaks into the Sum.
//   - Arrays keep their order.
//   - Strings: escapes are decoded and the text re-encoded with the fewest
//     escapes: '"' and '\' as \" and \\; U+0008, U+0009, U+000A, U+000C and
//     U+000D as \b, \t, \n, \f, \r; other control characters below U+0020 as
//     \u00xx (lower-case hex); everything else, "/" and non-ASCII included,
//     as literal UTF-8. A \u escape naming a lone surrogate is kept as a
//     lower-case \udxxx escape. A string holding bytes that are not valid
//     UTF-8 makes the document invalid JSON, digested as text (below).
//   - Numbers are exact decimals, never floats, so "1", "1.0", "1e0" and
//     "10e-1" agree while 0.1 and 0.10000000000000001 do not. Zero (any sign,
//     fraction or exponent) is "0". Otherwise, with D the significant digits
//     (no leading or trailing zeros) and the value 0.D × 10^p, the number is
//     written like ECMAScript's Number.prototype.toString writes the same
//     digits: plain "123", "12.5" or "0.00123" when -6 < p <= 21, else
//     "1.25e+30" / "1.25e-7". Exponents larger than about 10^15 in magnitude
//     saturate (such numbers can collide; nothing real writes them).
//   - Literals true, false and null as they are.
//
// Anything else — text, invalid JSON (invalid UTF-8 included), JSON deeper
// than Limits.MaxDepth or larger than Limits.MaxBytes — is trimmed of
// surrounding whitespace and digested as a JSON string holding that text
// would be: the text `0 results` and the JSON value "0 results" have the
// same Sum. Result.Invalid reports the cases that started like JSON ('{' or
// '[') but were digested as text, so the caller can count them; a digest
// always exists.
//
// Volatile fields match keys case-insensitively (ASCII) and ignore '_' and
// '-': request_id, requestId, Request-ID and REQUESTID are one field.
//
// A result is Empty when, after volatile fields are removed, every leaf is
// null, false, "" or a zero number, or the containers hold no leaves at all:
// {}, [], {"rows":[]}, {"count":0,"items":null} and an empty or blank input.
// Text that is not blank is never Empty.
//
// Key digests a call for the loop hash: the canonical form of the JSON array
// [tool, arguments], where tool is trimmed and ASCII-lower-cased and the
// arguments are canonical as above but with no field stripped (a "date" in
// the arguments is a parameter the model chose, not envelope noise). Blank
// arguments are taken as {}; arguments that are not JSON become a string.
//
// Implementation: a recursive descent drives jsonraw's lexer, which
// validates, and writes the canonical text straight into Scratch's buffer
// token by token. Each object records its members as (offset, key end, value
// end) spans in a flat slice kept in Scratch; when the object closes, the
// spans are sorted by index (insertion sort for small objects) and, only if
// the input order was not already canonical, the member bytes are permuted
// in place through the tail of the same buffer. No maps, no reflection, no
// per-call allocation once a Scratch has grown to the sizes it sees.
package digest
