// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// namesShapedTool reports whether a name (of a span no convention reads as a tool or model call, of a
// tool call its convention names no tool of, or of a log record) is a data-class tool's, or holds one as
// a word, as SDKs agentotel does not know name a tool's span: "find_customer", "tool_call find_customer"
// (as Spring AI 1.x does), "Tool: find_customer", "find_customer.run", "GET /crm/find_customer", or
// holds one behind a namespace as a word: "tool_call mcp__crm__find_customer".
// Compared as tool names are (case-insensitively); a word is not part of a longer one:
// "find_customer_report" does not name find_customer.
func (p *shapeOnly) namesShapedTool(name string) bool {
	if len(p.shapedTools) == 0 || name == "" {
		return false
	}
	if p.shapedSearchable && !mayNameLiterally(jsonraw.StringBytes(name), p.shapedTools) {
		return false // no name in any case: most span and attribute names
	}
	name = normalName(name)
	for _, tool := range p.shapedTools {
		if containsWord(name, tool) {
			return true
		}
	}
	// A word of the name that is a data-class tool's behind a namespace (internal/toolname):
	// "tool_call mcp__crm__find_customer".
	for word := range strings.FieldsSeq(name) {
		if t, ok := p.toolNames.Resolve(word); ok && p.tools[t] {
			return true
		}
	}
	return false
}

// containsWord reports whether text holds word where neither the character before it nor the one
// after continues it: a letter, a digit, '_' or '-' (characters a tool name is made of). A word that
// begins or ends with another character needs no boundary there; an empty word is nowhere.
func containsWord(text, word string) bool {
	if word == "" {
		return false
	}
	for from := 0; from+len(word) <= len(text); {
		i := strings.Index(text[from:], word)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(word)
		before, _ := utf8.DecodeLastRuneInString(text[:start])
		after, _ := utf8.DecodeRuneInString(text[end:])
		first, _ := utf8.DecodeRuneInString(word)
		last, _ := utf8.DecodeLastRuneInString(word)
		if (start == 0 || !continuesName(first) || !continuesName(before)) &&
			(end == len(text) || !continuesName(last) || !continuesName(after)) {
			return true
		}
		from = start + 1
	}
	return false
}

// continuesName reports whether r is a character tool names are made of.
func continuesName(r rune) bool {
	return r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
