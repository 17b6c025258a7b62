// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/pyliteral"
)

// An SDK agentotel does not know may give a tool's span a generic name ("tool.execute", "ToolCall")
// and name the tool only in an attribute of its own, {"mysdk.tool_name": "find_customer"}, or inside
// a document it writes, {"tool":"find_customer","result":{..}}. A record no convention claims that
// names a data-class tool so carries that tool's data: it is withheld whole and remembered, as a span
// named after the tool is (docs/design.md, section 3). What names a tool, compared as tool names are:
//
//   - a string that is the name alone, spaces aside, or one token (no space, quote or bracket) holding
//     it as a word (crm.find_customer, a path, a URL): an attribute's value, at any depth of its maps,
//     or a member's value in a JSON document (or a Python dict's repr) one holds, at any depth and in
//     documents stringified inside it, through their escapes;
//   - the name quoted in a string that is no document ('calling "find_customer"');
//   - an attribute's, map key's or event's name holding it as a word (tool.find_customer.output).
//
// What does not: prose that mentions a tool unquoted; a longer word (find_customer_report); a list
// of names (["find_customer", "get_weather"], a tool list); an object that defines a tool, with a
// description or a parameter schema beside its name. An SDK's model call lists the tools it may call;
// only a record that names one as a call or its result is the tool's.

// maxDocumentLevels is how deep documents stringified inside documents are read, as the content
// search decodes escapes three times.
const maxDocumentLevels = 3

// definitionKeys mark an object that defines a tool rather than calls it: OpenAI's and Gemini's
// functions, Anthropic's and MCP's tools, Haystack's.
var definitionKeys = []string{"description", "parameters", "input_schema", "inputSchema", "parametersJsonSchema", "json_schema"}

// naming is how a record names a data-class tool.
type naming uint8

const (
	namesNone naming = iota
	// namesInside: only inside a value, a document or a nested map, where a message in a shape the
	// transcript walk knows may name it as the call it is.
	namesInside
	// namesOutright: an attribute's or event attribute's value is the name, or an attribute's or event's
	// name holds it: the record says it is the tool's, whatever messages it also holds.
	namesOutright
)

// namesShapedToolWithin reports how a record's attributes, events or body name a data-class tool.
func (b *batch) namesShapedToolWithin(r *record) naming {
	if len(b.p.shapedTools) == 0 {
		return namesNone
	}
	found := b.attrsNameShapedTool(r.attrs)
	if found < namesOutright && b.valueNamesShapedTool(r.body, 0, false) {
		found = namesInside
	}
	for j := 0; j < r.events.Len() && found < namesOutright; j++ {
		e := r.events.At(j)
		if b.p.namesShapedTool(e.Name()) {
			return namesOutright
		}
		found = max(found, b.attrsNameShapedTool(e.Attributes()))
	}
	return found
}

// attrsNameShapedTool is namesShapedToolWithin for one map of attributes.
func (b *batch) attrsNameShapedTool(attrs pcommon.Map) naming {
	found := namesNone
	attrs.Range(func(k string, v pcommon.Value) bool {
		switch {
		case b.p.namesShapedTool(k), v.Type() == pcommon.ValueTypeStr && b.p.isShapedToolToken(jsonraw.StringBytes(v.Str())):
			found = namesOutright
		case found == namesNone && b.valueNamesShapedTool(v, 0, false):
			found = namesInside
		}
		return found < namesOutright
	})
	return found
}

// mapNamesShapedTool reports whether a map nested in a value, depth deep, names a data-class tool by a
// key or a value.
func (b *batch) mapNamesShapedTool(m pcommon.Map, depth int) bool {
	found := false
	m.Range(func(k string, v pcommon.Value) bool {
		found = b.p.namesShapedTool(k) || b.valueNamesShapedTool(v, depth, false)
		return !found
	})
	return found
}

// valueNamesShapedTool reports whether a value names a data-class tool; listed: it is an element of a
// list. Past the configured depth a value is not read and names none: the record is bounded as every
// other walk of it is.
func (b *batch) valueNamesShapedTool(v pcommon.Value, depth int, listed bool) bool {
	if depth > b.p.cfg.MaxDepth {
		return false
	}
	switch v.Type() {
	case pcommon.ValueTypeStr:
		return b.textNamesShapedTool(jsonraw.StringBytes(v.Str()), 0, listed, true)
	case pcommon.ValueTypeMap:
		return b.mapNamesShapedTool(v.Map(), depth+1)
	case pcommon.ValueTypeSlice:
		for i := 0; i < v.Slice().Len(); i++ {
			if b.valueNamesShapedTool(v.Slice().At(i), depth+1, true) {
				return true
			}
		}
	}
	return false
}

