// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// The dashboard is the v1 JSON model on purpose: Grafana provisions dashboards from files in that model,
// and the v2 schema the SDK now prefers needs Grafana 12 with the kubernetesDashboards feature enabled.
//
//lint:file-ignore SA1019 the v1 dashboard model is what file provisioning reads (see above)

package main

import (
	"encoding/json"
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/bargauge"
	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/heatmap"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"
	"github.com/grafana/grafana-foundation-sdk/go/stat"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"
)

// UID is the dashboard's fixed uid: links and provisioning keep pointing at it across regenerations.
const UID = "agentotel"

// datasourceVar is the dashboard's datasource template variable; every panel and query uses it.
const datasourceVar = "datasource"

// The PromQL of each panel. Metric names are the collector's own (otelcol_ prefix, counters without
// _total at this collector release); test/promcheck checks every one against the served set.
// Every panel sums by its own labels, so a label the collector may add (it adds none at v0.161.0) is
// summed away.
const (
	exprStuckByAgent  = `sum by (gen_ai_agent_name, reason) (increase(otelcol_processor_agentguard_stuck_episodes[$__rate_interval]))`
	exprStuckLifetime = `sum by (gen_ai_agent_name, reason) (otelcol_processor_agentguard_stuck_episodes)`
	// Barren among the steps agentguard could judge: unjudged steps (progress="unknown") are neither.
	exprBarrenShare    = `sum by (gen_ai_agent_name) (rate(otelcol_processor_agentguard_steps{progress="false"}[$__rate_interval])) / sum by (gen_ai_agent_name) (rate(otelcol_processor_agentguard_steps{progress=~"true|false"}[$__rate_interval]))`
	exprStepsByVerdict = `sum by (progress) (rate(otelcol_processor_agentguard_steps[$__rate_interval]))`
	exprPollsExempt    = `sum(rate(otelcol_processor_agentguard_polls_exempt[$__rate_interval]))`
	exprActiveRuns     = `sum(otelcol_processor_agentguard_runs_active)`
	exprRunsEvicted    = `sum by (reason) (increase(otelcol_processor_agentguard_runs_evicted[$__rate_interval]))`

	// Every outcome of every agent is served from zero; "> 0" keeps the empty ones out of the legend.
	exprRunsByOutcome = `sum by (gen_ai_agent_name, outcome) (increase(otelcol_processor_agentguard_runs_finished[$__rate_interval])) > 0`
	// The shares read the same windows as their alerts, so the threshold line means what the alert does.
	exprCutOffShare      = `sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_runs_finished{outcome="cut_off"}[1h])) / sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_runs_finished[1h]))`
	exprOverBudgetShare  = `sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_runs_finished{outcome="over_budget"}[1h])) / sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_runs_finished[1h]))`
	exprToolFailureShare = `sum by (gen_ai_agent_name, gen_ai_tool_name) (increase(otelcol_processor_agentguard_tool_calls{outcome="failed"}[30m])) / sum by (gen_ai_agent_name, gen_ai_tool_name) (increase(otelcol_processor_agentguard_tool_calls[30m]))`
	exprUnjudgedShare    = `sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_steps{progress="unknown"}[30m])) / sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_steps[30m]))`
	exprRoundsHeatmap    = `sum by (le) (increase(otelcol_processor_agentguard_run_rounds_bucket[$__rate_interval]))`
	exprRoundsMedian     = `histogram_quantile(0.5, sum by (gen_ai_agent_name, le) (rate(otelcol_processor_agentguard_run_rounds_bucket[1h])))`
	exprRoundsP90        = `histogram_quantile(0.9, sum by (gen_ai_agent_name, le) (rate(otelcol_processor_agentguard_run_rounds_bucket[1h])))`
	// Mean turn efficiency, max(0, 1-(rounds-1)*0.2), exactly: a run of r whole rounds (1 <= r <= 5)
	// lies in the 6-r buckets le=r..5, so 0.2 * (those buckets) / count is the mean. le matches "1" and
	// "1.0" alike (Prometheus 3 writes the decimal). The same expression as AgentTurnEfficiencyDropped.
	exprTurnEfficiency          = `0.2 * sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_run_rounds_bucket{le=~"[1-5]|[1-5][.]0"}[1h])) / sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_run_rounds_count[1h]))`
	exprTurnEfficiencyDayBefore = `0.2 * sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_run_rounds_bucket{le=~"[1-5]|[1-5][.]0"}[1d] offset 1h)) / sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_run_rounds_count[1d] offset 1h))`
	exprDurationMedian          = `histogram_quantile(0.5, sum by (gen_ai_agent_name, le) (rate(otelcol_processor_agentguard_run_duration_bucket[1h])))`
	exprDurationP90             = `histogram_quantile(0.9, sum by (gen_ai_agent_name, le) (rate(otelcol_processor_agentguard_run_duration_bucket[1h])))`

	// What the model calls cost, by the state the run was in when it made each call. The share reads
	// AgentTokensWasted's window; the top list reads the dashboard's time range.
	exprTokensByState     = `sum by (gen_ai_agent_name, state) (rate(otelcol_processor_agentguard_tokens[$__rate_interval])) > 0`
	exprTokensWasted      = `sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_tokens{state=~"stuck|barren"}[1h])) / sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_tokens[1h]))`
	exprTopWasting        = `topk(10, sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_tokens{state=~"stuck|barren"}[$__range]))) > 0`
	exprTokensByDirection = `sum by (direction) (rate(otelcol_processor_agentguard_tokens[$__rate_interval]))`

	exprValuesWithheld = `sum(rate(otelcol_processor_shapeonly_values_withheld[$__rate_interval]))`
	exprRecordsShaped  = `sum(rate(otelcol_processor_shapeonly_records_shaped[$__rate_interval]))`
	exprContentMatches = `sum(rate(otelcol_processor_shapeonly_content_matches[$__rate_interval]))`
	exprFingerprints   = `sum by (instance) (otelcol_processor_shapeonly_fingerprints)`
	exprValuesFailed   = `sum(increase(otelcol_processor_shapeonly_values_failed[$__rate_interval]))`
	exprMemoryEvicted  = `sum by (reason) (increase(otelcol_processor_shapeonly_memory_evicted[$__rate_interval]))`
)

