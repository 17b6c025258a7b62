// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/leakcheck"
	"github.com/agentotel/agentotel/internal/walk"
)

// FuzzContentInvariant checks the content search's promise on whole support runs: once a batch
// has shown a data-class result, no string leaf of 8 bytes or more that shaping withheld from it
// survives anywhere in that batch or in any later batch of the trace, verbatim, JSON-encoded,
// URL-encoded or HTML-escaped, except where the rules keep values (under a kept key, in the id
// attributes users group by). The processor never panics and never drops, adds or reorders a span,
// nor drops or adds a log record.
//
// Each input is one agentgen support run in one of the four conventions whose customer record
// holds fuzzer-chosen values, split into one to three batches (find_customer's span in the first),
// with copies of those values planted elsewhere in the trace, and in log records of it sent after
// its spans, in fuzzer-chosen forms and places.
// The batches go through one shapeonly built by its factory, configured with tools:
// {find_customer: customer} and, when budget's high bit is set, a per-trace fingerprint bound
// small enough to be reached (budget&0x7f + 1), past which the trace must be withheld whole. Every
// string of the output, decoded from the OTLP JSON an exporter would write, is then searched for
// every withheld leaf.
func FuzzContentInvariant(f *testing.F) {
	for _, s := range contentSeeds {
		f.Add(s.convention, s.seed, s.batching, s.budget, s.values[0], s.values[1], s.values[2], s.values[3], s.values[4], encodePlacements(s.placements...))
	}
	f.Fuzz(func(t *testing.T, convention, seed, batching, budget uint8, customerID, name, email, plan, notes string, placements []byte) {
		in := buildContentInput(t, convention, seed, batching, []string{customerID, name, email, plan, notes}, decodePlacements(placements))
		before := make([][]pcommon.SpanID, len(in.batches))
		for i, b := range in.batches {
			before[i] = spanIDsInOrder(b)
		}
		h := newHarness(t, func(cfg *Config) {
			byName(cfg)
			if budget&0x80 != 0 {
				cfg.MaxFingerprintsPerTrace = int(budget&0x7f) + 1
			}
		})
		for i, b := range in.batches {
			out := h.run(b)
			require.Equal(t, before[i], spanIDsInOrder(out), "batch %d: spans dropped, added or reordered", i+1)
		}
		if records := in.logs.LogRecordCount(); records > 0 {
			require.Equal(t, records, h.runLogs(in.logs).LogRecordCount(), "log records dropped or added")
		}
		// The processor rewrites the batches in place: they are now what it handed on.
		for _, leak := range in.leaks(t) {
			t.Error(leak)
		}
	})
}

// TestContentCheckFindsEveryPlantedCopy keeps FuzzContentInvariant from passing by seeing nothing:
// on batches the processor never saw, every form of copy, in every place, is found.
func TestContentCheckFindsEveryPlantedCopy(t *testing.T) {
	values := []string{"cus_5e1f0a9b8c7d6e", `Zoë "Q" O'Brien <vip> & 😀`, "zoe@example.com", "annual", "Called\\twice;\nprefers mail"}
	conventions := uint8(len(agentgen.Conventions()))
	natural := make([]int, conventions) // leaks found in the run as generated
	for c := range conventions {
		natural[c] = len(buildContentInput(t, c, 7, 0x09, slices.Clone(values), nil).leaks(t))
	}
	for form := range numForms {
		for place := range numPlaces {
			for _, variant := range []uint8{0x00, 0x13, 0x66, 0xff} {
				c := (form + place + variant) % conventions
				p := placement{value: 1, form: form, place: place, target: 4, variant: variant}
				planted := buildContentInput(t, c, 7, 0x09, slices.Clone(values), []placement{p})
				if found := len(planted.leaks(t)); found <= natural[c] {
					t.Errorf("%+v in %s: %d leaks found with the copy, %d without", p, agentgen.Conventions()[c], found, natural[c])
				}
			}
		}
	}
}

// contentInput is one input, built: the batches, the rules, and the leaves that must not survive.
type contentInput struct {
	batches []ptrace.Traces
	// logs are log records of the run (GenAI events, an app's logs) that plantCopies wrote, sent after
	// the batches; empty when no placement put one there.
	logs   plog.Logs
	rules  *contentRules
	leaves []string
}

// maxValueBytes bounds the record's values: room for any real name, email or note, and for a
// leaf that nests escapes; longer ones only slow the fuzzer down.
const maxValueBytes = 64

// buildContentInput generates the support run, puts values (made valid UTF-8, cut to
// maxValueBytes) in its customer record, splits it into batches and plants the copies.
func buildContentInput(t *testing.T, convention, seed, batching uint8, values []string, placements []placement) contentInput {
	t.Helper()
	conventions := agentgen.Conventions()
	run, err := agentgen.Generate("support", agentgen.Options{Convention: conventions[int(convention)%len(conventions)], Seed: uint64(seed)})
	require.NoError(t, err)
	for i, v := range values {
		v = strings.ToValidUTF8(v, "\uFFFD")
		for len(v) > maxValueBytes {
			_, size := utf8.DecodeLastRuneInString(v)
			v = v[:len(v)-size]
		}
		values[i] = v
	}
	values = setCustomerRecord(t, run.Traces, values)
	batches := splitRunIntoBatches(t, run.Traces, batching)
	logs := plantCopies(batches, values, placements)
	rules := newContentRules()
	return contentInput{batches: batches, logs: logs, rules: rules, leaves: rules.withheldLeaves(t, batches[0], values)}
}

// leaks searches the batches, as they are now, for the withheld leaves.
func (in contentInput) leaks(t *testing.T) []string {
	t.Helper()
	c := leakCheck{rules: in.rules}
	for i, b := range in.batches {
		c.collect(t, fmt.Sprintf("batch %d", i+1), b)
	}
	c.collectLogs(t, in.logs)
	return c.leaks(in.leaves)
}

