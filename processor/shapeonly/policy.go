// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/withhold"
)

// The batch is the transcripts' policy: a call is data-class when its tool is, by configuration or
// by what the tool's spans said, or when its trace remembers its id; what it learns it remembers for
// later batches.

// ToolShaped implements withhold.Policy. A batch asks for the same few names at every call and
// result; the answer is kept for the batch, so only the first asks the memory, under its lock.
func (b *batch) ToolShaped(name []byte) bool {
	if shaped, ok := b.toolClass[string(name)]; ok {
		return shaped
	}
	shaped := b.p.toolShaped(name, b.now)
	b.toolClass[string(name)] = shaped
	return shaped
}

// CallShaped implements withhold.Policy.
func (b *batch) CallShaped(owner agentspan.Owner, id []byte) bool {
	ts := b.owners[owner].trace
	return len(id) > 0 && ts != nil && ts.hasCall(id)
}

// TraceShaped implements withhold.Policy: the trace, or its run, carried data-class data, remembered
// or forgotten since.
func (b *batch) TraceShaped(owner agentspan.Owner) bool {
	o := b.withRun(owner)
	return o.forgotten || o.trace != nil && o.trace.shaped() || o.run != nil && o.run.shaped()
}

// Forgotten implements withhold.Policy.
func (b *batch) Forgotten(owner agentspan.Owner) bool { return b.withRun(owner).forgotten }

// Remember implements withhold.Policy.
func (b *batch) Remember(owner agentspan.Owner, id []byte) {
	ts, rs := b.scopes(owner)
	if ts != nil {
		ts.remember(id)
	}
	if rs != nil {
		rs.remember(nil)
	}
}

// AnyShaped implements withhold.Policy: a tool configured data-class, or learnt to be from its spans.
func (b *batch) AnyShaped() bool { return b.p.shaped.Len() > 0 || b.p.memory.learntAny() }

var _ withhold.Policy = (*batch)(nil)
