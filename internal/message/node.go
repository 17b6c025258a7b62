// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package message

import (
	"bytes"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// Node is one value inside a transcript: raw JSON bytes at an offset in their document, or an OTLP
// value (an attribute, a map member, a slice element). Message formats are read the same way from
// both: the walkers differ, the reading does not. The zero Node is no value.
type Node struct {
	raw   []byte // JSON: the raw value; nil for OTLP
	start int    // JSON: the value's offset in its document
	pv    pcommon.Value
	otlp  bool
}

// JSONNode is the JSON value raw, which starts at offset start of its document.
func JSONNode(raw []byte, start int) Node { return Node{raw: raw, start: start} }

// OTLPNode is the OTLP value v.
func OTLPNode(v pcommon.Value) Node { return Node{pv: v, otlp: true} }

// OK reports whether the node is a value at all.
func (n Node) OK() bool { return n.raw != nil || n.otlp }

// IsOTLP reports whether the node is an OTLP value (Value) rather than JSON bytes (Raw, Start).
func (n Node) IsOTLP() bool { return n.otlp }

// Value is an OTLP node's value; the empty value for JSON.
func (n Node) Value() pcommon.Value { return n.pv }

// Raw is a JSON node's bytes, viewing its document; nil for OTLP.
func (n Node) Raw() []byte { return n.raw }

// Start is a JSON node's offset in its document.
func (n Node) Start() int { return n.start }

// Kind is what sort of value a node is.
type Kind uint8

const (
	KindNone Kind = iota // no value, or an empty OTLP value
	KindObject
	KindArray
	KindString
	KindScalar // a number, a boolean, null
)

// Kind says what sort of value the node is.
func (n Node) Kind() Kind {
	if n.otlp {
		switch n.pv.Type() {
		case pcommon.ValueTypeMap:
			return KindObject
		case pcommon.ValueTypeSlice:
			return KindArray
		case pcommon.ValueTypeStr:
			return KindString
		case pcommon.ValueTypeEmpty:
			return KindNone
		}
		return KindScalar
	}
	if len(n.raw) == 0 {
		return KindNone
	}
	switch n.raw[0] {
	case '{':
		return KindObject
	case '[':
		return KindArray
	case '"':
		return KindString
	}
	return KindScalar
}

// Is reports whether the node is the string s.
func (n Node) Is(s string) bool {
	if n.otlp {
		return n.pv.Type() == pcommon.ValueTypeStr && n.pv.Str() == s
	}
	return jsonraw.StringIs(n.raw, s)
}

// Text is a string node's content, escapes decoded; "" for anything but a string. A JSON string
// without escapes, the usual case, is viewed in place.
func (n Node) Text() string {
	switch {
	case n.otlp:
		if n.pv.Type() == pcommon.ValueTypeStr {
			return n.pv.Str()
		}
	case len(n.raw) >= 2 && n.raw[0] == '"':
		inner := n.raw[1 : len(n.raw)-1]
		if bytes.IndexByte(inner, '\\') < 0 {
			return zerocopy.String(inner)
		}
		s, _ := jsonraw.Unquote(n.raw)
		return s
	}
	return ""
}

// IsAny reports whether the node is one of the strings in set.
func (n Node) IsAny(set []string) bool {
	for _, s := range set {
		if n.Is(s) {
			return true
		}
	}
	return false
}

// AppendText appends a string node's content, trimmed of surrounding spaces, to dst; ok is false for
// anything but a string. JSON escapes are decoded.
func (n Node) AppendText(dst []byte) ([]byte, bool) {
	var content []byte
	switch {
	case n.otlp:
		if n.pv.Type() != pcommon.ValueTypeStr {
			return dst, false
		}
		content = zerocopy.Bytes(n.pv.Str())
	case len(n.raw) >= 2 && n.raw[0] == '"':
		inner := n.raw[1 : len(n.raw)-1]
		if bytes.IndexByte(inner, '\\') < 0 {
			content = inner
			break
		}
		start := len(dst)
		out, ok := jsonraw.AppendUnquote(dst, n.raw)
		if !ok {
			return dst, false
		}
		trimmed := bytes.TrimSpace(out[start:])
		return append(out[:start], trimmed...), true
	default:
		return dst, false
	}
	return append(dst, bytes.TrimSpace(content)...), true
}

// Key is a raw quoted member key's content, for `switch string(Key(k))`, which Go compares without
// allocating. Keys with escapes, which are rare, are decoded into a new slice.
func Key(raw []byte) []byte {
	if len(raw) < 2 {
		return nil
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return inner
	}
	out, ok := jsonraw.AppendUnquote(nil, raw)
	if !ok {
		return nil
	}
	return out
}

// Blank reports whether a string node is empty or only spaces; any other node is not blank.
func (n Node) Blank() bool {
	switch {
	case n.otlp:
		return n.pv.Type() == pcommon.ValueTypeStr && len(bytes.TrimSpace(zerocopy.Bytes(n.pv.Str()))) == 0
	case len(n.raw) >= 2 && n.raw[0] == '"':
		// An escape decodes to something, or to a space: either way there is text to read.
		return len(bytes.TrimSpace(n.raw[1:len(n.raw)-1])) == 0
	}
	return false
}

// EachMember calls fn with each member of an object node, its key decoded. JSON is already validated.
func EachMember(n Node, fn func(key []byte, v Node)) {
	if n.otlp {
		n.pv.Map().Range(func(k string, v pcommon.Value) bool {
			fn(zerocopy.Bytes(k), OTLPNode(v))
			return true
		})
		return
	}
	jsonraw.EachMember(n.raw, func(m jsonraw.Member) {
		fn(Key(m.Key), JSONNode(m.Value, n.start+m.ValueStart))
	})
}

// EachElement calls fn with each element of an array node.
func EachElement(n Node, fn func(Node)) {
	if n.otlp {
		s := n.pv.Slice()
		for i := 0; i < s.Len(); i++ {
			fn(OTLPNode(s.At(i)))
		}
		return
	}
	jsonraw.EachElement(n.raw, func(elem []byte, start int) { fn(JSONNode(elem, n.start+start)) })
}
