// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package docs

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processortest"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/leakcheck"
	"github.com/agentotel/agentotel/internal/statestore/statestoretest"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/processor/agentguard"
	"github.com/agentotel/agentotel/processor/shapeonly"
)

// generatedClassAttribute is where agentgen marks the data class of a tool span.
const generatedClassAttribute = "tool.data_class"

// structural are the attributes that must survive on a data-class span, with agentguard's
// annotation.Keys(): what the tool call was, so the shaped span can still be found and read.
var structural = []string{"gen_ai.operation.name", "gen_ai.tool.name", "gen_ai.tool.call.id"}

// exercise builds every agentguard and shapeonly a block configures, from the block's own settings
// over the factory's defaults (what pasting it into a config without them gives), and runs generated
// agent runs through them. shapeonly runs behind the block's agentguard (or a default one), as the docs
// order them, so agentguard's annotations are there to be kept.
func exercise(t *testing.T, config map[string]any) {
	procs, _ := config["processors"].(map[string]any)
	var guards, shapers []string
	for _, id := range keysOf(procs) {
		switch typ, _, _ := strings.Cut(id, "/"); typ {
		case "agentguard":
			guards = append(guards, id)
		case "shapeonly":
			shapers = append(shapers, id)
		}
	}
	guard := agentguard.NewFactory().CreateDefaultConfig().(*agentguard.Config)
	for i, id := range guards {
		cfg := decode(t, agentguard.NewFactory(), procs[id]).(*agentguard.Config)
		if i == 0 {
			guard = cfg
		}
		t.Run(id, func(t *testing.T) { exerciseGuard(t, cfg) })
	}
	for _, id := range shapers {
		cfg := decode(t, shapeonly.NewFactory(), procs[id]).(*shapeonly.Config)
		t.Run(id, func(t *testing.T) { exerciseShaper(t, guard, cfg) })
	}
}

// decode reads a processor's section as the collector does (confmap, then Validate).
func decode(t *testing.T, f processor.Factory, section any) component.Config {
	t.Helper()
	cfg := f.CreateDefaultConfig()
	m, ok := section.(map[string]any)
	require.True(t, ok || section == nil, "the %s section is not a mapping", f.Type())
	require.NoError(t, confmap.NewFromStringMap(m).Unmarshal(cfg), "decoding the %s section", f.Type())
	require.NoError(t, cfg.(interface{ Validate() error }).Validate(), "the %s section", f.Type())
	return cfg
}

// start builds a processor from its factory and starts it.
func start(t *testing.T, f processor.Factory, cfg component.Config, next consumer.Traces) processor.Traces {
	t.Helper()
	ctx := context.Background()
	p, err := f.CreateTraces(ctx, processortest.NewNopSettings(f.Type()), cfg, next)
	require.NoError(t, err)
	require.NoError(t, p.Start(ctx, hostFor(cfg)))
	t.Cleanup(func() { require.NoError(t, p.Shutdown(ctx)) })
	return p
}

// hostFor is a host with the storage extension cfg names, if it names one, as the collector config the
// block is pasted into has it (checkFragment holds it to the shipped configs, which define
// file_storage); it keeps its values in memory, and test/e2e runs the real one.
func hostFor(cfg component.Config) component.Host {
	var storage *component.ID
	switch c := cfg.(type) {
	case *agentguard.Config:
		storage = c.Storage
	case *shapeonly.Config:
		storage = c.Storage
	}
	if storage == nil {
		return componenttest.NewNopHost()
	}
	return statestoretest.Host{*storage: statestoretest.New()}
}

// guardRun runs one batch through a fresh agentguard and returns what it sent on.
func guardRun(t *testing.T, cfg *agentguard.Config, td ptrace.Traces) ptrace.Traces {
	t.Helper()
	sink := new(consumertest.TracesSink)
	require.NoError(t, start(t, agentguard.NewFactory(), cfg, sink).ConsumeTraces(context.Background(), td))
	require.Len(t, sink.AllTraces(), 1)
	return sink.AllTraces()[0]
}

// stuckReasons lists the reasons of the stuck events agentguard wrote.
func stuckReasons(td ptrace.Traces) []string {
	var reasons []string
	for _, span := range walk.Spans(td) {
		for i := 0; i < span.Events().Len(); i++ {
			if e := span.Events().At(i); e.Name() == annotation.StuckEvent {
				v, _ := e.Attributes().Get(annotation.EventReason)
				reasons = append(reasons, v.AsString())
			}
		}
	}
	return reasons
}

// manifestNeeds are the tools a scenario's verdict relies on the manifest to declare: the wait
// scenarios poll get_build_status, and code's edit-and-revert is judged by edit_file's state. Every
// other scenario is judged without a manifest.
var manifestNeeds = map[string][]string{
	"deploy": {"get_build_status"}, "finished_poll": {"get_build_status"}, "unknown_wait": {"get_build_status"},
	"wait_timeout": {"get_build_status"}, "code": {"edit_file"},
}

