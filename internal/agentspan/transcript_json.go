package agentspan

import (
	"bytes"

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
	edits   []edit
	buf     []byte
}

// edit replaces doc[start:end] with buf[from:to].
type edit struct{ start, end, from, to int }

// member names, by role in a tool object.
var (
	resultTypes = [][]byte{[]byte(`"tool_call_response"`), []byte(`"tool-result"`), []byte(`"tool_result"`), []byte(`"function_call_output"`), []byte(`"function_call_result"`)}
	callTypes   = [][]byte{[]byte(`"tool_call"`), []byte(`"tool-call"`), []byte(`"function_call"`), []byte(`"function"`)}
	// callIDKeys name a tool call's id outright; a plain "id" is the call's id only where none of them
	// is present (OpenAI Agents items carry both an item "id" and the "callId").
	callIDKeys = []string{"toolCallId", "tool_call_id", "call_id", "callId"}
	nameKeys   = []string{"name", "toolName", "tool_name"}
	resultKeys = []string{"response", "result", "output", "content"}
	argsKeys   = []string{"arguments", "args", "input"}
	textKeys   = []string{"content", "text"}
)

// toolObject is what one JSON object says about tool traffic: raw values and their offsets in the doc.
type toolObject struct {
	typ, role, id, name []byte
	payload, args, text span
	// hasCallTypeMarker is the AI SDK's toolCallType member on ai.response.toolCalls entries.
	hasCallTypeMarker bool
	// function is an OpenAI-style nested {"name":..,"arguments":..}.
	function span
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

// visit walks one value that is known to be valid JSON; base is its offset in the document.
func (w *jsonWalk) visit(v []byte, base int) {
	if len(v) == 0 {
		return
	}
	switch v[0] {
	case '[':
		_ = jsonraw.Elements(v, func(elem []byte, start int) bool {
			w.visit(elem, base+start)
			return true
		})
	case '{':
		w.visitObject(v, base)
	}
}

func (w *jsonWalk) visitObject(v []byte, base int) {
	if kwargs, offset, ok := toolMessageKwargs(v); ok {
		// A LangChain ToolMessage: its kwargs are a tool message with tool_call_id and content.
		w.visitToolMessage(kwargs, base+offset)
		return
	}
	var o toolObject
	strongID := false
	_ = jsonraw.Members(v, func(m jsonraw.Member) bool {
		val := span{raw: m.Value, start: base + m.ValueStart}
		switch {
		case jsonraw.StringIs(m.Key, "type"):
			o.typ = m.Value
		case jsonraw.StringIs(m.Key, "role"):
			o.role = m.Value
		case jsonraw.StringIs(m.Key, "toolCallType"):
			o.hasCallTypeMarker = true
		case jsonraw.StringIs(m.Key, "function") && len(m.Value) > 0 && m.Value[0] == '{':
			o.function = val
		case keyIn(m.Key, callIDKeys):
			o.id, strongID = m.Value, true
		case !strongID && jsonraw.StringIs(m.Key, "id"):
			o.id = m.Value
		case o.name == nil && keyIn(m.Key, nameKeys):
			o.name = m.Value
		}
		// A member can be several things at once ("content" is a result payload on a tool message and
		// text on an assistant one), so these are not exclusive with the identity keys above.
		if !o.payload.ok() && keyIn(m.Key, resultKeys) {
			o.payload = val
		}
		if !o.args.ok() && keyIn(m.Key, argsKeys) {
			o.args = val
		}
		if !o.text.ok() && keyIn(m.Key, textKeys) {
			o.text = val
		}
		return true
	})
	if o.function.ok() {
		w.readFunction(&o)
	}

	switch {
	case o.id != nil && (typeIn(o.typ, resultTypes) || jsonraw.StringIs(o.role, "tool")) && o.payload.ok():
		w.toolResult(&o)
		return
	case o.id != nil && o.name != nil && (typeIn(o.typ, callTypes) || o.hasCallTypeMarker || o.args.ok()):
		w.toolCall(&o)
		return
	}
	if w.taint && w.tainted && o.text.ok() && isModelText(&o) && !jsonraw.IsContainer(o.text.raw) {
		w.replace(o.text)
		return
	}
	// Not a tool object: look inside. A second pass over the members costs less than collecting them.
	_ = jsonraw.Members(v, func(m jsonraw.Member) bool {
		if jsonraw.IsContainer(m.Value) {
			w.visit(m.Value, base+m.ValueStart)
		}
		return true
	})
}

// visitToolMessage classifies a LangChain ToolMessage's kwargs, which carry no role.
func (w *jsonWalk) visitToolMessage(kwargs []byte, base int) {
	var o toolObject
	_ = jsonraw.Members(kwargs, func(m jsonraw.Member) bool {
		val := span{raw: m.Value, start: base + m.ValueStart}
		switch {
		case jsonraw.StringIs(m.Key, "tool_call_id"):
			o.id = m.Value
		case jsonraw.StringIs(m.Key, "name"):
			o.name = m.Value
		case jsonraw.StringIs(m.Key, "content"):
			o.payload = val
		}
		return true
	})
	if o.id != nil && o.payload.ok() {
		w.toolResult(&o)
	}
}

// readFunction takes name and arguments from an OpenAI-style {"function":{"name":..,"arguments":..}}.
func (w *jsonWalk) readFunction(o *toolObject) {
	fn := o.function
	_ = jsonraw.Members(fn.raw, func(m jsonraw.Member) bool {
		switch {
		case jsonraw.StringIs(m.Key, "name"):
			o.name = m.Value
		case jsonraw.StringIs(m.Key, "arguments"):
			o.args = span{raw: m.Value, start: fn.start + m.ValueStart}
		}
		return true
	})
}

// isModelText says whether an object's text is something a model wrote: a text part, or an assistant
// message whose content is a plain string.
func isModelText(o *toolObject) bool {
	return jsonraw.StringIs(o.typ, "text") || jsonraw.StringIs(o.role, "assistant")
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
	_ = jsonraw.Members(p.raw, func(m jsonraw.Member) bool {
		switch {
		case jsonraw.StringIs(m.Key, "type"):
			typed = true
		case jsonraw.StringIs(m.Key, "value") || jsonraw.StringIs(m.Key, "text"):
			value = span{raw: m.Value, start: p.start + m.ValueStart}
		}
		return true
	})
	return value, typed && value.ok()
}

func (w *jsonWalk) replace(s span) {
	from := len(w.buf)
	w.buf = w.shaper.ShapeJSON(w.buf, s.raw)
	w.edits = append(w.edits, edit{start: s.start, end: s.start + len(s.raw), from: from, to: len(w.buf)})
}

// rewriteAttr shapes one JSON transcript attribute in place and returns how many payloads it shaped.
// A transcript that is not valid JSON is withheld whole: it might hold anything.
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
		v.SetStr(w.shaper.ShapeText(v.Str()))
		return 1
	}
	if len(w.edits) == 0 {
		return 0
	}
	v.SetStr(string(w.apply(doc)))
	return len(w.edits)
}

func (w *jsonWalk) apply(doc []byte) []byte {
	grow := 0
	for _, e := range w.edits {
		grow += (e.to - e.from) - (e.end - e.start)
	}
	out := make([]byte, 0, len(doc)+max(grow, 0))
	last := 0
	for _, e := range w.edits {
		out = append(out, doc[last:e.start]...)
		out = append(out, w.buf[e.from:e.to]...)
		last = e.end
	}
	return append(out, doc[last:]...)
}

func keyIn(rawKey []byte, names []string) bool {
	for _, n := range names {
		if jsonraw.StringIs(rawKey, n) {
			return true
		}
	}
	return false
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
