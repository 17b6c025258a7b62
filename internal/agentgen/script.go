// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

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
	answer   string // the final model turn's text, when replies is nil
	// replies are the model turns after the last tool call, when they are more than one answer: cut
	// off at the output limit, empty, continued or nudged (see closing).
	replies []reply
	// fail, when set, is how the run itself fails after its last step, before the model is asked
	// again: its root span records the error and no reply follows.
	fail    *failure
	secrets []string // customer values the run's transcript carries
}

// step is one tool call as the scenario authors it.
type step struct {
	tool   string
	args   obj
	result obj   // what the tool returned, before the volatile envelope
	stamp  stamp // volatile fields the tool adds per call, which detectors must strip
	class  string
	err    *failure // non-nil when the tool failed; the model then sees {"error": msg}
	// thrown: the tool raised err instead of returning it. The SDK records the exception on the tool
	// span, which then carries no result, and hands the model the error as the call's result.
	thrown bool
	takes  time.Duration // how long the call runs beyond the usual 60-450 ms
}

// failure is an error as a span records it: its type and message.
type failure struct{ typ, msg string }

// reply is a model turn that calls no tool: an answer, a reply cut off at the output limit (cut), or
// an empty one (no text and not cut).
type reply struct {
	text string
	cut  bool
}

func (r reply) finish() finish {
	if r.cut {
		return finishLength
	}
	return finishStop
}

// The texts the agent loop appends as a user message after a soft limit (the loop of
// docs/fixtures.md, "Outcome captures"): one continuation after a cut-off, one nudge after an
// empty reply.
const (
	continueText = "Continue exactly where it stopped, without repeating anything."
	nudgeText    = "Call a tool or give your final answer."
)

// closing returns the model's replies after the last tool call: the scenario's replies, or else its
// one answer.
func (sp script) closing() []reply {
	if sp.replies == nil {
		return []reply{{text: sp.answer}}
	}
	return sp.replies
}

// counts is what outcome accounting should find in a run of this script. A reply that follows a
// cut-off is its continuation, since only replies follow the last tool call.
func (sp script) counts() Counts {
	c := Counts{Rounds: len(sp.steps)}
	for _, st := range sp.steps {
		if st.err != nil {
			c.ToolFailures++
		}
	}
	if sp.fail != nil {
		return c
	}
	replies := sp.closing()
	for i, rep := range replies {
		c.Rounds++
		if i > 0 && replies[i-1].cut {
			c.Continuations++
		}
		switch {
		case rep.cut:
			c.CutOffs++
		case rep.text == "":
			c.EmptyReplies++
		}
	}
	return c
}

// stamp selects the per-call envelope fields that change on every call (served_at, request_id, ...),
// which agentguard must set aside (volatile_fields) before comparing results.
type stamp uint8

const (
	servedAt stamp = 1 << iota
	requestID
)

// dataCustomer marks tools whose results are customer data (tool.data_class).
const dataCustomer = "customer"

// runInfo is what every span of a run may need to know about the run itself.
type runInfo struct {
	id, agent, task string
	final           *reply // the run's last model reply; nil when the run failed before one
}

// call is a step as it happened: ids assigned, JSON rendered, timed.
type call struct {
	id, tool     string
	args, result string // JSON text, as the attributes carry it
	class        string
	err          *failure
	thrown       bool // the tool raised err: its span carries no result
}

// message is one transcript entry. An assistant message carries either text
// or the call it asks for; a tool message carries the call it answers.
type message struct {
	role string // "user", "assistant" or "tool"
	text string
	call *call
}

// empty reports whether an assistant message has no text and no tool call.
func (m message) empty() bool { return m.call == nil && m.text == "" }

// turn is one model call: the whole transcript so far in, one message out.
type turn struct {
	in                  []message
	out                 message
	finish              finish
	inTokens, outTokens int
}

// finish is why a model call stopped, before a convention spells it.
type finish uint8

const (
	finishStop finish = iota
	finishToolCalls
	finishLength
)

// openaiFinish spells a finish reason as the OpenAI API does; OpenInference and
// OpenLLMetry record it unmapped.
func openaiFinish(f finish) string {
	switch f {
	case finishToolCalls:
		return "tool_calls"
	case finishLength:
		return "length"
	}
	return "stop"
}

// maxOutputTokens is the output limit the agents run with: a cut-off reply reports exactly this many
// output tokens, as providers do.
const maxOutputTokens = 64

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
