// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package toolname says whether a text names a tool of a set: alone, as a word, quoted, inside a JSON
// or Python document, through escapes (a Set's IsName, InName, Token and Quoted, and a Reader's
// Names), and which configured tool a tool name in telemetry names: the name itself, or the name
// behind a namespace that MCP clients and agent frameworks put in front of it, as in
// mcp__crm__find_customer (Resolve, and Split for a client that joins server and tool with nothing
// between). It is plain Go over bytes and strings; the processors walk their pdata and ask it.
//
// Both rules, with their examples and limits, are stated once, in
// docs/design.md#1-recognition-internalagentspan ("A configured tool is found behind a namespace" and
// "What names a tool in a text").
package toolname

import (
	"slices"
	"strings"
)

// Set holds the configured tool names, normalised. It is read-only once made, and shared by the
// batches that read with it.
type Set struct {
	names map[string]struct{}
	// list is every name; byLength the same, longest first, for the suffix search; bySize by their
	// length in bytes, for IsName.
	list     []string
	byLength []string
	bySize   [][]string
	// searchable: every name is printable ASCII but for the quote and the backslash, so a text that
	// holds none of them in any case, escapes aside, holds none (Searchable).
	searchable bool
}

// Normal is how tool names compare: lower-cased, trimmed.
func Normal(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// NewSet makes a Set of the configured names.
func NewSet(names []string) *Set {
	s := &Set{names: map[string]struct{}{}, searchable: true}
	for _, n := range names {
		n = Normal(n)
		if n == "" {
			continue
		}
		if _, dup := s.names[n]; !dup {
			s.names[n] = struct{}{}
			s.list = append(s.list, n)
			s.searchable = s.searchable && Searchable(n)
			for len(s.bySize) <= len(n) {
				s.bySize = append(s.bySize, nil)
			}
			s.bySize[len(n)] = append(s.bySize[len(n)], n)
		}
	}
	slices.Sort(s.list)
	s.byLength = slices.Clone(s.list)
	slices.SortStableFunc(s.byLength, func(a, b string) int { return len(b) - len(a) })
	return s
}

// Len is how many names the Set holds.
func (s *Set) Len() int { return len(s.list) }

// Names are the Set's names, normalised and sorted; the caller must not change them.
func (s *Set) Names() []string { return s.list }

// Has reports whether a name, normalised (Normal), is one of the Set's: the name itself, not one
// behind a namespace (Resolve finds those).
func (s *Set) Has(name string) bool {
	_, ok := s.names[name]
	return ok
}

// Resolve returns the configured name a tool name names (normalised), and whether one does: the name
// itself, or else the longest configured name it ends with right after a namespace.
func (s *Set) Resolve(name string) (string, bool) {
	n := Normal(name)
	if s.Has(n) {
		return n, true
	}
	if !strings.ContainsAny(n, "_-./:") {
		return "", false
	}
	for _, t := range s.byLength {
		if len(t) < len(n) && strings.HasSuffix(n, t) && namespace(n[:len(n)-len(t)]) {
			return t, true
		}
	}
	return "", false
}

// namespace reports whether prefix, the part of a name before a configured tool's, is a namespace.
func namespace(prefix string) bool {
	switch {
	case strings.HasSuffix(prefix, "__"):
		return len(prefix) > 2 && prefix != "mcp__" // mcp__ alone names no server
	case strings.HasPrefix(prefix, "mcp_") && !strings.HasPrefix(prefix, "mcp__") && strings.HasSuffix(prefix, "_"):
		return len(prefix) > len("mcp__")
	}
	last := prefix[len(prefix)-1]
	return len(prefix) > 1 && (last == '-' || last == '.' || last == '/' || last == ':')
}

// Split returns the tool's part of a name that joins "mcp__", a server and the tool with nothing
// between them, given the server; a name of another form is returned as it is.
func Split(name, server string) string {
	prefix := "mcp__" + Normal(server)
	n := Normal(name)
	if server == "" || len(n) <= len(prefix) || !strings.HasPrefix(n, prefix) {
		return name
	}
	return strings.TrimPrefix(n[len(prefix):], "__")
}
