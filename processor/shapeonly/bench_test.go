package shapeonly

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/open-telemetry/opentelemetry-collector-contrib/processor/redactionprocessor"
	"github.com/open-telemetry/opentelemetry-collector-contrib/processor/transformprocessor"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processortest"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/collectortest"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/metadata"
)

// The benchmark: one realistic batch through shapeonly, through the contrib redaction
// processor with PII regexes, through the contrib transform processor with OTTL regex replacements,
// and through a bare attribute walk (the floor), all reported per span. docs/benchmarks.md has the
// figures and the commands.

// piiPatterns are the usual PII regexes, used alike by redaction (blocked_values) and OTTL
// (replace_all_patterns). Character classes stand in for \d and \. so the same text is valid in an
// OTTL string literal.
var piiPatterns = []struct{ name, re string }{
	{"email", `[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+[.][a-zA-Z]{2,}`},
	{"card number", `(?:[0-9][ -]?){12,15}[0-9]`},
	{"US SSN", `[0-9]{3}-[0-9]{2}-[0-9]{4}`},
	{"phone", `(?:[+]?[0-9]{1,3}[ .-]?)?[(]?[0-9]{3}[)]?[ .-]?[0-9]{3}[ .-]?[0-9]{4}`},
}

// benchRunsPerConvention runs of agentgen.Mix per convention make the batch: every scenario once in
// each of the four conventions, 40 runs.
const benchRunsPerConvention = 10

// benchData is the batch every batch benchmark processes, and what it must not leak.
type benchData struct {
	batch ptrace.Traces
	// secrets are the customer values of the support runs: name, email, notes, and the fields the
	// record was padded with (phone, tax id, card number, street).
	secrets []string
	// unmatchable are the secrets no PII regex can describe: name, notes, street.
	unmatchable []string
}

var (
	benchOnce sync.Once
	bench     benchData
)

// benchBatch builds the batch once: agentgen.Mix in every convention, call ids unique across runs as
// providers make them, and each find_customer record padded to a full CRM record (~1.4 KiB) wherever
// it appears, on the tool span and in every later transcript that repeats it.
func benchBatch() benchData {
	benchOnce.Do(func() {
		rng := rand.New(rand.NewPCG(2026, 17))
		var runs []agentgen.Run
		for i, c := range agentgen.Conventions() {
			for _, r := range agentgen.Mix(benchRunsPerConvention, agentgen.Options{Convention: c, Seed: 2026 + uint64(i)}) {
				r = uniqueCallIDs(r)
				if r.Scenario == "support" {
					r = padCustomerRecord(r, rng)
					bench.unmatchable = append(bench.unmatchable, r.Secrets[0], r.Secrets[2], r.Secrets[len(r.Secrets)-1])
				}
				bench.secrets = append(bench.secrets, r.Secrets...)
				runs = append(runs, r)
			}
		}
		bench.batch = merge(runs)
	})
	return bench
}

