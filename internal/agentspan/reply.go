// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"strconv"
	"strings"
	"sync"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/message"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// Finish is why a model call stopped, normalised across conventions and providers.
type Finish uint8

const (
	FinishUnknown       Finish = iota // the span does not say
	FinishStop                        // the model ended its answer
	FinishToolCalls                   // the model asked for tools
	FinishLength                      // cut off at the output limit
	FinishContentFilter               // withheld by a safety filter
	FinishError                       // the call failed
	FinishOther                       // any other reason
)

var finishNames = [...]string{"unknown", "stop", "tool_calls", "length", "content_filter", "error", "other"}

func (f Finish) String() string {
	if int(f) < len(finishNames) {
		return finishNames[f]
	}
	return "unknown"
}

// finishOf normalises a finish reason as providers and SDKs spell it: OpenAI's length, Anthropic's
// max_tokens, Gemini's MAX_TOKENS, the Responses API's max_output_tokens are all a cut-off; Genkit's
// blocked is a safety filter's, and its unknown says nothing.
func finishOf(s string) Finish {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "unknown":
		return FinishUnknown
	case "stop", "end_turn", "stop_sequence", "finish_reason_stop", "completed", "eos", "endturn", "stopsequence":
		return FinishStop
	case "tool_calls", "tool_call", "tool-calls", "tool_use", "function_call", "tooluse":
		return FinishToolCalls
	case "length", "max_tokens", "max_output_tokens", "finish_reason_max_tokens", "model_length", "maxtokens", "limitoutputtokens":
		return FinishLength
	case "content_filter", "content-filter", "safety", "recitation", "blocklist", "prohibited_content", "spii", "refusal",
		"content_filtered", "contentfiltered", "guardrail_intervened", "guardrailintervened", "blocked":
		return FinishContentFilter
	case "error", "malformed_function_call":
		return FinishError
	}
	return FinishOther
}

// Reply is what a model call answered.
type Reply struct {
	Finish Finish
	// Known: the span shows the reply's content (or its output token count), so Empty can be trusted.
	Known bool
	// Empty: no text and no tool call, whatever the finish reason.
	Empty bool
	// ToolCalls is how many tools the reply asked for.
	ToolCalls int
}

// outputTokens are the attributes counting a reply's tokens, in every convention: with no content
// recorded (content capture off), a count of zero still says the reply was empty.
var outputTokens = []string{
	"gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "ai.usage.outputTokens",
	"ai.usage.completionTokens", "llm.token_count.completion",
}

// Reply reads a model span's reply: its output transcripts, finish reasons and token counts.
func (r *Registry) Reply(v View, attrs pcommon.Map) Reply {
	rr := replyReaders.Get().(*replyReader)
	defer rr.release()
	rr.maxDepth = r.maxDepth
	var finish string
	for _, t := range r.outputs {
		if val, ok := attrs.Get(t.Key); ok {
			rr.read(val, t.Text)
		}
	}
	for i := range r.flat {
		if f := &r.flat[i]; f.output {
			rr.readFlat(attrs, f)
		}
	}
	if v.Convention != nil {
		for _, key := range v.Convention.FinishReason {
			if finish = firstReason(attrs, key, r.maxDepth); finish != "" {
				break
			}
		}
		for _, fk := range v.Convention.FlatFinish {
			if finish == "" {
				finish = flatReason(attrs, fk)
			}
		}
	}
	return rr.reply(finish, attrs)
}

// reply is what the reader counted, with the finish reason an attribute gave (finish, which wins
// over what the transcripts said) and, when no transcript was read, the span's output token count.
func (rr *replyReader) reply(finish string, attrs pcommon.Map) Reply {
	reply := Reply{Finish: rr.finish, ToolCalls: rr.calls}
	if finish != "" {
		reply.Finish = finishOf(finish)
	}
	switch {
	case rr.seen:
		reply.Known = true
		reply.Empty = !rr.text && rr.calls == 0
	default:
		if n, ok := tokenCount(attrs); ok {
			reply.Known, reply.Empty = true, n == 0
		}
	}
	// Some providers say stop on a turn that only calls tools (Gemini, LangChain's llm.finish_reason).
	if rr.calls > 0 && (reply.Finish == FinishStop || reply.Finish == FinishUnknown) {
		reply.Finish = FinishToolCalls
	}
	return reply
}

// promptRoles are the roles of messages a model did not write.
var promptRoles = []string{"user", "system", "tool"}

