package agentspan

import (
	"github.com/agentotel/agentotel/internal/jsonraw"
)

// LangChain serialises its messages as {"lc":1,"type":"constructor","id":[...,"ToolMessage"],
// "kwargs":{...}}: OpenInference's LangChain instrumentation writes them into input.value and
// output.value, and a tool span's output.value is the ToolMessage (alone, or under "output") whose
// kwargs hold the call id, the tool name and the result as content.

// langChainToolMessage returns the kwargs of a LangChain ToolMessage: doc itself, or doc's "output".
func langChainToolMessage(doc []byte) ([]byte, bool) {
	if kwargs, _, ok := toolMessageKwargs(doc); ok {
		return kwargs, true
	}
	if inner, ok := jsonraw.Field(doc, "output"); ok {
		kwargs, _, ok := toolMessageKwargs(inner)
		return kwargs, ok
	}
	return nil, false
}

// toolMessageKwargs returns the kwargs of the ToolMessage obj and their offset in obj.
func toolMessageKwargs(obj []byte) (kwargs []byte, offset int, ok bool) {
	if len(obj) == 0 || obj[0] != '{' {
		return nil, 0, false
	}
	var class []byte
	_ = jsonraw.Members(obj, func(m jsonraw.Member) bool {
		switch {
		case jsonraw.StringIs(m.Key, "id"):
			class = m.Value
		case jsonraw.StringIs(m.Key, "kwargs"):
			kwargs, offset = m.Value, m.ValueStart
		}
		return true
	})
	if kwargs == nil || kwargs[0] != '{' || !lastElementIs(class, "ToolMessage") {
		return nil, 0, false
	}
	return kwargs, offset, true
}

// lastElementIs reports whether the JSON array arr ends with the string s.
func lastElementIs(arr []byte, s string) bool {
	if len(arr) == 0 || arr[0] != '[' {
		return false
	}
	var last []byte
	_ = jsonraw.Elements(arr, func(elem []byte, _ int) bool {
		last = elem
		return true
	})
	return jsonraw.StringIs(last, s)
}