func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// padCustomerRecord grows a support run's find_customer result with the fields a CRM returns
// (contact details, tax id, card on file, address, orders, tickets) and puts the padded record
// wherever the original appears. The new values join the run's secrets.
func padCustomerRecord(r agentgen.Run, rng *rand.Rand) agentgen.Run {
	name, notes := r.Secrets[0], r.Secrets[2]
	digits := func(n int) string {
		var sb strings.Builder
		for range n {
			sb.WriteByte(byte('0' + rng.IntN(10)))
		}
		return sb.String()
	}
	phone := fmt.Sprintf("+1 (%s) 555-%s", "4"+digits(2), digits(4))
	taxID := fmt.Sprintf("%s-%s-%s", "5"+digits(2), digits(2), digits(4))
	card := fmt.Sprintf("4%s %s %s %s", digits(3), digits(4), digits(4), digits(4))
	streets := []string{"Juniper Hollow", "Kestrel Row", "Basalt Crescent", "Saffron Mews", "Thistle Lane"}
	street := fmt.Sprintf("%d %s", 10+rng.IntN(890), streets[rng.IntN(len(streets))])
	var orders, tickets []string
	for range 4 {
		orders = append(orders, fmt.Sprintf(`{"id":"ord_%s","item":"Annual plan renewal, %d seats","total":%d.%02d,"status":"paid","placed":"2025-%02d-%02dT10:%02d:00Z"}`,
			digits(10), 5+rng.IntN(40), 100+rng.IntN(4000), rng.IntN(100), 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(60)))
	}
	for range 2 {
		tickets = append(tickets, fmt.Sprintf(`{"id":"tkt_%s","subject":"Invoice question","body":%s,"status":"closed"}`,
			digits(8), jsonString(fmt.Sprintf("%s asked why the card ending %s was charged twice; refunded and apologised.", name, card[len(card)-4:]))))
	}
	extra := `,"phone":` + jsonString(phone) + `,"tax_id":` + jsonString(taxID) +
		`,"payment_method":{"brand":"visa","number":` + jsonString(card) + `,"exp":"04/29"}` +
		`,"address":{"line1":` + jsonString(street) + `,"city":"Portland","region":"OR","postcode":"97201","country":"US"}` +
		`,"orders":[` + strings.Join(orders, ",") + `],"tickets":[` + strings.Join(tickets, ",") + `]`

	var result string
	collectortest.ForEachSpan(r.Traces, func(s ptrace.Span) {
		if v := agentspan.Default.Recognize(agentspan.Span{Name: s.Name(), Attrs: s.Attributes()}); v.Role == agentspan.RoleTool && v.Tool == customerTool {
			res, _ := s.Attributes().Get(v.ResultKey)
			result = res.Str()
		}
	})
	notesMember := `"notes":` + jsonString(notes)
	if !strings.Contains(result, notesMember) {
		panic("agentgen's find_customer record changed shape: " + result)
	}
	padded := strings.Replace(result, notesMember, notesMember+extra, 1)
	copies := 0
	collectortest.ForEachSpan(r.Traces, func(s ptrace.Span) {
		for _, v := range s.Attributes().All() {
			if v.Type() == pcommon.ValueTypeStr && strings.Contains(v.Str(), result) {
				copies += strings.Count(v.Str(), result)
				v.SetStr(strings.ReplaceAll(v.Str(), result, padded))
			}
		}
	})
	if copies < 3 { // the tool span and the two later model spans' transcripts
		panic(fmt.Sprintf("%s: customer record found %d times", r.ID, copies))
	}
	r.Secrets = append(r.Secrets, phone, taxID, card, street)
	return r
}

func benchSettings(typ component.Type) processor.Settings {
	set := processortest.NewNopSettings(typ)
	set.ID = component.NewIDWithName(typ, "bench")
	return set
}

func newShapeonlyBench(tb testing.TB) processor.Traces {
	cfg := createDefaultConfig()
	byName(cfg)
	return startTraces(tb, NewFactory(), cfg)
}

func newRedactionBench(tb testing.TB) processor.Traces {
	f := redactionprocessor.NewFactory()
	cfg := f.CreateDefaultConfig().(*redactionprocessor.Config)
	cfg.AllowAllKeys = true
	for _, p := range piiPatterns {
		cfg.BlockedValues = append(cfg.BlockedValues, p.re)
	}
	return startTraces(tb, f, cfg)
}

func newTransformBench(tb testing.TB) processor.Traces {
	f := transformprocessor.NewFactory()
	cfg := f.CreateDefaultConfig()
	var statements []any
	for _, p := range piiPatterns {
		statements = append(statements, fmt.Sprintf(`replace_all_patterns(span.attributes, "value", %q, "[withheld]")`, p.re))
	}
	conf := confmap.NewFromStringMap(map[string]any{
		"error_mode":       "ignore",
		"trace_statements": []any{map[string]any{"context": "span", "statements": statements}},
	})
	if err := conf.Unmarshal(cfg); err != nil {
		tb.Fatal(err)
	}
	return startTraces(tb, f, cfg)
}

func startTraces(tb testing.TB, f processor.Factory, cfg component.Config) processor.Traces {
	tb.Helper()
	if v, ok := cfg.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			tb.Fatal(err)
		}
	}
	p, err := f.CreateTraces(context.Background(), benchSettings(f.Type()), cfg, consumertest.NewNop())
	if err != nil {
		tb.Fatal(err)
	}
	if err := p.Start(context.Background(), componenttest.NewNopHost()); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := p.Shutdown(context.Background()); err != nil {
			tb.Error(err)
		}
	})
	return p
}