// The thresholds of the alerts the panels draw (deploy/prometheus/agentotel-rules.yaml; why these
// numbers: docs/alerting.md).
const (
	barrenThreshold        = 0.5  // AgentBarrenStepsHigh, over 15m
	unjudgedThreshold      = 0.5  // AgentStepsUnjudged, over 30m
	cutOffThreshold        = 0.1  // AgentRunsCutOff, over 1h
	overBudgetThreshold    = 0.05 // AgentRunsOverBudget, over 1h
	toolFailureThreshold   = 0.25 // AgentToolCallsFailing, over 30m
	turnEfficiencyDropStep = 0.2  // AgentTurnEfficiencyDropped: one more round per run
	tokensWastedThreshold  = 0.25 // AgentTokensWasted, over 1h
)

// Build returns the agentotel dashboard: agentguard's view of agent runs, then shapeonly's shaping.
func Build() (dashboard.Dashboard, error) {
	var id uint32
	nextID := func() uint32 { id++; return id }

	b := dashboard.NewDashboardBuilder("agentotel: agent runs and shaping").
		Uid(UID).
		Description("otelcol-agent's own metrics: agentguard (stuck episodes, barren and unjudged steps, run state, how runs end, tool failures, model rounds, tokens by progress state) and shapeonly (values withheld, found by content, shaping failures, memory). Alerts: docs/alerting.md.").
		Tags([]string{"agentotel", "otelcol-agent", "generated"}).
		Refresh("30s").
		Time("now-3h", "now").
		Timezone(common.TimeZoneBrowser).
		Tooltip(dashboard.DashboardCursorSyncCrosshair).
		WithVariable(dashboard.NewDatasourceVariableBuilder(datasourceVar).
			Label("Data source").
			Type("prometheus"))

	b.WithRow(dashboard.NewRowBuilder("Agent runs (agentguard)").Id(nextID()))

	b.WithPanel(events(nextID(), "Stuck episodes by agent and reason", exprStuckByAgent, "{{gen_ai_agent_name}} / {{reason}}").
		Description("Stuck episodes per interval, by agent (gen_ai.agent.name) and reason. A run that recovers and sticks again counts again. The first episode of an agent and reason creates its series, so this graph misses it; the panel beside it and the AgentRunStuck alert do not.").
		Span(16).Height(8))
	b.WithPanel(ranking(nextID(), "Stuck episodes since collector start", exprStuckLifetime, "{{gen_ai_agent_name}} / {{reason}}").
		Description("Every stuck episode the running collector has counted, by agent and reason.").
		Span(8).Height(8))

	b.WithPanel(share(nextID(), "Barren-step share by agent", exprBarrenShare, "{{gen_ai_agent_name}}", barrenThreshold).
		Description(fmt.Sprintf("Share of each agent's judged tool calls that brought nothing new (progress=\"false\"); unjudged steps are left out. AgentBarrenStepsHigh fires above %.0f%% over 15 minutes, for 15 minutes, with at least 20 judged steps.", barrenThreshold*100)).
		Span(12).Height(8))
	b.WithPanel(lines(nextID(), "Steps by verdict",
		query("A", exprStepsByVerdict, "progress={{progress}}"),
		query("B", exprPollsExempt, "exempt polls")).
		Description("Tool calls per second, by agentguard's verdict: progress=true (something new, exempt polls included), false (barren) or unknown (unjudged: no convention could read the result), and the polls of declared wait tools exempted from the loop and no-progress checks.").
		Unit("ops").
		Span(12).Height(8))

	b.WithPanel(stat.NewPanelBuilder().
		Id(nextID()).
		Title("Active runs").
		Description("Runs whose state agentguard holds now (bounded by max_runs).").
		Datasource(datasourceRef()).
		WithTarget(query("A", exprActiveRuns, "active runs")).
		Unit("short").
		GraphMode(common.BigValueGraphModeArea).
		ColorMode(common.BigValueColorModeValue).
		ReduceOptions(common.NewReduceDataOptionsBuilder().Calcs([]string{"lastNotNull"})).
		Orientation(common.VizOrientationAuto).
		Span(6).Height(8))
	b.WithPanel(lines(nextID(), "Active runs over time", query("A", exprActiveRuns, "active runs")).
		Unit("short").
		Span(18).Height(8))

	b.WithPanel(events(nextID(), "agentguard run-state evictions by reason", exprRunsEvicted, "{{reason}}").
		Description("Run states dropped before their run ended: idle (run_idle_timeout, housekeeping) or capacity (max_runs reached: AgentguardStateAtCapacity).").
		Span(24).Height(8))

	b.WithRow(dashboard.NewRowBuilder("How runs end (agentguard)").Id(nextID()))

	b.WithPanel(events(nextID(), "Runs finished by agent and outcome", exprRunsByOutcome, "{{gen_ai_agent_name}} / {{outcome}}").
		Description("Finished runs per interval, stacked by agent and outcome: answered; cut_off (the last reply stopped at the output limit); empty (the last reply said nothing); failed (the root span failed); over_budget (longer than run_budget); stuck (stuck when it ended); abandoned (idled out without a root span).").
		Span(24).Height(8))

	b.WithPanel(share(nextID(), "Cut-off share by agent", exprCutOffShare, "{{gen_ai_agent_name}}", cutOffThreshold).
		Description(fmt.Sprintf("Share of each agent's runs finished in the past hour whose last reply was cut off at the output limit. AgentRunsCutOff fires above %.0f%%, for 15 minutes, with at least 20 runs in the hour.", cutOffThreshold*100)).
		Span(12).Height(8))
	b.WithPanel(share(nextID(), "Over-budget share by agent", exprOverBudgetShare, "{{gen_ai_agent_name}}", overBudgetThreshold).
		Description(fmt.Sprintf("Share of each agent's runs finished in the past hour that took longer than run_budget. AgentRunsOverBudget fires above %.0f%%, for 15 minutes, with at least 20 runs in the hour.", overBudgetThreshold*100)).
		Span(12).Height(8))

	b.WithPanel(share(nextID(), "Tool-call failure share by agent and tool", exprToolFailureShare, "{{gen_ai_agent_name}} / {{gen_ai_tool_name}}", toolFailureThreshold).
		Description(fmt.Sprintf("Share of each agent's calls to each tool in the past 30 minutes that failed (error status, or a result that is only an error). AgentToolCallsFailing fires above %.0f%%, for 15 minutes, with at least 20 calls.", toolFailureThreshold*100)).
		Span(12).Height(8))
	b.WithPanel(share(nextID(), "Unjudged-step share by agent", exprUnjudgedShare, "{{gen_ai_agent_name}}", unjudgedThreshold).
		Description(fmt.Sprintf("Share of each agent's tool calls in the past 30 minutes that agentguard could not judge, because no convention could read their results (progress=\"unknown\"). Near 100%%, agentguard is blind to the agent: declare its SDK in conventions. AgentStepsUnjudged fires above %.0f%%, for 15 minutes, with at least 20 steps.", unjudgedThreshold*100)).
		Span(12).Height(8))

	b.WithPanel(heatmap.NewPanelBuilder().
		Id(nextID()).
		Title("Model rounds per run").
		Description("How many model calls the runs finished in each interval took, all agents together: each column is a histogram of run_rounds, darker where more runs fell.").
		Datasource(datasourceRef()).
		WithTarget(query("A", exprRoundsHeatmap, "{{le}}").Format(prometheus.PromQueryFormatHeatmap)).
		Calculate(false).
		Color(heatmap.NewHeatmapColorOptionsBuilder().
			Mode(heatmap.HeatmapColorModeScheme).
			Scheme("Oranges").
			Scale(heatmap.HeatmapColorScaleExponential).
			Exponent(0.5).
			Steps(64)).
		RowsFrame(heatmap.NewRowsHeatmapOptionsBuilder().Layout(common.HeatmapCellLayoutLe)).
		YAxis(heatmap.NewYAxisConfigBuilder().Unit("short").AxisLabel("model rounds")).
		CellValues(heatmap.NewCellValuesBuilder().Unit("short").Decimals(0)).
		Tooltip(heatmap.NewHeatmapTooltipBuilder().Mode(common.TooltipDisplayModeSingle).YHistogram(true)).
		ShowLegend().
		Span(12).Height(8))
	b.WithPanel(lines(nextID(), "Model rounds per run by agent",
		query("A", exprRoundsMedian, "{{gen_ai_agent_name}} median"),
		query("B", exprRoundsP90, "{{gen_ai_agent_name}} p90")).
		Description("Median and 90th percentile of the model calls per run, over the runs each agent finished in the past hour (interpolated within run_rounds' buckets: 1 to 6, 8, 10, 15, 20, 30, 50).").
		Unit("short").
		Span(12).Height(8))

	b.WithPanel(lines(nextID(), "Mean turn efficiency by agent",
		query("A", exprTurnEfficiency, "{{gen_ai_agent_name}}"),
		query("B", exprTurnEfficiencyDayBefore, "{{gen_ai_agent_name}} (day before)")).
		Description(fmt.Sprintf("Mean of max(0, 1 - (rounds - 1) * 0.2) over the runs each agent finished in the past hour, beside its mean over the day before that: 1 is one model call per run, each extra call costs 0.2, six or more score 0. AgentTurnEfficiencyDropped fires when the hour falls more than %.1f below the day before, for 15 minutes, with at least 20 runs in each.", turnEfficiencyDropStep)).
		Unit("none").
		Decimals(2).
		Max(1).
		Span(12).Height(8))
	b.WithPanel(lines(nextID(), "Run duration by agent",
		query("A", exprDurationMedian, "{{gen_ai_agent_name}} median"),
		query("B", exprDurationP90, "{{gen_ai_agent_name}} p90")).
		Description("Median and 90th percentile of the wall-clock time of the runs each agent finished in the past hour (interpolated within run_duration's buckets). Compare with run_budget when runs end over_budget.").
		Unit("s").
		Span(12).Height(8))

	b.WithRow(dashboard.NewRowBuilder("What runs cost (agentguard)").Id(nextID()))

	b.WithPanel(lines(nextID(), "Tokens by state per agent", query("A", exprTokensByState, "{{gen_ai_agent_name}} / {{state}}")).
		Description("Tokens per second of each agent's model calls, stacked by the state the run was in when it made the call: progress (its latest judged step made progress, or none was judged yet), waiting (its latest step polled something still in progress), barren (its no-progress counter above zero), stuck (in a stuck episode), unjudged (its latest step could not be read). Input, cached input and output together.").
		Unit("short").
		Stacking(common.NewStackingConfigBuilder().Mode(common.StackingModeNormal)).
		FillOpacity(40).
		Span(16).Height(8))
	b.WithPanel(ranking(nextID(), "Top wasting agents", exprTopWasting, "{{gen_ai_agent_name}}").
		Description("The ten agents whose model calls spent the most tokens while their runs were stuck or barren, over the dashboard's time range.").
		Span(8).Height(8))
	b.WithPanel(share(nextID(), "Tokens spent stuck or barren, share by agent", exprTokensWasted, "{{gen_ai_agent_name}}", tokensWastedThreshold).
		Description(fmt.Sprintf("Share of each agent's tokens in the past hour spent on model calls made while the run was stuck or barren. AgentTokensWasted fires above %.0f%%, for 15 minutes, with at least 100,000 tokens in the hour.", tokensWastedThreshold*100)).
		Span(12).Height(8))
	b.WithPanel(lines(nextID(), "Tokens by direction", query("A", exprTokensByDirection, "{{direction}}")).
		Description("Tokens per second of every agent's model calls: input (not served by the provider's cache), cached_input (read from it, priced apart) and output. To turn them into money, see docs/alerting.md#tokens-into-money.").
		Unit("short").
		Span(12).Height(8))

	b.WithRow(dashboard.NewRowBuilder("Shaping (shapeonly)").Id(nextID()))

	b.WithPanel(lines(nextID(), "Values withheld",
		query("A", exprValuesWithheld, "values withheld"),
		query("B", exprRecordsShaped, "records shaped")).
		Description("Strings and arrays replaced by a placeholder per second (values withheld whole included), and spans and log records with at least one value withheld.").
		Unit("ops").
		Span(12).Height(8))
	b.WithPanel(events(nextID(), "Shaping failures (values withheld whole)", exprValuesFailed, "values failed").
		Description("Values that could not be shaped (malformed, too deep or too large) and were withheld whole: ShapeonlyShapingFailures.").
		Span(12).Height(8))
	b.WithPanel(lines(nextID(), "Values found by content", query("A", exprContentMatches, "content matches")).
		Description("Values withheld per second because they repeated, verbatim or escaped, a value withheld earlier in their trace or run: found by content, where no tool-call id or format pointed at them. Part of \"values withheld\".").
		Unit("ops").
		Span(12).Height(8))
	b.WithPanel(lines(nextID(), "Fingerprints held", query("A", exprFingerprints, "{{instance}}")).
		Description("Fingerprints of withheld values that shapeonly holds to find them again, per collector (bounded by max_fingerprints; past it the oldest traces and runs are forgotten, reason fingerprints below).").
		Unit("short").
		Span(12).Height(8))
	b.WithPanel(events(nextID(), "shapeonly memory evictions by reason", exprMemoryEvicted, "{{reason}}").
		Description("Remembered traces, runs and learnt tool names forgotten: age (memory_ttl, housekeeping), capacity (max_traces reached) or fingerprints (max_fingerprints reached); the last two raise ShapeonlyMemoryAtCapacity.").
		Span(24).Height(8))

	return b.Build()
}

