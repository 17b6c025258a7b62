// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package toolname says whether a text names a tool of a set: alone, as a word, quoted, inside a JSON
// or Python document, through escapes (a Set's IsName, InName, Token and Quoted, and a Reader's
// Names), and which configured tool a tool name in telemetry names: the name itself, or the name
// behind a namespace that MCP clients and agent frameworks put in front of it (Resolve). It is plain
// Go over bytes and strings; the processors walk their pdata and ask it.
//
// A user configures the tool they wrote, find_customer; the agent's telemetry names it the way its
// client does: mcp__crm__find_customer (Claude Code), mcp_crm_find_customer (Gemini CLI),
// crm__find_customer, CRM-find_customer (Semantic Kernel's plugin-function), crm.find_customer,
// crm/find_customer, crm:find_customer. Names compare as the processors compare tool names: ASCII and
// Unicode letters folded to lower case, surrounding space trimmed.
//
// # The namespace rule
//
// A name names configured tool T when it is T, or when it ends with T right after a namespace: a
// non-empty prefix that ends in "__" (but "mcp__" alone, which names no server), "-", ".", "/" or ":",
// or, for a name that starts with "mcp_" and one underscore, any prefix "mcp_<server>_" with a
// non-empty server (Gemini CLI's form, which cannot say where a server's name ends). A name that is itself configured names itself
// (an exact name wins); otherwise the longest configured T it ends with names it, so find_customer
// wins over customer for mcp__crm__find_customer. A name that only contains T elsewhere
// (find_customer_report, find_customers) names no tool.
//
// # What it cannot see
//
// A client that joins server and tool with nothing between (Codex writes mcp__<server> and the tool's
// name as one word, with the server in an attribute of its own) needs the server to split the name:
// Split does that when the caller has it.
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

// Resolve returns the configured name a tool name names (normalised), and whether one does.
func (s *Set) Resolve(name string) (string, bool) {
	n := Normal(name)
	if _, ok := s.names[n]; ok {
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
