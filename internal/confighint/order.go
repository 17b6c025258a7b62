// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package confighint

import (
	"cmp"
	"errors"
	"slices"
	"strings"
)

// JoinByPath joins a Validate method's errors ordered by the field path each one starts with (the
// text before its first ": ", as in "tools::get_build_status::max_wait: ..."), so a configuration
// reports its problems in the same order on every run, whatever order its maps were walked in.
// Errors at the same path keep their order. Joined errors (errors.Join) are ordered one by one.
//
// Paths compare key by key, so a key's own fields stay together (tools::a::kind before tools::a-b),
// and a number inside a key compares as a number (conventions[2] before conventions[10]).
func JoinByPath(errs ...error) error {
	var flat []error
	for _, err := range errs {
		flat = appendFlat(flat, err)
	}
	slices.SortStableFunc(flat, func(a, b error) int { return comparePaths(PathOf(a), PathOf(b)) })
	return errors.Join(flat...)
}

// Split lists the errors err joins (errors.Join, at any depth), or err alone; none for nil.
func Split(err error) []error { return appendFlat(nil, err) }

func appendFlat(dst []error, err error) []error {
	if err == nil {
		return dst
	}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, inner := range joined.Unwrap() {
			dst = appendFlat(dst, inner)
		}
		return dst
	}
	return append(dst, err)
}

// PathOf is the field path a configuration error starts with: its text before the first ": ".
func PathOf(err error) string {
	path, _, _ := strings.Cut(err.Error(), ": ")
	return path
}

// comparePaths orders field paths key by key (keys split at ::), each key by comparePieces.
func comparePaths(a, b string) int {
	for {
		ka, restA, moreA := strings.Cut(a, keyDelimiter)
		kb, restB, moreB := strings.Cut(b, keyDelimiter)
		if c := comparePieces(ka, kb); c != 0 {
			return c
		}
		switch {
		case !moreA && !moreB:
			return 0
		case !moreA:
			return -1 // a is a prefix of b: a field before its own fields
		case !moreB:
			return 1
		}
		a, b = restA, restB
	}
}

// comparePieces compares two keys byte by byte, except that runs of digits compare as numbers.
func comparePieces(a, b string) int {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			na, nb := digits(a), digits(b)
			// Without leading zeros, a longer run of digits is the larger number.
			ta, tb := strings.TrimLeft(a[:na], "0"), strings.TrimLeft(b[:nb], "0")
			if c := cmp.Or(cmp.Compare(len(ta), len(tb)), strings.Compare(ta, tb)); c != 0 {
				return c
			}
			a, b = a[na:], b[nb:]
			continue
		}
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func digits(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}