// replyReader counts what output transcripts hold.
type replyReader struct {
	seen     bool
	maxDepth int // as the registry's
	tally
	// obj is the OTLP object being read: a parent's is no longer needed once its children are
	// visited, so one serves every level. kids is a stack of the containers inside the objects being
	// read, gathered in the same pass over their members.
	obj  message.Object
	kids []kid
	// objects are the JSON objects being read, one per level.
	objects message.Objects
}

// A tally is what output transcripts say about a reply: how many tools it asks for, whether it holds
// text a model wrote, and the first finish reason, objects taken in document order, each before what
// it holds.
type tally struct {
	calls int
	text  bool
	// finish is the first finish reason, normalised as it is read (a reason kept as text would be a
	// copy of it, one allocation a reply); saidFinish: one was read (an empty one says none).
	finish     Finish
	saidFinish bool
}

// object counts what an object says, read whole and in the context ctx of the member holding it, and
// reports whether what it holds is the reply's too: not for a call or a result, whose contents are no
// part of the reply's own text.
func (t *tally) object(o *message.Object, ctx message.Context) bool {
	switch o.Classify(ctx) {
	case message.ShapeCall:
		t.calls++
		return false
	case message.ShapeResult, message.ShapeLangChain:
		return false
	}
	if o.Finish.OK() && !t.saidFinish {
		var buf [32]byte
		if f, ok := o.Finish.AppendText(buf[:0]); ok && len(f) > 0 {
			t.finish, t.saidFinish = finishOf(string(f)), true
		}
	}
	if o.Text.Kind() == message.KindString && !o.Text.Blank() && !o.Role.IsAny(promptRoles) {
		t.text = true
	}
	return true
}

// then adds what came after in document order.
func (t *tally) then(next tally) {
	t.calls += next.calls
	t.text = t.text || next.text
	if !t.saidFinish {
		t.finish, t.saidFinish = next.finish, next.saidFinish
	}
}

// replyReaders keeps readers, and their stacks, from one model span to the next.
var replyReaders = sync.Pool{New: func() any { return new(replyReader) }}

// release puts the reader back in the pool, keeping its buffers: the stack of objects is empty again
// once a read is over, every Push of it matched by a deferred Pop.
func (rr *replyReader) release() {
	*rr = replyReader{kids: rr.kids[:0], objects: rr.objects}
	replyReaders.Put(rr)
}

// kid is a container inside an object, with the context its key gives it.
type kid struct {
	n   message.Node
	ctx message.Context
}

func (rr *replyReader) read(v pcommon.Value, plainText bool) {
	rr.seen = true
	if plainText {
		rr.text = rr.text || strings.TrimSpace(v.AsString()) != ""
		return
	}
	switch v.Type() {
	case pcommon.ValueTypeStr:
		b := zerocopy.Bytes(v.Str())
		if !jsonraw.IsContainer(b) || !rr.readJSON(b) {
			rr.text = rr.text || strings.TrimSpace(v.Str()) != ""
		}
	case pcommon.ValueTypeMap, pcommon.ValueTypeSlice:
		rr.visit(message.OTLPNode(v), message.InNone)
	}
}

// readJSON reads an output transcript held as JSON text, in one pass that validates it, and reports
// whether it is valid JSON: nothing of an invalid one is counted. The containers inside an object are
// read with its members, before it is classified, and what they say counts only if it turns out to be
// neither a call nor a result: a reader that classified first would scan each level again.
func (rr *replyReader) readJSON(doc []byte) bool {
	l := jsonraw.NewLexer(doc, rr.maxDepth)
	l.SkipSpace()
	var t tally
	if !rr.lexReply(&l, doc, 0, message.InNone, &t) || !l.AtEnd() {
		return false
	}
	rr.then(t)
	return true
}

// lexReply counts the value at the cursor into t; depth is the nesting of the container holding it.
func (rr *replyReader) lexReply(l *jsonraw.Lexer, doc []byte, depth int, ctx message.Context, t *tally) bool {
	switch l.Peek() {
	case '{':
		return rr.lexReplyObject(l, doc, depth+1, ctx, t)
	case '[':
		empty, f := l.Open(depth + 1)
		if f != jsonraw.NoFault {
			return false
		}
		for more := !empty; more; {
			if !rr.lexReply(l, doc, depth+1, message.InNone, t) {
				return false
			}
			var ok bool
			if more, ok = l.More(']'); !ok {
				return false
			}
		}
		return true
	}
	return l.SkipValue(depth) == jsonraw.NoFault
}