// textNamesShapedTool reports whether a string names a data-class tool: it is a token naming one
// (unless listed), or it is a document that names one, or, outside any document (top), it quotes one.
// level is how many documents hold it.
func (b *batch) textNamesShapedTool(text []byte, level int, listed, top bool) bool {
	if b.p.isShapedToolToken(text) {
		return !listed
	}
	if !b.mayMentionShapedTool(text) {
		return false
	}
	if level == maxDocumentLevels {
		return b.mayQuoteShapedTool(text) // too deep to read: it may name one
	}
	doc := bytes.TrimSpace(text)
	if pyliteral.LooksLikeRepr(doc) {
		converted, ok := pyliteral.ToJSON(b.documents[level][:0], doc, b.p.cfg.MaxDepth)
		b.documents[level] = converted
		if !ok {
			return top && b.mayQuoteShapedTool(text)
		}
		doc = converted
	}
	if !jsonraw.IsContainer(doc) {
		return top && b.mayQuoteShapedTool(text)
	}
	l := jsonraw.NewLexer(doc, b.p.cfg.MaxDepth)
	found, ok := b.lexNames(&l, doc, 0, level)
	// A document that cannot be read whole may name one where it stops, if it quotes one.
	return found || (!ok || !l.AtEnd()) && b.mayQuoteShapedTool(text)
}

// lexNames reads the value at the lexer's cursor, at nesting depth inside a document level documents
// deep, and reports whether it names a data-class tool; ok is false when it is not valid JSON.
func (b *batch) lexNames(l *jsonraw.Lexer, doc []byte, nesting, level int) (found, ok bool) {
	l.SkipSpace()
	switch l.Peek() {
	case '{':
		return b.lexObjectNames(l, doc, nesting, level)
	case '[':
		empty, f := l.Open(nesting + 1)
		if f != jsonraw.NoFault || empty {
			return false, f == jsonraw.NoFault
		}
		for {
			l.SkipSpace()
			if l.Peek() == '"' {
				if found, ok := b.lexStringNames(l, doc, level, true); found || !ok {
					return found, ok
				}
			} else if found, ok := b.lexNames(l, doc, nesting+1, level); found || !ok {
				return found, ok
			}
			more, ok := l.More(']')
			if !ok || !more {
				return false, ok
			}
		}
	case '"':
		return b.lexStringNames(l, doc, level, false)
	}
	return false, l.SkipValue(nesting) == jsonraw.NoFault
}