// exerciseGuard: every scenario gets its verdict from agentguard configured by the block, a stuck one
// its reason. A scenario whose tools the block does not declare cannot be judged as designed: it is
// left out, and said so. With a declared convention that reads agentgen's unknown SDK, that SDK's stuck
// run is flagged too.
func exerciseGuard(t *testing.T, cfg *agentguard.Config) {
	flagged := 0
	for _, scenario := range agentgen.Scenarios() {
		if missing := slices.DeleteFunc(slices.Clone(manifestNeeds[scenario]), func(tool string) bool {
			_, ok := cfg.Tools[tool]
			return ok
		}); len(missing) > 0 {
			t.Logf("%s: not exercised: the block declares no %v, which its verdict relies on", scenario, missing)
			continue
		}
		run, err := agentgen.Generate(scenario, agentgen.Options{Seed: 7})
		require.NoError(t, err)
		reasons := stuckReasons(guardRun(t, cfg, run.Traces))
		if run.Expect != "stuck" {
			assert.Empty(t, reasons, "%s: a healthy run is flagged", scenario)
			continue
		}
		flagged++
		assert.Contains(t, reasons, run.ExpectReason, "%s: the stuck run is not flagged as %s", scenario, run.ExpectReason)
	}
	require.Positive(t, flagged, "no stuck scenario was exercised")

	run, err := agentgen.Generate("docs", agentgen.Options{Convention: agentgen.Unknown, Seed: 7})
	require.NoError(t, err)
	if !selects(cfg.Conventions, run.Traces) {
		if len(cfg.Conventions) > 0 {
			t.Logf("the declared conventions match none of agentgen's unknown SDK's spans: validated, not exercised")
		}
		return
	}
	assert.Contains(t, stuckReasons(guardRun(t, cfg, run.Traces)), run.ExpectReason,
		"the declared convention does not make agentguard judge the unknown SDK's stuck run")
}

// selects reports whether a declared convention claims any span of td.
func selects(declared []agentspan.Declared, td ptrace.Traces) bool {
	found := false
	for _, d := range declared {
		for i := 0; i < td.ResourceSpans().Len(); i++ {
			sss := td.ResourceSpans().At(i).ScopeSpans()
			for j := 0; j < sss.Len(); j++ {
				if d.Match.Scope != "" && sss.At(j).Scope().Name() == d.Match.Scope {
					found = true
				}
			}
		}
		for _, span := range walk.Spans(td) {
			if v, ok := span.Attributes().Get(d.Match.Attribute); ok && d.Match.Attribute != "" && (d.Match.Value == "" || v.AsString() == d.Match.Value) {
				found = true
			}
		}
	}
	return found
}

// checked counts what exerciseShaper looked at, so a run that shows nothing to check fails.
type checked struct {
	spans, structural, annotations int
}

// exerciseShaper sends agentgen's support run, whose find_customer returns a customer record that
// later transcripts repeat, through agentguard and then shapeonly configured by the block, in every
// convention agentotel knows (and in agentgen's unknown SDK when the block declares a convention for
// it). Twice: with the data class on the tool span under the block's data_class_attribute, and, when
// the block names the tool in tools:, with no class on the span at all. No customer value may
// survive, in any field or spelling, and on the data-class spans the structural attributes and
// agentguard's annotations must stay as agentguard left them.
func exerciseShaper(t *testing.T, guard *agentguard.Config, cfg *shapeonly.Config) {
	conventions := agentgen.Conventions()
	unknown, err := agentgen.Generate("support", agentgen.Options{Convention: agentgen.Unknown, Seed: 1})
	require.NoError(t, err)
	switch {
	case selects(cfg.Conventions, unknown.Traces):
		conventions = append(conventions, agentgen.Unknown)
	case len(cfg.Conventions) > 0:
		t.Logf("the declared conventions match none of agentgen's unknown SDK's spans: validated, not exercised")
	}
	var seen checked
	for _, conv := range conventions {
		generate := func() (agentgen.Run, map[pcommon.SpanID]string) {
			run, err := agentgen.Generate("support", agentgen.Options{Convention: conv, Seed: 1})
			require.NoError(t, err)
			require.NotEmpty(t, run.Secrets)
			return run, dataClassTools(t, run.Traces)
		}
		run, tools := generate()
		for _, span := range walk.Spans(run.Traces) {
			if v, ok := span.Attributes().Get(generatedClassAttribute); ok {
				class := v.AsString()
				span.Attributes().Remove(generatedClassAttribute)
				span.Attributes().PutStr(cfg.DataClassAttribute, class)
			}
		}
		checkShaped(t, string(conv)+", classed by "+cfg.DataClassAttribute, guard, cfg, run, tools, &seen)

		var unnamed []string
		for _, tool := range tools {
			if !classedByName(cfg, tool) {
				unnamed = append(unnamed, tool)
			}
		}
		if len(unnamed) > 0 {
			t.Logf("%s: the block does not class %v by name: only the run with the class on its spans is exercised", conv, unnamed)
			continue
		}
		run, tools = generate()
		for _, span := range walk.Spans(run.Traces) {
			span.Attributes().Remove(generatedClassAttribute)
			span.Attributes().Remove(cfg.DataClassAttribute)
		}
		checkShaped(t, string(conv)+", classed by name", guard, cfg, run, tools, &seen)
	}
	require.Positive(t, seen.spans, "no data-class span was checked")
	require.Positive(t, seen.structural, "no structural attribute was checked")
	require.Positive(t, seen.annotations, "no annotation was checked")
}