// contentSeed is one seed input: which run, how it is batched, the fingerprint budget, the
// record's values and where copies of them are planted.
type contentSeed struct {
	convention, seed, batching, budget uint8
	values                             [5]string
	placements                         []placement
}

// The corpus entries cover every convention, every form and every place, with values that need escaping
// (quotes, backslashes, control characters, HTML characters, non-ASCII, astral characters, line
// separators) and one that is itself a JSON document.
var contentSeeds = []contentSeed{
	{0, 1, 0x00, 0, [5]string{"cus_7f3a9c0d12ee45", `Zoë "Q" O'Brien-Łukasiewicz`, "zoe.obrien+vip@example.com", "enterprise annual", "Called 4 times; prefers contact after 6pm.\nAllergic to cats."},
		[]placement{
			{1, formPlain, placeAttribute, 3, 0}, {2, formJSON, placeEventAttribute, 5, 0x43}, {4, formEscaped, placeStatus, 5, 0},
			{1, formPython, placeSpanName, 3, 1}, {3, formDoubleEncoded, placeLinkAttribute, 4, 1}, {2, formOTLPValue, placeResource, 0, 2},
		}},
	{1, 2, 0x81, 0, [5]string{`C:\Users\zoe\card.txt`, "Jürgen Weiß-Müller", "jw@example.de", "tab\there\x01ctl\x7fdel", "<b>VIP</b> & \"loyal\" since 2019 — 😀"},
		[]placement{
			{0, formEscaped, placeAttribute, 3, 0}, {1, formPython, placeAttribute, 5, 0}, {4, formJSON, placeSpanName, 5, 0x81},
			{2, formOTLPValue, placeEventAttribute, 3, 1}, {3, formDoubleEncoded, placeScope, 1, 6}, {4, formPlain, placeEventName, 4, 0x10},
		}},
	{2, 3, 0x09, 0, [5]string{"cus_0a1b2c3d4e5f60", "Ana María Pérez", "ana.perez@example.es", `{"card":"4242 4242 4242 4242","cvc":"123"}`, "line\u2028separator and \\u00e9 written out"},
		[]placement{
			{3, formPlain, placeAttribute, 5, 1}, {1, formDoubleEncoded, placeAttribute, 3, 4}, {4, formPython, placeStatus, 4, 1},
			{2, formJSON, placeLinkAttribute, 5, 0x22}, {0, formOTLPValue, placeScope, 2, 0}, {1, formEscaped, placeEventName, 3, 0},
		}},
	{3, 4, 0x1a, 0, [5]string{"cus_99aa88bb77cc66", "Søren Kierkegaard-Østergaard", "soren@example.dk", "🎉 astral plan 🎉", `notes: "quoted", back\slash, /slash/`},
		[]placement{
			{4, formDoubleEncoded, placeEventAttribute, 3, 2}, {1, formOTLPValue, placeAttribute, 5, 3}, {2, formPlain, placeResource, 1, 2},
			{3, formPython, placeLinkAttribute, 4, 0}, {0, formJSON, placeStatus, 3, 0x05}, {4, formEscaped, placeSpanName, 4, 0},
		}},
	{0, 5, 0x80, 0, [5]string{"cus_31415926535897", "Þórunn Guðmundsdóttir", "thorunn/vip@example.is", "🦄 unicorn tier", "VIP\nsince 2019 <b>"},
		[]placement{
			{1, formPlain, placeExistingValue, 4, 0x14}, {2, formEscaped, placeExistingValue, 3, 0x09}, {4, formDoubleEncoded, placeExistingValue, 3, 0x0d},
			{3, formEscaped, placeAttribute, 5, 0x02}, {1, formEscaped, placeExistingValue, 4, 0x13}, {0, formPython, placeExistingValue, 1, 0x11},
		}},
	{1, 6, 0x09, 0, [5]string{"cus_27182818284590", "Ngozi Chukwuemeka-Adébáyọ̀", "ngozi, vip@example.ng", "quarterly, paused", "prefers calls; speaks Yorùbá"},
		[]placement{
			{2, formPlain, placeAttributeName, 3, 0}, {1, formOTLPValue, placeAttributeName, 4, 1}, {4, formEscaped, placeAttributeName, 5, 0x10},
			{2, formPlain, placeTraceState, 3, 0}, {1, formPlain, placeTraceState, 4, 1}, {0, formJSON, placeTraceState, 5, 0},
			{1, formURL, placeAttribute, 3, 0}, {2, formURL, placeExistingValue, 4, 1},
		}},
	{2, 7, 0x1a, 0, [5]string{"cus_16180339887498", `Zoë "Q" O'Brien`, "o'brien&sons@example.ie", "<b>gold</b> & more", `He said "call after 6" & hung up`},
		[]placement{
			{1, formHTML, placeAttribute, 3, 0}, {4, formHTML, placeEventAttribute, 4, 1}, {3, formHTML, placeExistingValue, 5, 0},
			{2, formHTML, placeStatus, 3, 1}, {1, formHTML, placeSpanName, 4, 0},
		}},
	{0, 8, 0x09, 0, [5]string{"cus_14142135623730", "Aoife Ní Bhriain", "aoife.nibhriain@example.ie", "monthly, trial", "logs everything; \"careful\""},
		[]placement{
			{1, formPlain, placeLogRecord, 3, 0}, {2, formEscaped, placeLogRecord, 4, 1}, {4, formJSON, placeLogRecord, 5, 2},
			{1, formOTLPValue, placeLogRecord, 3, 3}, {2, formURL, placeLogRecord, 4, 4}, {3, formPython, placeLogRecord, 5, 5},
		}},
	{1, 9, 0x09, 0, [5]string{"cus_17320508075688", "Mirela Popescu-Ionescu", "mirela.popescu@example.ro", "weekly, gold", "asks for invoices by fax"},
		[]placement{
			{1, formPlain, placeScopeField, 3, 0}, {2, formURL, placeScopeField, 4, 1}, {0, formEscaped, placeScopeField, 5, 2},
		}},
}

