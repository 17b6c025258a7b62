// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package message

import (
	"slices"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// Part "type" values that mark a tool result, and a tool call.
var (
	resultTypes = []string{"tool_call_response", "tool-result", "tool_result", "function_call_output", "function_call_result"}
	callTypes   = []string{"tool_call", "tool-call", "function_call", "tool_use"}
	// resultRoles are message roles (and the LangChain dict "type") of a tool's answer.
	resultRoles = []string{"tool", "function"}
)

// IsCallType reports whether a part's "type" marks a tool call.
func IsCallType(typ string) bool { return slices.Contains(callTypes, typ) }

// IsResultType reports whether a part's "type" marks a tool result.
func IsResultType(typ string) bool { return slices.Contains(resultTypes, typ) }

// Shape is what an object is, once its members are read.
type Shape uint8

const (
	ShapeOther     Shape = iota // look inside it
	ShapeCall                   // a tool call: its arguments may be shaped
	ShapeResult                 // a tool result: its payloads may be shaped
	ShapeLangChain              // a LangChain ToolMessage: its kwargs are the result
	ShapeContainer              // a tool message whose content holds the results as parts
)

// Classify decides what the object is. ctx is what the member holding it said.
func (o *Object) Classify(ctx Context) Shape {
	if o.isLangChainToolMessage() {
		return ShapeLangChain
	}
	// Every object of a transcript is classified: its type and role are decoded once, not once per
	// word they are compared with.
	typ, role := o.typ.Text(), o.Role.Text()
	switch {
	case ctx == InResult:
		return ShapeResult
	case ctx == InCall:
		return ShapeCall
	case slices.Contains(resultTypes, typ):
		return ShapeResult
	case slices.Contains(callTypes, typ), o.callMarker, o.Function.OK():
		return ShapeCall
	case slices.Contains(resultRoles, role) || typ == "tool":
		if o.nPayloads == 0 {
			return ShapeOther
		}
		// A tool message's plain "id" is the message's own, not its call's (the AI SDK's tool messages
		// carry one); and the AI SDK's tool message names no call at all: its content is an array of
		// tool-result parts, each read on its own. Strands writes that array as a JSON string.
		if o.nStrong == 0 && o.nNames == 0 && (o.payloads[0].Kind() == KindArray || holdsResultParts(o.payloads[0])) {
			return ShapeContainer
		}
		o.byRole = !o.roleGiven
		return ShapeResult
	case o.nNames > 0 && o.nArgs > 0 && (o.HasID() || o.typ.OK()):
		// A call with no marker of its kind: LangChain's {"name","args","id"} without its "type".
		return ShapeCall
	}
	return ShapeOther
}

// isLangChainToolMessage reports whether the object is LangChain's serialised ToolMessage
// constructor, whose kwargs are the message's fields.
func (o *Object) isLangChainToolMessage() bool {
	return o.langChain && o.Kwargs.Kind() == KindObject && lastElementIs(o.lcClass, "ToolMessage")
}

// IsCallOrResult reports whether the members read so far make the object a call or a result, as
// Classify would say whatever members follow but a LangChain marker or a second "type".
func (o *Object) IsCallOrResult(ctx Context) bool {
	if o.langChain {
		return false
	}
	if ctx == InResult || ctx == InCall {
		return true
	}
	typ := o.typ.Text()
	return typ != "" && (slices.Contains(resultTypes, typ) || slices.Contains(callTypes, typ))
}

// IsModelText reports whether the object's text is something a model wrote: an assistant message
// whose content is a string, or a text part inside an assistant message (role is the message's role;
// Gemini's parts are {"text":..} with no type).
func (o *Object) IsModelText(role Node) bool {
	if !o.Text.OK() || o.Text.Kind() != KindString {
		return false
	}
	if o.Role.Is("assistant") || o.Role.Is("model") {
		return true
	}
	part := o.typ.Is("text") || !o.typ.OK() && !o.Role.OK() && o.textKey
	return part && (role.Is("assistant") || role.Is("model"))
}

// ToolMessageFields returns the object holding a LangChain ToolMessage's fields, in whichever form doc
// holds it: the serialised constructor's kwargs, the message's own fields ({"type":"tool",
// "tool_call_id",..}), or messages_to_dict's {"type":"tool","data":{...}}. doc is valid JSON.
func ToolMessageFields(doc []byte) ([]byte, bool) {
	if len(doc) == 0 || doc[0] != '{' {
		return nil, false
	}
	var o Object
	ReadObject(JSONNode(doc, 0), &o)
	switch {
	case o.isLangChainToolMessage():
		return o.Kwargs.raw, true
	case o.typ.Is("tool") && o.nStrong > 0:
		return doc, true
	case o.typ.Is("tool"):
		if data, found := jsonraw.Field(doc, "data"); found && len(data) > 0 && data[0] == '{' {
			return data, true
		}
	}
	return nil, false
}

// lastElementIs reports whether the node is an array ending with the string s.
func lastElementIs(arr Node, s string) bool {
	if arr.Kind() != KindArray {
		return false
	}
	if arr.otlp {
		sl := arr.pv.Slice()
		return sl.Len() > 0 && OTLPNode(sl.At(sl.Len()-1)).Is(s)
	}
	var last []byte
	jsonraw.EachElement(arr.raw, func(elem []byte, _ int) { last = elem })
	return JSONNode(last, 0).Is(s)
}

// holdsResultParts reports whether an OTLP string holds a JSON array of tool-result parts, with
// perhaps text parts among them and nothing else: a tool message's content blocks as Strands writes
// them ([{"toolResult":{"toolUseId",..}}, ..]), each result naming its own call. Anything else in the
// array, or text that is not valid JSON, leaves the message a result of its own, withheld whole when
// its call is unknown.
func holdsResultParts(n Node) bool {
	if !n.otlp || n.pv.Type() != pcommon.ValueTypeStr {
		return false
	}
	b := zerocopy.Bytes(n.pv.Str())
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
		key := Key(m.Key)
		switch {
		case ContextOf(key) == InResult:
			kind = partResult
		case string(key) == "type":
			switch typ := JSONNode(m.Value, 0).Text(); {
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
