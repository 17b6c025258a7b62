// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"bytes"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// unwrapContentBlock opens a tool result held as one content block: Strands' [{"json": value}] and
// [{"text": "..."}], and Anthropic's [{"type": "text", "text": "..."}], as its SDK records what a tool
// returned. The result is the value, or the text decoded. A result of several blocks, or a block with
// any other member, is not opened: it is read as it is.
func unwrapContentBlock(raw []byte, maxDepth int) (Envelope, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' || !jsonraw.ValidDepth(raw, maxDepth) {
		return Envelope{}, false
	}
	var block []byte
	blocks := 0
	jsonraw.EachElement(raw, func(elem []byte, _ int) { block, blocks = elem, blocks+1 })
	if blocks != 1 || block[0] != '{' {
		return Envelope{}, false
	}
	var value []byte
	values, others := 0, 0
	jsonraw.EachMember(block, func(m jsonraw.Member) {
		switch {
		case jsonraw.StringIs(m.Key, "json"), jsonraw.StringIs(m.Key, "text"):
			value, values = m.Value, values+1
		case jsonraw.StringIs(m.Key, "type") && jsonraw.StringIs(m.Value, "text"):
		default:
			others++
		}
	})
	if values != 1 || others != 0 {
		return Envelope{}, false
	}
	if value[0] == '"' {
		text, _ := jsonraw.Unquote(value)
		value = []byte(text)
	}
	return Envelope{Result: value}, true
}
