package agentspan

import (
	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// Result returns what a tool call returned, as bytes to digest: the result attribute, unwrapped where a
// convention wraps it (a LangChain ToolMessage's content, without the call id that differs on every
// call). The bytes view the attribute when nothing was unwrapped.
func Result(v View, attrs pcommon.Map) []byte {
	raw := attrBytes(attrs, v.ResultKey)
	if v.Convention != OpenInference {
		return raw
	}
	kwargs, ok := langChainToolMessage(raw)
	if !ok {
		return raw
	}
	content, ok := jsonraw.Field(kwargs, "content")
	if !ok {
		return raw
	}
	if text, ok := jsonraw.Text(content); ok {
		return []byte(text)
	}
	return content
}

// Args returns the bytes of a tool call's arguments.
func Args(v View, attrs pcommon.Map) []byte { return attrBytes(attrs, v.ArgsKey) }

func attrBytes(attrs pcommon.Map, key string) []byte {
	if key == "" {
		return nil
	}
	v, ok := attrs.Get(key)
	if !ok {
		return nil
	}
	if v.Type() == pcommon.ValueTypeStr {
		return jsonraw.StringBytes(v.Str())
	}
	return []byte(v.AsString())
}
