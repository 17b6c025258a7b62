package main

import (
	"encoding/json"
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/bargauge"
	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"
	"github.com/grafana/grafana-foundation-sdk/go/stat"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"
)

// UID is the dashboard's fixed uid: links and provisioning keep pointing at it across regenerations.
const UID = "agentotel"

// datasourceVar is the dashboard's datasource template variable; every panel and query uses it.
const datasourceVar = "datasource"

// The PromQL of each panel. Metric names are the collector's own (otelcol_ prefix, counters without
// _total at this collector release); internal/promcheck checks every one against the served set.
// The collector's own labels (otel_scope_*, processor, pipeline) are summed away.
const (
	exprStuckByAgent   = `sum by (gen_ai_agent_name, reason) (increase(otelcol_processor_agentguard_stuck_episodes[$__rate_interval]))`
	exprStuckLifetime  = `sum by (gen_ai_agent_name, reason) (otelcol_processor_agentguard_stuck_episodes)`
	exprBarrenShare    = `sum(rate(otelcol_processor_agentguard_steps{progress="false"}[$__rate_interval])) / sum(rate(otelcol_processor_agentguard_steps[$__rate_interval]))`
	exprStepsByKind    = `sum by (progress) (rate(otelcol_processor_agentguard_steps[$__rate_interval]))`
	exprPollsExempt    = `sum(rate(otelcol_processor_agentguard_polls_exempt[$__rate_interval]))`
	exprActiveRuns     = `sum(otelcol_processor_agentguard_runs_active)`
	exprRunsEvicted    = `sum by (reason) (increase(otelcol_processor_agentguard_runs_evicted[$__rate_interval]))`
	exprValuesWithheld = `sum(rate(otelcol_processor_shapeonly_values_withheld[$__rate_interval]))`
	exprRecordsShaped  = `sum(rate(otelcol_processor_shapeonly_records_shaped[$__rate_interval]))`
	exprValuesFailed   = `sum(increase(otelcol_processor_shapeonly_values_failed[$__rate_interval]))`
	exprMemoryEvicted  = `sum by (reason) (increase(otelcol_processor_shapeonly_memory_evicted[$__rate_interval]))`
)

// barrenThreshold is the share of barren steps at which AgentBarrenStepsHigh fires (over 15m, for 15m).
const barrenThreshold = 0.5

// Build returns the agentotel dashboard: agentguard's view of agent runs, then shapeonly's shaping.
func Build() (dashboard.Dashboard, error) {
	var id uint32
	nextID := func() uint32 { id++; return id }

	b := dashboard.NewDashboardBuilder("agentotel: agent runs and shaping").
		Uid(UID).
		Description("otelcol-agent's own metrics: agentguard (stuck episodes, barren steps, run state) and shapeonly (values withheld, shaping failures, call memory). Alerts: docs/alerting.md.").
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
	b.WithPanel(bargauge.NewPanelBuilder().
		Id(nextID()).
		Title("Stuck episodes since collector start").
		Description("Every stuck episode the running collector has counted, by agent and reason.").
		Datasource(datasourceRef()).
		WithTarget(query("A", exprStuckLifetime, "{{gen_ai_agent_name}} / {{reason}}").Instant()).
		Unit("short").
		Min(0).
		Orientation(common.VizOrientationHorizontal).
		DisplayMode(common.BarGaugeDisplayModeBasic).
		ReduceOptions(common.NewReduceDataOptionsBuilder().Calcs([]string{"lastNotNull"})).
		Span(8).Height(8))

	b.WithPanel(timeseries.NewPanelBuilder().
		Id(nextID()).
		Title("Barren-step share").
		Description(fmt.Sprintf("Share of judged tool calls that brought nothing new (progress=\"false\"). AgentBarrenStepsHigh fires above %.0f%% over 15 minutes, for 15 minutes, with at least 20 steps.", barrenThreshold*100)).
		Datasource(datasourceRef()).
		WithTarget(query("A", exprBarrenShare, "barren share")).
		Unit("percentunit").
		Min(0).
		Max(1).
		Thresholds(dashboard.NewThresholdsConfigBuilder().
			Mode(dashboard.ThresholdsModeAbsolute).
			Steps([]dashboard.Threshold{
				{Value: nil, Color: "green"},
				{Value: cog.ToPtr(barrenThreshold), Color: "red"},
			})).
		ThresholdsStyle(common.NewGraphThresholdsStyleConfigBuilder().Mode(common.GraphThresholdsStyleModeDashed)).
		Legend(legend()).
		Tooltip(tooltip()).
		Span(12).Height(8))
	b.WithPanel(timeseries.NewPanelBuilder().
		Id(nextID()).
		Title("Steps judged").
		Description("Tool calls agentguard judged per second, by whether they made progress, and the polls of declared wait tools exempted from the loop and no-progress checks.").
		Datasource(datasourceRef()).
		WithTarget(query("A", exprStepsByKind, "progress={{progress}}")).
		WithTarget(query("B", exprPollsExempt, "exempt polls")).
		Unit("ops").
		Min(0).
		Legend(legend()).
		Tooltip(tooltip()).
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
	b.WithPanel(timeseries.NewPanelBuilder().
		Id(nextID()).
		Title("Active runs over time").
		Datasource(datasourceRef()).
		WithTarget(query("A", exprActiveRuns, "active runs")).
		Unit("short").
		Min(0).
		Legend(legend()).
		Tooltip(tooltip()).
		Span(18).Height(8))

	b.WithPanel(events(nextID(), "agentguard run-state evictions by reason", exprRunsEvicted, "{{reason}}").
		Description("Run states dropped before their run ended: idle (run_idle_timeout, housekeeping) or capacity (max_runs reached: AgentguardStateAtCapacity).").
		Span(24).Height(8))

	b.WithRow(dashboard.NewRowBuilder("Shaping (shapeonly)").Id(nextID()))

	b.WithPanel(timeseries.NewPanelBuilder().
		Id(nextID()).
		Title("Values withheld").
		Description("Strings and arrays replaced by a placeholder per second (values withheld whole included), and spans and log records with at least one value withheld.").
		Datasource(datasourceRef()).
		WithTarget(query("A", exprValuesWithheld, "values withheld")).
		WithTarget(query("B", exprRecordsShaped, "records shaped")).
		Unit("ops").
		Min(0).
		Legend(legend()).
		Tooltip(tooltip()).
		Span(12).Height(8))
	b.WithPanel(events(nextID(), "Shaping failures (values withheld whole)", exprValuesFailed, "values failed").
		Description("Values that could not be shaped (malformed, too deep or too large) and were withheld whole: ShapeonlyShapingFailures.").
		Span(12).Height(8))
	b.WithPanel(events(nextID(), "shapeonly memory evictions by reason", exprMemoryEvicted, "{{reason}}").
		Description("Remembered data-class call ids and learnt tool names forgotten: age (tracked_call_ttl, housekeeping) or capacity (max_tracked_calls reached: ShapeonlyMemoryAtCapacity).").
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

// events is a bar chart of a count per interval.
func events(id uint32, title, expr, legendFormat string) *timeseries.PanelBuilder {
	return timeseries.NewPanelBuilder().
		Id(id).
		Title(title).
		Datasource(datasourceRef()).
		WithTarget(query("A", expr, legendFormat)).
		Unit("short").
		Min(0).
		Decimals(0).
		DrawStyle(common.GraphDrawStyleBars).
		FillOpacity(80).
		Stacking(common.NewStackingConfigBuilder().Mode(common.StackingModeNormal)).
		Legend(legend()).
		Tooltip(tooltip())
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