// dataClassTools returns the spans agentgen marks as customer data, with the tool each runs.
func dataClassTools(t *testing.T, td ptrace.Traces) map[pcommon.SpanID]string {
	t.Helper()
	tools := map[pcommon.SpanID]string{}
	for where, span := range walk.Spans(td) {
		if v, ok := span.Attributes().Get(generatedClassAttribute); !ok || v.AsString() != "customer" {
			continue
		}
		view := agentspan.Default.Recognize(agentspan.Span{Scope: where.Scope.Name(), Name: span.Name(), Attrs: span.Attributes()})
		require.NotEmpty(t, view.Tool, "a data-class span %q runs no tool the registry can name", span.Name())
		tools[span.SpanID()] = strings.Clone(view.Tool)
	}
	require.NotEmpty(t, tools, "the run has no data-class span")
	return tools
}

// classedByName reports whether the block's tools: gives a tool a shaped class (names and classes
// compare case-insensitively, trimmed, as shapeonly compares them).
func classedByName(cfg *shapeonly.Config, tool string) bool {
	norm := func(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
	for name, class := range cfg.Tools {
		if norm(name) == norm(tool) {
			return slices.ContainsFunc(cfg.ShapedClasses, func(c string) bool { return norm(c) == norm(class) })
		}
	}
	return false
}

// checkShaped runs a run through agentguard, then shapeonly, and checks what shapeonly sent on
// against what it received.
func checkShaped(t *testing.T, name string, guard *agentguard.Config, cfg *shapeonly.Config, run agentgen.Run,
	tools map[pcommon.SpanID]string, seen *checked) {
	t.Helper()
	sink := new(consumertest.TracesSink)
	shaper := start(t, shapeonly.NewFactory(), cfg, sink)
	annotated := ptrace.NewTraces()
	tee, err := consumer.NewTraces(func(ctx context.Context, td ptrace.Traces) error {
		td.CopyTo(annotated)
		return shaper.ConsumeTraces(ctx, td)
	}, consumer.WithCapabilities(consumer.Capabilities{MutatesData: true}))
	require.NoError(t, err)
	require.NoError(t, start(t, agentguard.NewFactory(), guard, tee).ConsumeTraces(context.Background(), run.Traces))
	require.Len(t, sink.AllTraces(), 1)
	out := sink.AllTraces()[0]

	otlp, err := (&ptrace.JSONMarshaler{}).MarshalTraces(out)
	require.NoError(t, err)
	for _, leak := range leakcheck.Find(name, otlp, run.Secrets) {
		t.Errorf("leak: %s", leak)
	}
	if !strings.Contains(string(otlp), "withheld]") {
		t.Errorf("%s: nothing in the output is marked withheld: shapeonly did not shape the run", name)
	}

	before := map[pcommon.SpanID]ptrace.Span{}
	for _, span := range walk.Spans(annotated) {
		before[span.SpanID()] = span
	}
	for _, after := range walk.Spans(out) {
		tool, ok := tools[after.SpanID()]
		if !ok {
			continue
		}
		seen.spans++
		in := before[after.SpanID()].Attributes()
		for _, key := range append(slices.Clone(structural), annotation.Keys()...) {
			want, had := in.Get(key)
			if !had {
				continue
			}
			if strings.HasPrefix(key, "agentguard.") {
				seen.annotations++
			} else {
				seen.structural++
			}
			switch got, kept := after.Attributes().Get(key); {
			case !kept:
				t.Errorf("%s: %s span %s: %s=%q was removed", name, tool, after.SpanID(), key, want.AsString())
			case got.AsString() != want.AsString():
				t.Errorf("%s: %s span %s: %s was %q, is %q", name, tool, after.SpanID(), key, want.AsString(), got.AsString())
			}
		}
	}
}
