// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// Usage says where a convention writes one model call's token counts. It is read on the convention's
// model spans and records only (RoleModel): the spans that repeat a sum of their calls (the AI SDK's
// ai.generateText over its doGenerate calls, an invoke_agent span over its chats, Pydantic AI's
// gen_ai.aggregated_usage.* on its agent span) are agent spans, so each model call is counted once.
type Usage struct {
	// In, when set, is an attribute holding a JSON object the counts are members of (dotted paths:
	// "usage.inputTokens"); when empty, each count is an attribute of its own.
	In string
	// Input, Output, CacheRead and CacheWrite are the counts' names, each tried in order: the input
	// tokens, the output tokens, the input tokens read from the provider's prompt cache, and those
	// written to it.
	Input, Output, CacheRead, CacheWrite []string
	// InputExcludesCache: the Input count leaves out the tokens read from and written to the cache, as
	// Anthropic's Messages API reports them (input_tokens, cache_read_input_tokens and
	// cache_creation_input_tokens are disjoint). Otherwise Input includes them, as OpenAI's
	// prompt_tokens includes prompt_tokens_details.cached_tokens and GenAI's gen_ai.usage.input_tokens
	// includes gen_ai.usage.cache_read.input_tokens.
	InputExcludesCache bool
	// PerCall, when set, picks the model spans that carry one call's usage, for a convention whose
	// model spans include an aggregate over calls (Mastra's model_generation over its model_inference
	// steps).
	PerCall func(attrs pcommon.Map) bool
}

// Tokens is one model call's usage in agentotel's three directions, which are disjoint so they add up
// to what the call consumed: Input is the input not read from the cache (cache writes included: they
// are input the model read, billed at the input price or above), CachedInput the input read from it,
// Output the output.
type Tokens struct {
	Input, Output, CachedInput int64
	// Known: the call carried a count; a call without one counts nothing.
	Known bool
}

// Total is every token of the call.
func (t Tokens) Total() int64 { return t.Input + t.Output + t.CachedInput }

// Tokens reads a model call's usage, as its convention writes it. A span of any other role reads as
// no usage: usage on an agent span sums its model calls, already counted on their own spans.
func (r *Registry) Tokens(v View, attrs pcommon.Map) Tokens {
	if v.Role != RoleModel || v.Convention == nil || v.Convention.Usage == nil {
		return Tokens{}
	}
	if u := v.Convention.Usage; u.PerCall != nil && !u.PerCall(attrs) {
		return Tokens{}
	}
	return v.Convention.Usage.read(attrs, r.maxDepth)
}

func (u *Usage) read(attrs pcommon.Map, maxDepth int) Tokens {
	count := func(names []string) (int64, bool) { return attrCount(attrs, names) }
	if u.In != "" {
		doc, ok := attrBytes(attrs, u.In)
		if !ok || !jsonraw.IsContainer(doc) || !jsonraw.ValidDepth(doc, maxDepth) {
			return Tokens{}
		}
		count = func(names []string) (int64, bool) { return memberCount(doc, names) }
	}
	input, in := count(u.Input)
	output, out := count(u.Output)
	read, _ := count(u.CacheRead)
	written, _ := count(u.CacheWrite)
	if !in && !out {
		return Tokens{}
	}
	t := Tokens{Output: output, CachedInput: read, Known: true}
	if u.InputExcludesCache {
		t.Input = input + written
	} else {
		// A provider that reports more cached tokens than input tokens contradicts itself: the cached
		// count is kept, the input is not taken below zero.
		t.Input = max(0, input-read)
	}
	return t
}

// attrCount is the first of keys holding a count: an integer, a whole double, or a string of digits
// (Spring AI writes its counts as strings). Negative counts are none.
func attrCount(attrs pcommon.Map, keys []string) (int64, bool) {
	for _, k := range keys {
		v, ok := attrs.Get(k)
		if !ok {
			continue
		}
		switch v.Type() {
		case pcommon.ValueTypeInt:
			if v.Int() >= 0 {
				return v.Int(), true
			}
		case pcommon.ValueTypeDouble:
			if d := v.Double(); d >= 0 && d == float64(int64(d)) {
				return int64(d), true
			}
		case pcommon.ValueTypeStr:
			if n, err := strconv.ParseInt(strings.TrimSpace(v.Str()), 10, 64); err == nil && n >= 0 {
				return n, true
			}
		}
	}
	return 0, false
}

// memberCount is the first of paths in a JSON object holding a whole, non-negative number.
func memberCount(doc []byte, paths []string) (int64, bool) {
	for _, p := range paths {
		raw, ok := jsonraw.Field(doc, p)
		if !ok {
			continue
		}
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil && n >= 0 {
			return n, true
		}
	}
	return 0, false
}