// Forms a planted copy takes.
const (
	// formPlain: the value in text, between words or glued to letters.
	formPlain uint8 = iota
	// formJSON: a JSON document holding the value under a key that is not kept, nested one to four
	// deep, perhaps in an array, written by encoding/json with or without HTML escaping.
	formJSON
	// formEscaped: the value JSON-escaped, in text: as json.Marshal writes it, with "/" escaped too
	// (as PHP does), with every non-ASCII character as upper-case \uXXXX, or with every character
	// as \uXXXX.
	formEscaped
	// formPython: the value escaped as Python's json.dumps writes it (\uXXXX for every non-ASCII
	// character), in a dict or in text.
	formPython
	// formDoubleEncoded: a JSON string holding a JSON document holding the value, perhaps inside one
	// more document (escaped two or three times in all).
	formDoubleEncoded
	// formOTLPValue: an OTLP map or slice holding the value; as text where a place holds only text.
	formOTLPValue
	// formURL: the value in a URL's query string, as net/url's QueryEscape writes it ('+' for a
	// space) or its PathEscape (%20).
	formURL
	// formHTML: the value in an HTML paragraph, escaped as Go's html.EscapeString writes it (&#39;)
	// or as Python's html.escape does (&#x27;, &quot;).
	formHTML
	numForms
)

// Places a planted copy goes.
const (
	placeAttribute uint8 = iota
	placeSpanName
	placeStatus
	placeEventName
	placeEventAttribute
	placeLinkAttribute
	placeResource
	placeScope
	// placeExistingValue: inside a string attribute the span already has (a transcript, an answer, a
	// tool's arguments), in one of the strings of its JSON or after its text.
	placeExistingValue
	// placeAttributeName: the name of an attribute of the span, or of a key of a map in one.
	placeAttributeName
	// placeTraceState: a member of the span's trace state, or of a link's.
	placeTraceState
	// placeLogRecord: a log record of the run's trace, sent after its spans: in its event name,
	// severity text, body (text, a map's value or a map's key) or an attribute.
	placeLogRecord
	// placeScopeField: the batch's instrumentation scope version, or the schema URL of its scope or of
	// its resource.
	placeScopeField
	numPlaces
)

// placement plants one copy of record value number value, in form, at place on span (or batch)
// number target; variant picks the details of the form.
type placement struct{ value, form, place, target, variant uint8 }

// maxPlacements bounds the copies per input: more would slow the fuzzer, not find more.
const maxPlacements = 8

func encodePlacements(ps ...placement) []byte {
	var b []byte
	for _, p := range ps {
		b = append(b, p.value, p.form, p.place, p.target, p.variant)
	}
	return b
}

func decodePlacements(b []byte) []placement {
	var ps []placement
	for len(b) >= 5 && len(ps) < maxPlacements {
		ps = append(ps, placement{b[0], b[1] % numForms, b[2] % numPlaces, b[3], b[4]})
		b = b[5:]
	}
	return ps
}

// findCustomerSpan is the support run's find_customer span: the one carrying a data class.
func findCustomerSpan(td ptrace.Traces) (ptrace.Span, bool) {
	for _, s := range walk.Spans(td) {
		if isCustomerSpan(s) {
			return s, true
		}
	}
	return ptrace.Span{}, false
}

// isCustomerSpan: the span declares the customer data class.
func isCustomerSpan(s ptrace.Span) bool {
	v, has := s.Attributes().Get(createDefaultConfig().DataClassAttribute)
	return has && v.Str() == "customer"
}

// customerRecordStrings returns the string values of the customer record in the data-class span's result,
// in the order the tool wrote them.
func customerRecordStrings(span ptrace.Span) []string {
	var values []string
	for _, v := range span.Attributes().All() {
		doc, ok := parseOrderedJSON(v.AsString())
		if !ok || doc.kind != '{' {
			continue
		}
		rows := doc.member("rows")
		if rows == nil || rows.kind != '[' || len(rows.elems) == 0 || rows.elems[0].kind != '{' {
			continue
		}
		for _, e := range rows.elems[0].elems {
			if e.kind == '"' {
				values = append(values, e.text)
			}
		}
		return values
	}
	return nil
}

// setCustomerRecord puts the fuzzer's values (made valid UTF-8) in the customer record, in the order
// the tool writes its fields, wherever the run's spans carry the record: in the tool's result and in
// the transcripts that read it back, and in any later call that repeats one (issue_refund's
// customer_id). Every place holds the record as JSON, so each value is replaced as the JSON string
// literal agentgen wrote. It returns the values the record now holds.
func setCustomerRecord(t *testing.T, td ptrace.Traces, values []string) []string {
	t.Helper()
	span, ok := findCustomerSpan(td)
	require.True(t, ok, "agentgen: a support run has a span with tool.data_class=customer")
	old := customerRecordStrings(span)
	require.NotEmpty(t, old, "agentgen: find_customer's result holds rows[0] with string fields")
	var pairs []string
	now := slices.Clone(old)
	for i := range min(len(old), len(values)) {
		now[i] = values[i]
		pairs = append(pairs, jsonStringLiteral(old[i], false), jsonStringLiteral(now[i], false))
	}
	replace := strings.NewReplacer(pairs...)
	rewrite := func(m pcommon.Map) {
		for _, v := range m.All() {
			if v.Type() == pcommon.ValueTypeStr {
				v.SetStr(replace.Replace(v.Str()))
			}
		}
	}
	for _, rs := range td.ResourceSpans().All() {
		rewrite(rs.Resource().Attributes())
	}
	for _, s := range walk.Spans(td) {
		rewrite(s.Attributes())
	}
	require.Equal(t, now, customerRecordStrings(span), "the record's values were not all replaced")
	return now
}