// lexObjectNames is lexNames for an object: it names a tool when a member's value is a name and no
// member defines a tool, or when a value inside it names one.
func (b *batch) lexObjectNames(l *jsonraw.Lexer, doc []byte, nesting, level int) (found, ok bool) {
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
			text := b.decoded(doc[vs:l.Pos()], escaped, level)
			switch {
			case b.p.isShapedToolToken(text):
				named = true
			case b.textNamesShapedTool(text, level+1, false, false):
				return true, true
			}
		} else if found, ok := b.lexNames(l, doc, nesting+1, level); found || !ok {
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
func (b *batch) lexStringNames(l *jsonraw.Lexer, doc []byte, level int, listed bool) (found, ok bool) {
	vs := l.Pos()
	escaped, ok := l.String()
	if !ok {
		return false, false
	}
	return b.textNamesShapedTool(b.decoded(doc[vs:l.Pos()], escaped, level), level+1, listed, false), true
}

// decoded is a JSON string token's content, viewed in place when it has no escape, else decoded into
// the buffer of its document's level.
func (b *batch) decoded(raw []byte, escaped bool, level int) []byte {
	if !escaped {
		return raw[1 : len(raw)-1]
	}
	out, _ := jsonraw.AppendUnquote(b.strings[level][:0], raw)
	b.strings[level] = out
	return out
}

// isShapedToolToken reports whether a text is one token (no space, quote or bracket in it) that names a
// data-class tool: the name itself, spaces aside, compared as tool names are (strings.EqualFold folds
// the Kelvin sign and the dotted capital I as lower-casing does); or the name as a word of an
// identifier, a path or a URL (crm.find_customer, tools/find_customer), as a span's name holds it. Most
// texts hold no name at all: that is looked for first.
func (p *shapeOnly) isShapedToolToken(text []byte) bool {
	t := bytes.TrimSpace(text)
	for _, name := range p.shapedTools {
		if strings.EqualFold(ownString(t), name) {
			return true
		}
		if len(t) > len(name) && isASCII(name) && holdsWordFold(t, name) && isToken(t) {
			return true
		}
	}
	return false
}

// notInToken are the bytes a token does not hold: spaces make a text prose, quotes and brackets a
// document.
var notInToken = func() (set [256]bool) {
	for _, c := range []byte(" \t\r\n\"'`{}[]") {
		set[c] = true
	}
	return set
}()

func isToken(t []byte) bool {
	for _, c := range t {
		if notInToken[c] {
			return false
		}
	}
	return true
}

// holdsWordFold reports whether text holds name (lower-case ASCII) as a word, ASCII letters in either
// case: neither the byte before it nor the one after continues a name (a letter, a digit, '_', '-', or
// any byte outside ASCII, which may be part of a letter), as containsWord has it: a name that begins or
// ends with another character needs no boundary there.
func holdsWordFold(text []byte, name string) bool {
	continues := func(c byte) bool {
		return c == '_' || c == '-' || c >= utf8.RuneSelf || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z'
	}
	return eachFold(text, name, func(start int) bool {
		end := start + len(name)
		return (start == 0 || !continues(name[0]) || !continues(text[start-1])) &&
			(end == len(text) || !continues(name[len(name)-1]) || !continues(text[end]))
	})
}

// mayMentionShapedTool reports whether a text may hold a data-class tool's name anywhere, in any
// spelling, as it is or with its JSON escapes decoded: it holds one, ASCII letters in either case, or a
// character that could spell one (mayName). With a name outside ASCII every text may.
func (b *batch) mayMentionShapedTool(text []byte) bool {
	if !b.p.shapedSearchable {
		return true
	}
	return b.throughEscapes(text, func(t []byte) bool { return mayNameLiterally(t, b.p.shapedTools) })
}

// mayQuoteShapedTool reports whether a string holds a data-class tool's name alone or quoted, as it
// is or with its JSON escapes decoded: what every string that names one holds, and few others.
func (b *batch) mayQuoteShapedTool(text []byte) bool {
	return b.throughEscapes(text, b.p.quotesShapedTool)
}

// throughEscapes reports whether holds is true of a text as it is, or with its JSON escapes decoded
// once, twice or three times, as a document stringified inside others writes them.
func (b *batch) throughEscapes(text []byte, holds func([]byte) bool) bool {
	for level := 0; ; level++ {
		if holds(text) {
			return true
		}
		if level == maxDocumentLevels || bytes.IndexByte(text, '\\') < 0 {
			return false
		}
		buf := &b.unescaped[level%2]
		*buf = unescapeAll((*buf)[:0], text)
		text = *buf
	}
}

// withholdNamingRecords withholds whole, and remembers, the records no convention claims whose values
// name a data-class tool, unless they name it only inside their values and the transcript walk found a
// data-class call in them: then the name is a message's (a log record or span event in a known message
// shape), and the walk withholds that call's arguments and results precisely.
func (b *batch) withholdNamingRecords() {
	for i := range b.records {
		r := &b.records[i]
		if r.namesTool == namesNone || r.dc || r.namesTool == namesInside && b.w.ShapedCallIn(r.wrec, r.wlast) {
			continue
		}
		b.w.Withdraw(r.wrec, r.wlast)
		r.dc = true
		b.Remember(r.owner, nil)
	}
}

// isToolName reports whether a text is a configured tool's name. A withheld leaf that is one is not
// remembered, since traces repeat tool names everywhere as their structure (span names, the calls of
// transcripts), and a value that is only a tool's name carries nothing of the tool's data; on a record
// withheld for naming a data-class tool in its values, a value that is one says which tool it ran, and
// stays. It runs for every leaf remembered, so it compares in place: spaces trimmed, letters folded, a
// name of the same length. A spelling of other length (the Kelvin sign for a k) is not one, which
// withholds more, not less.
func (p *shapeOnly) isToolName(text []byte) bool {
	t := bytes.TrimSpace(text)
	if len(t) >= len(p.toolsByLength) {
		return false
	}
	for _, name := range p.toolsByLength[len(t)] {
		if strings.EqualFold(ownString(t), name) {
			return true
		}
	}
	return false
}

// quotesShapedTool reports whether text is a data-class tool's name or quotes one (holdsAlone). Names
// are lower-case; a text holding one of the two characters outside ASCII that lower-case into ASCII
// letters (the Kelvin sign, the dotted capital I), or a name outside ASCII, is compared lower-cased whole.
func (p *shapeOnly) quotesShapedTool(text []byte) bool {
	lowered := ""
	folds := bytes.Contains(text, []byte("\u212a")) || bytes.Contains(text, []byte("\u0130"))
	for _, name := range p.shapedTools {
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
		if holdsAlone(jsonraw.StringBytes(lowered), name) {
			return true
		}
	}
	return false
}

// holdsAlone reports whether text holds name (lower-case) as the whole text or between two quotes,
// with spaces either side of it; ASCII letters of text compare in either case.
func holdsAlone(text []byte, name string) bool {
	return eachFold(text, name, func(start int) bool { return alone(text, start, start+len(name)) })
}

// alone reports whether text[start:end] is all of text or quoted, spaces aside.
func alone(text []byte, start, end int) bool {
	for start > 0 && isSpace(text[start-1]) {
		start--
	}
	for end < len(text) && isSpace(text[end]) {
		end++
	}
	if start == 0 && end == len(text) {
		return true
	}
	return start > 0 && end < len(text) && isQuote(text[start-1]) && isQuote(text[end])
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// unescapeAll appends src to dst with every JSON escape in it decoded, wherever it is: src need not be
// one JSON string, nor valid JSON at all. A backslash that begins no escape stays as it is.
func unescapeAll(dst, src []byte) []byte {
	for {
		i := bytes.IndexByte(src, '\\')
		if i < 0 {
			return append(dst, src...)
		}
		dst = append(dst, src[:i]...)
		r, size := jsonraw.DecodeEscape(src[i:])
		if size == 0 {
			dst, src = append(dst, '\\'), src[i+1:]
			continue
		}
		dst, src = utf8.AppendRune(dst, r), src[i+size:]
	}
}
