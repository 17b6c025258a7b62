// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// ReplyEvent is a span event on which a model span carries its reply, for instrumentations that write
// it as an event of the span rather than as an attribute (Strands Agents). A declared convention's
// reply_events take the same keys.
type ReplyEvent struct {
	// Name is the event's name. Reply is the attribute holding the reply (a message, its content blocks,
	// or GenAI output messages, which say their own finish reason), FinishReason the one saying why it
	// stopped, when the event has one.
	Name         string `mapstructure:"event"`
	Reply        string `mapstructure:"reply"`
	FinishReason string `mapstructure:"finish_reason"`
}

// EventReply reads a model span's reply from the events its convention writes it on; attrs are the
// span's, for its output token count. ok is false when no event of the span holds a reply.
func (r *Registry) EventReply(v View, attrs pcommon.Map, events ptrace.SpanEventSlice) (Reply, bool) {
	if v.Convention == nil || len(v.Convention.ReplyEvents) == 0 {
		return Reply{}, false
	}
	rr := replyReaders.Get().(*replyReader)
	defer rr.release()
	rr.maxDepth = r.maxDepth
	var finish string
	for i := 0; i < events.Len(); i++ {
		e := events.At(i)
		for _, re := range v.Convention.ReplyEvents {
			if re.Name != e.Name() {
				continue
			}
			if val, ok := e.Attributes().Get(re.Reply); ok {
				rr.read(val, false)
			}
			if re.FinishReason != "" {
				if reason := str(e.Attributes(), re.FinishReason); reason != "" {
					finish = reason
				}
			}
		}
	}
	if !rr.seen && finish == "" {
		return Reply{}, false
	}
	return rr.reply(finish, attrs), true
}