// splitRunIntoBatches cuts a run (one resource, one scope) into one to three batches, each with the run's
// resource and scope, at points batching picks. Its high bit sends the root span last, as an SDK
// exports it (a span is exported when it ends). find_customer's span is always in the first batch:
// the promise holds from the batch that shows the result.
func splitRunIntoBatches(t *testing.T, td ptrace.Traces, batching uint8) []ptrace.Traces {
	t.Helper()
	rs := td.ResourceSpans().At(0)
	ss := rs.ScopeSpans().At(0)
	var order []ptrace.Span
	for _, s := range ss.Spans().All() {
		order = append(order, s)
	}
	if batching&0x80 != 0 {
		root := slices.IndexFunc(order, func(s ptrace.Span) bool { return s.ParentSpanID().IsEmpty() })
		order = append(slices.Delete(order, root, root+1), order[root])
	}
	dc := slices.IndexFunc(order, func(s ptrace.Span) bool {
		v, ok := s.Attributes().Get(createDefaultConfig().DataClassAttribute)
		return ok && v.Str() == "customer"
	})
	require.GreaterOrEqual(t, dc, 0)
	n := len(order)
	first := dc + 1 + int(batching&7)%(n-dc)
	second := first + int(batching>>3&15)%(n-first+1)
	var batches []ptrace.Traces
	for _, cut := range [][2]int{{0, first}, {first, second}, {second, n}} {
		if cut[0] == cut[1] {
			continue
		}
		b := ptrace.NewTraces()
		brs := b.ResourceSpans().AppendEmpty()
		rs.Resource().CopyTo(brs.Resource())
		bss := brs.ScopeSpans().AppendEmpty()
		ss.Scope().CopyTo(bss.Scope())
		for _, s := range order[cut[0]:cut[1]] {
			s.CopyTo(bss.Spans().AppendEmpty())
		}
		batches = append(batches, b)
	}
	return batches
}

// plantCopies adds the placements' copies of the record's values to the batches. Copies never go
// under a kept key, into an id attribute, or into the name or existing values of find_customer's
// span (changing those could hide the call, and the promise starts from a call that was seen).
func plantCopies(batches []ptrace.Traces, values []string, placements []placement) plog.Logs {
	logs := plog.NewLogs()
	var spans []ptrace.Span
	for _, b := range batches {
		for _, s := range walk.Spans(b) {
			spans = append(spans, s)
		}
	}
	dc, _ := findCustomerSpan(batches[0])
	for i, p := range placements {
		value := values[int(p.value)%len(values)]
		key := "app.note." + strconv.Itoa(i)
		span := spans[int(p.target)%len(spans)]
		batch := batches[int(p.target)%len(batches)]
		switch p.place {
		case placeAttribute:
			putPlanted(span.Attributes(), key, value, p)
		case placeSpanName:
			if span.SpanID() == dc.SpanID() {
				span = spans[(int(p.target)+1)%len(spans)]
			}
			span.SetName(span.Name() + " " + plantedText(value, p))
		case placeStatus:
			msg := span.Status().Message()
			if msg != "" {
				msg += " "
			}
			span.Status().SetMessage(msg + plantedText(value, p))
		case placeEventName:
			span.Events().AppendEmpty().SetName(plantedText(value, p))
		case placeEventAttribute:
			e := span.Events().AppendEmpty()
			e.SetName("app.note")
			putPlanted(e.Attributes(), "detail", value, p)
		case placeLinkAttribute:
			l := span.Links().AppendEmpty()
			l.SetTraceID(dc.TraceID())
			l.SetSpanID(dc.SpanID())
			putPlanted(l.Attributes(), key, value, p)
		case placeResource:
			putPlanted(batch.ResourceSpans().At(0).Resource().Attributes(), key, value, p)
		case placeScope:
			putPlanted(batch.ResourceSpans().At(0).ScopeSpans().At(0).Scope().Attributes(), key, value, p)
		case placeExistingValue:
			if span.SpanID() == dc.SpanID() {
				span = spans[(int(p.target)+1)%len(spans)]
			}
			plantInExistingValue(span.Attributes(), value, p)
		case placeAttributeName:
			m := span.Attributes()
			if p.variant&1 != 0 {
				m = m.PutEmptyMap(key)
			}
			m.PutStr(plantedText(value, p), "noted")
		case placeTraceState:
			ts := span.TraceState()
			if p.variant&1 != 0 {
				l := span.Links().AppendEmpty()
				l.SetTraceID(dc.TraceID())
				l.SetSpanID(dc.SpanID())
				ts = l.TraceState()
			}
			ts.FromRaw("congo=t61rcWkgMzE,crm=" + plantedText(value, p))
		case placeLogRecord:
			plantInLogRecord(logs, dc.TraceID(), key, value, p)
		case placeScopeField:
			rs := batch.ResourceSpans().At(0)
			switch text := plantedText(value, p); p.variant % 3 {
			case 0:
				rs.ScopeSpans().At(0).Scope().SetVersion("1.0 " + text)
			case 1:
				rs.ScopeSpans().At(0).SetSchemaUrl("https://schemas.example/" + text)
			default:
				rs.SetSchemaUrl("https://schemas.example/" + text)
			}
		}
	}
	return logs
}

// plantInLogRecord adds a log record of the trace holding a copy in the place variant picks: its
// event name, severity text, body as text, a value or a key of its body map, or an attribute.
func plantInLogRecord(logs plog.Logs, trace pcommon.TraceID, key, value string, p placement) {
	lr := logs.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords().AppendEmpty()
	lr.SetTraceID(trace)
	lr.SetSeverityText("INFO")
	text := plantedText(value, p)
	switch p.variant % 6 {
	case 0:
		lr.SetEventName("app.note " + text)
	case 1:
		lr.SetSeverityText(text)
	case 2:
		lr.Body().SetStr(text)
	case 3:
		putPlanted(lr.Body().SetEmptyMap(), key, value, p)
	case 4:
		lr.Body().SetEmptyMap().PutStr(text, "noted")
	default:
		putPlanted(lr.Attributes(), key, value, p)
	}
}

