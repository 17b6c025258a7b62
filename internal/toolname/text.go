// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package toolname

import (
	"bytes"
	"strings"

	"github.com/agentotel/agentotel/internal/zerocopy"
)

// IsName reports whether a text is one of the Set's names: spaces trimmed, letters folded, a name of
// the same length. It compares in place, as it runs for every leaf a shaper remembers; a spelling of
// other length (the Kelvin sign for a k) is not one.
func (s *Set) IsName(text []byte) bool {
	t := bytes.TrimSpace(text)
	if len(t) >= len(s.bySize) {
		return false
	}
	for _, name := range s.bySize[len(t)] {
		if strings.EqualFold(zerocopy.String(t), name) {
			return true
		}
	}
	return false
}

// InName reports whether a name (of a span, an attribute, an event), normalised (Normal), holds one of
// the Set's names as a word, as docs/design.md#1-recognition-internalagentspan defines one ("What names
// a tool in a text").
func (s *Set) InName(name string) bool {
	n := zerocopy.Bytes(name)
	for _, tool := range s.list {
		if holdsWord(n, tool, decoded) {
			return true
		}
	}
	return false
}

// Token reports whether a text is one token (no space, quote or bracket in it) that names one of the
// Set's tools: the name itself, spaces aside, compared as tool names are (strings.EqualFold folds the
// Kelvin sign and the dotted capital I as lower-casing does); or the name as a word of an identifier,
// a path or a URL (crm.find_customer, tools/find_customer), as a span's name holds it.
func (s *Set) Token(text []byte) bool {
	t := bytes.TrimSpace(text)
	for _, name := range s.list {
		if strings.EqualFold(zerocopy.String(t), name) {
			return true
		}
		if len(t) > len(name) && isASCII(name) && holdsWord(t, name, bytewise) && isToken(t) {
			return true
		}
	}
	return false
}

// Quoted reports whether text is one of the Set's names or quotes one: the name is the whole text or
// stands between two quotes, spaces aside. A text holding one of the two characters outside ASCII that
// lower-case into ASCII letters (the Kelvin sign, the dotted capital I), or a name outside ASCII, is
// compared lower-cased whole.
func (s *Set) Quoted(text []byte) bool {
	lowered := ""
	folds := bytes.Contains(text, []byte("\u212a")) || bytes.Contains(text, []byte("\u0130"))
	for _, name := range s.list {
		if len(text) < len(name) && !folds {
			continue
		}
		if !folds && isASCII(name) {
			if holdsAlone(text, name) {
				return true
			}
			continue
		}
		if lowered == "" {
			lowered = strings.ToLower(string(text))
		}
		if holdsAlone(zerocopy.Bytes(lowered), name) {
			return true
		}
	}
	return false
}

// MayBeIn reports whether a text may hold one of the Set's names in any case: false only when it
// holds none, ASCII letters in either case, nor a character that could spell one (MayNameLiterally).
// It is the cheap test most texts fail; with a name outside ASCII every text may.
func (s *Set) MayBeIn(text []byte) bool {
	return !s.searchable || MayNameLiterally(text, s.list)
}
