// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/message"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// addMessageEvent reads a per-message event (a span event or log record such as gen_ai.tool.message or
// gen_ai.assistant.message) as one message: its attributes and its body's members are the message's
// members, its name says the role. A string body is the message's content.
func (r *TranscriptReader) addMessageEvent(role pcommon.Value, attrs pcommon.Map, body pcommon.Value) {
	r.beginDoc(body, nil)
	r.inEvent = true
	defer func() { r.inEvent = false }()
	var o message.Object
	var kept [8]inner
	count := 0
	read := func(k string, v pcommon.Value) bool {
		key, n := zerocopy.Bytes(k), message.OTLPNode(v)
		o.Read(key, n)
		count = keep(&kept, count, key, n)
		return true
	}
	attrs.Range(read)
	switch body.Type() {
	case pcommon.ValueTypeMap:
		body.Map().Range(read)
	case pcommon.ValueTypeStr:
		read("content", body)
	case pcommon.ValueTypeSlice:
		count = keep(&kept, count, nil, message.OTLPNode(body))
	}
	if role.Type() == pcommon.ValueTypeStr {
		o.SetEventRole(message.OTLPNode(role))
	}
	r.dispatch(&o, message.InNone, kept[:], count, func() {
		attrs.Range(func(k string, v pcommon.Value) bool {
			r.visit(message.OTLPNode(v), message.ContextOf(zerocopy.Bytes(k)))
			return true
		})
		r.visit(message.OTLPNode(body), message.InNone)
	})
}