// plantInExistingValue adds a copy to one of the string attributes a span already has, other than
// ids and kept keys: in a JSON document, to one of its strings not directly under a kept key
// (re-encoded, so the copy gets one more level of escapes, and is never nested past the three
// levels the search promises); in other text, after it.
func plantInExistingValue(m pcommon.Map, value string, p placement) {
	rules := newContentRules()
	var hosts []pcommon.Value
	for k, v := range m.All() {
		if v.Type() == pcommon.ValueTypeStr && !rules.protected[k] && !rules.kept[k] {
			hosts = append(hosts, v)
		}
	}
	if len(hosts) == 0 {
		return
	}
	host := hosts[int(p.variant)%len(hosts)]
	doc, ok := parseOrderedJSON(host.Str())
	if !ok || !startsJSONContainer(host.Str()) {
		host.SetStr(host.Str() + " " + plantedText(value, p))
		return
	}
	p.variant &^= 4 // formDoubleEncoded's third level, which the host's own encoding now adds
	var strs []*orderedJSON
	var walk func(n *orderedJSON)
	walk = func(n *orderedJSON) {
		for i, e := range n.elems {
			switch {
			case e.kind == '"' && (n.kind == '[' || !rules.kept[n.keys[i]]):
				strs = append(strs, e)
			case e.kind == '{' || e.kind == '[':
				walk(e)
			}
		}
	}
	walk(doc)
	if len(strs) == 0 {
		return
	}
	target := strs[int(p.variant>>3)%len(strs)]
	target.text += " " + plantedText(value, p)
	host.SetStr(doc.encode())
}

// putPlanted puts a planted copy under key: as an OTLP map or slice for formOTLPValue, as text
// otherwise.
func putPlanted(m pcommon.Map, key, value string, p placement) {
	if p.form != formOTLPValue {
		m.PutStr(key, plantedText(value, p))
		return
	}
	depth := 1 + int(p.variant)%3
	if p.variant&0x10 != 0 {
		s := m.PutEmptySlice(key)
		s.AppendEmpty().SetStr("first")
		s.AppendEmpty().SetInt(7)
		inner := s.AppendEmpty()
		for d := 1; d < depth; d++ {
			inner = inner.SetEmptyMap().PutEmpty(plantKeys[d%len(plantKeys)])
		}
		inner.SetStr(value)
		return
	}
	inner := m.PutEmptyMap(key)
	for d := 1; d < depth; d++ {
		inner = inner.PutEmptyMap(plantKeys[d%len(plantKeys)])
	}
	if p.variant&0x20 != 0 {
		s := inner.PutEmptySlice("items")
		s.AppendEmpty().SetStr("other")
		s.AppendEmpty().SetStr(value)
		return
	}
	inner.PutStr("note", value)
}

// plantKeys are the keys planted JSON and maps nest under: none of them kept.
var plantKeys = []string{"details", "payload", "data", "context", "extra"}

// plantedText renders a planted copy as text in the placement's form.
func plantedText(value string, p placement) string {
	v := p.variant
	switch p.form {
	case formPlain:
		if v&0x10 != 0 {
			return "x" + value + "y"
		}
		before := []string{"Customer said", "see", "re:", "note -"}[v%4]
		after := []string{"again.", "(verified)", "thanks", ""}[(v>>2)%4]
		return before + " " + value + " " + after
	case formEscaped:
		return "record: " + escapeJSONStyle(value, v%4) + " (copied)"
	case formPython:
		if v&1 != 0 {
			return `{"note": "` + leakcheck.PythonEscape(value) + `", "count": 1}`
		}
		return "record: " + leakcheck.PythonEscape(value) + " (copied)"
	case formDoubleEncoded:
		inner := jsonStringLiteral(value, true)
		if v&2 != 0 {
			inner = `"` + leakcheck.PythonEscape(value) + `"`
		}
		doc := `{"note":` + inner + `}`
		text := jsonStringLiteral(doc, false) // a JSON string holding the document
		if v&1 != 0 {
			text = `{"payload":` + text + `}`
		}
		if v&4 != 0 {
			text = `{"context":` + jsonStringLiteral(text, false) + `}`
		}
		return text
	case formURL:
		escaped := url.QueryEscape(value)
		if v&1 != 0 {
			escaped = url.PathEscape(value)
		}
		return "https://crm.example/v1/customers?email=" + escaped + "&page=2"
	case formHTML:
		escaped := html.EscapeString(value)
		if v&1 != 0 {
			escaped = strings.NewReplacer("&#39;", "&#x27;", "&#34;", "&quot;").Replace(escaped)
		}
		return "<p>Dear " + escaped + ",</p>"
	}
	// formJSON, and formOTLPValue where only text fits.
	var doc any = map[string]any{"note": value}
	if v&0x40 != 0 {
		doc = []any{"other", value, 3}
	}
	for d := 1 + int(v)%4; d > 1; d-- {
		doc = map[string]any{plantKeys[(int(v>>2)+d)%len(plantKeys)]: doc}
	}
	return encodeJSONText(doc, v&0x80 != 0)
}

// contentRules are the processor's rules, as configured in the test (the defaults plus
// tools: {find_customer: customer}), that decide what is withheld and what the search leaves alone.
type contentRules struct {
	kept, structural, protected map[string]bool
}

func newContentRules() *contentRules {
	cfg := createDefaultConfig()
	reg := agentspan.NewRegistry(nil, 0)
	set := func(lists ...[]string) map[string]bool {
		m := map[string]bool{}
		for _, l := range lists {
			for _, k := range l {
				m[k] = true
			}
		}
		return m
	}
	return &contentRules{
		kept:       set(cfg.KeptKeys),
		structural: set(reg.StructuralKeys(), annotation.Keys(), []string{cfg.DataClassAttribute}),
		protected:  set(reg.IDKeys(), annotation.Keys(), []string{cfg.DataClassAttribute}),
	}
}

