package shapeonly

import (
	"context"
	"time"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/metadata"
)

// shapeOnly withholds the values of data-class tool calls wherever they appear: on the tool's own span,
// and in the transcripts of model spans that read the results back, found by tool-call id.
type shapeOnly struct {
	id         component.ID
	cfg        *Config
	shaper     *countsonly.Shaper
	structural map[string]struct{}
	classes    map[string]struct{}
	memory     *memory
	telemetry  *metadata.TelemetryBuilder
	now        func() time.Time
}

func newShapeOnly(set processor.Settings, cfg *Config) (*shapeOnly, error) {
	tb, err := metadata.NewTelemetryBuilder(set.TelemetrySettings)
	if err != nil {
		return nil, err
	}
	p := &shapeOnly{
		id:         set.ID,
		cfg:        cfg,
		shaper:     countsonly.New(cfg.KeptKeys, countsonly.Limits{MaxDepth: cfg.MaxDepth, MaxBytes: cfg.MaxValueBytes}),
		structural: setOf(cfg.StructuralKeys),
		classes:    setOf(cfg.ShapedClasses),
		memory:     acquireMemory(set.ID, cfg),
		telemetry:  tb,
		now:        time.Now,
	}
	p.structural[cfg.DataClassAttribute] = struct{}{}
	p.serveZeros()
	return p, nil
}

// serveZeros starts every series at zero: a counter first served at its first increment is a jump
// increase() and rate() cannot see, and a shaping failure is exactly such a first increment.
func (p *shapeOnly) serveZeros() {
	ctx, t := context.Background(), p.telemetry
	t.ProcessorShapeonlyValuesWithheld.Add(ctx, 0)
	t.ProcessorShapeonlyRecordsShaped.Add(ctx, 0)
	t.ProcessorShapeonlyValuesFailed.Add(ctx, 0)
	t.ProcessorShapeonlyMemoryEvicted.Add(ctx, 0, reasonAge)
	t.ProcessorShapeonlyMemoryEvicted.Add(ctx, 0, reasonCapacity)
}

func (p *shapeOnly) shutdown(context.Context) error {
	p.telemetry.Shutdown()
	releaseMemory(p.id)
	return nil
}

// batch is the work on one batch: the shaper that counts what it withheld, and the policy transcripts
// consult, which remembers the calls it learns of as it goes.
type batch struct {
	p      *shapeOnly
	now    time.Time
	values valueShaper
	shaped int
	// trace is the trace of the span or log record being shaped: calls are remembered per trace.
	trace      pcommon.TraceID
	key        []byte
	withholder agentspan.Withholder
	// noBody stands for the body spans do not have.
	noBody pcommon.Value
}

func (p *shapeOnly) newBatch() *batch {
	return &batch{p: p, now: p.now(), values: valueShaper{shaper: p.shaper}, noBody: pcommon.NewValueEmpty()}
}

// Withheld implements agentspan.Policy: a call is withheld when it was classed earlier in its trace,
// or the transcript names its tool and the tool is data-class; then it is remembered for later spans.
func (b *batch) Withheld(id, tool []byte) bool {
	if tool != nil && b.p.toolShaped(tool, b.now) {
		b.rememberCall(id)
		return true
	}
	if len(id) == 0 {
		return false
	}
	b.key = callKey(b.key[:0], b.trace, id)
	return b.p.memory.hasCall(b.key, b.now)
}

func (b *batch) rememberCall(id []byte) {
	if len(id) == 0 {
		return
	}
	b.key = callKey(b.key[:0], b.trace, id)
	b.p.memory.rememberCall(b.key, b.now)
}

// toolShaped reports whether a tool is data-class by configuration or by what its spans said.
func (p *shapeOnly) toolShaped(name []byte, now time.Time) bool {
	if class, ok := p.cfg.Tools[string(name)]; ok {
		_, shaped := p.classes[class]
		return shaped
	}
	return p.memory.learnt(name, now)
}

// classify decides whether a tool span's data is withheld, and remembers its call id and, when its own
// attribute classed it, its tool name.
func (b *batch) classify(v agentspan.View, attrs pcommon.Map) bool {
	if class, ok := attrs.Get(b.p.cfg.DataClassAttribute); ok {
		if _, shaped := b.p.classes[class.AsString()]; shaped {
			b.p.memory.learnTool(v.Tool, b.now)
			b.rememberCall([]byte(v.CallID))
			return true
		}
	}
	return b.Withheld([]byte(v.CallID), []byte(v.Tool))
}

// shapeAll shapes every attribute of a data-class record except the structural ones.
func (b *batch) shapeAll(attrs pcommon.Map) {
	attrs.Range(func(k string, v pcommon.Value) bool {
		if _, keep := b.p.structural[k]; !keep {
			b.values.shapeAttr(k, v)
		}
		return true
	})
}

// shapeTranscripts withholds data-class results in the transcripts attrs carries, and the content of
// an older GenAI tool-message event whose call is withheld. It reports whether anything changed.
func (b *batch) shapeTranscripts(name string, attrs pcommon.Map, body pcommon.Value) bool {
	before := b.values.withheld
	b.withholder.Withhold(attrs, b, &b.values, b.p.cfg.TaintOutputs)
	if body.Type() == pcommon.ValueTypeMap {
		b.withholder.Withhold(body.Map(), b, &b.values, b.p.cfg.TaintOutputs)
	}
	if id, ok := agentspan.ToolMessageID(name, attrs, body); ok && b.Withheld([]byte(id), nil) {
		if v, ok := attrs.Get(agentspan.ToolMessageContentKey); ok {
			b.values.shapeAttr("", v)
		}
		switch body.Type() {
		case pcommon.ValueTypeMap:
			if v, ok := body.Map().Get(agentspan.ToolMessageContentKey); ok {
				b.values.shapeAttr("", v)
			}
		case pcommon.ValueTypeStr:
			b.values.shapeAttr("", body)
		}
	}
	return b.values.withheld > before
}