// processOnce runs a fresh copy of the batch through p and returns the result.
func processOnce(tb testing.TB, p processor.Traces, batch ptrace.Traces) ptrace.Traces {
	td := copyTraces(batch)
	if err := p.ConsumeTraces(context.Background(), td); err != nil {
		tb.Fatal(err)
	}
	return td
}

var (
	leakOnce sync.Once
	leakErr  error
)

// checkLeaks runs once, outside any timing: shapeonly leaves no secret and no 8-byte window of one;
// redaction with PII regexes hides what regexes can describe (emails, phones, tax ids, card numbers)
// and leaves the rest of the customer record: names, notes, streets.
func checkLeaks(b *testing.B) {
	leakOnce.Do(func() {
		d := benchBatch()
		in := otlpJSON(b, d.batch)
		scan := newSecretScan(b, d.secrets, in)
		if len(scan.leaks(in)) == 0 {
			leakErr = fmt.Errorf("the scan finds no secret in the input")
			return
		}
		shaped := otlpJSON(b, processOnce(b, newShapeonlyBench(b), d.batch))
		if leaks := scan.leaks(shaped); len(leaks) > 0 {
			leakErr = fmt.Errorf("shapeonly leaks %d: %s", len(leaks), leaks[0])
			return
		}
		redacted := otlpJSON(b, processOnce(b, newRedactionBench(b), d.batch))
		var kept []string
		for _, s := range d.secrets {
			if strings.Contains(redacted, s) {
				kept = append(kept, s)
			}
		}
		for _, s := range d.unmatchable {
			if !strings.Contains(redacted, s) {
				leakErr = fmt.Errorf("redaction hid %q, which no PII regex describes: the comparison is off", s)
				return
			}
		}
		if len(kept) == len(d.secrets) {
			leakErr = fmt.Errorf("redaction hid nothing: its regexes are not applied")
			return
		}
		b.Logf("batch: %d spans; redaction leaves %d of %d customer values that shapeonly hides, e.g. %q",
			d.batch.SpanCount(), len(kept), len(d.secrets), kept[0])
	})
	if leakErr != nil {
		b.Fatal(leakErr)
	}
}

// benchBatchPer runs consume on a fresh copy of the batch per iteration. The copy is made with the
// timer stopped and its allocations are left out; time, bytes and allocations are reported per span.
func benchBatchPer(b *testing.B, consume func(ptrace.Traces)) {
	checkLeaks(b)
	batch := benchBatch().batch
	spans := batch.SpanCount()
	var before, after runtime.MemStats
	var mallocs, bytes uint64
	b.ReportAllocs()
	b.ResetTimer()
	b.StopTimer()
	for range b.N {
		td := copyTraces(batch)
		runtime.ReadMemStats(&before)
		b.StartTimer()
		consume(td)
		b.StopTimer()
		runtime.ReadMemStats(&after)
		mallocs += after.Mallocs - before.Mallocs
		bytes += after.TotalAlloc - before.TotalAlloc
	}
	n := float64(b.N) * float64(spans)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/span")
	b.ReportMetric(float64(bytes)/n, "B/span")
	b.ReportMetric(float64(mallocs)/n, "allocs/span")
}

