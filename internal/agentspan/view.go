// Package agentspan recognises AI-agent telemetry across instrumentation conventions. It turns a span
// (or a span event, or a log record) of GenAI semantic conventions, OpenInference, the Vercel AI SDK or
// OpenLLMetry into one View, and finds the tool traffic inside model transcripts. Each convention is one
// adapter file; both processors read agent spans only through this package.
package agentspan

import (
	"go.opentelemetry.io/collector/pdata/pcommon"
)

// Role is what an agent span stands for.
type Role uint8

const (
	// RoleOther is any span that is not recognised as agent telemetry.
	RoleOther Role = iota
	// RoleAgent is an agent run (invoke_agent, an AI SDK generateText call, an OpenInference AGENT span).
	RoleAgent
	// RoleTool is one tool call.
	RoleTool
	// RoleModel is one model call, which carries the transcript.
	RoleModel
)

func (r Role) String() string {
	switch r {
	case RoleAgent:
		return "agent"
	case RoleTool:
		return "tool"
	case RoleModel:
		return "model"
	}
	return "other"
}

// Convention names the instrumentation that produced a span.
type Convention uint8

const (
	Unknown Convention = iota
	GenAI
	OpenInference
	VercelAI
	OpenLLMetry
)

func (c Convention) String() string {
	switch c {
	case GenAI:
		return "genai"
	case OpenInference:
		return "openinference"
	case VercelAI:
		return "vercel"
	case OpenLLMetry:
		return "openllmetry"
	}
	return "unknown"
}

// View is one span seen as agent telemetry. Strings are views into the span's own attributes: they are
// valid until the attributes change.
type View struct {
	Role       Role
	Convention Convention
	// Tool and CallID identify a tool call on a tool span.
	Tool   string
	CallID string
	// ArgsKey and ResultKey name the attributes that hold a tool call's arguments and result; either is
	// empty when the convention has it elsewhere or the span lacks it.
	ArgsKey, ResultKey string
	// Agent is the agent name when this span carries one.
	Agent string
}

// Recognize classifies a span by its name and attributes. The first adapter that claims the span wins;
// GenAI goes first because the other SDKs are moving to it and some emit both.
func Recognize(spanName string, attrs pcommon.Map) View {
	for _, recognize := range adapters {
		if v, ok := recognize(spanName, attrs); ok {
			return v
		}
	}
	return View{}
}

var adapters = []func(string, pcommon.Map) (View, bool){
	recognizeGenAI,
	recognizeOpenInference,
	recognizeVercelAI,
	recognizeOpenLLMetry,
}

// StructuralKeys are the attributes that describe a call rather than carry its data: names, ids,
// operation, model, token counts and status. Shaping leaves them as they are.
func StructuralKeys() []string {
	keys := make([]string, 0, 64)
	keys = append(keys, genAIStructural...)
	keys = append(keys, openInferenceStructural...)
	keys = append(keys, vercelStructural...)
	keys = append(keys, openLLMetryStructural...)
	keys = append(keys, "error.type", "otel.status_code", "otel.status_description", "service.name")
	return keys
}

func str(attrs pcommon.Map, key string) string {
	if v, ok := attrs.Get(key); ok && v.Type() == pcommon.ValueTypeStr {
		return v.Str()
	}
	return ""
}

func has(attrs pcommon.Map, key string) bool {
	_, ok := attrs.Get(key)
	return ok
}

// firstPresent returns the first of keys that attrs holds, or "".
func firstPresent(attrs pcommon.Map, keys ...string) string {
	for _, k := range keys {
		if has(attrs, k) {
			return k
		}
	}
	return ""
}
