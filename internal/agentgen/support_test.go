// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"regexp"
	"strings"
	"testing"
)

// secretKeys are the only attributes, per convention, allowed to carry the
// customer record: the customer tool's result and the transcripts that
// quote it. Anywhere else a shape-only redaction would have no reason to look.
var secretKeys = map[Convention]*regexp.Regexp{
	GenAI:         regexp.MustCompile(`^(gen_ai\.tool\.call\.result|gen_ai\.input\.messages)$`),
	OpenInference: regexp.MustCompile(`^(output\.value|llm\.input_messages\.\d+\.message\.content)$`),
	Vercel:        regexp.MustCompile(`^(ai\.toolCall\.result|ai\.prompt\.messages)$`),
	OpenLLMetry:   regexp.MustCompile(`^(traceloop\.entity\.output|gen_ai\.prompt\.\d+\.content)$`),
}

func TestSupportSecrets(t *testing.T) {
	for _, c := range Conventions() {
		r := mustGenerate(t, "support", c, 21)
		if len(r.Secrets) != 3 {
			t.Fatalf("%s: secrets = %q, want name, email and notes", c, r.Secrets)
		}
		for _, secret := range r.Secrets {
			if len(secret) < 12 {
				t.Errorf("%s: secret %q is too short to be unambiguous", c, secret)
			}
			inTool, inTranscript := false, false
			for _, s := range spans(r.Traces) {
				for k, v := range s.Attributes().All() {
					if !strings.Contains(v.AsString(), secret) {
						continue
					}
					switch {
					case !secretKeys[c].MatchString(k):
						t.Errorf("%s: secret %q leaks into %s on %s", c, secret, k, s.Name())
					case str(s, "tool.data_class") == "customer":
						inTool = true
					default:
						inTranscript = true
					}
				}
			}
			if !inTool || !inTranscript {
				t.Errorf("%s: secret %q in customer tool result %v, in a later transcript %v", c, secret, inTool, inTranscript)
			}
		}
	}
}

// TestSupportTranscriptCarriesRecord pins the GenAI shape shapeonly withholds:
// the record reaches the model as the response of a tool_call_response part
// whose id is the find_customer call's.
func TestSupportTranscriptCarriesRecord(t *testing.T) {
	r := mustGenerate(t, "support", GenAI, 21)
	find := toolSpans(GenAI, r.Traces)[0]
	id := str(find, "gen_ai.tool.call.id")
	var carried int
	for _, s := range spans(r.Traces) {
		if str(s, "gen_ai.operation.name") != "chat" {
			continue
		}
		for _, m := range genaiMessages(t, s, "gen_ai.input.messages") {
			for _, p := range m.Parts {
				if p.Type != "tool_call_response" || p.ID != id {
					continue
				}
				for _, secret := range r.Secrets {
					if !strings.Contains(string(p.Response), secret) {
						t.Errorf("tool_call_response %s lacks %q", id, secret)
					}
				}
				carried++
			}
		}
	}
	// the model span asking for issue_refund and the one answering
	if carried != 2 {
		t.Errorf("record carried in %d later transcripts, want 2", carried)
	}
	if other := mustGenerate(t, "support", GenAI, 22); other.Secrets[2] == r.Secrets[2] {
		t.Error("secrets do not change between runs")
	}
}
