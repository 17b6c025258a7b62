// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package withhold

import (
	"bytes"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/message"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// Apply shapes every data-class payload and withholds unreadable transcripts whole.
func (w *Withholder) Apply(s Shaper) Rewrite {
	w.sync()
	var rw Rewrite
	docs := w.r.Documents()
	for d := range docs {
		if dc := &docs[d]; dc.Unreadable() && !w.records[dc.Record()].withdrawn {
			dc.Value().SetStr(s.Unreadable(dc.Value().Str(), w.r.Owner(dc.Record())))
			w.records[dc.Record()].changed = true
			rw.Payloads++
		}
	}
	cur := int32(-1)
	items := w.r.Items()
	for i := range items {
		if !w.dc[i] {
			continue
		}
		it := &items[i]
		payloads := w.r.Payloads(it)
		if len(payloads) == 0 {
			continue
		}
		owner := w.r.Owner(it.Record())
		remember := RememberAll
		switch it.Kind() {
		case agentspan.ItemText:
			remember = RememberNothing
		case agentspan.ItemCall:
			remember = RememberJSON
		}
		if it.Doc() != cur {
			w.flush(cur)
			cur = it.Doc()
		}
		for _, n := range payloads {
			if it.Kind() == agentspan.ItemResult {
				n = typedValue(n)
			}
			var changed bool
			if n.IsOTLP() {
				changed = s.ShapeValue(n.Value(), owner, remember)
			} else {
				from := len(w.out)
				w.out, changed = s.ShapeJSON(w.out, n.Raw(), owner, remember)
				if changed {
					w.edits = append(w.edits, edit{start: n.Start(), end: n.Start() + len(n.Raw()), from: from, to: len(w.out)})
				} else {
					w.out = w.out[:from]
				}
			}
			if changed {
				w.records[it.Record()].changed = true
				rw.Payloads++
			}
		}
	}
	w.flush(cur)
	return rw
}

// flush writes the edits gathered for a JSON document back into its attribute.
func (w *Withholder) flush(d int32) {
	if d < 0 || len(w.edits) == 0 {
		w.edits, w.out = w.edits[:0], w.out[:0]
		return
	}
	dc := &w.r.Documents()[d]
	raw := dc.Raw()
	size := len(raw)
	for _, e := range w.edits {
		size += (e.to - e.from) - (e.end - e.start)
	}
	buf := make([]byte, 0, max(size, 0))
	last := 0
	for _, e := range w.edits {
		if e.start < last {
			continue // inside a payload already replaced
		}
		buf = append(buf, raw[last:e.start]...)
		buf = append(buf, w.out[e.from:e.to]...)
		last = e.end
	}
	buf = append(buf, raw[last:]...)
	// buf is the attribute's new value and nothing writes to it again: it becomes the string as it is.
	dc.Value().SetStr(zerocopy.String(buf))
	w.edits, w.out = w.edits[:0], w.out[:0]
}

// typedValue returns the "value" (AI SDK) or "text" (OpenAI Agents) member of a typed wrapper such as
// {"type":"json","value":...}, so the wrapper stays readable; any other node is returned as it is.
func typedValue(n message.Node) message.Node {
	if n.Kind() != message.KindObject || !n.IsOTLP() && !mayHoldTypeKey(n.Raw()) {
		return n
	}
	var typed bool
	var value message.Node
	message.EachMember(n, func(key []byte, v message.Node) {
		switch string(key) {
		case "type":
			typed = true
		case "value", "text":
			value = v
		}
	})
	if typed && value.OK() {
		return value
	}
	return n
}

// mayHoldTypeKey reports whether the JSON object raw may have a member named "type". Such a key
// shows as "type", quotes included, unless an escape spells it; a result that holds neither (most
// do not) is no typed wrapper, and its members, often kilobytes of them, need not be read. The
// search is for ype" alone: bytes.Index runs from the needle's first byte, and a quote, which JSON
// is full of, made it several times slower.
func mayHoldTypeKey(raw []byte) bool {
	return bytes.Contains(raw, []byte(`ype"`)) || bytes.IndexByte(raw, '\\') >= 0
}
