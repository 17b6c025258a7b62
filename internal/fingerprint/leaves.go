// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"bytes"
	"sync"
	"unsafe"

	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/jsonraw"
)

// AddJSONLeaves remembers the leaves that shaping withholds from doc, a JSON document: every
// string not directly under a key that kept reports true (kept sees the key decoded; nil keeps
// none), and every string inside an array, kept or not (shaping withholds an array whole). Strings are remembered decoded. A string that
// holds a JSON object or array (a document stringified into another, which shaping shapes as
// JSON) contributes that document's leaves by the same rules instead of its own text; a string that
// holds one between plain text contributes that document's leaves beside its own text. Keys, numbers
// and literals are kept by shaping, so they are not leaves.
//
// If doc is not valid JSON, shaping withholds it whole, so it is remembered whole as one leaf,
// and the error is returned. full is as for AddLeaf; a search finds the leaves once Build has run.
func (s *Set) AddJSONLeaves(doc []byte, kept func(key []byte) bool) (full bool, err error) {
	c := collectors.Get().(*leafCollector)
	defer c.release()
	if err := c.collect(doc, kept, s.MaxDepth); err != nil {
		return s.AddLeaf(doc), err
	}
	return c.addTo(s, doc), nil
}

// AddWithheld is AddJSONLeaves for a document that shaping has just read: withheld lists the strings
// it withheld (countsonly.Leaves, complete), so the document is not read again. A string that holds a
// JSON document contributes that document's leaves, as for AddJSONLeaves.
func (s *Set) AddWithheld(doc []byte, withheld []countsonly.Leaf, kept func(key []byte) bool) (full bool) {
	c := collectors.Get().(*leafCollector)
	defer c.release()
	c.reset(kept, s.MaxDepth)
	for _, l := range withheld {
		c.str(source{text: doc}, l.Start, l.End, l.Escaped, l.InArray)
	}
	return c.addTo(s, doc)
}

// collectors keep leafCollectors' buffers from one AddJSONLeaves to the next: every tool result
// of a batch is remembered, and would otherwise grow its buffers afresh.
var collectors = sync.Pool{New: func() any { return new(leafCollector) }}

// maxPooledBytes bounds the buffers a pooled collector keeps: a rare huge document should not
// pin its size in memory.
const maxPooledBytes = 1 << 20

// leafCollector reads a document once, validating it as it goes, and lists its leaves. The
// leaves are added only once the whole document is known to be valid: an invalid one is
// remembered whole instead.
type leafCollector struct {
	kept     func([]byte) bool
	maxDepth int // of the documents read
	// arena holds the decoded text of strings with escapes and of stringified documents; leaves
	// without escapes stay where they are.
	arena  []byte
	leaves []leafSpan
	key    []byte // a decoded key
}

// A leafSpan is a leaf's text: doc[start:end], or arena[start:end] when inArena.
type leafSpan struct {
	start, end int
	inArena    bool
}

func (c *leafCollector) text(doc []byte, l leafSpan) []byte {
	if l.inArena {
		return c.arena[l.start:l.end]
	}
	return doc[l.start:l.end]
}

// reset readies c for a new document, read with kept, nested at most maxDepth deep.
func (c *leafCollector) reset(kept func([]byte) bool, maxDepth int) {
	c.kept, c.maxDepth, c.leaves, c.arena = kept, maxDepth, c.leaves[:0], c.arena[:0]
}

// addTo adds the leaves collected from doc to s, and reports whether s is full.
func (c *leafCollector) addTo(s *Set, doc []byte) (full bool) {
	for _, leaf := range c.leaves {
		full = s.addLeaf(c.text(doc, leaf)) || full
	}
	return full
}

// release returns c to the pool, unless a huge document grew it.
func (c *leafCollector) release() {
	if cap(c.arena)+int(unsafe.Sizeof(leafSpan{}))*cap(c.leaves) > maxPooledBytes {
		return
	}
	c.kept = nil
	collectors.Put(c)
}

// collect lists the leaves of doc, or returns the error validate would.
func (c *leafCollector) collect(doc []byte, kept func([]byte) bool, maxDepth int) error {
	c.reset(kept, maxDepth)
	l := jsonraw.NewLexer(doc, maxDepth)
	l.SkipSpace()
	return documentError(&l, c.value(&l, source{text: doc}, 0, false, false))
}

// A source is the text a lexer reads, and where that text is: at offset base in doc or in the
// arena.
type source struct {
	text    []byte
	base    int
	inArena bool
}

// value validates the value at the lexer's cursor, as jsonraw's SkipValue does, and lists its
// leaves; depth is the nesting of the container holding it, keep says it sits directly under a
// kept key, inArray that it is inside an array.
func (c *leafCollector) value(l *jsonraw.Lexer, src source, depth int, keep, inArray bool) jsonraw.Fault {
	switch l.Peek() {
	case '{', '[':
		return c.container(l, src, depth+1, inArray)
	case '"':
		start := l.Pos()
		escaped, ok := l.String()
		if !ok {
			return jsonraw.FaultSyntax
		}
		if !keep {
			c.str(src, start, l.Pos(), escaped, inArray)
		}
		return jsonraw.NoFault
	}
	if !l.Scalar() {
		return jsonraw.FaultSyntax
	}
	return jsonraw.NoFault
}

