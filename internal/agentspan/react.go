// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"bytes"

	"github.com/agentotel/agentotel/internal/message"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// A text ReAct agent (LangChain's classic agents, smolagents' code agents) holds its calls and their
// results in the text of its prompt, with no tool span, role or id anywhere:
//
//	Thought: I need the customer's record
//	Action: find_customer
//	Action Input: Roe-Whitfield account
//	Observation: {"customer_id": "cus_88421907", ...}
//
// A text that has an Observation and names tools in Action lines is a result of each of those tools:
// where one is data-class, the text is withheld whole (its observations cannot be told apart from the
// rest with certainty), and what it holds is remembered as the tool's result.

var (
	reactAction      = []byte("Action:")
	reactObservation = []byte("Observation:")
)

// addReAct records a ReAct text as a result of each tool its Action lines name.
func (r *TranscriptReader) addReAct(n message.Node) {
	text := reactText(n)
	if text == nil || !bytes.Contains(text, reactObservation) {
		return
	}
	for line := range bytes.Lines(text) {
		name, ok := bytes.CutPrefix(bytes.TrimSpace(line), reactAction)
		if !ok {
			continue
		}
		name = bytes.Trim(bytes.TrimSpace(name), "`'\"")
		if len(name) == 0 || bytes.ContainsAny(name, " {[") {
			continue // not a tool's name: a sentence, or a structured chat agent's JSON action
		}
		it := Item{kind: ItemResult, rec: r.rec, doc: r.doc}
		it.names[0], it.nName = r.intern(name), 1
		r.addPayloads(&it, n)
		r.items = append(r.items, it)
	}
}

// reactText is a string node's text, or nil: a JSON string with escapes is decoded into the arena.
func reactText(n message.Node) []byte {
	switch {
	case n.IsOTLP():
		if n.Kind() != message.KindString {
			return nil
		}
		return zerocopy.Bytes(n.Value().Str())
	case n.Kind() == message.KindString:
		if !bytes.Contains(n.Raw(), reactObservation) {
			return nil
		}
		out, ok := n.AppendText(nil)
		if !ok {
			return nil
		}
		return out
	}
	return nil
}
