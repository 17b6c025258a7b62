// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.uber.org/zap"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/sharedcomponent"
	"github.com/agentotel/agentotel/internal/toolname"
	"github.com/agentotel/agentotel/processor/shapeonly/internal/metadata"
)

// shapeOnly withholds the values of data-class tool calls wherever they appear: on the tool's own span,
// in the transcripts that read the results back (found by call id, tool name or order), and, by
// content, in any later string of the same trace or run. The rules are in docs/design.md.
type shapeOnly struct {
	cfg      *Config
	registry *agentspan.Registry
	shaper   *countsonly.Shaper
	// structural attributes are kept on data-class spans.
	structural map[string]struct{}
	// searchRules are the attributes the content search treats apart, found with one lookup per
	// attribute: the ids users group and search by (call, run and session ids), which it leaves
	// alone; the kept keys, whose strings it leaves alone; and the structural attributes, whose names
	// it does not search (every other name it does).
	searchRules   map[string]searchRule
	shapedClasses map[string]bool
	// known are the configured tools' names, found behind a namespace too (mcp__crm__find_customer
	// is find_customer); shaped the data-class ones among them, which the name searches look for. A
	// name resolves against every configured tool, so that the longest wins, and is data-class when
	// shaped has the tool it resolves to: crm.find-customer is find-customer, not customer, when both
	// are configured. Validate gives each tool one data class, however its entries spell its name.
	known, shaped *toolname.Set
	memory        *memory
	memories      *sharedcomponent.Map[*Config, *memory]
	setBounds     setBounds
	telemetry     *metadata.TelemetryBuilder
	batches       sync.Pool
	now           func() time.Time
	// keptKey reports whether a JSON key is on the kept list: values under it stay. A func made once,
	// as the fingerprint calls take it: a method value would be made, and allocated, at every call.
	keptKey func(key []byte) bool
	// id and logger are the component's, for its storage client and what restoring it logs.
	id     component.ID
	logger *zap.Logger
}

// newShapeOnly makes a processor, taking its memory from memories: the one its configuration's other
// processor (traces or logs) shares, or a new one. On any error nothing is held.
func newShapeOnly(set processor.Settings, cfg *Config, memories *sharedcomponent.Map[*Config, *memory]) (*shapeOnly, error) {
	tb, err := metadata.NewTelemetryBuilder(set.TelemetrySettings)
	if err != nil {
		return nil, err
	}
	reg := agentspan.NewRegistry(cfg.Conventions, cfg.MaxDepth)
	p := &shapeOnly{
		cfg:           cfg,
		registry:      reg,
		shaper:        countsonly.New(cfg.KeptKeys, countsonly.Limits{MaxDepth: cfg.MaxDepth, MaxBytes: cfg.MaxValueBytes}),
		structural:    setOf(reg.StructuralKeys(), annotation.Keys(), cfg.StructuralKeys, cfg.RunAttributes, []string{cfg.DataClassAttribute}),
		shapedClasses: map[string]bool{},
		setBounds:     setBounds{fingerprints: cfg.MaxFingerprintsPerTrace, depth: cfg.MaxDepth},
		telemetry:     tb,
		now:           time.Now,
		id:            set.ID,
		logger:        set.Logger,
	}
	for _, c := range cfg.ShapedClasses {
		p.shapedClasses[normalName(c)] = true
	}
	var shaped []string
	for tool, class := range cfg.Tools {
		if p.shapedClasses[normalName(class)] {
			shaped = append(shaped, tool)
		}
	}
	p.known = toolname.NewSet(slices.Collect(maps.Keys(cfg.Tools)))
	p.shaped = toolname.NewSet(shaped)
	p.keptKey = func(key []byte) bool { return p.shaper.Kept(string(key)) }
	if p.known.Len() > 0 {
		// A withheld leaf that is a configured tool's name is not remembered: traces repeat tool
		// names everywhere as their structure, and a value that is only one carries no tool's data.
		p.setBounds.vocabulary = p.known.IsName
	}
	p.searchRules = map[string]searchRule{}
	for k := range p.structural {
		p.searchRules[k] = searchValueOnly
	}
	for _, k := range cfg.KeptKeys {
		p.searchRules[k] = searchKeptStrings
	}
	for k := range setOf(reg.IDKeys(), cfg.RunAttributes, annotation.Keys(), []string{cfg.DataClassAttribute}) {
		p.searchRules[k] = searchNone
	}
	p.memory, _ = memories.Acquire(cfg, func() (*memory, error) { return newMemory(cfg), nil })
	p.memories = memories
	p.batches.New = func() any { return newBatch(p) }
	if err := tb.RegisterProcessorShapeonlyFingerprintsCallback(func(_ context.Context, o metric.Int64Observer) error {
		o.Observe(int64(p.memory.held()))
		return nil
	}); err != nil {
		_ = p.shutdown(context.Background())
		return nil, err
	}
	p.serveZeros()
	return p, nil
}

