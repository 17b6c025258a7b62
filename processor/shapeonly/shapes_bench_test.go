// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processortest"

	"github.com/agentotel/agentotel/internal/fingerprint"
	"github.com/agentotel/agentotel/internal/sharedcomponent"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/metadata"
)

// Time per byte must not grow with the transcript. BenchmarkShapes puts one span (or log record)
// through the real processor for every way a transcript is written, at about 1 KiB, 1 MiB and
// 16 MiB: a customer lookup (find_customer, data-class by the tools: configuration) early on, then
// turns of weather calls and chat, the model quoting the customer's name and email every 16
// messages. Structure withholds the lookup's result; the quotes are plain model text, so only the
// content search can withhold them, and every benchmark first checks that none survives. At 1 KiB
// a transcript is the lookup and one quote, so a quarter of its bytes are the record the trace
// remembers. Bytes are the transcript's: the attribute text, the keys and values of a flattened
// one, the JSON a structured one is built from.

// shapesSizes are the transcript sizes; the 16 MiB OpenInference transcript holds about 50,000
// messages.
var shapesSizes = []struct {
	name string
	size int
}{{"1KiB", 1 << 10}, {"1MiB", 1 << 20}, {"16MiB", 16 << 20}}

// The customer record find_customer returns, and its values that must not survive.
const (
	shapesName  = "Jane Roe-Whitfield"
	shapesEmail = "jane.roe@example-mail.test"
	shapesNotes = "VIP; disputes every late fee, prefers calls after 5pm"
)

var (
	shapesRecord = `{"customer_id":"cus_88421907","name":"` + shapesName + `","email":"` + shapesEmail +
		`","phone":"+1 415 555 0199","notes":"` + shapesNotes + `","address":{"line1":"12 Kestrel Row","city":"Portland"}}`
	shapesSecrets = []string{shapesName, shapesEmail, shapesNotes, "+1 415 555 0199", "12 Kestrel Row"}
)

// shapesCall is one tool call of an assistant message.
type shapesCall struct{ id, name, args string }

// shapesMessage is one message of a transcript, before a format writes it.
type shapesMessage struct {
	role string // user, assistant or tool
	text string
	// calls are an assistant message's tool calls.
	calls []shapesCall
	// callID, tool and result are a tool message's: the call it answers and the result, JSON.
	callID, tool, result string
}

// shapesMessages returns n messages of turns of a weather call and chat. With customer they open
// with the customer lookup and the model quoting it, and the model quotes the customer again every
// 16 messages.
func shapesMessages(n int, customer bool) []shapesMessage {
	quote := "Reminder from the account notes: " + shapesName + " (" + shapesEmail + ") wants a call back about the refund."
	var msgs []shapesMessage
	if customer {
		n = max(n, 4)
		msgs = []shapesMessage{
			{role: "user", text: "Look up account 88421907 and tell me who owns it."},
			{role: "assistant", calls: []shapesCall{{id: "call_0", name: customerTool, args: `{"query":"account 88421907"}`}}},
			{role: "tool", callID: "call_0", tool: customerTool, result: shapesRecord},
			{role: "assistant", text: quote},
		}
	}
	for i := 1; len(msgs) < n; i++ {
		id := "call_" + strconv.Itoa(i)
		turn := []shapesMessage{
			{role: "user", text: fmt.Sprintf("Thanks. For site visit %d, what is the weather in Oslo, and is there anything in the open tickets the field team should know before they leave the depot? The crew leaves at seven, so keep the answer short and flag anything that changes the route. Last time the tunnel was closed and nobody told them.", i)},
			{role: "assistant", calls: []shapesCall{{id: id, name: "get_weather", args: fmt.Sprintf(`{"city":"Oslo","visit":%d,"units":"metric"}`, i)}}},
			{role: "tool", callID: id, tool: "get_weather", result: fmt.Sprintf(`{"city":"Oslo","temp_c":%d,"sky":"overcast skies today","wind_kph":12,"visit":%d,"source":"met.no","advisory":"No warnings for the Oslo area; roads are clear and the ferries keep to the summer timetable."}`, i%9, i)},
			{role: "assistant", text: fmt.Sprintf("Visit %d: Oslo is %d C and overcast with a light wind, so the itinerary stands; the open tickets are all about invoices and none of them blocks the visit. I will check the forecast again before the crew leaves and flag any change to the route, the ferry times or the tunnel, which was closed last time.", i, i%9)},
		}
		if customer && i%4 == 0 {
			turn[3].text = quote
		}
		msgs = append(msgs, turn...)
	}
	return msgs[:n]
}