func benchProcessor(b *testing.B, p processor.Traces) {
	ctx := context.Background()
	benchBatchPer(b, func(td ptrace.Traces) {
		if err := p.ConsumeTraces(ctx, td); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkShapeonly is the real processor, built by its factory, into a no-op consumer.
func BenchmarkShapeonly(b *testing.B) { benchProcessor(b, newShapeonlyBench(b)) }

// BenchmarkRedactionPII is the contrib redaction processor with allow_all_keys and the PII regexes
// as blocked_values: it hides what a regex can describe.
func BenchmarkRedactionPII(b *testing.B) { benchProcessor(b, newRedactionBench(b)) }

// BenchmarkTransformOTTL is the contrib transform processor replacing the same patterns in every
// span attribute value with OTTL replace_all_patterns.
func BenchmarkTransformOTTL(b *testing.B) { benchProcessor(b, newTransformBench(b)) }

// attrWalkSink keeps the walk from being optimised away.
var attrWalkSink int

// BenchmarkAttributeWalk is the floor: visit every attribute value of every span and read its string
// length, changing nothing.
func BenchmarkAttributeWalk(b *testing.B) {
	benchBatchPer(b, func(td ptrace.Traces) {
		n := 0
		collectortest.ForEachSpan(td, func(s ptrace.Span) {
			for _, v := range s.Attributes().All() {
				n += len(v.Str())
			}
		})
		attrWalkSink += n
	})
}

// valueDoc builds a JSON object of customer records of at least size bytes. Records are objects under
// their own keys, not array elements, so the shaped output grows with the input: an array would be
// withheld as one "[N withheld]" and hide any growth in what the shaper writes.
func valueDoc(size int) string {
	var sb strings.Builder
	sb.WriteString(`{"status":"ok","customers":{`)
	for i := 0; sb.Len() < size-2; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `"cus_%06d":{"name":"Ada Lovelace %d","email":"ada%d@example.com","plan":"annual","balance":%d.5,"vip":true,"notes":"prefers contact after 5pm; asked about the invoice"}`, i, i, i, i)
	}
	sb.WriteString(`}}`)
	return sb.String()
}

var valueSizes = []struct {
	name string
	size int
}{{"1KiB", 1 << 10}, {"16KiB", 16 << 10}, {"256KiB", 256 << 10}}

// BenchmarkShapeValue is the processor's value path for one attribute of a data-class span: the
// batch's valueShaper, which shapes with countsonly into the batch's reused buffer, remembers what it
// withholds in the trace's fingerprints, and writes the shaped string back. Allocations per op must not
// grow with the value.
func BenchmarkShapeValue(b *testing.B) {
	p := newBenchProcessor(b)
	for _, vs := range valueSizes {
		b.Run(vs.name, func(b *testing.B) {
			doc := valueDoc(vs.size)
			bt, owner := oneTraceBatch(p)
			v := pcommon.NewValueStr(doc)
			if bt.values.shapeAttr("gen_ai.tool.call.result", v, owner, agentspan.RememberAll); bt.values.failed > 0 || !strings.Contains(v.Str(), `"name":"[withheld]"`) {
				b.Fatalf("not shaped: %.200s", v.Str())
			}
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				v.SetStr(doc)
				bt.values.shapeAttr("gen_ai.tool.call.result", v, owner, agentspan.RememberAll)
			}
		})
	}
}

// BenchmarkWithholdTranscript is the value path for a model span: a GenAI transcript whose one
// customer result is of the given size, through the batch's agentspan.Withholder with the processor's
// own policy and shaper. Each op first puts the original transcript back (one SetStr, as the
// processor's own SetStr of the result costs).
func BenchmarkWithholdTranscript(b *testing.B) {
	p := newBenchProcessor(b)
	for _, vs := range valueSizes {
		b.Run(vs.name, func(b *testing.B) {
			result := valueDoc(vs.size)
			transcript := `[{"role":"user","parts":[{"type":"text","content":"Refund Lovelace."}]},` +
				`{"role":"assistant","parts":[{"type":"tool_call","id":"call_7","name":"find_customer","arguments":{"query":"Lovelace"}}]},` +
				`{"role":"tool","parts":[{"type":"tool_call_response","id":"call_7","response":` + result + `}]}]`
			attrs := pcommon.NewMap()
			attrs.PutStr("gen_ai.input.messages", transcript)
			v, _ := attrs.Get("gen_ai.input.messages")
			bt, owner := oneTraceBatch(p)
			withhold := func() {
				bt.w.Reset()
				bt.w.Add(owner, agentspan.Span{Attrs: attrs}, bt.noBody)
				bt.w.Resolve(bt)
				bt.w.Apply(&bt.values)
			}
			if withhold(); strings.Contains(v.Str(), "Ada Lovelace") {
				b.Fatalf("not withheld: %.300s", v.Str())
			}
			b.SetBytes(int64(len(transcript)))
			b.ReportAllocs()
			for b.Loop() {
				v.SetStr(transcript)
				withhold()
			}
		})
	}
}

func newBenchProcessor(b *testing.B) *shapeOnly {
	cfg := createDefaultConfig()
	byName(cfg)
	p, err := newShapeOnly(benchSettings(metadata.Type), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = p.shutdown(context.Background()) })
	return p
}

// oneTraceBatch is a batch of the processor with one owner, a trace.
func oneTraceBatch(p *shapeOnly) (*batch, int32) {
	bt := newBatch(p)
	bt.start(time.Now())
	return bt, bt.ownerOf(pcommon.TraceID{1, 2, 3}, "")
}
