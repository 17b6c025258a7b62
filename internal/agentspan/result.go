// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/pyliteral"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// Result returns what a tool call returned, as bytes to digest, unwrapped where the convention wraps
// it (a LangChain ToolMessage's content, without the call id that differs on every call), and as JSON
// where a Python SDK reported it as the repr of a dict or a list. ok is false when the span carries no
// result the convention can read: the caller must not judge it.
func (r *Registry) Result(v View, attrs pcommon.Map) ([]byte, bool) {
	raw, ok := attrBytes(attrs, v.ResultKey)
	if !ok || v.Convention != nil && v.Convention.Truncated != nil && v.Convention.Truncated(raw) {
		return nil, false
	}
	return r.ReadResult(v, raw), true
}

// ReadResult opens a result's envelope, where its convention has one, and reads a Python literal as
// the JSON it stands for.
func (r *Registry) ReadResult(v View, raw []byte) []byte {
	if v.Convention != nil && v.Convention.Unwrap != nil {
		if e, unwrapped := v.Convention.Unwrap(raw, r.maxDepth); unwrapped {
			raw = e.Result
		}
	}
	if pyliteral.LooksLikeRepr(raw) {
		if doc, ok := pyliteral.ToJSON(nil, raw, r.maxDepth); ok {
			return doc
		}
	}
	return raw
}

// Args returns the bytes of a tool call's arguments, opened where its convention wraps them; ok is
// false when the span carries none.
func (r *Registry) Args(v View, attrs pcommon.Map) ([]byte, bool) {
	raw, ok := attrBytes(attrs, v.ArgsKey)
	if ok && v.Convention != nil && v.Convention.UnwrapArgs != nil {
		if args, unwrapped := v.Convention.UnwrapArgs(raw, r.maxDepth); unwrapped {
			return args, true
		}
	}
	return raw, ok
}

// attrBytes views a string attribute's bytes, or encodes a structured one as JSON.
func attrBytes(attrs pcommon.Map, key string) ([]byte, bool) {
	if key == "" {
		return nil, false
	}
	v, ok := attrs.Get(key)
	if !ok {
		return nil, false
	}
	return valueBytes(v), true
}

// valueBytes views a string value's bytes, or encodes a structured one as JSON.
func valueBytes(v pcommon.Value) []byte {
	if v.Type() == pcommon.ValueTypeStr {
		return zerocopy.Bytes(v.Str())
	}
	return []byte(v.AsString())
}