// A shapesFormat writes messages as one transcript format and reports the transcript's bytes.
type shapesFormat struct {
	name string
	// spans or logRecords builds the batch around the transcript: a span's, or a log record's.
	spans      func(msgs []shapesMessage) (ptrace.Traces, int)
	logRecords func(msgs []shapesMessage) (plog.Logs, int)
}

var shapesFormats = []shapesFormat{
	{name: "openinference-flat", spans: func(msgs []shapesMessage) (ptrace.Traces, int) {
		return shapesSpan(func(attrs pcommon.Map) int {
			attrs.PutStr("openinference.span.kind", "LLM")
			return putFlat(attrs, msgs, "llm.input_messages.", openInferenceFlatKeys)
		})
	}},
	{name: "openllmetry-flat", spans: func(msgs []shapesMessage) (ptrace.Traces, int) {
		return shapesSpan(func(attrs pcommon.Map) int {
			attrs.PutStr("llm.request.type", "chat")
			return putFlat(attrs, msgs, "gen_ai.prompt.", openLLMetryFlatKeys)
		})
	}},
	{name: "genai-json", spans: func(msgs []shapesMessage) (ptrace.Traces, int) {
		return shapesSpan(func(attrs pcommon.Map) int {
			attrs.PutStr("gen_ai.operation.name", "chat")
			doc := genAIJSON(msgs)
			attrs.PutStr("gen_ai.input.messages", doc)
			return len(doc)
		})
	}},
	{name: "genai-otlp", spans: func(msgs []shapesMessage) (ptrace.Traces, int) {
		return shapesSpan(func(attrs pcommon.Map) int {
			attrs.PutStr("gen_ai.operation.name", "chat")
			return putGenAIOTLP(attrs.PutEmptySlice("gen_ai.input.messages"), msgs)
		})
	}},
	{name: "aisdk", spans: func(msgs []shapesMessage) (ptrace.Traces, int) {
		return shapesSpan(func(attrs pcommon.Map) int {
			attrs.PutStr("ai.operationId", "ai.generateText.doGenerate")
			doc := aiSDKJSON(msgs)
			attrs.PutStr("ai.prompt.messages", doc)
			return len(doc)
		})
	}},
	{name: "adk", spans: func(msgs []shapesMessage) (ptrace.Traces, int) {
		td, n := shapesSpan(func(attrs pcommon.Map) int {
			doc := geminiRequest(msgs)
			attrs.PutStr("gcp.vertex.agent.llm_request", doc)
			return len(doc)
		})
		rs := td.ResourceSpans().At(0)
		rs.ScopeSpans().At(0).Scope().SetName("gcp.vertex.agent")
		rs.ScopeSpans().At(0).Spans().At(0).SetName("call_llm")
		return td, n
	}},
	{name: "genai-event-body", logRecords: func(msgs []shapesMessage) (plog.Logs, int) {
		ld := plog.NewLogs()
		lr := ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords().AppendEmpty()
		lr.SetEventName("gen_ai.client.inference.operation.details")
		lr.SetTraceID(shapesTrace)
		lr.Attributes().PutStr("gen_ai.operation.name", "chat")
		n := putGenAIOTLP(lr.Body().SetEmptyMap().PutEmptySlice("gen_ai.input.messages"), msgs)
		return ld, n
	}},
	{name: "plain-text", spans: func(msgs []shapesMessage) (ptrace.Traces, int) {
		// Text no convention reads: only the content search, with what the trace's find_customer span
		// withheld in an earlier batch, can find the customer in it.
		return shapesSpan(func(attrs pcommon.Map) int {
			text := plainText(msgs)
			attrs.PutStr("app.session.log", text)
			return len(text)
		})
	}},
}

