// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import "github.com/agentotel/agentotel/internal/ascii"

// Volatile tokens inside strings. A tool's output often embeds values that change on every call and
// say nothing about the world: the time it ran, how long it took, its process id, a request id, the
// attempt number of a retry. Stripping named members (Normaliser's volatile fields) cannot reach them,
// so a result's strings are rewritten with each such token replaced by one marker byte before the
// result is digested. Counts that are the progress itself (1/4, passed: 10, 45%) are left alone. The
// classes, each bounded by bytes that are not letters or digits:
//
//   - RFC 3339 / ISO 8601 date-times (2026-03-17T09:12:44.181Z, 2026-03-17 09:12:44+02:00) and
//     times of day with seconds (09:12:44, 09:12:44.181, and 0:01:01 as pytest prints an elapsed time);
//   - UUIDs, hexadecimal ids of 16 digits or more that mix digits and letters, and 0x addresses of 6
//     digits or more;
//   - epoch seconds and milliseconds from 2017 to 2036 (10 or 13 digits, an optional fraction);
//   - durations: a number with a unit (1.23s, 45ms, 12µs, 2m30s, 0.5 min, 12 seconds), where an
//     integer needs a unit below the minute or a compound form, so that 5m rows stay a count;
//   - the number after pid, attempt, retry or try (pid 4242, attempt 3 of 5, retry #2), and a count
//     of repetitions (read 3× this session, called 4 times): tallies of the agent's own calls.
//
// A date alone (2026-03-17) is not volatile: it is as often content (a release date) as envelope.

// marker replaces a volatile token. The canonical form escapes every control byte, so a literal 0x01
// never occurs in canonical text and the marker cannot be confused with content.
const marker = 0x01

// alnum marks ASCII letters and digits; a token is a maximal run of them.
var alnum = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	return t
}()

func isDigit(c byte) bool { return c-'0' < 10 }

func isHex(c byte) bool { return isDigit(c) || (c|0x20)-'a' < 6 }

// maskVolatile rewrites canonical string content in place, each volatile token replaced by the
// marker, and returns the new length. It never lengthens the content. Content with nothing to mask is
// read, not written: the common case costs one pass over the bytes from the first digit on.
func maskVolatile(b []byte) int {
	// Every class holds a digit: content without one is returned as it is.
	i := 0
	for i < len(b) && !isDigit(b[i]) {
		i++
	}
	if i == len(b) {
		return len(b)
	}
	// Back up to the start of the token holding the first digit (a hex id may start with a letter),
	// and over separators and one word before it, which may be a counter word (pid 42).
	for i > 0 && alnum[b[i-1]] {
		i--
	}
	for i > 0 && (b[i-1] == ' ' || b[i-1] == ':' || b[i-1] == '=' || b[i-1] == '#') {
		i--
	}
	for i > 0 && alnum[b[i-1]] {
		i--
	}
	w, from := 0, 0 // bytes written, and the start of the bytes read but not yet written
	mask := func(at, keep, n int) {
		end := at + keep
		if w == from {
			w = end
		} else {
			w += copy(b[w:], b[from:end])
		}
		b[w] = marker
		w++
		from = end + n
	}
	for i < len(b) {
		c := b[i]
		if !alnum[c] {
			i++
			continue
		}
		// A token starts at i.
		if isDigit(c) {
			if n := volatileAt(b[i:]); n > 0 {
				mask(i, 0, n)
				i = from
				continue
			}
		} else if isHex(c) {
			if n := max(uuid(b[i:]), hexID(b[i:])); n > 0 {
				mask(i, 0, n)
				i = from
				continue
			}
		}
		if l := c | 0x20; l == 'p' || l == 'a' || l == 'r' || l == 't' {
			if k, n := keywordNumber(b[i:]); n > 0 {
				mask(i, k, n)
				i = from
				continue
			}
		}
		for i < len(b) && alnum[b[i]] {
			i++
		}
	}
	if w == from {
		return len(b)
	}
	return w + copy(b[w:], b[from:])
}