// withheldLeaves lists what shaping withholds from find_customer's span in the first batch and
// remembers, as the rule says: where the span's convention says where its arguments and result are,
// their leaves (a result in the convention's envelope: the result and artifact inside it); where it
// does not, every attribute (the span's and its events') but the structural ones. Of a string, the
// whole string, or, if it is a JSON object or array, its string leaves not directly under a kept key
// (inside an array, every string); of a stringified document, its leaves. Only leaves of 8 bytes or
// more are searched for. The record's values must be among them, or the test tests nothing.
func (r *contentRules) withheldLeaves(t *testing.T, first ptrace.Traces, values []string) []string {
	t.Helper()
	var leaves []string
	found := false
	for where, span := range walk.Spans(first) {
		if found || !isCustomerSpan(span) {
			continue
		}
		found = true
		view := agentspan.NewRegistry(nil, 0).Recognize(agentspan.Span{Scope: where.Scope.Name(), Name: span.Name(),
			Attrs: span.Attributes(), Root: span.ParentSpanID().IsEmpty()})
		if view.ArgsKey != "" || view.ResultKey != "" {
			r.callLeaves(view, span.Attributes(), &leaves)
			break
		}
		add := func(m pcommon.Map) {
			for k, v := range m.All() {
				if !r.structural[k] {
					r.attrLeaves(k, v, &leaves)
				}
			}
		}
		add(span.Attributes())
		for _, e := range span.Events().All() {
			if e.Name() != annotation.StuckEvent {
				add(e.Attributes())
			}
		}
	}
	require.True(t, found)
	for _, v := range values {
		var mine []string
		r.textLeaves(v, true, &mine)
		for _, l := range mine {
			require.Contains(t, leaves, l, "a record value is not among the leaves withheld from find_customer's span")
		}
	}
	leaves = slices.DeleteFunc(leaves, func(l string) bool { return len(l) < 8 })
	slices.Sort(leaves)
	return slices.Compact(leaves)
}

// callLeaves adds the leaves of a located call's arguments and result.
func (r *contentRules) callLeaves(view agentspan.View, attrs pcommon.Map, leaves *[]string) {
	if v, ok := attrs.Get(view.ArgsKey); ok && view.ArgsKey != "" {
		r.attrLeaves(view.ArgsKey, v, leaves)
	}
	v, ok := attrs.Get(view.ResultKey)
	if !ok || view.ResultKey == "" {
		return
	}
	if view.Convention != nil && view.Convention.Unwrap != nil && v.Type() == pcommon.ValueTypeStr {
		if e, unwrapped := view.Convention.Unwrap([]byte(v.Str()), 0); unwrapped {
			for _, inner := range [][]byte{e.Result, e.Artifact} {
				if len(inner) > 0 {
					r.textLeaves(string(inner), false, leaves)
				}
			}
			return
		}
	}
	r.attrLeaves(view.ResultKey, v, leaves)
}

// attrLeaves adds the leaves shaping withholds from one attribute value under key.
func (r *contentRules) attrLeaves(key string, v pcommon.Value, leaves *[]string) {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		if !startsJSONContainer(v.Str()) && r.kept[key] {
			return
		}
		r.textLeaves(v.Str(), false, leaves)
	case pcommon.ValueTypeBytes:
		*leaves = append(*leaves, string(v.Bytes().AsRaw()))
	case pcommon.ValueTypeMap:
		for k, inner := range v.Map().All() {
			r.attrLeaves(k, inner, leaves)
		}
	case pcommon.ValueTypeSlice:
		// A slice is withheld whole: every string in it, kept key or not.
		var all func(v pcommon.Value)
		all = func(v pcommon.Value) {
			switch v.Type() {
			case pcommon.ValueTypeStr:
				r.textLeaves(v.Str(), true, leaves)
			case pcommon.ValueTypeBytes:
				*leaves = append(*leaves, string(v.Bytes().AsRaw()))
			case pcommon.ValueTypeSlice:
				for _, e := range v.Slice().All() {
					all(e)
				}
			case pcommon.ValueTypeMap:
				for _, e := range v.Map().All() {
					all(e)
				}
			}
		}
		all(v)
	}
}

// textLeaves adds the leaves of a withheld text: its JSON leaves if it is a JSON object or array,
// itself otherwise (a text that looks like JSON but is not is withheld whole).
func (r *contentRules) textLeaves(s string, inArray bool, leaves *[]string) {
	if doc, ok := parseOrderedJSON(s); ok && startsJSONContainer(s) {
		r.jsonLeaves(doc, false, inArray, leaves)
		return
	}
	*leaves = append(*leaves, s)
}

func (r *contentRules) jsonLeaves(n *orderedJSON, keep, inArray bool, leaves *[]string) {
	switch n.kind {
	case '{':
		for i, e := range n.elems {
			r.jsonLeaves(e, !inArray && r.kept[n.keys[i]], inArray, leaves)
		}
	case '[':
		for _, e := range n.elems {
			r.jsonLeaves(e, false, true, leaves)
		}
	case '"':
		if !keep {
			r.textLeaves(n.text, inArray, leaves)
		}
	}
}

// leakCheck holds every string of the output the search must have cleaned, and the strings the
// rules leave alone.
type leakCheck struct {
	rules *contentRules
	// searched are the strings to search, each with where it is; exempt are the values of id
	// attributes and of kept keys.
	searched []locatedText
	exempt   []string
}

type locatedText struct{ where, text string }

