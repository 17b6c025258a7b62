// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"slices"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// Message formats are recognised by the members of an object, wherever the object sits: a transcript
// attribute, a request body in input.value, a per-message event, an OTLP map. The vocabulary, by the
// formats that use it:
//
//	GenAI parts        {"type":"tool_call","id","name","arguments"}  {"type":"tool_call_response","id","response"|"result"}
//	AI SDK parts       {"type":"tool-call","toolCallId","toolName","args"|"input"}
//	                   {"type":"tool-result","toolCallId","toolName","result"|"output","experimental_content"}
//	                   ai.response.toolCalls entries {"toolCallType","toolCallId","toolName","args"}
//	OpenAI chat        {"role":"assistant","tool_calls":[{"id","type":"function","function":{"name","arguments"}}]}
//	                   {"role":"tool","tool_call_id","content"}; legacy {"function_call":{"name","arguments"}} and
//	                   {"role":"function","name","content"}
//	OpenAI Responses   {"type":"function_call","call_id","name","arguments"} {"type":"function_call_output","call_id","output"}
//	                   (OpenAI Agents: "function_call_result" with "callId")
//	Anthropic          {"type":"tool_use","id","name","input"} {"type":"tool_result","tool_use_id","content"}
//	Bedrock Converse   {"toolUse":{"toolUseId","name","input"}} {"toolResult":{"toolUseId","content","status"}}
//	Gemini             {"functionCall":{"name","args","id"?}} {"functionResponse":{"name","response","id"?}}
//	Genkit             {"toolRequest":{"name","ref"?,"input"}} {"toolResponse":{"name","ref"?,"output"}}, matched by name
//	Ollama             {"role":"tool","tool_name","content"}, calls {"function":{"name","arguments"}} without ids
//	LangChain dicts    {"type":"tool","tool_call_id","name","content","artifact"}; calls {"name","args","id","type":"tool_call"}
//	LangChain lc       {"lc":1,"type":"constructor","id":[..,"ToolMessage"],"kwargs":{"tool_call_id","name","content","artifact"}}
//	Haystack           {"role","meta","name","content":[{"tool_call":{"tool_name","arguments","id"}}]} (a call as
//	                   LangChain's is, by its members) {"tool_call_result":{"result","origin":{the call},"error"}}
//
// A member can mean several things ("content" is a result on a tool message and text on an assistant
// one), so each slot fills independently, and every repeat of a key is kept: a duplicate "response"
// is a second payload, a second "name" a second candidate.

// Part "type" values that mark a tool result, and a tool call.
var (
	resultTypes = []string{"tool_call_response", "tool-result", "tool_result", "function_call_output", "function_call_result"}
	callTypes   = []string{"tool_call", "tool-call", "function_call", "tool_use"}
	// resultRoles are message roles (and the LangChain dict "type") of a tool's answer.
	resultRoles = []string{"tool", "function"}
)

// context is what the member holding an object says about it: Gemini and Bedrock wrap a call or a
// result in a member named for it.
type context uint8

const (
	inNone context = iota
	inCall
	inResult
)

func contextOf(key []byte) context {
	switch string(key) {
	case "functionCall", "toolUse", "function_call", "tool_use", "toolRequest":
		return inCall
	case "functionResponse", "toolResult", "function_response", "tool_result", "toolResponse", "tool_call_result":
		return inResult
	}
	return inNone
}

const (
	maxIDs      = 2
	maxNames    = 2
	maxPayloads = 4
	maxArgs     = 2
)

// objects holds the objects a walk is reading, one per level of the document, off the goroutine's
// stack: an object is about a kilobyte, and a frame holding one on every level of a nested document
// made the goroutine that runs the pipeline grow its stack, copied whole at each doubling, on every
// request (docs/benchmarks.md, "Stack growth"). push and pop nest as the walk does.
type objects struct {
	held []*object
	top  int
}

// push returns a zeroed object for the next level down; it stays put until popped.
func (s *objects) push() *object {
	if s.top == len(s.held) {
		s.held = append(s.held, new(object))
	}
	s.top++
	return s.held[s.top-1]
}

// pop zeroes the object it gives back, so that no document read before stays reachable from a pooled
// walker.
func (s *objects) pop() {
	s.top--
	*s.held[s.top] = object{}
}