// volatileAt returns the length of the volatile token starting at b[0], a digit not preceded by a
// letter or digit, or 0. The classes are tried in the order above and the first that matches wins, but
// only those that can follow the token's leading digits: most numbers in a result are followed by a
// separator and are no class at all.
func volatileAt(b []byte) int {
	n := digits(b, 0, 20)
	var next byte
	if n < len(b) {
		next = b[n]
	}
	switch {
	case next == '-' && n == 4:
		return dateTime(b)
	case next == '-' && n == 8:
		return uuid(b)
	case next == ':' && n <= 2:
		return timeOfDay(b)
	case n == 10 || n == 13:
		if m := epoch(b); m > 0 {
			return m
		}
	}
	switch {
	case next == ' ' || next == 0xc3:
		if m := repetitions(b); m > 0 {
			return m
		}
		return duration(b)
	case next == '.' || next == ',' || next >= 0x80:
		return duration(b)
	case isLetter(next):
		if m := uuid(b); m > 0 {
			return m
		}
		if m := hexID(b); m > 0 {
			return m
		}
		return duration(b)
	case n >= 16:
		return hexID(b)
	}
	return 0
}

// repetitions matches a count of repetitions: digits and × (3×), or digits, a space and time or
// times (4 times).
func repetitions(b []byte) int {
	n := digits(b, 0, 9)
	if n == 0 {
		return 0
	}
	if len(b) >= n+2 && b[n] == 0xc3 && b[n+1] == 0x97 && (n+2 == len(b) || !alnum[b[n+2]]) {
		return n + 2
	}
	if len(b) > n+1 && b[n] == ' ' {
		if k := unitAt(b[n+1:], []string{"time", "times"}); k > 0 {
			return n + 1 + k
		}
	}
	return 0
}

// ends reports whether a token may end before b[n]: at the end, or before a byte that is not a letter
// or digit.
func ends(b []byte, n int) bool { return n >= len(b) || !alnum[b[n]] }

// digits returns how many digits b holds from i on, at most max.
func digits(b []byte, i, max int) int {
	n := 0
	for i+n < len(b) && n < max && isDigit(b[i+n]) {
		n++
	}
	return n
}

// fixed matches exactly n digits at b[i:].
func fixed(b []byte, i, n int) bool { return digits(b, i, n) == n }

// fraction returns the end of an optional .ddd (or ,ddd) after i.
func fraction(b []byte, i int) int {
	if i+1 < len(b) && (b[i] == '.' || b[i] == ',') && isDigit(b[i+1]) {
		i++
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	return i
}

// dateTime matches YYYY-MM-DD[T ]hh:mm[:ss[.fff]][Z|±hh[:]mm].
func dateTime(b []byte) int {
	if len(b) < 16 || !fixed(b, 0, 4) || b[4] != '-' || !fixed(b, 5, 2) || b[7] != '-' || !fixed(b, 8, 2) ||
		(b[10] != 'T' && b[10] != ' ' && b[10] != 't') || !fixed(b, 11, 2) || b[13] != ':' || !fixed(b, 14, 2) {
		return 0
	}
	i := 16
	if i+2 < len(b) && b[i] == ':' && fixed(b, i+1, 2) {
		i = fraction(b, i+3)
	}
	switch {
	case i < len(b) && (b[i] == 'Z' || b[i] == 'z'):
		i++
	case i+2 < len(b) && (b[i] == '+' || b[i] == '-') && fixed(b, i+1, 2):
		j := i + 3
		if j < len(b) && b[j] == ':' {
			j++
		}
		if fixed(b, j, 2) {
			i = j + 2
		}
	}
	if !ends(b, i) {
		return 0
	}
	return i
}

// timeOfDay matches h:mm:ss or hh:mm:ss, with an optional fraction (a time, or an elapsed time as
// pytest prints it, 0:01:01).
func timeOfDay(b []byte) int {
	h := digits(b, 0, 3)
	if h < 1 || h > 2 || len(b) < h+6 || b[h] != ':' || !fixed(b, h+1, 2) || b[h+3] != ':' || !fixed(b, h+4, 2) {
		return 0
	}
	i := fraction(b, h+6)
	if !ends(b, i) || (i < len(b) && b[i] == ':') {
		return 0
	}
	return i
}

// uuid matches 8-4-4-4-12 hexadecimal digits.
func uuid(b []byte) int {
	if len(b) < 36 {
		return 0
	}
	for i := 0; i < 36; i++ {
		switch i {
		case 8, 13, 18, 23:
			if b[i] != '-' {
				return 0
			}
		default:
			if !isHex(b[i]) {
				return 0
			}
		}
	}
	if !ends(b, 36) {
		return 0
	}
	return 36
}

// hexID matches a token of 16 hexadecimal digits or more holding both digits and letters, or 0x and 6
// digits or more.
func hexID(b []byte) int {
	if len(b) >= 8 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X') {
		n := 2
		for n < len(b) && isHex(b[n]) {
			n++
		}
		if n-2 >= 6 && ends(b, n) {
			return n
		}
		return 0
	}
	n, letters, nums := 0, false, false
	for n < len(b) && isHex(b[n]) {
		if isDigit(b[n]) {
			nums = true
		} else {
			letters = true
		}
		n++
	}
	if n >= 16 && letters && nums && ends(b, n) {
		return n
	}
	return 0
}

