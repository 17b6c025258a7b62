package agentspan

import (
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// Policy decides whose data a transcript must not show.
type Policy interface {
	// Withheld reports whether the call with this id, of this tool (nil when the transcript does not
	// say), carries data that must be withheld. Ids arrive trimmed of surrounding spaces. A transcript
	// names a call's tool where the call is made, before its result, so a policy that remembers the ids
	// of tools it withholds by name recognises the result too, and the call's own span when it comes.
	Withheld(callID, tool []byte) bool
}

// Shaper turns a value into its shape.
type Shaper interface {
	// ShapeJSON appends the shaped form of raw, one JSON value, as one JSON value.
	ShapeJSON(dst, raw []byte) []byte
	// ShapeText returns the shaped form of a string attribute: JSON text shaped structurally, any other
	// text withheld.
	ShapeText(s string) string
}

// Rewrite counts what Withhold changed in one span.
type Rewrite struct {
	// Payloads is how many tool arguments, results and tainted texts were shaped.
	Payloads int
	// Tainted is true when a withheld result entered this transcript.
	Tainted bool
}

// JSON transcripts: the attributes whose value is a JSON document that may hold tool calls and
// results, in the order they are read (inputs before outputs, so a result seen in the input taints the
// output). input.value/output.value are OpenInference's raw request and response, which on model and
// agent spans carry OpenAI-style messages; tool spans are shaped whole and never reach this.
var (
	jsonInputKeys  = []string{genAIInputMessages, "ai.prompt.messages", "ai.prompt", oiInputValue}
	jsonOutputKeys = []string{genAIOutputMessages, "ai.response.toolCalls", oiOutputValue}
	// textOutputKeys hold a model's plain-text answer.
	textOutputKeys = []string{"ai.response.text"}
	flatFormats    = []flatConvention{openInferenceFlat, openLLMetryFlat}
)

// Withholder withholds data-class values in transcripts. It keeps its buffers from span to span; it is
// not safe for concurrent use (keep one per batch).
type Withholder struct {
	walk jsonWalk
}

// Withhold shapes, in the transcripts a span carries, the arguments and results of every call the
// policy withholds. With taint, model text that follows a withheld result is withheld too: in the
// transcript after it, and in the span's own output.
func (h *Withholder) Withhold(attrs pcommon.Map, p Policy, s Shaper, taint bool) Rewrite {
	var rw Rewrite
	w := &h.walk
	w.policy, w.shaper, w.taint, w.tainted, w.role = p, s, taint, false, nil
	for _, key := range jsonInputKeys {
		rw.Payloads += w.rewriteAttr(attrs, key)
	}
	flat := flatPresent(attrs)
	for i := range flatFormats {
		if flat&(1<<i) != 0 {
			n, tainted := flatFormats[i].withholdInput(attrs, p, s, taint)
			rw.Payloads += n
			w.tainted = w.tainted || tainted
		}
	}
	rw.Tainted = w.tainted
	// Outputs hold tool calls whose arguments can be data-class, and, once tainted, model text.
	for _, key := range jsonOutputKeys {
		rw.Payloads += w.rewriteAttr(attrs, key)
	}
	if w.taint && w.tainted {
		for _, key := range textOutputKeys {
			if v, ok := attrs.Get(key); ok && v.Type() == pcommon.ValueTypeStr {
				v.SetStr(s.ShapeText(v.Str()))
				rw.Payloads++
			}
		}
		for i := range flatFormats {
			if flat&(1<<i) != 0 {
				rw.Payloads += flatFormats[i].withholdOutput(attrs, s)
			}
		}
	}
	return rw
}

// flatPresent says, one bit per flatFormats entry, which flattened transcripts attrs carries: one pass
// over the attributes spares the many spans that carry none the grouping work.
func flatPresent(attrs pcommon.Map) uint8 {
	var present uint8
	attrs.Range(func(k string, _ pcommon.Value) bool {
		for i := range flatFormats {
			if strings.HasPrefix(k, flatFormats[i].inputPrefix) || strings.HasPrefix(k, flatFormats[i].outputPrefix) {
				present |= 1 << i
			}
		}
		return true
	})
	return present
}

// jsonAttr returns the attribute's bytes when it is a string that holds a JSON container.
func jsonAttr(attrs pcommon.Map, key string) ([]byte, bool) {
	v, ok := attrs.Get(key)
	if !ok || v.Type() != pcommon.ValueTypeStr {
		return nil, false
	}
	b := jsonraw.StringBytes(v.Str())
	return b, jsonraw.IsContainer(b)
}