// plainText writes messages as a session log.
func plainText(msgs []shapesMessage) string {
	var sb strings.Builder
	for _, m := range msgs {
		sb.WriteString(m.role + ": " + m.text + m.result + "\n")
	}
	return sb.String()
}

// shapesTrace is the trace of a batch built here.
var shapesTrace = pcommon.TraceID{1}

// shapesSpan is a batch of one span whose attributes put sets; it returns what put returns.
func shapesSpan(put func(pcommon.Map) int) (ptrace.Traces, int) {
	td := ptrace.NewTraces()
	span := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	span.SetTraceID(shapesTrace)
	span.SetSpanID(pcommon.SpanID{1})
	span.SetName("chat")
	return td, put(span.Attributes())
}

// flatKeys are a flattened layout's suffixes under "<prefix><i>.".
type flatKeys struct{ role, content, toolCallID, callPrefix, callID, callName, callArgs string }

var (
	openInferenceFlatKeys = flatKeys{"message.role", "message.content", "message.tool_call_id", "message.tool_calls.",
		"tool_call.id", "tool_call.function.name", "tool_call.function.arguments"}
	openLLMetryFlatKeys = flatKeys{"role", "content", "tool_call_id", "tool_calls.", "id", "name", "arguments"}
)

// putFlat writes messages flattened under prefix and returns the bytes of their keys and values.
func putFlat(attrs pcommon.Map, msgs []shapesMessage, prefix string, k flatKeys) int {
	var kvs []string
	n := 0
	put := func(key, value string) {
		kvs = append(kvs, key, value)
		n += len(key) + len(value)
	}
	for i, m := range msgs {
		p := prefix + strconv.Itoa(i) + "."
		put(p+k.role, m.role)
		for j, c := range m.calls {
			cp := p + k.callPrefix + strconv.Itoa(j) + "."
			put(cp+k.callID, c.id)
			put(cp+k.callName, c.name)
			put(cp+k.callArgs, c.args)
		}
		switch {
		case m.role == "tool":
			put(p+k.toolCallID, m.callID)
			put(p+k.content, m.result)
		case m.text != "":
			put(p+k.content, m.text)
		}
	}
	appendStrs(attrs, kvs)
	return n
}

// appendStrs appends string attributes, key and value pairs, to attrs (which holds only strings) in
// order. Map.PutStr looks each key up first, which would make writing 200,000 of them quadratic; the
// OTLP/JSON decoder appends.
func appendStrs(attrs pcommon.Map, kvs []string) {
	var all []string
	for k, v := range attrs.All() {
		all = append(all, k, v.Str())
	}
	all = append(all, kvs...)
	var sb bytes.Buffer
	sb.WriteString(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[`)
	for i := 0; i < len(all); i += 2 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"key":` + jsonText(all[i]) + `,"value":{"stringValue":` + jsonText(all[i+1]) + `}}`)
	}
	sb.WriteString(`]}]}]}]}`)
	td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(sb.Bytes())
	if err != nil {
		panic(err)
	}
	td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).Attributes().MoveTo(attrs)
}

