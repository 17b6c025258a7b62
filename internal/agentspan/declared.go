// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Declared is a convention a user declares in configuration, for an SDK agentotel does not ship: the
// attribute names it writes. Both processors take the same keys.
type Declared struct {
	// Name identifies the convention in errors and docs.
	Name string `mapstructure:"name"`
	// Match says which spans are this convention's: those carrying an attribute (with a given value,
	// or any value when Value is empty), or those of an instrumentation scope.
	Match Match `mapstructure:"match"`
	// ToolName is the attribute naming the tool on a tool span; a matched span carrying it is a tool call.
	ToolName string `mapstructure:"tool_name"`
	// CallID, Arguments and Result are a tool span's call id, arguments and result.
	CallID    string `mapstructure:"call_id"`
	Arguments string `mapstructure:"arguments"`
	Result    string `mapstructure:"result"`
	// Transcripts are the attributes holding a model call's messages (JSON text or OTLP values); a
	// matched span carrying one is a model call.
	Transcripts []string `mapstructure:"transcripts"`
	// RunID names the run or session; AgentName the agent.
	RunID     string `mapstructure:"run_id"`
	AgentName string `mapstructure:"agent_name"`
	// FinishReason records why a model call stopped.
	FinishReason string `mapstructure:"finish_reason"`
	// InputTokens, OutputTokens and CachedInputTokens are a model span's token counts. InputTokens is
	// the whole input, the cache reads included, as GenAI counts it: CachedInputTokens are taken out of
	// it (usage.go).
	InputTokens       string `mapstructure:"input_tokens"`
	OutputTokens      string `mapstructure:"output_tokens"`
	CachedInputTokens string `mapstructure:"cached_input_tokens"`
	// ToolEvents are span events a tool span carries its call on, for an SDK that writes the
	// arguments and result as events of the span rather than as its attributes.
	ToolEvents []ToolEvent `mapstructure:"tool_events"`
	// ReplyEvents are span events a model span carries its reply on.
	ReplyEvents []ReplyEvent `mapstructure:"reply_events"`
}

// Match selects a declared convention's spans.
type Match struct {
	Attribute string `mapstructure:"attribute"`
	Value     string `mapstructure:"value"`
	Scope     string `mapstructure:"scope"`
}