// lexReplyObject counts the object at the cursor, itself at nesting depth, into t.
func (rr *replyReader) lexReplyObject(l *jsonraw.Lexer, doc []byte, depth int, ctx message.Context, t *tally) bool {
	start := l.Pos()
	var inside tally
	empty, f := l.Open(depth)
	if f != jsonraw.NoFault {
		return false
	}
	o := rr.objects.Push()
	defer rr.objects.Pop()
	for more := !empty; more; {
		keyStart := l.Pos()
		keyEnd, _, ok := l.Key()
		if !ok {
			return false
		}
		key := message.Key(doc[keyStart:keyEnd])
		valStart := l.Pos()
		if c := l.Peek(); c == '{' || c == '[' {
			if !rr.lexReply(l, doc, depth, message.ContextOf(key), &inside) {
				return false
			}
		} else if l.SkipValue(depth) != jsonraw.NoFault {
			return false
		}
		o.Read(key, message.JSONNode(doc[valStart:l.Pos()], valStart))
		if more, ok = l.More('}'); !ok {
			return false
		}
	}
	o.Self = message.JSONNode(doc[start:l.Pos()], start)
	if t.object(o, ctx) {
		t.then(inside)
	}
	return true
}

// visit counts a value and what it holds, node by node: the walk OTLP values (maps and slices) take.
func (rr *replyReader) visit(n message.Node, ctx message.Context) {
	switch n.Kind() {
	case message.KindArray:
		message.EachElement(n, func(e message.Node) { rr.visit(e, message.InNone) })
	case message.KindObject:
		first := len(rr.kids)
		descend := rr.readObject(n, ctx)
		last := len(rr.kids)
		for i := first; descend && i < last; i++ {
			k := rr.kids[i]
			rr.visit(k.n, k.ctx)
		}
		rr.kids = rr.kids[:first]
	}
}

// readObject reads an OTLP object's members once, counts what it says, and stacks the containers
// inside it; it reports whether they are to be visited.
func (rr *replyReader) readObject(n message.Node, ctx message.Context) bool {
	o := &rr.obj
	*o = message.Object{Self: n}
	message.EachMember(n, func(key []byte, v message.Node) {
		o.Read(key, v)
		if k := v.Kind(); k == message.KindObject || k == message.KindArray {
			rr.kids = append(rr.kids, kid{n: v, ctx: message.ContextOf(key)})
		}
	})
	return rr.object(o, ctx)
}

// readFlat reads a flattened output: any content is text, any tool call a call.
func (rr *replyReader) readFlat(attrs pcommon.Map, f *flatTranscript) {
	attrs.Range(func(key string, v pcommon.Value) bool {
		_, rest, ok := indexed(key, f.prefix)
		if !ok {
			return true
		}
		rr.seen = true
		switch {
		case f.layout.isContent(rest):
			rr.text = rr.text || strings.TrimSpace(v.AsString()) != ""
		case f.layout.Calls != "" && strings.HasPrefix(rest, f.layout.Calls):
			if _, sub, ok := indexed(rest, f.layout.Calls); ok && sub == f.layout.CallName {
				rr.calls++
			}
		case rest == f.layout.FinishReason && !rr.saidFinish:
			if reason := v.AsString(); reason != "" {
				rr.finish, rr.saidFinish = finishOf(reason), true
			}
		}
		return true
	})
}

// firstReason reads a finish-reason attribute: a string, a JSON array of strings (nested at most
// maxDepth deep), or a string array.
func firstReason(attrs pcommon.Map, key string, maxDepth int) string {
	v, ok := attrs.Get(key)
	if !ok {
		return ""
	}
	switch v.Type() {
	case pcommon.ValueTypeSlice:
		if v.Slice().Len() > 0 {
			return v.Slice().At(0).AsString()
		}
	case pcommon.ValueTypeStr:
		b := zerocopy.Bytes(v.Str())
		if len(b) > 0 && b[0] == '[' && jsonraw.ValidDepth(b, maxDepth) {
			var first string
			jsonraw.EachElement(b, func(elem []byte, _ int) {
				if first == "" {
					first, _ = jsonraw.Text(elem)
				}
			})
			return first
		}
		return v.Str()
	}
	return ""
}

// flatReason reads the first flattened finish reason, "<prefix>0.<suffix>".
func flatReason(attrs pcommon.Map, fk FlatKey) string {
	return str(attrs, fk.Prefix+"0."+fk.Suffix)
}

func tokenCount(attrs pcommon.Map) (int64, bool) {
	for _, key := range outputTokens {
		v, ok := attrs.Get(key)
		if !ok {
			continue
		}
		switch v.Type() {
		case pcommon.ValueTypeInt:
			return v.Int(), true
		case pcommon.ValueTypeDouble:
			return int64(v.Double()), true
		case pcommon.ValueTypeStr:
			if n, err := strconv.ParseInt(strings.TrimSpace(v.Str()), 10, 64); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}