// epoch matches 10 digits from 1500000000 to 2099999999 or 13 from 1500000000000 to 2099999999999
// (epoch seconds and milliseconds of 2017 to 2036), with an optional fraction.
func epoch(b []byte) int {
	n := digits(b, 0, 14)
	if n != 10 && n != 13 {
		return 0
	}
	if !(b[0] == '1' && b[1] >= '5' || b[0] == '2' && b[1] == '0') {
		return 0
	}
	i := n
	if i+1 < len(b) && b[i] == '.' && isDigit(b[i+1]) {
		i = fraction(b, i)
	}
	if !ends(b, i) {
		return 0
	}
	return i
}

// Duration units: those an integer may carry (below the minute), and those only a decimal or a
// spaced number may carry.
var (
	subMinuteUnits = []string{"ns", "us", "\u00b5s", "ms", "s", "sec", "secs"}
	spacedUnits    = []string{"ns", "ms", "millisecond", "milliseconds", "s", "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes"}
	decimalUnits   = []string{"m", "min", "mins", "h"}
)

// duration matches a number and a unit: 1.23s, 45ms, 2m30s, 1h5m, 0.5 min, 12 seconds.
func duration(b []byte) int {
	n := digits(b, 0, 20)
	if n == 0 {
		return 0
	}
	i := fraction(b, n)
	decimal := i > n
	if i < len(b) && b[i] == ' ' {
		if k := unitAt(b[i+1:], spacedUnits); k > 0 {
			return i + 1 + k
		}
		return 0
	}
	// Compound forms: 2m30s, 1h5m, 1h5m30s.
	if !decimal && i+1 < len(b) && (b[i] == 'h' || b[i] == 'm') && isDigit(b[i+1]) {
		j := i + 1
		for j < len(b) && (isDigit(b[j]) || b[j] == 'h' || b[j] == 'm' || b[j] == 's' || b[j] == '.') {
			j++
		}
		if ends(b, j) && (b[j-1] == 's' || b[j-1] == 'm') {
			return j
		}
		return 0
	}
	if k := unitAt(b[i:], subMinuteUnits); k > 0 {
		return i + k
	}
	if decimal {
		if k := unitAt(b[i:], decimalUnits); k > 0 {
			return i + k
		}
	}
	return 0
}

// unitAt returns the length of the longest unit of units that b starts with and that ends the token.
func unitAt(b []byte, units []string) int {
	best := 0
	for _, u := range units {
		if len(u) > best && len(b) >= len(u) && string(b[:len(u)]) == u && ends(b, len(u)) {
			best = len(u)
		}
	}
	return best
}

// counterWords are the words whose following number is volatile.
var counterWords = []string{"pid", "attempt", "retry", "try"}

// keywordNumber matches a counter word (any case), separators, and a number: it returns the length of
// the part kept (word and separators) and of the number masked, or 0, 0.
func keywordNumber(b []byte) (keep, masked int) {
	for _, w := range counterWords {
		if len(b) <= len(w) || !ascii.EqualFold(b[:len(w)], w) || alnum[b[len(w)]] {
			continue
		}
		i := len(w)
		for i < len(b) && (b[i] == ' ' || b[i] == ':' || b[i] == '=' || b[i] == '#') {
			i++
		}
		n := digits(b, i, 20)
		if n == 0 || !ends(b, i+n) {
			return 0, 0
		}
		return i, n
	}
	return 0, 0
}
