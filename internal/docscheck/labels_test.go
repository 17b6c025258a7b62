// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package docscheck_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processortest"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/processor/agentguard"
	"github.com/agentotel/agentotel/processor/shapeonly"
)

// recordedLabels runs every agentgen scenario through a real agentguard and then a real shapeonly, as
// the default pipeline does, and returns what their metrics recorded: by metric name, each label by
// the name Prometheus serves it under (dots become underscores) with the values it took.
func recordedLabels(t *testing.T) map[string]map[string][]string {
	t.Helper()
	ctx := context.Background()
	tel := componenttest.NewTelemetry()
	t.Cleanup(func() { require.NoError(t, tel.Shutdown(ctx)) })
	build := func(f processor.Factory, cfg any, next *consumertest.TracesSink) processor.Traces {
		set := processortest.NewNopSettings(f.Type())
		set.TelemetrySettings = tel.NewTelemetrySettings()
		p, err := f.CreateTraces(ctx, set, cfg, next)
		require.NoError(t, err)
		require.NoError(t, p.Start(ctx, componenttest.NewNopHost()))
		t.Cleanup(func() { require.NoError(t, p.Shutdown(ctx)) })
		return p
	}
	soCfg := shapeonly.NewFactory().CreateDefaultConfig().(*shapeonly.Config)
	soCfg.Tools = map[string]string{"find_customer": "customer"}
	so := build(shapeonly.NewFactory(), soCfg, new(consumertest.TracesSink))
	agCfg := agentguard.NewFactory().CreateDefaultConfig().(*agentguard.Config)
	agCfg.Tools = map[string]agentguard.ToolConfig{
		"get_build_status": {Kind: "wait", ProgressField: "status", WaitingValues: []string{"queued", "running"},
			TerminalValues: []string{"success", "failed", "cancelled", "timed_out"}, MaxWait: 20 * time.Minute},
		"edit_file": {Kind: "write", StateField: "sha"},
	}
	sink := new(consumertest.TracesSink)
	ag := build(agentguard.NewFactory(), agCfg, sink)
	for _, scenario := range agentgen.Scenarios() {
		run, err := agentgen.Generate(scenario, agentgen.Options{Seed: 3})
		require.NoError(t, err)
		require.NoError(t, ag.ConsumeTraces(ctx, run.Traces))
	}
	for _, td := range sink.AllTraces() {
		require.NoError(t, so.ConsumeTraces(ctx, td))
	}

	var rm metricdata.ResourceMetrics
	require.NoError(t, tel.Reader.Collect(ctx, &rm))
	out := map[string]map[string][]string{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			labels := map[string][]string{}
			for _, set := range attributeSets(m.Data) {
				for _, kv := range set.ToSlice() {
					name := strings.ReplaceAll(string(kv.Key), ".", "_")
					if v := kv.Value.String(); !slices.Contains(labels[name], v) {
						labels[name] = append(labels[name], v)
					}
				}
			}
			out[m.Name] = labels
		}
	}
	return out
}

// attributeSets lists the attribute sets of a metric's data points, whatever its kind.
func attributeSets(data metricdata.Aggregation) []attribute.Set {
	return append(pointSets[int64](data), pointSets[float64](data)...)
}

func pointSets[N int64 | float64](data metricdata.Aggregation) []attribute.Set {
	var sets []attribute.Set
	var points []metricdata.DataPoint[N]
	switch d := data.(type) {
	case metricdata.Sum[N]:
		points = d.DataPoints
	case metricdata.Gauge[N]:
		points = d.DataPoints
	case metricdata.Histogram[N]:
		for _, p := range d.DataPoints {
			sets = append(sets, p.Attributes)
		}
	}
	for _, p := range points {
		sets = append(sets, p.Attributes)
	}
	return sets
}

// TestMetricLabelsAreRecorded runs the scenarios once and holds both places that say which labels a
// metric has to what the processors record for it, by their served names:
//
//   - metadata.yaml: the attributes each metric's entry declares (which mdatagen writes into the
//     processor's documentation.md, where docs/alerting.md links) are its labels, and an attribute's
//     enum lists every value it takes and no other (the processors serve each agent's series of every
//     value from zero, so a run of the scenarios records them all);
//   - the docs' metric tables: the labels a table gives a metric (a labels or attributes column, or
//     name{label=...} in the metric's own cell) are its labels, and the values it lists are values
//     they record.
func TestMetricLabelsAreRecorded(t *testing.T) {
	recorded, declared := recordedLabels(t), servedMetrics(t)
	t.Run("metadata.yaml", func(t *testing.T) {
		for name, m := range declared {
			got, ok := recorded[name]
			if !ok {
				t.Errorf("%s recorded nothing: run a scenario that exercises it", name)
				continue
			}
			if want := slices.Sorted(maps.Keys(got)); !sameSet(m.LabelNames(), want) {
				t.Errorf("processor/%s/metadata.yaml: %s declares the attributes %v; the processor records %v", m.Processor, name, m.LabelNames(), want)
			}
			for _, l := range m.Labels {
				if vals, ok := got[l.Name]; ok && len(l.Values) > 0 && !sameSet(l.Values, vals) {
					t.Errorf("processor/%s/metadata.yaml: %s: the enum of %s is %v; the processor records %v", m.Processor, name, l.Name, l.Values, vals)
				}
			}
		}
		for name := range recorded {
			if _, ok := declared[name]; !ok && metricName.MatchString(name) {
				t.Errorf("the processors record %s, which no metadata.yaml declares", name)
			}
		}
	})
	t.Run("docs tables", func(t *testing.T) {
		rows := 0
		for _, doc := range readDocs(t) {
			for _, row := range doc.Metrics() {
				rows++
				if row.Name == "" {
					t.Errorf("%s: the metric cell names no metric", doc.At(row.Line))
					continue
				}
				if !row.Listed {
					continue // this table does not say which labels its metrics carry
				}
				got, ok := recorded[row.Name]
				if !ok {
					t.Errorf("%s: %s is not recorded", doc.At(row.Line), row.Name)
					continue
				}
				for _, l := range row.Labels {
					for _, v := range l.Values {
						if vals, ok := got[l.Name]; ok && !slices.Contains(vals, v) {
							t.Errorf("%s: %s: %s=%q is never recorded (recorded: %v)", doc.At(row.Line), row.Name, l.Name, v, vals)
						}
					}
				}
				if want := slices.Sorted(maps.Keys(got)); !sameSet(row.LabelNames(), want) {
					t.Errorf("%s: %s: the docs give the labels %v; the processor records %v", doc.At(row.Line), row.Name, row.LabelNames(), want)
				}
			}
		}
		require.Positive(t, rows, "no metric table found: the scan is broken")
	})
}