// serveZeros starts every series at zero: a counter first served at its first increment is a jump
// increase() and rate() cannot see, and a shaping failure is exactly such a first increment.
func (p *shapeOnly) serveZeros() {
	ctx, t := context.Background(), p.telemetry
	t.ProcessorShapeonlyValuesWithheld.Add(ctx, 0)
	t.ProcessorShapeonlyContentMatches.Add(ctx, 0)
	t.ProcessorShapeonlyRecordsShaped.Add(ctx, 0)
	t.ProcessorShapeonlyValuesFailed.Add(ctx, 0)
	t.ProcessorShapeonlyForgottenDropped.Add(ctx, 0)
	for _, r := range evictionReasons {
		t.ProcessorShapeonlyMemoryEvicted.Add(ctx, 0, r)
	}
}

// start loads the memory from storage, when the configuration names a storage extension.
func (p *shapeOnly) start(ctx context.Context, host component.Host) error {
	if p.cfg.Storage == nil {
		return nil
	}
	return p.memory.open(ctx, host, p.cfg, p.setBounds, p.id, p.logger)
}

// shutdown releases the processor's telemetry and its share of the memory; the last processor
// sharing it saves it to storage.
func (p *shapeOnly) shutdown(ctx context.Context) error {
	p.telemetry.Shutdown()
	if p.memories.Release(p.cfg) {
		return p.memory.close(ctx)
	}
	return nil
}

// toolShaped reports whether a tool is data-class by configuration (its name, or its name behind a
// namespace: internal/toolname) or by what its spans said.
func (p *shapeOnly) toolShaped(name []byte, now time.Time) bool {
	n := normalName(string(name))
	if t, ok := p.known.Resolve(n); ok {
		return p.shaped.Has(t)
	}
	return n != "" && p.memory.toolLearnt([]byte(n), now)
}

// classShaped reports whether a data class attribute names a shaped class.
func (p *shapeOnly) classShaped(v pcommon.Value) bool {
	return p.shapedClasses[normalName(v.AsString())]
}

func (p *shapeOnly) processTraces(ctx context.Context, td ptrace.Traces) (ptrace.Traces, error) {
	b := p.batches.Get().(*batch)
	defer p.batches.Put(b)
	b.start(p.now())
	defer p.memory.end()
	b.readSpans(td)
	b.decide()
	b.shape()
	if b.searchable() {
		b.searchSpans(td)
	}
	p.record(ctx, b)
	return td, nil
}

func (p *shapeOnly) processLogs(ctx context.Context, ld plog.Logs) (plog.Logs, error) {
	b := p.batches.Get().(*batch)
	defer p.batches.Put(b)
	b.start(p.now())
	defer p.memory.end()
	b.readLogs(ld)
	b.decide()
	b.shape()
	if b.searchable() {
		b.searchLogs(ld)
	}
	p.record(ctx, b)
	return ld, nil
}

func (p *shapeOnly) record(ctx context.Context, b *batch) {
	t := p.telemetry
	if n := b.values.withheld + b.content.matched; n > 0 {
		t.ProcessorShapeonlyValuesWithheld.Add(ctx, int64(n))
	}
	if b.content.matched > 0 {
		t.ProcessorShapeonlyContentMatches.Add(ctx, int64(b.content.matched))
	}
	if b.values.failed > 0 {
		t.ProcessorShapeonlyValuesFailed.Add(ctx, int64(b.values.failed))
	}
	if n := b.recordsShaped(); n > 0 {
		t.ProcessorShapeonlyRecordsShaped.Add(ctx, int64(n))
	}
	ev := p.memory.takeEvicted()
	for i, n := range []int{ev.age, ev.capacity, ev.fingerprints} {
		if n > 0 {
			t.ProcessorShapeonlyMemoryEvicted.Add(ctx, int64(n), evictionReasons[i])
		}
	}
	if ev.dropped > 0 {
		t.ProcessorShapeonlyForgottenDropped.Add(ctx, int64(ev.dropped))
	}
}

// evictionReasons label memory_evicted: by age, by the trace count, by the fingerprint bound.
var evictionReasons = []metric.AddOption{
	metric.WithAttributeSet(attribute.NewSet(attribute.String("reason", "age"))),
	metric.WithAttributeSet(attribute.NewSet(attribute.String("reason", "capacity"))),
	metric.WithAttributeSet(attribute.NewSet(attribute.String("reason", "fingerprints"))),
}

func setOf(lists ...[]string) map[string]struct{} {
	m := map[string]struct{}{}
	for _, keys := range lists {
		for _, k := range keys {
			m[k] = struct{}{}
		}
	}
	return m
}
