// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package countsonly

import "github.com/agentotel/agentotel/internal/jsonraw"

// Withheld is the replacement for a string value that is not under a kept key.
const Withheld = "[withheld]"

// Shaper applies the counts-only shaping with one kept-key list and one set of limits. It is
// immutable after [New] and safe for concurrent use.
type Shaper struct {
	kept   keptSet
	limits Limits
}

// New returns a Shaper that keeps string values directly under any of keptKeys (compared with
// the decoded key, case-sensitively) and enforces limits. keptKeys is used as given: pass
// [DefaultKeptKeys]() for the default list, or nil to withhold every string.
func New(keptKeys []string, limits Limits) *Shaper {
	return &Shaper{kept: newKeptSet(keptKeys), limits: limits.withDefaults()}
}

// Kept reports whether key is on the kept list. Callers use it for string attributes that are
// not JSON.
func (s *Shaper) Kept(key string) bool {
	_, ok := s.kept.byName[key]
	return ok
}

// Stats counts what one call withheld.
type Stats struct {
	Strings int // string values replaced by [Withheld]
	Arrays  int // arrays replaced by "[N withheld]"; values inside them are not counted again
}

// Withheld returns the number of values replaced.
func (s Stats) Withheld() int { return s.Strings + s.Arrays }

// AppendJSON appends the shaped form of the JSON document src to dst and returns the extended
// slice, compact (no whitespace). Any JSON value is accepted at the top level; a top-level
// string has no key and is withheld.
//
// On error it returns dst[:len(dst)] (nothing partial appended; bytes past len(dst) in its
// capacity may have been overwritten), zero Stats and an error wrapping [ErrSyntax],
// [ErrDepth] or [ErrTooLarge]. Callers then withhold the whole value (fail closed).
//
// It does not allocate when dst has enough capacity.
func (s *Shaper) AppendJSON(dst, src []byte) ([]byte, Stats, error) {
	return s.appendJSON(dst, src, nil)
}

// appendJSON is AppendJSON, listing what it withholds in leaves when they are given.
func (s *Shaper) appendJSON(dst, src []byte, leaves *Leaves) ([]byte, Stats, error) {
	if len(src) > s.limits.MaxBytes {
		return dst, Stats{}, errAt(ErrTooLarge, s.limits.MaxBytes)
	}
	sc := scanner{Lexer: jsonraw.NewLexer(src, s.limits.MaxDepth), src: src, kept: &s.kept, leaves: leaves, maxDepth: s.limits.MaxDepth}
	sc.SkipSpace()
	out, err := sc.shapeValue(dst, false, 0)
	if err == nil && !sc.AtEnd() {
		err = sc.fail(jsonraw.FaultSyntax)
	}
	if err != nil {
		return dst, Stats{}, err
	}
	if leaves != nil {
		leaves.Nesting = sc.Deepest()
	}
	return out, sc.stats, nil
}

// LooksLikeJSON reports whether a string attribute should be parsed as JSON: after leading
// whitespace it starts with '{' or '['. Scalars such as "42" or "\"x\"" are deliberately not
// treated as JSON, so a numeric-looking customer string such as a phone number is withheld,
// not kept as a number.
func LooksLikeJSON(b []byte) bool { return jsonraw.IsContainer(b) }
