// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// addMessageEvent reads a per-message event (a span event or log record such as gen_ai.tool.message or
// gen_ai.assistant.message) as one message: its attributes and its body's members are the message's
// members, its name says the role. A string body is the message's content.
func (w *Withholder) addMessageEvent(role pcommon.Value, attrs pcommon.Map, body pcommon.Value) {
	w.beginDoc(body, nil)
	w.inEvent = true
	defer func() { w.inEvent = false }()
	var o object
	var kept [8]inner
	count := 0
	read := func(k string, v pcommon.Value) bool {
		key, n := jsonraw.StringBytes(k), otlpNode(v)
		o.read(key, n)
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
		count = keep(&kept, count, nil, otlpNode(body))
	}
	if role.Type() == pcommon.ValueTypeStr {
		o.role, o.roleGiven = otlpNode(role), true
	}
	w.dispatch(&o, inNone, kept[:], count, func() {
		attrs.Range(func(k string, v pcommon.Value) bool {
			w.visit(otlpNode(v), contextOf(jsonraw.StringBytes(k)))
			return true
		})
		w.visit(otlpNode(body), inNone)
	})
}
