// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import (
	"bytes"
	"strings"
)

// Call is what the progress state needs to know of a tool call besides its result.
type Call struct {
	// Key digests the call for the repeated-call patterns (see Key).
	Key Sum
	// Pause: the call only waits (a sleep tool, or a shell command that is a bare sleep).
	Pause bool
}

// Items and pauses. A sweep calls one tool for one item after another (a file to attach, a model to
// look up, a name to check) and may get the same answer each time; what makes each step new is the
// item. An item is a string argument that names something: one word of 1 to 256 bytes, or a name of
// up to four words and 64 bytes, under a member whose name is not a volatile field (a nonce, a
// request id) and not one that holds free text (freeText: a reworded search is the same question,
// not a new item). Call lists the fingerprints of a call's items in the Scratch (Scratch.Items), at
// most MaxItems.
//
// Echoes. Many tools repeat the question in their answer ("Found 2 matches for pattern "x":",
// "Command: git mv a b", "3 of 21 tools matched `git log`"). What the agent wrote is already in its
// context, so Answer digests a result with the call's free-text arguments (those freeText names) of
// 4 bytes or more, at most MaxItems of them, masked where the result quotes them (in backticks,
// apostrophes or double quotes), as volatile tokens are. Only quoted echoes: a grep's hits hold its
// pattern too, as content. Items are not masked: a path or a name in a result is as often content
// (a file that mentions another) as echo.

// MaxItems bounds the items one call lists.
const MaxItems = 8

// freeText reports whether a member name (canonical key text) names an argument that holds free text:
// q, query, queries, question, prompt, search, search_query, keyword(s), term(s), topic, text,
// pattern, regex, filter, input, message, content, command, cmd, code, script, sql, expression, expr
// (compared as normaliseName writes them).
func freeText(key []byte) bool {
	var buf [12]byte
	k := normaliseName(buf[:0], key, len(buf))
	if k == nil {
		return false
	}
	switch string(k) {
	case "q", "query", "queries", "question", "prompt", "search", "searchquery", "keyword", "keywords",
		"term", "terms", "topic", "text", "pattern", "regex", "filter", "input", "message", "content",
		"command", "cmd", "code", "script", "sql", "expression", "expr":
		return true
	}
	return false
}

// pauseTools are tool names (compared as nameIs compares) that only wait.
var pauseTools = []string{"sleep", "wait", "pause", "delay"}

// Call digests a tool call and lists its items (see Items and pauses).
func (n *Normaliser) Call(tool string, args []byte, scratch *Scratch) Call {
	if scratch == nil {
		scratch = new(Scratch)
	}
	scratch.items = scratch.items[:0]
	scratch.echoes, scratch.echoText = scratch.echoes[:0], scratch.echoText[:0]
	scratch.pause = false
	scratch.listItems = true
	key := n.Key(tool, args, scratch)
	scratch.listItems = false
	pause := scratch.pause
	for _, p := range pauseTools {
		pause = pause || nameIs([]byte(strings.TrimSpace(tool)), p)
	}
	return Call{Key: key, Pause: pause}
}

// Items returns the item fingerprints of the last call Call digested. The slice is valid until the
// Scratch is used again.
func (s *Scratch) Items() []uint64 { return s.items }

// argument looks at one string argument (canonical key text, canonical string content) for an item
// or a bare sleep.
func (s *Scratch) argument(n *Normaliser, key, value []byte) {
	if freeText(key) {
		if len(value) >= 4 && len(s.echoes) < MaxItems {
			start := len(s.echoText)
			s.echoText = append(s.echoText, value...)
			s.echoes = append(s.echoes, [2]int{start, len(s.echoText)})
		}
		if bareSleep(value) {
			s.pause = true
		}
		return
	}
	if len(value) == 0 || !(oneWord(value) && len(value) <= 256 || aName(value)) || n.volatileName(key, s) {
		return
	}
	if len(s.items) < MaxItems {
		s.items = append(s.items, itemUnit(value))
	}
}

// aName reports whether canonical string content is a short name: up to 64 bytes and four words,
// no escape.
func aName(v []byte) bool {
	return len(v) <= 64 && bytes.Count(v, []byte(" ")) <= 3 && bytes.IndexByte(v, '\\') < 0
}

// maskEchoes rewrites canonical string content in place, each echo of the last call's arguments
// replaced by the marker, and returns the new length.
func (s *Scratch) maskEchoes(b []byte) int {
	for _, e := range s.echoes {
		echo := s.echoText[e[0]:e[1]]
		for from := 0; ; {
			i := bytes.Index(b[from:], echo)
			if i < 0 {
				break
			}
			i += from
			end := i + len(echo)
			if !quotedAt(b, i, end) {
				from = i + 1
				continue
			}
			b[i] = marker
			n := copy(b[i+1:], b[end:])
			b = b[:i+1+n]
			from = i + 1
		}
	}
	return len(b)
}

// quotedAt reports whether b[i:end] stands in quotes: a backtick, an apostrophe or a double quote
// (written \" in canonical text) on either side.
func quotedAt(b []byte, i, end int) bool {
	before := i > 0 && (b[i-1] == '`' || b[i-1] == '\'' || i > 1 && b[i-1] == '"' && b[i-2] == '\\')
	after := end < len(b) && (b[end] == '`' || b[end] == '\'' || end+1 < len(b) && b[end] == '\\' && b[end+1] == '"')
	return before && after
}

// Answer digests a tool's result as Of does, with the echoes of the arguments of the Call last
// digested on the same Scratch masked (see Echoes), and reads it for a channel failure only when that
// call named an item: only a sweep asks (package progress).
func (n *Normaliser) Answer(result []byte, scratch *Scratch) Result {
	scratch.echo, scratch.sweep = len(scratch.echoes) > 0, true
	r := n.Of(result, scratch)
	scratch.echo, scratch.sweep = false, false
	return r
}

// volatileName reports whether a member name is a volatile field.
func (n *Normaliser) volatileName(key []byte, s *Scratch) bool {
	if key == nil {
		return false
	}
	return n.volatile(key, s)
}

// bareSleep reports whether a command only sleeps: "sleep 5", "sleep 0.5s", "time.sleep(5)".
func bareSleep(cmd []byte) bool {
	c := bytes.TrimSpace(cmd)
	switch {
	case bytes.HasPrefix(c, []byte("sleep ")):
		c = bytes.TrimSpace(c[len("sleep "):])
		n := digits(c, 0, 10)
		if n == 0 {
			return false
		}
		rest := c[fraction(c, n):]
		return len(rest) == 0 || len(rest) == 1 && bytes.IndexByte([]byte("smhd"), rest[0]) >= 0
	case bytes.HasPrefix(c, []byte("time.sleep(")) && bytes.HasSuffix(c, []byte(")")):
		inner := c[len("time.sleep(") : len(c)-1]
		n := digits(inner, 0, 10)
		return n > 0 && fraction(inner, n) == len(inner)
	}
	return false
}
