// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// The cost batch: 300 spans as an agent service sends them, independent of agentgen and of the
// fixtures the processors are tested on. 25 runs of 4 rounds; a round is a model call, the
// find_customer tool call it asks for (a CRM record of about 3.4 KiB), and the HTTP call the tool
// makes. Each model span carries the transcript so far in gen_ai.input.messages, so the records
// reappear there: 100 tool spans, 100 model spans, 100 HTTP spans, about 860 KB of JSON. The long-run
// batch is the same 300 spans in 5 runs of 20 rounds: its transcripts are longer, and it holds more
// JSON.
const (
	runs, rounds         = 25, 4
	longRuns, longRounds = 5, 20
	// orders per customer record: sets the record's size (about 3.4 KiB).
	orders = 21
)

// customerTool is the data-class tool, configured by name as for an SDK that cannot set span
// attributes.
const customerTool = "find_customer"

// costBatch is the batch and what must not survive shaping.
type costBatch struct {
	traces ptrace.Traces
	// jsonValues are the attribute values that hold JSON: what a JSON pass has to read.
	jsonValues []string
	jsonBytes  int
	// secrets are every customer's string values; regexFree are those no PII regex describes
	// (names, notes, streets).
	secrets, regexFree []string
}

var (
	batchOnce, longBatchOnce sync.Once
	batch, longBatch         costBatch
)

func theBatch() costBatch {
	batchOnce.Do(func() { batch = buildBatch(runs, rounds) })
	return batch
}

func theLongBatch() costBatch {
	longBatchOnce.Do(func() { longBatch = buildBatch(longRuns, longRounds) })
	return longBatch
}

func buildBatch(runs, rounds int) costBatch {
	rng := rand.New(rand.NewPCG(2026, 11))
	var b costBatch
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "support-agent")
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName("agent")
	for run := range runs {
		trace := pcommon.TraceID{byte(run + 1), 0xa6, 0xe7}
		var transcript []string
		transcript = append(transcript,
			`{"role":"system","parts":[{"type":"text","content":"You are the support agent. Look customers up before answering."}]}`,
			`{"role":"user","parts":[{"type":"text","content":"Why was I charged twice this month?"}]}`)
		for round := range rounds {
			c := newCustomer(rng)
			b.secrets = append(b.secrets, c.secrets()...)
			b.regexFree = append(b.regexFree, c.name, c.notes, c.street)
			callID := fmt.Sprintf("call_%04d_%d_%x", run, round, rng.Uint32())
			args := `{"customer_id":` + quote(c.id) + `,"reason":"billing"}`

			model := span(ss, trace, "chat gpt-4o", ptrace.SpanKindClient)
			putModel(model.Attributes(), "["+strings.Join(transcript, ",")+"]",
				`[{"role":"assistant","parts":[{"type":"tool_call","id":`+quote(callID)+`,"name":"find_customer","arguments":`+args+`}]}]`)

			tool := span(ss, trace, "execute_tool find_customer", ptrace.SpanKindInternal)
			attrs := tool.Attributes()
			attrs.PutStr("gen_ai.operation.name", "execute_tool")
			attrs.PutStr("gen_ai.tool.name", customerTool)
			attrs.PutStr("gen_ai.tool.call.id", callID)
			attrs.PutStr("gen_ai.tool.call.arguments", args)
			attrs.PutStr("gen_ai.tool.call.result", c.record)

			http := span(ss, trace, "GET", ptrace.SpanKindClient)
			attrs = http.Attributes()
			attrs.PutStr("http.request.method", "GET")
			attrs.PutStr("url.full", "https://crm.internal/v2/customers/"+c.id)
			attrs.PutStr("server.address", "crm.internal")
			attrs.PutInt("server.port", 443)
			attrs.PutInt("http.response.status_code", 200)
			attrs.PutStr("network.protocol.version", "1.1")

			transcript = append(transcript,
				`{"role":"assistant","parts":[{"type":"tool_call","id":`+quote(callID)+`,"name":"find_customer","arguments":`+args+`}]}`,
				`{"role":"tool","parts":[{"type":"tool_call_response","id":`+quote(callID)+`,"response":`+c.record+`}]}`)
		}
	}
	b.traces = td
	for _, s := range ss.Spans().All() {
		for _, v := range s.Attributes().All() {
			if str := v.Str(); strings.HasPrefix(str, "{") || strings.HasPrefix(str, "[") {
				b.jsonValues = append(b.jsonValues, str)
				b.jsonBytes += len(str)
			}
		}
	}
	return b
}

