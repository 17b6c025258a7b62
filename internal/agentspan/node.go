// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"bytes"
	"unsafe"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// node is one value inside a transcript: raw JSON bytes at an offset in their document, or an OTLP
// value (an attribute, a map member, a slice element). Message formats are read the same way from
// both: the walkers differ, the reading does not.
type node struct {
	raw   []byte // JSON: the raw value; nil for OTLP
	start int    // JSON: the value's offset in its document
	pv    pcommon.Value
	otlp  bool
}

func jsonNode(raw []byte, start int) node { return node{raw: raw, start: start} }

func otlpNode(v pcommon.Value) node { return node{pv: v, otlp: true} }

func (n node) ok() bool { return n.raw != nil || n.otlp }

type nodeKind uint8

const (
	kindNone nodeKind = iota
	kindObject
	kindArray
	kindString
	kindScalar
)

func (n node) kind() nodeKind {
	if n.otlp {
		switch n.pv.Type() {
		case pcommon.ValueTypeMap:
			return kindObject
		case pcommon.ValueTypeSlice:
			return kindArray
		case pcommon.ValueTypeStr:
			return kindString
		case pcommon.ValueTypeEmpty:
			return kindNone
		}
		return kindScalar
	}
	if len(n.raw) == 0 {
		return kindNone
	}
	switch n.raw[0] {
	case '{':
		return kindObject
	case '[':
		return kindArray
	case '"':
		return kindString
	}
	return kindScalar
}

// is reports whether the node is the string s.
func (n node) is(s string) bool {
	if n.otlp {
		return n.pv.Type() == pcommon.ValueTypeStr && n.pv.Str() == s
	}
	return jsonraw.StringIs(n.raw, s)
}

// text is a string node's content, escapes decoded; "" for anything but a string. A JSON string
// without escapes, the usual case, is viewed in place.
func (n node) text() string {
	switch {
	case n.otlp:
		if n.pv.Type() == pcommon.ValueTypeStr {
			return n.pv.Str()
		}
	case len(n.raw) >= 2 && n.raw[0] == '"':
		inner := n.raw[1 : len(n.raw)-1]
		if bytes.IndexByte(inner, '\\') < 0 {
			return unsafe.String(unsafe.SliceData(inner), len(inner))
		}
		s, _ := jsonraw.Unquote(n.raw)
		return s
	}
	return ""
}

// isAny reports whether the node is one of the strings in set.
func (n node) isAny(set []string) bool {
	for _, s := range set {
		if n.is(s) {
			return true
		}
	}
	return false
}

// appendText appends a string node's content, trimmed of surrounding spaces, to dst; ok is false for
// anything but a string. JSON escapes are decoded.
func (n node) appendText(dst []byte) ([]byte, bool) {
	var content []byte
	switch {
	case n.otlp:
		if n.pv.Type() != pcommon.ValueTypeStr {
			return dst, false
		}
		content = jsonraw.StringBytes(n.pv.Str())
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

// jsonKey is a raw quoted member key's content, for `switch string(jsonKey(k))`, which Go compares
// without allocating. Keys with escapes, which are rare, are decoded into a new slice.
func jsonKey(raw []byte) []byte {
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

// blank reports whether a string node is empty or only spaces; any other node is not blank.
func (n node) blank() bool {
	switch {
	case n.otlp:
		return n.pv.Type() == pcommon.ValueTypeStr && len(bytes.TrimSpace(jsonraw.StringBytes(n.pv.Str()))) == 0
	case len(n.raw) >= 2 && n.raw[0] == '"':
		// An escape decodes to something, or to a space: either way there is text to read.
		return len(bytes.TrimSpace(n.raw[1:len(n.raw)-1])) == 0
	}
	return false
}