func jsonText(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// writeMessages writes msgs as a JSON array, each message by one.
func writeMessages(sb *bytes.Buffer, msgs []shapesMessage, one func(*bytes.Buffer, shapesMessage)) {
	sb.WriteByte('[')
	for i, m := range msgs {
		if i > 0 {
			sb.WriteByte(',')
		}
		one(sb, m)
	}
	sb.WriteByte(']')
}

// genAIJSON is a GenAI gen_ai.input.messages document.
func genAIJSON(msgs []shapesMessage) string {
	var sb bytes.Buffer
	writeMessages(&sb, msgs, func(sb *bytes.Buffer, m shapesMessage) {
		sb.WriteString(`{"role":"` + m.role + `","parts":[`)
		switch {
		case m.role == "tool":
			sb.WriteString(`{"type":"tool_call_response","id":"` + m.callID + `","response":` + m.result + `}`)
		case len(m.calls) > 0:
			for j, c := range m.calls {
				if j > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString(`{"type":"tool_call","id":"` + c.id + `","name":"` + c.name + `","arguments":` + c.args + `}`)
			}
		default:
			sb.WriteString(`{"type":"text","content":` + jsonText(m.text) + `}`)
		}
		sb.WriteString(`]}`)
	})
	return sb.String()
}

// putGenAIOTLP writes the GenAI messages as an OTLP array of maps, JSON values as maps, and returns
// the bytes of the JSON document they were written from.
func putGenAIOTLP(dst pcommon.Slice, msgs []shapesMessage) int {
	doc := genAIJSON(msgs)
	var raw []any
	if err := json.Unmarshal([]byte(doc), &raw); err != nil {
		panic(err)
	}
	if err := dst.FromRaw(raw); err != nil {
		panic(err)
	}
	return len(doc)
}

// aiSDKJSON is a Vercel AI SDK ai.prompt.messages document (v5 and later).
func aiSDKJSON(msgs []shapesMessage) string {
	var sb bytes.Buffer
	writeMessages(&sb, msgs, func(sb *bytes.Buffer, m shapesMessage) {
		sb.WriteString(`{"role":"` + m.role + `","content":[`)
		switch {
		case m.role == "tool":
			sb.WriteString(`{"type":"tool-result","toolCallId":"` + m.callID + `","toolName":"` + m.tool +
				`","output":{"type":"json","value":` + m.result + `}}`)
		case len(m.calls) > 0:
			for j, c := range m.calls {
				if j > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString(`{"type":"tool-call","toolCallId":"` + c.id + `","toolName":"` + c.name + `","input":` + c.args + `}`)
			}
		default:
			sb.WriteString(`{"type":"text","text":` + jsonText(m.text) + `}`)
		}
		sb.WriteString(`]}`)
	})
	return sb.String()
}

// geminiRequest is an ADK gcp.vertex.agent.llm_request: a Gemini request whose contents are the
// messages.
func geminiRequest(msgs []shapesMessage) string {
	var sb bytes.Buffer
	sb.WriteString(`{"model":"gemini-2.5-flash","contents":`)
	writeMessages(&sb, msgs, func(sb *bytes.Buffer, m shapesMessage) {
		role := "user"
		if m.role == "assistant" {
			role = "model"
		}
		sb.WriteString(`{"role":"` + role + `","parts":[`)
		switch {
		case m.role == "tool":
			sb.WriteString(`{"functionResponse":{"id":"` + m.callID + `","name":"` + m.tool + `","response":` + m.result + `}}`)
		case len(m.calls) > 0:
			for j, c := range m.calls {
				if j > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString(`{"functionCall":{"name":"` + c.name + `","args":` + c.args + `,"id":"` + c.id + `"}}`)
			}
		default:
			sb.WriteString(`{"text":` + jsonText(m.text) + `}`)
		}
		sb.WriteString(`]}`)
	})
	sb.WriteString(`,"config":{"systemInstruction":"You are a support agent."}}`)
	return sb.String()
}

// shapesInput is one benchmark's batch, built once.
type shapesInput struct {
	traces ptrace.Traces
	logs   plog.Logs
	isLogs bool
	bytes  int
}

// build makes the format's batch with a transcript of about size bytes: the messages' bytes are
// measured on a sample, and as many written as fit.
func (f shapesFormat) build(size int) shapesInput {
	measure := func(n int) shapesInput {
		msgs := shapesMessages(n, true)
		if f.logRecords != nil {
			ld, b := f.logRecords(msgs)
			return shapesInput{logs: ld, isLogs: true, bytes: b}
		}
		td, b := f.spans(msgs)
		return shapesInput{traces: td, bytes: b}
	}
	const sample = 256
	perMessage := float64(measure(sample).bytes) / sample
	return measure(max(4, int(float64(size)/perMessage)))
}

// shapesProcessors are the real processors, built by the factory with tools: {find_customer:
// customer}, traces and logs sharing one memory as in a collector.
type shapesProcessors struct {
	traces processor.Traces
	logs   processor.Logs
}

func newShapesProcessors(tb testing.TB) shapesProcessors {
	tb.Helper()
	f := NewFactory()
	cfg := createDefaultConfig()
	byName(cfg)
	if err := cfg.Validate(); err != nil {
		tb.Fatal(err)
	}
	set := processortest.NewNopSettings(metadata.Type)
	set.ID = component.NewIDWithName(metadata.Type, "shapes")
	ctx := context.Background()
	var p shapesProcessors
	var err error
	if p.traces, err = f.CreateTraces(ctx, set, cfg, consumertest.NewNop()); err != nil {
		tb.Fatal(err)
	}
	if p.logs, err = f.CreateLogs(ctx, set, cfg, consumertest.NewNop()); err != nil {
		tb.Fatal(err)
	}
	for _, c := range []component.Component{p.traces, p.logs} {
		if err := c.Start(ctx, componenttest.NewNopHost()); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() {
			if err := c.Shutdown(ctx); err != nil {
				tb.Error(err)
			}
		})
	}
	return p
}