// Render returns the dashboard as the indented JSON committed in deploy/grafana/dashboards.
func Render() ([]byte, error) {
	d, err := Build()
	if err != nil {
		return nil, err
	}
	out, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// lines is a time series of targets, from zero, with the dashboard's legend and tooltip: what every
// graph here starts from, events and share included.
func lines(id uint32, title string, targets ...*prometheus.DataqueryBuilder) *timeseries.PanelBuilder {
	p := timeseries.NewPanelBuilder().
		Id(id).
		Title(title).
		Datasource(datasourceRef()).
		Min(0).
		Legend(legend()).
		Tooltip(tooltip())
	for _, t := range targets {
		p.WithTarget(t)
	}
	return p
}

// events is a bar chart of a count per interval.
func events(id uint32, title, expr, legendFormat string) *timeseries.PanelBuilder {
	return lines(id, title, query("A", expr, legendFormat)).
		Unit("short").
		Decimals(0).
		DrawStyle(common.GraphDrawStyleBars).
		FillOpacity(80).
		Stacking(common.NewStackingConfigBuilder().Mode(common.StackingModeNormal))
}

// ranking is a horizontal bar per series of an instant query.
func ranking(id uint32, title, expr, legendFormat string) *bargauge.PanelBuilder {
	return bargauge.NewPanelBuilder().
		Id(id).
		Title(title).
		Datasource(datasourceRef()).
		WithTarget(query("A", expr, legendFormat).Instant()).
		Unit("short").
		Min(0).
		Orientation(common.VizOrientationHorizontal).
		DisplayMode(common.BarGaugeDisplayModeBasic).
		ReduceOptions(common.NewReduceDataOptionsBuilder().Calcs([]string{"lastNotNull"}))
}

// share is a line per series of a share between 0 and 1, with its alert's threshold dashed in red.
func share(id uint32, title, expr, legendFormat string, threshold float64) *timeseries.PanelBuilder {
	return lines(id, title, query("A", expr, legendFormat)).
		Unit("percentunit").
		Max(1).
		Thresholds(dashboard.NewThresholdsConfigBuilder().
			Mode(dashboard.ThresholdsModeAbsolute).
			Steps([]dashboard.Threshold{
				{Value: nil, Color: "green"},
				{Value: cog.ToPtr(threshold), Color: "red"},
			})).
		ThresholdsStyle(common.NewGraphThresholdsStyleConfigBuilder().Mode(common.GraphThresholdsStyleModeDashed))
}

func query(refID, expr, legendFormat string) *prometheus.DataqueryBuilder {
	return prometheus.NewDataqueryBuilder().
		RefId(refID).
		Datasource(datasourceRef()).
		Expr(expr).
		LegendFormat(legendFormat)
}

func legend() *common.VizLegendOptionsBuilder {
	return common.NewVizLegendOptionsBuilder().
		ShowLegend(true).
		DisplayMode(common.LegendDisplayModeList).
		Placement(common.LegendPlacementBottom)
}

func tooltip() *common.VizTooltipOptionsBuilder {
	return common.NewVizTooltipOptionsBuilder().
		Mode(common.TooltipDisplayModeMulti).
		Sort(common.SortOrderDescending)
}

func datasourceRef() common.DataSourceRef {
	return common.DataSourceRef{Type: cog.ToPtr("prometheus"), Uid: cog.ToPtr("${" + datasourceVar + "}")}
}
