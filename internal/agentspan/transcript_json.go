package agentspan

import (
	"bytes"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// jsonWalk finds tool calls and tool results in a JSON transcript of any of the conventions: GenAI
// parts ({"type":"tool_call_response","id":..,"response":..}), AI SDK parts ({"type":"tool-result",
// "toolCallId":..,"toolName":..,"output":..}) and OpenAI-style messages ({"role":"tool",
// "tool_call_id":..,"content":..}). It recognises objects by their members, not by their position, so
// one walker serves every nesting (messages, parts, content arrays, a request body around them).
type jsonWalk struct {
	policy  Policy
	shaper  Shaper
	taint   bool
	tainted bool
	// role is the role of the message being walked, for the text inside it.
	role  []byte
	edits []edit
	buf   []byte
}

// edit replaces doc[start:end] with buf[from:to].
type edit struct{ start, end, from, to int }

// The "type" values that mark a tool result and a tool call.
var (
	resultTypes = [][]byte{[]byte(`"tool_call_response"`), []byte(`"tool-result"`), []byte(`"tool_result"`), []byte(`"function_call_output"`), []byte(`"function_call_result"`)}
	callTypes   = [][]byte{[]byte(`"tool_call"`), []byte(`"tool-call"`), []byte(`"function_call"`), []byte(`"function"`)}
)

// toolObject is what one JSON object says about tool traffic: raw values and their offsets in the doc.
type toolObject struct {
	typ, role, id, name []byte
	payload, args, text span
	// strongID is set when id came from a key that names a call id outright (toolCallId, tool_call_id,
	// call_id, callId); a plain "id" is the call's id only without one (OpenAI Agents items carry both).
	strongID bool
	// hasCallTypeMarker is the AI SDK's toolCallType member on ai.response.toolCalls entries.
	hasCallTypeMarker bool
	// function is an OpenAI-style nested {"name":..,"arguments":..}.
	function span
	// langChain and kwargs mark a LangChain serialised message ({"lc":1,"id":[..],"kwargs":{..}}).
	langChain bool
	kwargs    span
}

// read records one member. A member can be several things at once ("content" is a result on a tool
// message and text on an assistant one), so the payload, argument and text slots fill independently.
func (o *toolObject) read(key []byte, val span) {
	switch string(keyBytes(key)) {
	case "type":
		o.typ = val.raw
	case "role":
		o.role = val.raw
	case "lc":
		o.langChain = true
	case "kwargs":
		o.kwargs = val
	case "toolCallType":
		o.hasCallTypeMarker = true
	case "function":
		if val.raw[0] == '{' {
			o.function = val
		}
	case "toolCallId", "tool_call_id", "call_id", "callId":
		o.id, o.strongID = val.raw, true
	case "id":
		if !o.strongID {
			o.id = val.raw
		}
	case "name", "toolName", "tool_name":
		if o.name == nil {
			o.name = val.raw
		}
	case "response", "result", "output":
		o.fill(&o.payload, val)
	case "content":
		o.fill(&o.payload, val)
		o.fill(&o.text, val)
	case "text":
		o.fill(&o.text, val)
	case "arguments", "args", "input":
		o.fill(&o.args, val)
	}
}

func (o *toolObject) fill(slot *span, val span) {
	if !slot.ok() {
		*slot = val
	}
}

// keyBytes is a raw quoted key's content, for `switch string(keyBytes(k))`, which Go compares without
// allocating. Keys with escapes, which are rare, are decoded.
func keyBytes(raw []byte) []byte {
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return inner
	}
	s, _ := jsonraw.Unquote(raw)
	return []byte(s)
}

// span is a raw value and its absolute offset in the document.
type span struct {
	raw   []byte
	start int
}

func (s span) ok() bool { return s.raw != nil }

func (w *jsonWalk) visitDoc(doc []byte) error {
	w.edits = w.edits[:0]
	w.buf = w.buf[:0]
	i := jsonraw.SkipSpace(doc, 0)
	end, err := jsonraw.Skip(doc, i)
	if err != nil {
		return err
	}
	if jsonraw.SkipSpace(doc, end) != len(doc) {
		_, err = jsonraw.Skip(doc[end:], 0)
		if err == nil {
			err = jsonraw.ErrSyntax
		}
		return err
	}
	w.visit(doc[i:end], i)
	return nil
}

// visit walks one value of the validated document; base is its offset in the document.
func (w *jsonWalk) visit(v []byte, base int) {
	switch v[0] {
	case '[':
		jsonraw.EachElement(v, func(elem []byte, start int) { w.visit(elem, base+start) })
	case '{':
		w.visitObject(v, base)
	}
}

func (w *jsonWalk) visitObject(v []byte, base int) {
	var o toolObject
	// The containers inside, kept for the walk down so it need not find them again; an object with
	// more than fit here is walked by a second pass over its members.
	var inner [8]span
	n := 0
	jsonraw.EachMember(v, func(m jsonraw.Member) {
		val := span{raw: m.Value, start: base + m.ValueStart}
		o.read(m.Key, val)
		if jsonraw.IsContainer(m.Value) {
			if n < len(inner) {
				inner[n] = val
			}
			n++
		}
	})
	if o.function.ok() {
		w.readFunction(&o)
	}
	switch {
	case o.langChain && o.kwargs.ok() && o.kwargs.raw[0] == '{' && lastElementIs(o.id, "ToolMessage"):
		// A LangChain ToolMessage: its kwargs are a tool message with tool_call_id and content.
		w.visitToolMessage(o.kwargs.raw, o.kwargs.start)
		return
	case o.id != nil && (typeIn(o.typ, resultTypes) || jsonraw.StringIs(o.role, "tool")) && o.payload.ok():
		w.toolResult(&o)
		return
	case o.id != nil && o.name != nil && (typeIn(o.typ, callTypes) || o.hasCallTypeMarker || o.args.ok()):
		w.toolCall(&o)
		return
	}
	if w.taint && w.tainted && o.text.ok() && w.isModelText(&o) && !jsonraw.IsContainer(o.text.raw) {
		w.replace(o.text)
		return
	}
	// Not a tool object: look inside, knowing whose message this is.
	if o.role != nil {
		outer := w.role
		w.role = o.role
		defer func() { w.role = outer }()
	}
	if n <= len(inner) {
		for _, c := range inner[:n] {
			w.visit(c.raw, c.start)
		}
		return
	}
	jsonraw.EachMember(v, func(m jsonraw.Member) {
		if jsonraw.IsContainer(m.Value) {
			w.visit(m.Value, base+m.ValueStart)
		}
	})
}

