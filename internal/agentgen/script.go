package agentgen

import (
	"bytes"
	"encoding/json"
	"time"
)

// script is what a scenario says happened in a run, before any convention or
// timing is applied.
type script struct {
	task     string        // the user's request that opens the transcript
	interval time.Duration // between consecutive tool calls: the agent's poll or work cadence
	steps    []step
	answer   string   // the final model turn's text
	secrets  []string // customer values the run's transcript carries
}

// step is one tool call as the scenario authors it.
type step struct {
	tool   string
	args   obj
	result obj   // what the tool returned, before the volatile envelope
	stamp  stamp // volatile fields the tool adds per call, which detectors must strip
	class  string
	err    *toolErr // non-nil when the tool failed; the model then sees {"error": msg}
}

type toolErr struct{ typ, msg string }

// stamp selects the per-call envelope fields the article names as volatile.
type stamp uint8

const (
	servedAt stamp = 1 << iota
	requestID
)

// dataCustomer marks tools whose results are customer data (tool.data_class).
const dataCustomer = "customer"

// runInfo is what every span of a run may need to know about the run itself.
type runInfo struct {
	id, agent, task, answer string
}

// call is a step as it happened: ids assigned, JSON rendered, timed.
type call struct {
	id, tool     string
	args, result string // JSON text, as the attributes carry it
	class        string
	err          *toolErr
}

// message is one transcript entry. An assistant message carries either text
// or the call it asks for; a tool message carries the call it answers.
type message struct {
	role string // "user", "assistant" or "tool"
	text string
	call *call
}

// turn is one model call: the whole transcript so far in, one message out.
type turn struct {
	in                  []message
	out                 message
	inTokens, outTokens int
}

// systemPrompt is the same for every agent; only the name changes.
func systemPrompt(agent string) string {
	return "You are the " + agent + " agent. Use the tools to complete the task, then answer briefly."
}

// modelName is the model every run talks to; one is enough for shape tests.
const (
	modelName     = "gpt-4.1"
	modelResponse = "gpt-4.1-2025-04-14"
	providerName  = "openai"
)

// field is one key of an ordered JSON object.
type field struct {
	k string
	v any
}

// obj is a JSON object that keeps the key order a real tool serialises in,
// which a Go map would sort away.
type obj []field

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonText(f.k))
		b.WriteByte(':')
		b.WriteString(jsonText(f.v))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// jsonText renders v without HTML escaping, as JS and Python SDKs would; every
// value here is built by this package, so a marshal error is a bug.
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("agentgen: " + err.Error())
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