// ValidateDeclared checks declared conventions, reporting every problem with its field path
// (conventions[i]::field, as the collector writes paths) and what is allowed.
func ValidateDeclared(declared []Declared) error {
	var errs []error
	names := map[string]bool{}
	for _, c := range Builtin() {
		names[c.Name] = true
	}
	for i, d := range declared {
		field := func(f string) string { return fmt.Sprintf("conventions[%d]::%s", i, f) }
		switch {
		case strings.TrimSpace(d.Name) == "":
			errs = append(errs, fmt.Errorf("%s: must name the convention, e.g. mysdk", field("name")))
		case names[d.Name]:
			errs = append(errs, fmt.Errorf("%s: %q is taken (the built-in conventions, or declared twice)", field("name"), d.Name))
		}
		names[d.Name] = true
		switch {
		case d.Match.Attribute == "" && d.Match.Scope == "":
			errs = append(errs, fmt.Errorf("%s: set attribute (and optionally value) or scope, e.g. {attribute: mysdk.kind, value: tool}", field("match")))
		case d.Match.Attribute != "" && d.Match.Scope != "":
			errs = append(errs, fmt.Errorf("%s: set attribute or scope, not both", field("match")))
		case d.Match.Value != "" && d.Match.Attribute == "":
			errs = append(errs, fmt.Errorf("%s: value needs an attribute", field("match::value")))
		}
		if d.ToolName == "" && len(d.Transcripts) == 0 {
			errs = append(errs, fmt.Errorf("%s: declare tool_name (for tool spans) or transcripts (for model spans), or both", field("tool_name")))
		}
		if d.ToolName == "" && (d.CallID != "" || d.Arguments != "" || d.Result != "") {
			errs = append(errs, fmt.Errorf("%s: call_id, arguments and result describe tool spans, which tool_name identifies", field("tool_name")))
		}
		if d.ToolName == "" && len(d.ToolEvents) > 0 {
			errs = append(errs, fmt.Errorf("%s: tool_events describe tool spans, which tool_name identifies", field("tool_name")))
		}
		for j, te := range d.ToolEvents {
			at := func(f string) string { return field(fmt.Sprintf("tool_events[%d]::%s", j, f)) }
			if strings.TrimSpace(te.Name) == "" {
				errs = append(errs, fmt.Errorf("%s: must name the span event, e.g. mysdk.tool.result", at("event")))
			}
			if te.Arguments == "" && te.Result == "" {
				errs = append(errs, fmt.Errorf("%s: name the event attribute holding the arguments or the result, or both", at("result")))
			}
		}
		if len(d.Transcripts) == 0 && (d.InputTokens != "" || d.OutputTokens != "" || d.CachedInputTokens != "") {
			errs = append(errs, fmt.Errorf("%s: input_tokens, output_tokens and cached_input_tokens describe model spans, which transcripts identify", field("transcripts")))
		}
		if len(d.Transcripts) == 0 && len(d.ReplyEvents) > 0 {
			errs = append(errs, fmt.Errorf("%s: reply_events describe model spans, which transcripts identify", field("transcripts")))
		}
		for j, re := range d.ReplyEvents {
			at := func(f string) string { return field(fmt.Sprintf("reply_events[%d]::%s", j, f)) }
			if strings.TrimSpace(re.Name) == "" {
				errs = append(errs, fmt.Errorf("%s: must name the span event, e.g. mysdk.reply", at("event")))
			}
			if re.Reply == "" && re.FinishReason == "" {
				errs = append(errs, fmt.Errorf("%s: name the event attribute holding the reply or its finish reason, or both", at("reply")))
			}
		}
		for j, t := range d.Transcripts {
			if strings.TrimSpace(t) == "" {
				errs = append(errs, fmt.Errorf("%s: must be an attribute name", field(fmt.Sprintf("transcripts[%d]", j))))
			}
		}
	}
	return errors.Join(errs...)
}

// convention turns the declaration into a registry entry.
func (d *Declared) convention() *Convention {
	m, transcripts := d.Match, slices.Clone(d.Transcripts)
	c := &Convention{
		Name:         d.Name,
		ToolName:     nonEmpty(d.ToolName),
		CallID:       nonEmpty(d.CallID),
		Arguments:    nonEmpty(d.Arguments),
		Result:       nonEmpty(d.Result),
		AgentName:    nonEmpty(d.AgentName),
		RunID:        nonEmpty(d.RunID),
		FinishReason: nonEmpty(d.FinishReason),
	}
	if d.Match.Attribute != "" {
		c.Structural = []string{d.Match.Attribute}
	}
	if d.InputTokens != "" || d.OutputTokens != "" || d.CachedInputTokens != "" {
		c.Usage = &Usage{Input: nonEmpty(d.InputTokens), Output: nonEmpty(d.OutputTokens), CacheRead: nonEmpty(d.CachedInputTokens)}
		// Counts are structural: shaping leaves them as they are.
		for _, k := range [][]string{c.Usage.Input, c.Usage.Output, c.Usage.CacheRead} {
			c.Structural = append(c.Structural, k...)
		}
	}
	for _, t := range d.Transcripts {
		c.Transcripts = append(c.Transcripts, Transcript{Key: t})
	}
	c.ToolEvents = slices.Clone(d.ToolEvents)
	c.ReplyEvents = slices.Clone(d.ReplyEvents)
	c.Claim = func(s Span) (Role, bool) {
		if m.Scope != "" {
			if s.Scope != m.Scope {
				return RoleOther, false
			}
		} else if v, ok := s.Attrs.Get(m.Attribute); !ok || m.Value != "" && v.AsString() != m.Value {
			return RoleOther, false
		}
		switch {
		case firstPresent(s.Attrs, c.ToolName) != "":
			return RoleTool, true
		case firstPresent(s.Attrs, transcripts) != "":
			return RoleModel, true
		case s.Root:
			return RoleAgent, true
		}
		return RoleOther, true
	}
	return c
}

func nonEmpty(key string) []string {
	if key == "" {
		return nil
	}
	return []string{key}
}