// visitToolMessage classifies a LangChain ToolMessage's kwargs, which carry no role.
func (w *jsonWalk) visitToolMessage(kwargs []byte, base int) {
	var o toolObject
	jsonraw.EachMember(kwargs, func(m jsonraw.Member) {
		val := span{raw: m.Value, start: base + m.ValueStart}
		switch string(keyBytes(m.Key)) {
		case "tool_call_id":
			o.id = m.Value
		case "name":
			o.name = m.Value
		case "content":
			o.payload = val
		}
	})
	if o.id != nil && o.payload.ok() {
		w.toolResult(&o)
	}
}

// readFunction takes name and arguments from an OpenAI-style {"function":{"name":..,"arguments":..}}.
func (w *jsonWalk) readFunction(o *toolObject) {
	fn := o.function
	jsonraw.EachMember(fn.raw, func(m jsonraw.Member) {
		switch string(keyBytes(m.Key)) {
		case "name":
			o.name = m.Value
		case "arguments":
			o.args = span{raw: m.Value, start: fn.start + m.ValueStart}
		}
	})
}

// isModelText says whether an object's text is something a model wrote: an assistant message whose
// content is a plain string, or a text part inside an assistant message. A user's text stays.
func (w *jsonWalk) isModelText(o *toolObject) bool {
	return jsonraw.StringIs(o.role, "assistant") || jsonraw.StringIs(o.typ, "text") && jsonraw.StringIs(w.role, "assistant")
}

func (w *jsonWalk) toolResult(o *toolObject) {
	if !w.policy.Withheld(idBytes(o.id), idBytes(o.name)) {
		return
	}
	w.tainted = true
	// AI SDK v5+ wraps the result as {"type":"json","value":...}: keep the wrapper readable.
	if inner, ok := typedValue(o.payload); ok {
		w.replace(inner)
		return
	}
	w.replace(o.payload)
}

func (w *jsonWalk) toolCall(o *toolObject) {
	if w.policy.Withheld(idBytes(o.id), idBytes(o.name)) && o.args.ok() {
		w.replace(o.args)
	}
}

// typedValue returns the "value" (AI SDK) or "text" (OpenAI Agents) member of a typed wrapper such as
// {"type":"json","value":...}.
func typedValue(p span) (span, bool) {
	if len(p.raw) == 0 || p.raw[0] != '{' {
		return span{}, false
	}
	var typed bool
	var value span
	jsonraw.EachMember(p.raw, func(m jsonraw.Member) {
		switch string(keyBytes(m.Key)) {
		case "type":
			typed = true
		case "value", "text":
			value = span{raw: m.Value, start: p.start + m.ValueStart}
		}
	})
	return value, typed && value.ok()
}

func (w *jsonWalk) replace(s span) {
	from := len(w.buf)
	w.buf = w.shaper.ShapeJSON(w.buf, s.raw)
	w.edits = append(w.edits, edit{start: s.start, end: s.start + len(s.raw), from: from, to: len(w.buf)})
}

// rewriteAttr shapes one JSON transcript attribute in place and returns how many payloads it shaped.
// A transcript that is not valid JSON is withheld whole, as the JSON string "[withheld]" so readers
// that parse the attribute still can: it might hold anything.
func (w *jsonWalk) rewriteAttr(attrs pcommon.Map, key string) int {
	v, ok := attrs.Get(key)
	if !ok || v.Type() != pcommon.ValueTypeStr {
		return 0
	}
	doc := jsonraw.StringBytes(v.Str())
	if !jsonraw.IsContainer(doc) {
		return 0
	}
	if err := w.visitDoc(doc); err != nil {
		v.SetStr(string(jsonraw.AppendString(nil, w.shaper.ShapeText(v.Str()))))
		return 1
	}
	if len(w.edits) == 0 {
		return 0
	}
	v.SetStr(w.apply(doc))
	return len(w.edits)
}

func (w *jsonWalk) apply(doc []byte) string {
	grow := 0
	for _, e := range w.edits {
		grow += (e.to - e.from) - (e.end - e.start)
	}
	var out strings.Builder
	out.Grow(len(doc) + max(grow, 0))
	last := 0
	for _, e := range w.edits {
		out.Write(doc[last:e.start])
		out.Write(w.buf[e.from:e.to])
		last = e.end
	}
	out.Write(doc[last:])
	return out.String()
}

func typeIn(raw []byte, types [][]byte) bool {
	for _, t := range types {
		if bytes.Equal(raw, t) {
			return true
		}
	}
	return false
}

// idBytes returns a string value's content trimmed of spaces, or nil when raw is not a string. Ids
// and names with escapes are decoded.
func idBytes(raw []byte) []byte {
	if len(raw) < 2 || raw[0] != '"' {
		return nil
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		s, ok := jsonraw.Unquote(raw)
		if !ok {
			return nil
		}
		inner = []byte(s)
	}
	return bytes.TrimSpace(inner)
}