// collect reads a batch back from the OTLP JSON an exporter writes: every attribute value and name at
// any depth (resource, scope, span, event, link), span and event names, status messages and trace
// states (leakcheck.VisitTraces). Ids, timestamps, the scope's name and version, and the attribute
// names the conventions and the configuration define are not searched.
func (c *leakCheck) collect(t *testing.T, batch string, td ptrace.Traces) {
	t.Helper()
	raw, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	require.NoError(t, err)
	exported, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(raw)
	require.NoError(t, err)
	leakcheck.VisitTraces(batch, exported, c)
}

// collectLogs reads log records back from the OTLP JSON an exporter writes: event names, severity
// texts, bodies and attributes, and the resource and scope attributes around them.
func (c *leakCheck) collectLogs(t *testing.T, ld plog.Logs) {
	t.Helper()
	if ld.LogRecordCount() == 0 {
		return
	}
	raw, err := (&plog.JSONMarshaler{}).MarshalLogs(ld)
	require.NoError(t, err)
	exported, err := (&plog.JSONUnmarshaler{}).UnmarshalLogs(raw)
	require.NoError(t, err)
	leakcheck.VisitLogs(exported, c)
}

// Attributes collects a top-level attribute map: the id attributes are left alone whole, and the names
// the rules define are not searched.
func (c *leakCheck) Attributes(where string, attrs pcommon.Map) {
	for k, v := range attrs.All() {
		if c.rules.protected[k] {
			c.exemptValue(v)
			continue
		}
		if !c.rules.structural[k] && !c.rules.kept[k] {
			c.Text(where+" attribute name", k)
		}
		c.value(where+" attribute "+k, k, v)
	}
}

// Value collects a log record's body.
func (c *leakCheck) Value(where string, v pcommon.Value) { c.value(where, "", v) }

// value collects one OTLP value under key (a string directly under a kept key is left alone).
func (c *leakCheck) value(where, key string, v pcommon.Value) {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		if c.rules.kept[key] {
			c.exempt = append(c.exempt, v.Str())
		} else {
			c.Text(where, v.Str())
		}
	case pcommon.ValueTypeBytes:
		c.Text(where, string(v.Bytes().AsRaw()))
	case pcommon.ValueTypeSlice:
		for i, e := range v.Slice().All() {
			c.value(fmt.Sprintf("%s[%d]", where, i), "", e)
		}
	case pcommon.ValueTypeMap:
		for k, inner := range v.Map().All() {
			if !c.rules.kept[k] {
				c.Text(where+" key", k)
			}
			c.value(where+"."+k, k, inner)
		}
	}
}

func (c *leakCheck) exemptValue(v pcommon.Value) {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		c.exempt = append(c.exempt, v.Str())
	case pcommon.ValueTypeBytes:
		c.exempt = append(c.exempt, string(v.Bytes().AsRaw()))
	case pcommon.ValueTypeSlice:
		for _, e := range v.Slice().All() {
			c.exemptValue(e)
		}
	case pcommon.ValueTypeMap:
		for _, inner := range v.Map().All() {
			c.exemptValue(inner)
		}
	}
}

// Text collects a string: a JSON document member by member (keys and numbers too, since a key or
// number can hold a leaf; a string directly under a kept key is left alone; a string holding a
// document is read as one), any other text whole. Reading a document member by member keeps a
// leaf from being "found" across the document's own syntax.
func (c *leakCheck) Text(where, s string) {
	if s == "" {
		return
	}
	if doc, ok := parseOrderedJSON(s); ok && (startsJSONContainer(s) || doc.kind == '"') {
		c.document(where, doc)
		return
	}
	c.searched = append(c.searched, locatedText{where, s})
}

func (c *leakCheck) document(where string, n *orderedJSON) {
	switch n.kind {
	case '{':
		for i, e := range n.elems {
			key := n.keys[i]
			c.Text(where+" key", key)
			if e.kind == '"' && c.rules.kept[key] {
				c.exempt = append(c.exempt, e.text)
				continue
			}
			c.document(where+"."+key, e)
		}
	case '[':
		for i, e := range n.elems {
			c.document(fmt.Sprintf("%s[%d]", where, i), e)
		}
	case '"':
		c.Text(where, n.text)
	case '0':
		c.searched = append(c.searched, locatedText{where, n.text})
	}
}

// withheldMarkers are what the processor writes in place of a value. A leaf that spells one whole can be
// formed by the processor's own output and cannot be told from it, so it is not searched for; other
// leaves are searched for in text with the markers taken out, so one that runs into a marker ("eld]
// word") is not found in the processor's own writing.
var withheldMarkers = regexp.MustCompile(`\[(\d+ )?` + regexp.QuoteMeta(strings.Trim(countsonly.Withheld, "[]")) + `\]`)

// maxEscapeDecodes is how many times the search decodes a text's JSON escapes: a value planted as deep
// as formDoubleEncoded nests it (three levels) is found.
const maxEscapeDecodes = 3