// learnCustomer sends the trace's find_customer span on its own, as an earlier batch, so the
// memory holds the customer record's fingerprints for the trace.
func (p shapesProcessors) learnCustomer(tb testing.TB, trace pcommon.TraceID) {
	td, _ := shapesSpan(func(attrs pcommon.Map) int {
		attrs.PutStr("gen_ai.operation.name", "execute_tool")
		attrs.PutStr("gen_ai.tool.name", customerTool)
		attrs.PutStr("gen_ai.tool.call.id", "call_0")
		attrs.PutStr("gen_ai.tool.call.result", shapesRecord)
		return 0
	})
	td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).SetTraceID(trace)
	if err := p.traces.ConsumeTraces(context.Background(), td); err != nil {
		tb.Fatal(err)
	}
}

// consume runs a batch through the processor that takes it.
func (p shapesProcessors) consume(tb testing.TB, in shapesInput) {
	ctx := context.Background()
	var err error
	if in.isLogs {
		err = p.logs.ConsumeLogs(ctx, in.logs)
	} else {
		err = p.traces.ConsumeTraces(ctx, in.traces)
	}
	if err != nil {
		tb.Fatal(err)
	}
}

// copies hands out fresh copies of a batch, made in rounds with the timer stopped: the processor
// rewrites what it is given. A round holds about 64 MiB of transcript, so small batches do not
// stop the timer (which stops the world to read memory statistics) once per operation.
type copies struct {
	b       *testing.B
	in      shapesInput
	ready   []shapesInput
	perTurn int
	next    uint64
}

func newCopies(b *testing.B, in shapesInput) *copies {
	return &copies{b: b, in: in, perTurn: min(max(1, (64<<20)/max(in.bytes, 1)), 256)}
}

// take returns the next copy. With retrace, its one trace is a new one each time: a new
// conversation for the memory.
func (c *copies) take(retrace bool) shapesInput {
	if len(c.ready) == 0 {
		c.b.StopTimer()
		for range c.perTurn {
			c.ready = append(c.ready, c.copyOf(retrace))
		}
		c.b.StartTimer()
	}
	in := c.ready[len(c.ready)-1]
	c.ready = c.ready[:len(c.ready)-1]
	return in
}