// container is value for the object or array at the cursor, itself at nesting depth.
func (c *leafCollector) container(l *jsonraw.Lexer, src source, depth int, inArray bool) jsonraw.Fault {
	object, closing := l.Peek() == '{', byte('}')
	if !object {
		inArray, closing = true, ']'
	}
	empty, f := l.Open(depth)
	if f != jsonraw.NoFault || empty {
		return f
	}
	for {
		keep := false
		if object {
			keyStart := l.Pos()
			keyEnd, escaped, ok := l.Key()
			if !ok {
				return jsonraw.FaultSyntax
			}
			// Only a string is left alone under a kept key, so only then is kept asked.
			keep = !inArray && l.Peek() == '"' && c.isKept(src.text[keyStart:keyEnd], escaped)
		}
		if f := c.value(l, src, depth, keep, inArray); f != jsonraw.NoFault {
			return f
		}
		more, ok := l.More(closing)
		if !ok {
			return jsonraw.FaultSyntax
		}
		if !more {
			return jsonraw.NoFault
		}
	}
}

// str lists the string src.text[start:end], valid JSON, as a leaf, or the leaves of the document
// it holds.
func (c *leafCollector) str(src source, start, end int, escaped, inArray bool) {
	leaf := leafSpan{start: src.base + start + 1, end: src.base + end - 1, inArena: src.inArena}
	if escaped {
		from := len(c.arena)
		c.arena, _ = jsonraw.AppendUnquote(c.arena, src.text[start:end])
		leaf = leafSpan{start: from, end: len(c.arena), inArena: true}
	}
	// The text is read from a slice of its buffer: appending to the arena while the stringified
	// document is walked may move the arena, but never changes the bytes this slice sees.
	text := src.text[start+1 : end-1]
	if escaped {
		text = c.arena[leaf.start:leaf.end]
	}
	if jsonraw.IsContainer(text) {
		leaves, arena := len(c.leaves), len(c.arena)
		inner := source{text: text, base: leaf.start, inArena: leaf.inArena}
		if c.document(inner, inArray) {
			return
		}
		// Not a document after all: shaping withholds the string whole, so it is one leaf.
		c.leaves, c.arena = c.leaves[:leaves], c.arena[:arena]
	}
	if c.embedded(text, leaf, inArray) {
		return
	}
	c.leaves = append(c.leaves, leaf)
}

// embedded lists the leaves of a text that holds a JSON document between plain text, and reports
// whether it does: a tool's result wrapped before it reaches a model
// ("<untrusted_context>\n{...}\n</untrusted_context>", "Observation: {...}"). Remembered whole, the text
// would find again every copy of its wrapper and every run of 16 bytes it shares with another
// document (a key and its value), and one of its values copied alone into another call's arguments
// shares too little with the whole to be found by it. So the document's leaves are remembered by the
// same rules as a stringified document's, and the text either side of it as leaves of their own,
// unless they are markup and space alone. The document runs from the text's first '{' or '[' to its
// last matching '}' or ']'.
func (c *leafCollector) embedded(text []byte, leaf leafSpan, inArray bool) bool {
	open := bytes.IndexAny(text, "{[")
	if open <= 0 {
		return false // none, or the text is the document (str read it)
	}
	closing := byte('}')
	if text[open] == '[' {
		closing = ']'
	}
	end := bytes.LastIndexByte(text, closing)
	if end <= open {
		return false
	}
	leaves, arena := len(c.leaves), len(c.arena)
	inner := source{text: text[open : end+1], base: leaf.start + open, inArena: leaf.inArena}
	if !c.document(inner, inArray) {
		c.leaves, c.arena = c.leaves[:leaves], c.arena[:arena]
		return false
	}
	for _, side := range [2][2]int{{0, open}, {end + 1, len(text)}} {
		if !onlyMarkup(text[side[0]:side[1]]) {
			c.leaves = append(c.leaves, leafSpan{start: leaf.start + side[0], end: leaf.start + side[1], inArena: leaf.inArena})
		}
	}
	return true
}

// onlyMarkup reports whether text is tags (<...>) and space alone, or under 8 bytes without them:
// nothing that could be someone's data.
func onlyMarkup(text []byte) bool {
	n := 0
	for inTag, i := false, 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '<':
			inTag = true
		case c == '>':
			inTag = false
		case !inTag && c != ' ' && c != '\n' && c != '\r' && c != '\t':
			n++
		}
	}
	return n < 8
}

// document lists the leaves of a stringified document and reports whether it is valid JSON, as
// validate would, without building an error: strings that look like documents and are not
// ("[withheld]") are common.
func (c *leafCollector) document(src source, inArray bool) bool {
	l := jsonraw.NewLexer(src.text, c.maxDepth)
	l.SkipSpace()
	return c.value(&l, src, 0, false, inArray) == jsonraw.NoFault && l.AtEnd()
}

// isKept reports whether kept holds the raw key, compared decoded.
func (c *leafCollector) isKept(raw []byte, escaped bool) bool {
	if c.kept == nil {
		return false
	}
	if !escaped {
		return c.kept(raw[1 : len(raw)-1])
	}
	c.key, _ = jsonraw.AppendUnquote(c.key[:0], raw)
	return c.kept(c.key)
}