// holdsLeaf reports whether text holds leaf verbatim or behind up to maxEscapeDecodes levels of
// JSON escapes.
func holdsLeaf(text, leaf string) bool {
	for level := 0; ; level++ {
		text = withheldMarkers.ReplaceAllLiteralString(text, "\x00")
		if strings.Contains(text, leaf) || strings.Contains(decodeURLEscapes(text, false), leaf) ||
			strings.Contains(decodeURLEscapes(text, true), leaf) || strings.Contains(html.UnescapeString(text), leaf) {
			return true
		}
		if level == maxEscapeDecodes || !strings.Contains(text, `\`) {
			return false
		}
		text = decodeJSONEscapes(text)
	}
}

// leaks returns a description of every leaf found in the output. Leaves the rules let stand
// somewhere (inside an id or a kept value: a surname is both the search query and part of a
// name) or that spell a marker are not searched for.
func (c *leakCheck) leaks(leaves []string) []string {
	var found []string
	for _, leaf := range leaves {
		if withheldMarkers.MatchString(leaf) || slices.ContainsFunc(c.exempt, func(s string) bool { return holdsLeaf(s, leaf) }) {
			continue
		}
		for _, s := range c.searched {
			if holdsLeaf(s.text, leaf) {
				found = append(found, fmt.Sprintf("withheld leaf %q survives in %s: %q", leaf, s.where, s.text))
			}
		}
	}
	return found
}

// startsJSONContainer is the processor's test for a JSON value: it starts, after JSON white space, with an
// object or an array.
func startsJSONContainer(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n")
	return s != "" && (s[0] == '{' || s[0] == '[')
}

// orderedJSON is a parsed JSON value that keeps member order and repeated keys: kind is '{', '[', '"'
// (text is the decoded string), '0' (a number, text as written) or 'l' (true, false or null, as
// text).
type orderedJSON struct {
	kind  byte
	text  string
	keys  []string
	elems []*orderedJSON
}

func (n *orderedJSON) member(key string) *orderedJSON {
	for i, k := range n.keys {
		if k == key {
			return n.elems[i]
		}
	}
	return nil
}

// parseOrderedJSON parses s if it is exactly one valid JSON value.
func parseOrderedJSON(s string) (*orderedJSON, bool) {
	if !json.Valid([]byte(s)) {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	n, err := parseOrderedValue(dec)
	if err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return n, true
}

func parseOrderedValue(dec *json.Decoder) (*orderedJSON, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok := tok.(type) {
	case json.Delim:
		n := &orderedJSON{kind: byte(tok)}
		for dec.More() {
			if n.kind == '{' {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, key.(string))
			}
			e, err := parseOrderedValue(dec)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, e)
		}
		_, err := dec.Token() // the closing delimiter
		return n, err
	case string:
		return &orderedJSON{kind: '"', text: tok}, nil
	case json.Number:
		return &orderedJSON{kind: '0', text: tok.String()}, nil
	}
	return &orderedJSON{kind: 'l', text: fmt.Sprint(tok)}, nil
}

// encode writes the value back as compact JSON, strings escaped as agentgen writes them.
func (n *orderedJSON) encode() string {
	var b strings.Builder
	var write func(n *orderedJSON)
	write = func(n *orderedJSON) {
		switch n.kind {
		case '{', '[':
			b.WriteByte(n.kind)
			for i, e := range n.elems {
				if i > 0 {
					b.WriteByte(',')
				}
				if n.kind == '{' {
					b.WriteString(jsonStringLiteral(n.keys[i], false))
					b.WriteByte(':')
				}
				write(e)
			}
			b.WriteByte(map[byte]byte{'{': '}', '[': ']'}[n.kind])
		case '"':
			b.WriteString(jsonStringLiteral(n.text, false))
		default:
			b.WriteString(n.text)
		}
	}
	write(n)
	return b.String()
}

// encodeJSONText writes v as encoding/json does: json.Marshal (HTML characters escaped) or an Encoder
// without HTML escaping, as JS and Python SDKs and agentgen write.
func encodeJSONText(v any, escapeHTML bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// jsonStringLiteral is s as a JSON string literal, quotes included.
func jsonStringLiteral(s string, escapeHTML bool) string { return encodeJSONText(s, escapeHTML) }

// escapeJSONStyle is s as the inside of a JSON string, in one of four encoders' styles: 0 as
// json.Marshal writes it (HTML characters as \u003c...), 1 the same with "/" as \/ (PHP), 2 with
// every character past ASCII as upper-case \uXXXX (surrogate pairs above U+FFFF), 3 with every
// character as \uXXXX.
func escapeJSONStyle(s string, style uint8) string {
	switch style {
	case 0, 1:
		lit := jsonStringLiteral(s, true)
		lit = lit[1 : len(lit)-1]
		if style == 1 {
			lit = strings.ReplaceAll(lit, "/", `\/`)
		}
		return lit
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case style == 2 && r < 0x80:
			lit := jsonStringLiteral(string(r), false)
			b.WriteString(lit[1 : len(lit)-1])
		case r > 0xFFFF:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04X\u%04X`, hi, lo)
		default:
			fmt.Fprintf(&b, `\u%04X`, r)
		}
	}
	return b.String()
}

// decodeURLEscapes decodes every %XX in s wherever it stands, and with form every '+' to a space, as
// a reader of a URL would; a '%' without two hex digits stays.
func decodeURLEscapes(s string, form bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '+' && form:
			b.WriteByte(' ')
		case s[i] == '%' && i+2 < len(s) && isHexDigit(s[i+1]) && isHexDigit(s[i+2]):
			n, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(n))
			i += 2
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// decodeJSONEscapes decodes every JSON escape sequence in s wherever it stands (s need not be a JSON
// string), as a reader of an encoded value would; a backslash that starts no escape stays, and an
// unpaired surrogate becomes U+FFFD, as encoding/json decodes it.
func decodeJSONEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			i++
			continue
		}
		switch e := s[i+1]; e {
		case '"', '\\', '/':
			b.WriteByte(e)
			i += 2
		case 'b', 'f', 'n', 'r', 't':
			b.WriteByte(map[byte]byte{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}[e])
			i += 2
		case 'u':
			r, ok := parseHex4(s[i+2:])
			if !ok {
				b.WriteByte('\\')
				i++
				continue
			}
			i += 6
			if utf16.IsSurrogate(r) {
				lo, ok := rune(0), false
				if strings.HasPrefix(s[i:], `\u`) {
					lo, ok = parseHex4(s[i+2:])
				}
				if pair := utf16.DecodeRune(r, lo); ok && pair != utf8.RuneError {
					r = pair
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default:
			b.WriteByte('\\')
			i++
		}
	}
	return b.String()
}

func parseHex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(s[:4], 16, 32)
	return rune(v), err == nil
}

func spanIDsInOrder(td ptrace.Traces) []pcommon.SpanID {
	var ids []pcommon.SpanID
	for _, s := range walk.Spans(td) {
		ids = append(ids, s.SpanID())
	}
	return ids
}
