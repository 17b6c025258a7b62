// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import (
	"bytes"

	"github.com/agentotel/agentotel/internal/ascii"
)

// In-band failures. Many tools do not fail a call: they return the failure as their result, and an
// agent loop that catches a tool's exception does the same. Of marks such a result Failed, so a retry
// of a failed call is judged as a retry (repeated_error, never a loop), however the SDK reports it:
//
//   - a JSON object with isError (or is_error) true, as MCP returns a tool's failure;
//   - a JSON object with a non-empty error or errors member ({"error": "upstream 503", ...});
//   - a JSON object with ok or success false, or status "error";
//   - a text (or a JSON string) whose first word says it failed: Error, ERROR:, Exception,
//     Traceback (most recent call last), fatal:, Failed to, or the agent loops' own wrappers
//     ("I encountered an error while trying to use the tool", "Tool execution failed").
//
// Only the top level of a result is read: a result that reports one failed item among others is a
// result.

// failureMember reports whether a top-level member (canonical key text, canonical value) says the
// result is a failure.
func failureMember(key, value []byte, empty bool) bool {
	// Most members are none of these: rule them out by their first letter.
	if len(key) == 0 {
		return false
	}
	switch key[0] | 0x20 {
	case 'i', 'e', 'o', 's':
	default:
		return false
	}
	switch {
	case nameIs(key, "iserror"):
		return string(value) == "true"
	case nameIs(key, "error"), nameIs(key, "errors"):
		return !empty
	case nameIs(key, "ok"), nameIs(key, "success"):
		return string(value) == "false"
	case nameIs(key, "status"):
		return string(value) == `"error"`
	}
	return false
}

// nameIs compares a member name with a lower-case name the way volatile fields are matched: ASCII case
// ignored, '_' and '-' skipped.
func nameIs(key []byte, name string) bool {
	j := 0
	for _, c := range key {
		if c == '_' || c == '-' {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if j >= len(name) || name[j] != c {
			return false
		}
		j++
	}
	return j == len(name)
}

// failurePrefixes open a text that reports a failure (compared ignoring ASCII case). A prefix that is
// a word must be followed by a byte that is not a letter.
var failurePrefixes = []string{
	"error", "exception", "traceback (most recent call last)", "fatal:", "failed to ",
	"i encountered an error while trying to use the tool", "tool execution failed",
}

// failureText reports whether a text (canonical string content, or raw text) opens like a failure.
func failureText(t []byte) bool {
	t = bytes.TrimLeft(t, " \t\r\n")
	for _, p := range failurePrefixes {
		if len(t) < len(p) || !ascii.EqualFold(t[:len(p)], p) {
			continue
		}
		last := p[len(p)-1]
		if 'a' <= last && last <= 'z' && len(t) > len(p) && isLetter(t[len(p)]) {
			continue
		}
		return true
	}
	return false
}

func isLetter(c byte) bool { return (c|0x20)-'a' < 26 }

// Channel failures. When a tool fails the same way for every item of a sweep, the failure may be about
// each item (model not found, no such file: news about the item) or about the channel the tool goes
// through (a rate limit, a block, a timeout: the same news every time). The progress state credits a
// sweep only with the first kind, so Of marks the second: a result or error of at most channelScan
// bytes that holds one of channelTerms (ASCII case ignored), or an HTTP status of 401, 403, 407, 408,
// 429 or 5xx as a word.
const channelScan = 16 << 10

var channelTerms = []string{
	"rate limit", "ratelimit", "rate-limit", "too many requests", "throttl", "quota", "forbidden",
	"unauthorized", "unauthorised", "access denied", "blocked", "captcha", "timed out", "timeout",
	"service unavailable", "temporarily unavailable", "bad gateway", "internal server error", "connection refused", "connection reset",
	"econnrefused", "econnreset", "network error", "overloaded",
}

var channelWords = newWordList(channelTerms)

// Channel reports whether a text names a channel failure (see above).
func Channel(t []byte) bool {
	return len(t) <= channelScan && channelWords.in(t, httpFailure)
}

// httpFailure reports whether b starts with a three-digit channel status (401, 403, 407, 408, 429, 5xx)
// that ends there.
func httpFailure(b []byte) bool {
	if len(b) < 3 || !fixed(b, 0, 3) || !ends(b, 3) {
		return false
	}
	switch string(b[:3]) {
	case "401", "403", "407", "408", "429":
		return true
	}
	return b[0] == '5' && (b[1] == '0' && b[2] <= '4')
}
