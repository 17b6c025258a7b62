// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"strconv"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/digest"
)

// A run whose tool calls carry no readable result of their own is judged from its model calls'
// requests: the results each adds since the one before are its steps (agentspan.RequestReader). The
// requests of a run whose tool spans carry their results are not read, but for the calls whose span
// could not be read (held pending by the ledger): their results are in the next request. The rule is
// in docs/design.md#6-progress-internalprogress-internaldigest.

// readsRequests reports whether a run's requests are read for its steps: it holds steps waiting for
// their result, or no tool call of it could be read so far. It runs under the run state's lock.
func (st *runState) readsRequests() bool { return !st.readableTools || st.ledger.Pending() }

// request reads a model call's or request event's latest round where the run needs it. The run's
// first request brings no step: its results, if any, are an earlier conversation's. Whether a model
// call carries its request is asked until one of the run does (the ledger holds unread steps only for
// runs whose requests can show them), and where the request is to be read. It runs under the run
// state's lock (runTable.update): this is the path of the runs agentguard reads from their requests,
// and reading is what judging them is.
func (g *guard) request(st *runState, e *event, buf *buffers) {
	read := st.readsRequests()
	if e.kind == eventModel && (read || !st.requests) {
		e.request = g.carriesRequest(e.carrier)
	}
	switch {
	case !e.request:
	case !st.requests:
		st.requests = true
	case read:
		scratch := g.scratch.Get().(*digest.Scratch)
		g.readRound(e, buf, scratch)
		g.scratch.Put(scratch)
	}
}

// readRound reads one request's latest round into steps, buffers.rounds[e.from:e.to].
func (g *guard) readRound(e *event, buf *buffers, scratch *digest.Scratch) {
	if buf.reader == nil {
		buf.reader = g.registry.NewRequestReader()
	}
	rr := buf.reader
	rr.Begin()
	switch e.kind {
	case eventRequest:
		for _, lr := range buf.records[e.firstRecord : e.firstRecord+e.nRecords] {
			rr.AddRecord(agentspan.Span{Name: agentspan.RecordName(lr), Attrs: lr.Attributes()}, lr.Body())
		}
	default:
		rr.AddRecord(agentspan.Span{Attrs: e.attrs()}, emptyBody)
		rr.AddSpanEvents(e.events())
	}
	e.from = int32(len(buf.rounds))
	for _, x := range rr.Latest() {
		tool := string(x.Tool)
		buf.rounds = append(buf.rounds, roundStep{record: int32(x.Record)})
		rs := &buf.rounds[len(buf.rounds)-1]
		g.step(&rs.step, &toolCall{tool: tool, args: x.Args, argsReadable: x.HasArgs, readable: true,
			result: g.registry.ReadResult(agentspan.View{}, x.Result), attrs: noAttrs, start: e.start.AsTime()}, scratch, &buf.fingerprints)
		switch {
		case len(x.CallID) > 0:
			rs.callID = string(x.CallID)
			rs.id = hashString(callSalt, rs.callID)
		default:
			// A result without a call id is known again by its round and place in the conversation.
			rs.id = hashString(roundSalt, tool+"#"+strconv.Itoa(x.Round)+"."+strconv.Itoa(x.Ordinal))
		}
	}
	e.to = int32(len(buf.rounds))
}

// carriesRequest reports whether a model span or record carries its request where the registry reads
// one: a declared transcript, or a span event holding the request's messages.
func (g *guard) carriesRequest(c carrier) bool {
	if g.registry.HasRequest(c.attrs()) {
		return true
	}
	events := c.events()
	for i := 0; i < events.Len(); i++ {
		if e := events.At(i); g.registry.IsRequestEvent(e.Name()) || g.registry.HasRequest(e.Attributes()) {
			return true
		}
	}
	return false
}