// object is what one object's members say about tool traffic.
type object struct {
	self                              node // the object itself
	typ, role                         node
	strongIDs                         [maxIDs]node // members that name a call id outright
	weakID                            node         // a plain "id": the call's id only when no strong one is present
	names                             [maxNames]node
	payloads                          [maxPayloads]node
	args                              [maxArgs]node
	text                              node
	function                          node // OpenAI's nested {"name","arguments"}
	origin                            node // the call a Haystack result answers, {"tool_name","arguments","id"}
	kwargs                            node // LangChain's serialised constructor arguments
	lcClass                           node // LangChain's "id" array naming the class
	finish                            node // a reply's finish reason
	nStrong, nNames, nPayloads, nArgs int
	langChain, callMarker, textKey    bool
	// byRole: classified a result by its role (a tool message), whose plain "id" is the message's own;
	// roleGiven: the role came from a per-message event's name, whose "id" is its call's.
	byRole, roleGiven bool
	// overflow: more ids, names, payloads or arguments than the slots hold. Attribution is then
	// unsure, so the whole object is the payload.
	overflow bool
}

// read records one member.
func (o *object) read(key []byte, v node) {
	switch string(key) {
	case "type":
		o.typ = v
	case "role":
		o.role = v
	case "lc":
		o.langChain = true
	case "kwargs":
		o.kwargs = v
	case "toolCallType":
		o.callMarker = true
	case "function":
		if v.kind() == kindObject {
			o.function = v
		}
	case "origin":
		if v.kind() == kindObject {
			o.origin = v
		}
	case "toolCallId", "tool_call_id", "call_id", "callId", "tool_use_id", "toolUseId", "gen_ai.tool.call.id":
		if o.nStrong < maxIDs {
			o.strongIDs[o.nStrong] = v
			o.nStrong++
		} else {
			o.overflow = true
		}
	case "id":
		switch {
		case v.kind() == kindArray:
			o.lcClass = v
		case o.weakID.ok():
			o.overflow = true
		default:
			o.weakID = v
		}
	case "name", "toolName", "tool_name":
		if v.kind() == kindNone || !v.otlp && string(v.raw) == "null" {
			return // Haystack's messages carry "name": null; it names nothing
		}
		if o.nNames < maxNames {
			o.names[o.nNames] = v
			o.nNames++
		} else {
			o.overflow = true
		}
	case "response", "result", "output", "artifact", "experimental_content":
		o.addPayload(v)
	case "content":
		o.addPayload(v)
		if !o.text.ok() {
			o.text = v
		}
	case "text":
		o.textKey = true
		if !o.text.ok() {
			o.text = v
		}
	case "finish_reason", "finishReason", "stop_reason", "stopReason":
		o.finish = v
	case "arguments", "args", "input":
		if o.nArgs < maxArgs {
			o.args[o.nArgs] = v
			o.nArgs++
		} else {
			o.overflow = true
		}
	}
}

func (o *object) addPayload(v node) {
	if o.nPayloads < maxPayloads {
		o.payloads[o.nPayloads] = v
		o.nPayloads++
		return
	}
	o.overflow = true
}

// whole is the object itself, the payload when its members cannot be attributed with certainty.
func (o *object) whole() node { return o.self }

// hasID reports whether the object carries a call id.
func (o *object) hasID() bool { return o.nStrong > 0 || o.weakID.ok() }

// shape is what an object is, once its members are read.
type shape uint8

const (
	shapeOther     shape = iota // look inside it
	shapeCall                   // a tool call: its arguments may be shaped
	shapeResult                 // a tool result: its payloads may be shaped
	shapeLangChain              // a LangChain ToolMessage: its kwargs are the result
	shapeContainer              // a tool message whose content holds the results as parts
)