// spanTreatment is what the second walk does to a span.
type spanTreatment uint8

const (
	readTranscripts spanTreatment = iota // withhold data-class results wherever its transcripts show them
	shapeWhole                           // a data-class tool call: every non-structural value
	leaveAlone                           // a tool call whose data may stay
)

func (p *shapeOnly) processTraces(ctx context.Context, td ptrace.Traces) (ptrace.Traces, error) {
	b := p.newBatch()
	// Tool spans first: a model span earlier in the batch may show their results. treatment holds the
	// verdict per span, in walk order, for the second walk.
	treatment := make([]spanTreatment, 0, 64)
	forEachSpan(td, func(span ptrace.Span) {
		b.trace = span.TraceID()
		v := agentspan.Recognize(span.Name(), span.Attributes())
		switch {
		case v.Role != agentspan.RoleTool:
			treatment = append(treatment, readTranscripts)
		case b.classify(v, span.Attributes()):
			treatment = append(treatment, shapeWhole)
		default:
			// A tool's own arguments and result are not a transcript; its class says they may stay.
			treatment = append(treatment, leaveAlone)
		}
	})
	i := 0
	forEachSpan(td, func(span ptrace.Span) {
		b.trace = span.TraceID()
		t := treatment[i]
		i++
		switch t {
		case leaveAlone:
			return
		case shapeWhole:
			b.shapeAll(span.Attributes())
			events := span.Events()
			for i := 0; i < events.Len(); i++ {
				// agentguard's stuck event names the agent and reason, which the count connector
				// turns into a metric: it is left whole.
				if events.At(i).Name() != annotation.StuckEvent {
					b.shapeAll(events.At(i).Attributes())
				}
			}
			b.shaped++
			return
		}
		changed := b.shapeTranscripts(span.Name(), span.Attributes(), b.noBody)
		events := span.Events()
		for i := 0; i < events.Len(); i++ {
			e := events.At(i)
			changed = b.shapeTranscripts(e.Name(), e.Attributes(), b.noBody) || changed
		}
		if changed {
			b.shaped++
		}
	})
	p.record(ctx, b)
	return td, nil
}

func (p *shapeOnly) processLogs(ctx context.Context, ld plog.Logs) (plog.Logs, error) {
	b := p.newBatch()
	rls := ld.ResourceLogs()
	for i := 0; i < rls.Len(); i++ {
		sls := rls.At(i).ScopeLogs()
		for j := 0; j < sls.Len(); j++ {
			lrs := sls.At(j).LogRecords()
			for k := 0; k < lrs.Len(); k++ {
				if b.shapeLogRecord(lrs.At(k)) {
					b.shaped++
				}
			}
		}
	}
	p.record(ctx, b)
	return ld, nil
}

// shapeLogRecord treats a log record that describes a tool call like a tool span, and any other record
// like a span that may carry a transcript.
func (b *batch) shapeLogRecord(lr plog.LogRecord) bool {
	b.trace = lr.TraceID()
	attrs := lr.Attributes()
	name := lr.EventName()
	if name == "" {
		if v, ok := attrs.Get("event.name"); ok {
			name = v.AsString()
		}
	}
	if v := agentspan.Recognize(name, attrs); v.Role == agentspan.RoleTool && b.classify(v, attrs) {
		b.shapeAll(attrs)
		b.values.shapeAttr("", lr.Body())
		return true
	}
	return b.shapeTranscripts(name, attrs, lr.Body())
}

func (p *shapeOnly) record(ctx context.Context, b *batch) {
	if b.values.withheld > 0 {
		p.telemetry.ProcessorShapeonlyValuesWithheld.Add(ctx, int64(b.values.withheld))
	}
	if b.values.failed > 0 {
		p.telemetry.ProcessorShapeonlyValuesFailed.Add(ctx, int64(b.values.failed))
	}
	if b.shaped > 0 {
		p.telemetry.ProcessorShapeonlyRecordsShaped.Add(ctx, int64(b.shaped))
	}
	ev := p.memory.takeEvicted()
	if ev.Age > 0 {
		p.telemetry.ProcessorShapeonlyMemoryEvicted.Add(ctx, int64(ev.Age), reasonAge)
	}
	if ev.Capacity > 0 {
		p.telemetry.ProcessorShapeonlyMemoryEvicted.Add(ctx, int64(ev.Capacity), reasonCapacity)
	}
}

var (
	reasonAge      = metric.WithAttributeSet(attribute.NewSet(attribute.String("reason", "age")))
	reasonCapacity = metric.WithAttributeSet(attribute.NewSet(attribute.String("reason", "capacity")))
)

func forEachSpan(td ptrace.Traces, fn func(ptrace.Span)) {
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		sss := rss.At(i).ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			spans := sss.At(j).Spans()
			for k := 0; k < spans.Len(); k++ {
				fn(spans.At(k))
			}
		}
	}
}

func setOf(keys []string) map[string]struct{} {
	m := make(map[string]struct{}, len(keys))
	for _, k := range keys {
		m[k] = struct{}{}
	}
	return m
}