func span(ss ptrace.ScopeSpans, trace pcommon.TraceID, name string, kind ptrace.SpanKind) ptrace.Span {
	s := ss.Spans().AppendEmpty()
	s.SetTraceID(trace)
	s.SetSpanID(pcommon.SpanID{byte(ss.Spans().Len() >> 8), byte(ss.Spans().Len()), 0x5e})
	s.SetName(name)
	s.SetKind(kind)
	return s
}

func putModel(attrs pcommon.Map, input, output string) {
	attrs.PutStr("gen_ai.operation.name", "chat")
	attrs.PutStr("gen_ai.provider.name", "openai")
	attrs.PutStr("gen_ai.request.model", "gpt-4o")
	attrs.PutInt("gen_ai.usage.input_tokens", int64(len(input)/4))
	attrs.PutInt("gen_ai.usage.output_tokens", 24)
	attrs.PutStr("gen_ai.input.messages", input)
	attrs.PutStr("gen_ai.output.messages", output)
}

// customer is one CRM record and the values in it.
type customer struct {
	id, name, email, phone, taxID, card, street, notes string
	record                                             string
}

func newCustomer(rng *rand.Rand) customer {
	first := []string{"Jane", "Amara", "Tomasz", "Ingrid", "Kofi", "Rosalind", "Mateo", "Yuki"}
	last := []string{"Roe-Whitfield", "Okonkwo", "Lindqvist", "Castellanos", "Abernathy", "Nakagawa"}
	streets := []string{"Juniper Hollow", "Kestrel Row", "Basalt Crescent", "Saffron Mews", "Thistle Lane"}
	digits := func(n int) string {
		var sb strings.Builder
		for range n {
			sb.WriteByte(byte('0' + rng.IntN(10)))
		}
		return sb.String()
	}
	c := customer{id: "cus_" + digits(10)}
	c.name = first[rng.IntN(len(first))] + " " + last[rng.IntN(len(last))] + " " + digits(3)
	c.email = strings.ToLower(strings.ReplaceAll(c.name, " ", ".")) + "@example-mail.test"
	c.phone = fmt.Sprintf("+1 (4%s) 555-%s", digits(2), digits(4))
	c.taxID = fmt.Sprintf("5%s-%s-%s", digits(2), digits(2), digits(4))
	c.card = fmt.Sprintf("4%s %s %s %s", digits(3), digits(4), digits(4), digits(4))
	c.street = fmt.Sprintf("%d %s", 10+rng.IntN(890), streets[rng.IntN(len(streets))])
	c.notes = fmt.Sprintf("Disputes late fees; prefers calls after %dpm; card ending %s charged twice in March", 1+rng.IntN(8), c.card[len(c.card)-4:])
	var sb strings.Builder
	fmt.Fprintf(&sb, `{"customer_id":%s,"name":%s,"email":%s,"phone":%s,"tax_id":%s,"status":"active","plan":"annual","balance":%d.%02d,`,
		quote(c.id), quote(c.name), quote(c.email), quote(c.phone), quote(c.taxID), rng.IntN(5000), rng.IntN(100))
	fmt.Fprintf(&sb, `"payment_method":{"brand":"visa","number":%s,"exp":"04/29"},"address":{"line1":%s,"city":"Portland","region":"OR","postcode":"97201","country":"US"},"notes":%s,"orders":[`,
		quote(c.card), quote(c.street), quote(c.notes))
	for i := range orders {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"id":"ord_%s","item":"Annual plan renewal, %d seats","total":%d.%02d,"status":"paid","placed":"2026-%02d-%02dT10:%02d:00Z"}`,
			digits(10), 5+rng.IntN(40), 100+rng.IntN(4000), rng.IntN(100), 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(60))
	}
	sb.WriteString(`]}`)
	c.record = sb.String()
	return c
}

func (c customer) secrets() []string {
	return []string{c.name, c.email, c.phone, c.taxID, c.card, c.street, c.notes}
}

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}