// classify decides what the object is. ctx is what the member holding it said.
func (o *object) classify(ctx context) shape {
	if o.langChain && o.kwargs.kind() == kindObject && lastElementIs(o.lcClass, "ToolMessage") {
		return shapeLangChain
	}
	// Every object of a transcript is classified: its type and role are decoded once, not once per
	// word they are compared with.
	typ, role := o.typ.text(), o.role.text()
	switch {
	case ctx == inResult:
		return shapeResult
	case ctx == inCall:
		return shapeCall
	case slices.Contains(resultTypes, typ):
		return shapeResult
	case slices.Contains(callTypes, typ), o.callMarker, o.function.ok():
		return shapeCall
	case slices.Contains(resultRoles, role) || typ == "tool":
		if o.nPayloads == 0 {
			return shapeOther
		}
		// A tool message's plain "id" is the message's own, not its call's (the AI SDK's tool messages
		// carry one); and the AI SDK's tool message names no call at all: its content is an array of
		// tool-result parts, each read on its own. Strands writes that array as a JSON string.
		if o.nStrong == 0 && o.nNames == 0 && (o.payloads[0].kind() == kindArray || holdsResultParts(o.payloads[0])) {
			return shapeContainer
		}
		o.byRole = !o.roleGiven
		return shapeResult
	case o.nNames > 0 && o.nArgs > 0 && (o.hasID() || o.typ.ok()):
		// A call with no marker of its kind: LangChain's {"name","args","id"} without its "type".
		return shapeCall
	}
	return shapeOther
}

// isCallOrResult reports whether the members read so far make the object a call or a result, as
// classify would say whatever members follow but a LangChain marker or a second "type".
func (o *object) isCallOrResult(ctx context) bool {
	if o.langChain {
		return false
	}
	if ctx == inResult || ctx == inCall {
		return true
	}
	typ := o.typ.text()
	return typ != "" && (slices.Contains(resultTypes, typ) || slices.Contains(callTypes, typ))
}

// isModelText reports whether the object's text is something a model wrote: an assistant message
// whose content is a string, or a text part inside an assistant message (role is the message's role;
// Gemini's parts are {"text":..} with no type).
func (o *object) isModelText(role node) bool {
	if !o.text.ok() || o.text.kind() != kindString {
		return false
	}
	if o.role.is("assistant") || o.role.is("model") {
		return true
	}
	part := o.typ.is("text") || !o.typ.ok() && !o.role.ok() && o.textKey
	return part && (role.is("assistant") || role.is("model"))
}

// lastElementIs reports whether the node is an array ending with the string s.
func lastElementIs(arr node, s string) bool {
	if arr.kind() != kindArray {
		return false
	}
	if arr.otlp {
		sl := arr.pv.Slice()
		return sl.Len() > 0 && otlpNode(sl.At(sl.Len()-1)).is(s)
	}
	var last []byte
	eachElement(arr.raw, func(elem []byte, _ int) { last = elem })
	return jsonNode(last, 0).is(s)
}

// holdsResultParts reports whether an OTLP string holds a JSON array of tool-result parts, with
// perhaps text parts among them and nothing else: a tool message's content blocks as Strands writes
// them ([{"toolResult":{"toolUseId",..}}, ..]), each result naming its own call. Anything else in the
// array, or text that is not valid JSON, leaves the message a result of its own, withheld whole when
// its call is unknown.
func holdsResultParts(n node) bool {
	if !n.otlp || n.pv.Type() != pcommon.ValueTypeStr {
		return false
	}
	b := jsonraw.StringBytes(n.pv.Str())
	if i := jsonraw.SkipSpace(b, 0); i >= len(b) || b[i] != '[' || !jsonraw.Valid(b) {
		return false
	}
	results, others := 0, 0
	jsonraw.EachElement(b, func(elem []byte, _ int) {
		switch partKind(elem) {
		case partResult:
			results++
		case partOther:
			others++
		}
	})
	return results > 0 && others == 0
}

type part uint8

const (
	partOther part = iota
	partResult
	partText
)

// partKind says whether a valid JSON element is a tool-result part ({"toolResult":..},
// {"functionResponse":..}, {"type":"tool_result",..}), a text part ({"text":..} or {"type":"text",..}),
// or anything else.
func partKind(elem []byte) part {
	if len(elem) == 0 || elem[0] != '{' {
		return partOther
	}
	kind, members := partOther, 0
	jsonraw.EachMember(elem, func(m jsonraw.Member) {
		members++
		key := jsonKey(m.Key)
		switch {
		case contextOf(key) == inResult:
			kind = partResult
		case string(key) == "type":
			switch typ := jsonNode(m.Value, 0).text(); {
			case slices.Contains(resultTypes, typ):
				kind = partResult
			case typ == "text" && kind == partOther:
				kind = partText
			}
		case string(key) == "text" && kind == partOther:
			kind = partText
		}
	})
	if kind == partText && members > 2 {
		// More than a text and its type: not only text.
		return partOther
	}
	return kind
}