func (c *copies) copyOf(retrace bool) shapesInput {
	out := shapesInput{isLogs: c.in.isLogs, bytes: c.in.bytes}
	c.next++
	trace := pcommon.TraceID{2, byte(c.next >> 56), byte(c.next >> 48), byte(c.next >> 40), byte(c.next >> 32),
		byte(c.next >> 24), byte(c.next >> 16), byte(c.next >> 8), byte(c.next)}
	if c.in.isLogs {
		out.logs = plog.NewLogs()
		c.in.logs.CopyTo(out.logs)
		if retrace {
			out.logs.ResourceLogs().At(0).ScopeLogs().At(0).LogRecords().At(0).SetTraceID(trace)
		}
		return out
	}
	out.traces = ptrace.NewTraces()
	c.in.traces.CopyTo(out.traces)
	if retrace {
		for _, s := range walk.Spans(out.traces) {
			s.SetTraceID(trace)
		}
	}
	return out
}

// checkShaped fails unless the batch, once processed, holds no customer value: the quotes in model
// text are found by content, the record by structure.
func checkShaped(b *testing.B, in shapesInput) {
	b.Helper()
	var out []byte
	var err error
	if in.isLogs {
		out, err = (&plog.JSONMarshaler{}).MarshalLogs(in.logs)
	} else {
		out, err = (&ptrace.JSONMarshaler{}).MarshalTraces(in.traces)
	}
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range shapesSecrets {
		if bytes.Contains(out, []byte(s)) || bytes.Contains(out, []byte(jsonText(s)[1:len(jsonText(s))-1])) {
			b.Fatalf("%q survives: %.300s", s, out[bytes.Index(out, []byte(s[:8])):])
		}
	}
	if !bytes.Contains(out, []byte("[withheld]")) {
		b.Fatal("nothing withheld")
	}
}

// BenchmarkShapes is one transcript per format and size through the real processor: MB/s must not
// fall as the transcript grows.
func BenchmarkShapes(b *testing.B) {
	for _, f := range shapesFormats {
		for _, sz := range shapesSizes {
			b.Run(f.name+"/"+sz.name, func(b *testing.B) {
				in := f.build(sz.size)
				p := newShapesProcessors(b)
				// The plain text's trace withheld the record in an earlier batch; every other
				// transcript is a new conversation each time.
				retrace := f.name != "plain-text"
				if !retrace {
					p.learnCustomer(b, shapesTrace)
				}
				c := newCopies(b, in)
				first := c.copyOf(retrace)
				p.consume(b, first)
				checkShaped(b, first)
				b.SetBytes(int64(in.bytes))
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					p.consume(b, c.take(retrace))
				}
			})
		}
	}
}

// searchBatch is a batch of 64 traces as a collector batches them: per trace a chat span with a
// GenAI transcript of 24 messages and a tool span for each of its weather calls. With customer,
// each trace also looks the customer up (its find_customer span among the tool spans) and quotes it.
func searchBatch(customer bool) (ptrace.Traces, int) {
	td := ptrace.NewTraces()
	spans := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans()
	total := 0
	for t := range 64 {
		trace := pcommon.TraceID{3, byte(t)}
		msgs := shapesMessages(24, customer)
		chat := spans.AppendEmpty()
		chat.SetTraceID(trace)
		chat.SetSpanID(pcommon.SpanID{1})
		chat.SetName("chat gpt-4o")
		doc := genAIJSON(msgs)
		chat.Attributes().PutStr("gen_ai.operation.name", "chat")
		chat.Attributes().PutStr("gen_ai.input.messages", doc)
		total += len(doc)
		for i, m := range msgs {
			if m.role != "tool" {
				continue
			}
			tool := spans.AppendEmpty()
			tool.SetTraceID(trace)
			tool.SetSpanID(pcommon.SpanID{2, byte(i)})
			tool.SetParentSpanID(pcommon.SpanID{1})
			tool.SetName("execute_tool " + m.tool)
			attrs := tool.Attributes()
			attrs.PutStr("gen_ai.operation.name", "execute_tool")
			attrs.PutStr("gen_ai.tool.name", m.tool)
			attrs.PutStr("gen_ai.tool.call.id", m.callID)
			attrs.PutStr("gen_ai.tool.call.result", m.result)
			total += len(m.result)
		}
	}
	return td, total
}

