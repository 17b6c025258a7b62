// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package toolname

import (
	"bytes"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/pyliteral"
)

// MaxDocumentLevels is how deep documents stringified inside documents are read, as the content search
// decodes escapes three times.
const MaxDocumentLevels = 3

// definitionKeys mark an object that defines a tool rather than calls it: OpenAI's and Gemini's
// functions, Anthropic's and MCP's tools, Haystack's.
var definitionKeys = []string{"description", "parameters", "input_schema", "inputSchema", "parametersJsonSchema", "json_schema"}

// A Reader says whether a value's text names one of a Set's tools, reading the documents it holds, by
// the rule of docs/design.md#1-recognition-internalagentspan ("What names a tool in a text").
//
// A Reader keeps the buffers escapes and documents are decoded into; it is not safe for concurrent use.
type Reader struct {
	set      *Set
	maxDepth int
	// unescaped are the two buffers a text's JSON escapes are decoded into, level by level; strings
	// and documents those a document's strings and a Python repr's JSON are, by the level of the
	// document.
	unescaped [2][]byte
	strings   [MaxDocumentLevels][]byte
	documents [MaxDocumentLevels][]byte
}

// NewReader returns a Reader of the names of set, reading documents maxDepth deep.
func NewReader(set *Set, maxDepth int) *Reader { return &Reader{set: set, maxDepth: maxDepth} }

// Names reports whether a string value names one of the tools: it is a token naming one (unless
// listed: an element of a list), or it is a document that names one, or it quotes one.
func (r *Reader) Names(text []byte, listed bool) bool { return r.names(text, 0, listed, true) }

// names is Names for a text level documents deep; top: it is the value itself, no document's string.
func (r *Reader) names(text []byte, level int, listed, top bool) bool {
	if r.set.Token(text) {
		return !listed
	}
	if !r.MayMention(text) {
		return false
	}
	if level == MaxDocumentLevels {
		return r.mayQuote(text) // too deep to read: it may name one
	}
	doc := bytes.TrimSpace(text)
	if pyliteral.LooksLikeRepr(doc) {
		converted, ok := pyliteral.ToJSON(r.documents[level][:0], doc, r.maxDepth)
		r.documents[level] = converted
		if !ok {
			return top && r.mayQuote(text)
		}
		doc = converted
	}
	if !jsonraw.IsContainer(doc) {
		return top && r.mayQuote(text)
	}
	l := jsonraw.NewLexer(doc, r.maxDepth)
	found, ok := r.lexNames(&l, doc, 0, level)
	// A document that cannot be read whole may name one where it stops, if it quotes one.
	return found || (!ok || !l.AtEnd()) && r.mayQuote(text)
}

// lexNames reads the value at the lexer's cursor, at nesting depth inside a document level documents
// deep, and reports whether it names a tool; ok is false when it is not valid JSON.
func (r *Reader) lexNames(l *jsonraw.Lexer, doc []byte, nesting, level int) (found, ok bool) {
	l.SkipSpace()
	switch l.Peek() {
	case '{':
		return r.lexObjectNames(l, doc, nesting, level)
	case '[':
		empty, f := l.Open(nesting + 1)
		if f != jsonraw.NoFault || empty {
			return false, f == jsonraw.NoFault
		}
		for {
			l.SkipSpace()
			if l.Peek() == '"' {
				if found, ok := r.lexStringNames(l, doc, level, true); found || !ok {
					return found, ok
				}
			} else if found, ok := r.lexNames(l, doc, nesting+1, level); found || !ok {
				return found, ok
			}
			more, ok := l.More(']')
			if !ok || !more {
				return false, ok
			}
		}
	case '"':
		return r.lexStringNames(l, doc, level, false)
	}
	return false, l.SkipValue(nesting) == jsonraw.NoFault
}

// lexObjectNames is lexNames for an object: it names a tool when a member's value is a name and no
// member defines a tool, or when a value inside it names one.
func (r *Reader) lexObjectNames(l *jsonraw.Lexer, doc []byte, nesting, level int) (found, ok bool) {
	empty, f := l.Open(nesting + 1)
	if f != jsonraw.NoFault || empty {
		return false, f == jsonraw.NoFault
	}
	named, definition := false, false
	for {
		start := l.Pos()
		end, _, ok := l.Key()
		if !ok {
			return false, false
		}
		for _, k := range definitionKeys {
			definition = definition || jsonraw.StringIs(doc[start:end], k)
		}
		l.SkipSpace()
		if l.Peek() == '"' {
			vs := l.Pos()
			escaped, ok := l.String()
			if !ok {
				return false, false
			}
			text := r.decoded(doc[vs:l.Pos()], escaped, level)
			switch {
			case r.set.Token(text):
				named = true
			case r.names(text, level+1, false, false):
				return true, true
			}
		} else if found, ok := r.lexNames(l, doc, nesting+1, level); found || !ok {
			return found, ok
		}
		more, ok := l.More('}')
		if !ok {
			return false, false
		}
		if !more {
			return named && !definition, true
		}
	}
}

// lexStringNames reads the string at the cursor: it names a tool when it is a name (unless listed) or
// a document that names one.
func (r *Reader) lexStringNames(l *jsonraw.Lexer, doc []byte, level int, listed bool) (found, ok bool) {
	vs := l.Pos()
	escaped, ok := l.String()
	if !ok {
		return false, false
	}
	return r.names(r.decoded(doc[vs:l.Pos()], escaped, level), level+1, listed, false), true
}

// decoded is a JSON string token's content, viewed in place when it has no escape, else decoded into
// the buffer of its document's level.
func (r *Reader) decoded(raw []byte, escaped bool, level int) []byte {
	if !escaped {
		return raw[1 : len(raw)-1]
	}
	out, _ := jsonraw.AppendUnquote(r.strings[level][:0], raw)
	r.strings[level] = out
	return out
}

// MayMention reports whether a text may hold one of the tools' names anywhere, in any spelling, as it
// is or with its JSON escapes decoded: it holds one, ASCII letters in either case, or a character that
// could spell one (MayNameLiterally). With a name outside ASCII every text may.
func (r *Reader) MayMention(text []byte) bool {
	if !r.set.searchable {
		return true
	}
	return r.throughEscapes(text, func(t []byte) bool { return MayNameLiterally(t, r.set.list) })
}

// mayQuote reports whether a string holds one of the tools' names alone or quoted, as it is or with its
// JSON escapes decoded: what every string that names one holds, and few others.
func (r *Reader) mayQuote(text []byte) bool {
	return r.throughEscapes(text, r.set.Quoted)
}

// throughEscapes reports whether holds is true of a text as it is, or with its JSON escapes decoded
// once, twice or three times, as a document stringified inside others writes them.
func (r *Reader) throughEscapes(text []byte, holds func([]byte) bool) bool {
	for level := 0; ; level++ {
		if holds(text) {
			return true
		}
		if level == MaxDocumentLevels || bytes.IndexByte(text, '\\') < 0 {
			return false
		}
		buf := &r.unescaped[level%2]
		*buf = unescapeAll((*buf)[:0], text)
		text = *buf
	}
}
