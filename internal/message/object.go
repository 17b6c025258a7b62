// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package message

// Context is what the member holding an object says about it: Gemini and Bedrock wrap a call or a
// result in a member named for it.
type Context uint8

const (
	InNone Context = iota
	InCall
	InResult
)

// ContextOf is what a member named key says about the object it holds.
func ContextOf(key []byte) Context {
	switch string(key) {
	case "functionCall", "toolUse", "function_call", "tool_use", "toolRequest":
		return InCall
	case "functionResponse", "toolResult", "function_response", "tool_result", "toolResponse", "tool_call_result":
		return InResult
	}
	return InNone
}

// The slots of an Object: how many call ids and tool names it keeps (MaxIDs, MaxNames), and how many
// payloads and arguments. Past them the object overflows.
const (
	MaxIDs      = 2
	MaxNames    = 2
	maxPayloads = 4
	maxArgs     = 2
)

// Objects holds the objects a walk is reading, one per level of the document, off the goroutine's
// stack: an object is about a kilobyte, and a frame holding one on every level of a nested document
// made the goroutine that runs the pipeline grow its stack, copied whole at each doubling, on every
// request (docs/benchmarks.md, "Stack growth"). Push and Pop nest as the walk does.
type Objects struct {
	held []*Object
	top  int
}

// Push returns a zeroed object for the next level down; it stays put until popped.
func (s *Objects) Push() *Object {
	if s.top == len(s.held) {
		s.held = append(s.held, new(Object))
	}
	s.top++
	return s.held[s.top-1]
}

// Pop zeroes the object it gives back, so that no document read before stays reachable from a pooled
// walker.
func (s *Objects) Pop() {
	s.top--
	*s.held[s.top] = Object{}
}

// Object is what one object's members say about tool traffic. Read fills it member by member; the
// exported slots are the members a walker looks into or a reader of replies counts.
type Object struct {
	Self      Node // the object itself
	typ       Node
	Role      Node
	strongIDs [MaxIDs]Node // members that name a call id outright
	weakID    [1]Node      // a plain "id": the call's id only when no strong one is present
	names     [MaxNames]Node
	payloads  [maxPayloads]Node
	args      [maxArgs]Node
	// Text is the first "content" or "text" member: the message's text, whoever wrote it (IsModelText).
	Text     Node
	Function Node // OpenAI's nested {"name","arguments"}
	Origin   Node // the call a Haystack result answers, {"tool_name","arguments","id"}
	Kwargs   Node // LangChain's serialised constructor arguments
	lcClass  Node // LangChain's "id" array naming the class
	Finish   Node // a reply's finish reason

	nStrong, nNames, nPayloads, nArgs int
	langChain, callMarker, textKey    bool
	// byRole: classified a result by its role (a tool message), whose plain "id" is the message's own;
	// roleGiven: the role came from a per-message event's name, whose "id" is its call's.
	byRole, roleGiven bool
	// overflow: more ids, names, payloads or arguments than the slots hold. Attribution is then
	// unsure, so the whole object is the payload.
	overflow bool
}

// ReadObject reads an object node's members into o.
func ReadObject(n Node, o *Object) {
	o.Self = n
	EachMember(n, o.Read)
}

// Read records one member.
func (o *Object) Read(key []byte, v Node) {
	switch string(key) {
	case "type":
		o.typ = v
	case "role":
		o.Role = v
	case "lc":
		o.langChain = true
	case "kwargs":
		o.Kwargs = v
	case "toolCallType":
		o.callMarker = true
	case "function":
		if v.Kind() == KindObject {
			o.Function = v
		}
	case "origin":
		if v.Kind() == KindObject {
			o.Origin = v
		}
	case "toolCallId", "tool_call_id", "call_id", "callId", "tool_use_id", "toolUseId", "gen_ai.tool.call.id":
		if o.nStrong < MaxIDs {
			o.strongIDs[o.nStrong] = v
			o.nStrong++
		} else {
			o.overflow = true
		}
	case "id":
		switch {
		case v.Kind() == KindArray:
			o.lcClass = v
		case o.weakID[0].OK():
			o.overflow = true
		default:
			o.weakID[0] = v
		}
	case "name", "toolName", "tool_name":
		if v.Kind() == KindNone || !v.otlp && string(v.raw) == "null" {
			return // Haystack's messages carry "name": null; it names nothing
		}
		if o.nNames < MaxNames {
			o.names[o.nNames] = v
			o.nNames++
		} else {
			o.overflow = true
		}
	case "response", "result", "output", "artifact", "experimental_content":
		o.AddPayload(v)
	case "content":
		o.AddPayload(v)
		if !o.Text.OK() {
			o.Text = v
		}
	case "text":
		o.textKey = true
		if !o.Text.OK() {
			o.Text = v
		}
	case "finish_reason", "finishReason", "stop_reason", "stopReason":
		o.Finish = v
	case "arguments", "args", "input":
		if o.nArgs < maxArgs {
			o.args[o.nArgs] = v
			o.nArgs++
		} else {
			o.overflow = true
		}
	}
}

// AddPayload records a payload as a result member would: a flattened message's contents are its.
func (o *Object) AddPayload(v Node) {
	if o.nPayloads < maxPayloads {
		o.payloads[o.nPayloads] = v
		o.nPayloads++
		return
	}
	o.overflow = true
}

// SetEventRole gives the object the role a per-message event's name says: its plain "id" is then its
// call's, not the message's own.
func (o *Object) SetEventRole(role Node) { o.Role, o.roleGiven = role, true }

// Whole is the object itself, the payload when its members cannot be attributed with certainty.
func (o *Object) Whole() Node { return o.Self }

// Overflow reports whether the object has more ids, names, payloads or arguments than the slots hold:
// its payload is then the whole object.
func (o *Object) Overflow() bool { return o.overflow }

// HasID reports whether the object carries a call id.
func (o *Object) HasID() bool { return o.nStrong > 0 || o.weakID[0].OK() }

// CallIDs are the members naming the call the object is or answers, once it is classified: those that
// name a call id outright, else a plain "id", unless the object is a tool message known by its role,
// whose "id" is the message's own.
func (o *Object) CallIDs() []Node {
	if o.nStrong == 0 && o.weakID[0].OK() && !o.byRole {
		return o.weakID[:]
	}
	return o.strongIDs[:o.nStrong]
}

// Names are the members naming the tool.
func (o *Object) Names() []Node { return o.names[:o.nNames] }

// Payloads are a result's members that may hold what the tool returned.
func (o *Object) Payloads() []Node { return o.payloads[:o.nPayloads] }

// Args are a call's members that may hold its arguments.
func (o *Object) Args() []Node { return o.args[:o.nArgs] }

// HasResultRole reports whether the object's role is a tool's answer's.
func (o *Object) HasResultRole() bool { return o.Role.IsAny(resultRoles) }