// newSearchProcessor is the processor itself, without the collector's wrapper, so its steps can be
// run apart.
func newSearchProcessor(b *testing.B) *shapeOnly {
	cfg := createDefaultConfig()
	byName(cfg)
	set := processortest.NewNopSettings(metadata.Type)
	set.ID = component.NewIDWithName(metadata.Type, "search")
	p, err := newShapeOnly(set, cfg, sharedcomponent.NewMap[*Config, *memory]())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = p.shutdown(context.Background()) })
	return p
}

// withoutSearch is processTraces without its content search step.
func (p *shapeOnly) withoutSearch(ctx context.Context, td ptrace.Traces) {
	b := p.batches.Get().(*batch)
	defer p.batches.Put(b)
	b.start(p.now())
	b.readSpans(td)
	b.decide()
	b.shape()
	p.record(ctx, b)
}

// BenchmarkContentSearchIdle shows that a batch whose traces never call a data-class tool pays
// nothing for the content search: the processor takes as long as its steps without the search.
// The attribute walk over the same batch is the floor. The batch whose traces look the customer
// up shows what the search costs when it has to run.
func BenchmarkContentSearchIdle(b *testing.B) {
	ctx := context.Background()
	for _, customer := range []bool{false, true} {
		batch, size := searchBatch(customer)
		name := "no-data-class"
		if customer {
			name = "data-class"
		}
		run := func(b *testing.B, process func(ptrace.Traces)) {
			c := newCopies(b, shapesInput{traces: batch, bytes: size})
			b.SetBytes(int64(size))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				process(c.take(false).traces)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(batch.SpanCount()), "ns/span")
		}
		b.Run(name+"/processor", func(b *testing.B) {
			p := newSearchProcessor(b)
			run(b, func(td ptrace.Traces) {
				if _, err := p.processTraces(ctx, td); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(name+"/without-search", func(b *testing.B) {
			p := newSearchProcessor(b)
			run(b, func(td ptrace.Traces) { p.withoutSearch(ctx, td) })
		})
		b.Run(name+"/attribute-walk", func(b *testing.B) {
			run(b, func(td ptrace.Traces) {
				n := 0
				for _, s := range walk.Spans(td) {
					for _, v := range s.Attributes().All() {
						n += len(v.Str())
					}
				}
				searchSink += n
			})
		})
	}
}

// searchSink keeps the attribute walk from being optimised away.
var searchSink int

// BenchmarkContentSearchScan is the content search's throughput over text it must scan to the end:
// a trace withheld the customer record in an earlier batch, and a later span of it carries a
// session log that quotes none of it. "processor" is the whole processor on that span; "scanner"
// is fingerprint.Scanner.Hit alone on the same text, with a set of the same record's leaves.
func BenchmarkContentSearchScan(b *testing.B) {
	for _, sz := range shapesSizes {
		msgs := shapesMessages(max(1, sz.size/280), false)
		text := plainText(msgs)
		b.Run("processor/"+sz.name, func(b *testing.B) {
			p := newShapesProcessors(b)
			p.learnCustomer(b, shapesTrace)
			td, _ := shapesSpan(func(attrs pcommon.Map) int {
				attrs.PutStr("app.session.log", text)
				return len(text)
			})
			// Nothing in the text is withheld, so the span is the same after every run.
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				p.consume(b, shapesInput{traces: td})
			}
			if v, _ := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).Attributes().Get("app.session.log"); v.Str() != text {
				b.Fatal("the text changed")
			}
		})
		b.Run("scanner/"+sz.name, func(b *testing.B) {
			set := fingerprint.NewSet(1 << 16)
			if _, err := set.AddJSONLeaves([]byte(shapesRecord), nil); err != nil {
				b.Fatal(err)
			}
			set.Build()
			sets := []*fingerprint.Set{set}
			var sc fingerprint.Scanner
			raw := []byte(text)
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				if sc.Hit(sets, raw) {
					b.Fatal("the text holds a leaf")
				}
			}
		})
	}
}
