// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package promcheck

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// root is the repository root, relative to this package.
var root = filepath.Join("..", "..")

// selectable is what the shipped PromQL may select.
var selectable = Selectable(Served, Histograms)

func TestShippedPromQLSelectsOnlyServedMetrics(t *testing.T) {
	perFile, errs := CheckAll(root, selectable)
	for _, err := range errs {
		t.Error(err)
	}
	// Each source must contribute: a collector that finds nothing would pass vacuously.
	for file, min := range map[string]int{RulesFile: 11, DashboardFile: 20, GrafanaAlertsFile: 11} {
		if got := perFile[file]; got < min {
			t.Errorf("%s: found %d expressions, want at least %d", file, got, min)
		}
	}
	t.Logf("checked expressions per file: %v", perFile)
}

// A typo in any one of the shipped files fails the check, and the error says where.
func TestCheckAllFindsATypoInEachFile(t *testing.T) {
	for _, tc := range []struct{ file, from, to, where string }{
		{RulesFile, "increase(otelcol_processor_agentguard_stuck_episodes[5m])", "increase(otelcol_processor_agentguard_stuck_episode[5m])", "AgentRunStuck"},
		{RulesFile, "otelcol_processor_agentguard_run_rounds_count[1h]", "otelcol_processor_agentguard_run_round_count[1h]", "AgentTurnEfficiencyDropped"},
		{RulesFile, `runs_finished{outcome="cut_off"}`, `runs_finish{outcome="cut_off"}`, "AgentRunsCutOff"},
		{DashboardFile, "otelcol_processor_shapeonly_values_withheld[", "otelcol_processor_shapeonly_values_withheld_total[", `panel "Values withheld"`},
		{DashboardFile, "otelcol_processor_agentguard_run_rounds_bucket[", "otelcol_processor_agentguard_run_rounds[", `panel "Model rounds per run"`},
		{DashboardFile, "otelcol_processor_shapeonly_content_matches[", "otelcol_processor_shapeonly_content_match[", `panel "Values found by content"`},
		{GrafanaAlertsFile, "otelcol_processor_shapeonly_memory_evicted{", "otelcol_processor_shapeonly_memory_evict{", "ShapeonlyMemoryAtCapacity"},
		{GrafanaAlertsFile, "otelcol_processor_agentguard_tool_calls{", "otelcol_processor_agentguard_tool_call{", "AgentToolCallsFailing"},
	} {
		t.Run(filepath.Base(tc.file)+"/"+tc.where, func(t *testing.T) {
			tmp := t.TempDir()
			for _, f := range []string{RulesFile, DashboardFile, GrafanaAlertsFile} {
				data, err := os.ReadFile(filepath.Join(root, f))
				if err != nil {
					t.Fatal(err)
				}
				if f == tc.file {
					if !strings.Contains(string(data), tc.from) {
						t.Fatalf("%s no longer holds %q: update this test", f, tc.from)
					}
					data = []byte(strings.Replace(string(data), tc.from, tc.to, 1))
				}
				if err := os.MkdirAll(filepath.Dir(filepath.Join(tmp, f)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(tmp, f), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, errs := CheckAll(tmp, selectable)
			if len(errs) != 1 {
				t.Fatalf("got %d errors, want 1: %v", len(errs), errs)
			}
			if msg := errs[0].Error(); !strings.Contains(msg, tc.where) || !strings.Contains(msg, "does not serve") {
				t.Errorf("error %q does not name %s", msg, tc.where)
			}
		})
	}
}

// The checking function itself must reject what the shipped files must never hold.
func TestCheckRejects(t *testing.T) {
	for name, tc := range map[string]struct{ query, wantErr string }{
		"typo in a metric name": {
			`sum by (gen_ai_agent_name, reason) (increase(otelcol_processor_agentguard_stuck_episods[5m])) > 0`,
			`"otelcol_processor_agentguard_stuck_episods"`,
		},
		"_total suffix the collector does not serve": {
			`sum(rate(otelcol_processor_shapeonly_values_withheld_total[$__rate_interval]))`,
			`"otelcol_processor_shapeonly_values_withheld_total"`,
		},
		"missing otelcol_ prefix": {
			`sum(otelcol_processor_agentguard_runs_active) + sum(processor_agentguard_runs_active)`,
			`"processor_agentguard_runs_active"`,
		},
		"bad name in a binary operation's right side": {
			`sum(rate(otelcol_processor_agentguard_steps{progress="false"}[15m])) / sum(rate(otelcol_processor_agentguard_step[15m]))`,
			`"otelcol_processor_agentguard_step"`,
		},
		"bad name inside a subquery": {
			`max_over_time(sum(rate(otelcol_processor_shapeonly_value_failed[5m]))[1h:1m])`,
			`"otelcol_processor_shapeonly_value_failed"`,
		},
		"bad name in an unless offset": {
			`otelcol_processor_agentguard_stuck_episodes unless otelcol_processor_agentguard_stuck_episode offset 5m`,
			`"otelcol_processor_agentguard_stuck_episode"`,
		},
		"bad name given as __name__": {
			`sum({__name__="otelcol_processor_agentguard_run_active"})`,
			`"otelcol_processor_agentguard_run_active"`,
		},
		"selector by regex names no single metric": {
			`sum({__name__=~"otelcol_processor_agentguard_.*"})`,
			"names no single metric",
		},
		"syntax error": {
			`sum(rate(otelcol_processor_agentguard_steps[5m])`,
			"unclosed left parenthesis",
		},
		"no metric at all": {
			`vector(1)`,
			"selects no metric",
		},
		"a histogram named without its series suffix": {
			`histogram_quantile(0.9, sum by (le) (rate(otelcol_processor_agentguard_run_rounds[5m])))`,
			`"otelcol_processor_agentguard_run_rounds" (a histogram: select its _bucket, _sum or _count series)`,
		},
		"typo in a histogram's series": {
			`sum(rate(otelcol_processor_agentguard_run_duration_sum[5m])) / sum(rate(otelcol_processor_agentguard_run_duration_cout[5m]))`,
			`"otelcol_processor_agentguard_run_duration_cout"`,
		},
		"a counter read as a histogram": {
			`histogram_quantile(0.5, sum by (le) (rate(otelcol_processor_agentguard_runs_finished_bucket[5m])))`,
			`"otelcol_processor_agentguard_runs_finished_bucket"`,
		},
		"the new agentguard counters with a _total suffix": {
			`sum by (gen_ai_agent_name) (increase(otelcol_processor_agentguard_tool_calls_total[30m]))`,
			`"otelcol_processor_agentguard_tool_calls_total"`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			err := Check(tc.query, selectable)
			if err == nil {
				t.Fatalf("Check(%q) passed", tc.query)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Check(%q) = %q, want it to mention %q", tc.query, err, tc.wantErr)
			}
		})
	}
}

func TestCheckAccepts(t *testing.T) {
	for _, q := range []string{
		`sum by (gen_ai_agent_name, reason) (increase(otelcol_processor_agentguard_stuck_episodes[$__rate_interval]))`,
		`sum(rate(otelcol_processor_agentguard_steps{progress="false"}[${__rate_interval}])) / sum(rate(otelcol_processor_agentguard_steps[$__interval]))`,
		`sum(increase(otelcol_processor_shapeonly_values_failed[$__range])) * 1000 / $__interval_ms`,
		`sum({__name__="otelcol_processor_agentguard_runs_active"})`,
		`histogram_quantile(0.9, sum by (gen_ai_agent_name, le) (rate(otelcol_processor_agentguard_run_rounds_bucket[1h])))`,
		`sum(rate(otelcol_processor_agentguard_run_duration_sum[5m])) / sum(rate(otelcol_processor_agentguard_run_duration_count[5m]))`,
		`sum by (gen_ai_agent_name, outcome) (increase(otelcol_processor_agentguard_runs_finished[$__rate_interval]))`,
		`sum(rate(otelcol_processor_shapeonly_content_matches[5m])) + sum(otelcol_processor_shapeonly_fingerprints)`,
	} {
		if err := Check(q, selectable); err != nil {
			t.Errorf("Check(%q): %v", q, err)
		}
	}
}

func TestMetricNames(t *testing.T) {
	got, err := MetricNames(`(otelcol_processor_agentguard_stuck_episodes unless otelcol_processor_agentguard_stuck_episodes offset 5m) or increase(otelcol_processor_shapeonly_memory_evicted[5m])`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"otelcol_processor_agentguard_stuck_episodes", "otelcol_processor_shapeonly_memory_evicted"}
	if !slices.Equal(got, want) {
		t.Errorf("MetricNames = %v, want %v", got, want)
	}
}

// A Grafana-managed alert must say what the Prometheus rule of the same name says.
func TestGrafanaAlertsMatchPrometheusRules(t *testing.T) {
	rules, err := ReadRules(filepath.Join(root, RulesFile))
	if err != nil {
		t.Fatal(err)
	}
	alerts, err := ReadGrafanaAlerts(filepath.Join(root, GrafanaAlertsFile))
	if err != nil {
		t.Fatal(err)
	}
	prom := map[string]Rule{}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			if r.Alert != "" {
				prom[r.Alert] = r
			}
		}
	}
	seen := map[string]bool{}
	for _, g := range alerts.Groups {
		for _, a := range g.Rules {
			seen[a.Title] = true
			r, ok := prom[a.Title]
			if !ok {
				t.Errorf("Grafana alert %s has no Prometheus rule of that name in %s", a.Title, RulesFile)
				continue
			}
			var queries []string
			for _, d := range a.Data {
				if d.DatasourceUID != ExprDatasourceUID {
					expr, _ := d.Model["expr"].(string)
					queries = append(queries, expr)
				}
			}
			if len(queries) != 1 {
				t.Errorf("Grafana alert %s: %d Prometheus queries, want 1", a.Title, len(queries))
				continue
			}
			if got, want := normalize(t, queries[0]), normalize(t, r.Expr); got != want {
				t.Errorf("Grafana alert %s queries\n\t%s\nbut the Prometheus rule says\n\t%s", a.Title, got, want)
			}
			if a.For != r.For {
				t.Errorf("Grafana alert %s: for %q, Prometheus rule: for %q", a.Title, a.For, r.For)
			}
			if a.Labels["severity"] != r.Labels["severity"] || r.Labels["severity"] == "" {
				t.Errorf("Grafana alert %s: severity %q, Prometheus rule: severity %q", a.Title, a.Labels["severity"], r.Labels["severity"])
			}
			for _, key := range []string{"summary", "description"} {
				if got, want := a.Annotations[key], grafanaTemplate(r.Annotations[key]); got != want {
					t.Errorf("Grafana alert %s: %s\n\t%s\nbut the Prometheus rule says (in Grafana's terms)\n\t%s", a.Title, key, got, want)
				}
			}
		}
	}
	for name := range prom {
		if !seen[name] {
			t.Errorf("Prometheus rule %s has no Grafana alert", name)
		}
	}
}

// grafanaTemplate writes a Prometheus rule's annotation as the Grafana alert's: Grafana calls the value
// of query B $values.B.Value and takes it as a function's last argument, and the rules fold their
// descriptions over several lines.
func grafanaTemplate(prometheus string) string {
	valueIn := regexp.MustCompile(`\{\{ \$value \| ([^}]*[^ }]) \}\}`)
	text := valueIn.ReplaceAllString(strings.TrimSpace(prometheus), "{{ $1 $$values.B.Value }}")
	return strings.ReplaceAll(text, "{{ $value }}", "{{ $values.B.Value }}")
}

func normalize(t *testing.T, query string) string {
	t.Helper()
	expr, err := Parse(query)
	if err != nil {
		t.Fatalf("%q: %v", query, err)
	}
	return expr.String()
}

// Every Prometheus alert carries what an on-call person needs.
func TestPrometheusRulesAreComplete(t *testing.T) {
	rules, err := ReadRules(filepath.Join(root, RulesFile))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"AgentRunStuck", "AgentBarrenStepsHigh", "AgentWaitTimeouts", "AgentStepsUnjudged", "AgentRunsCutOff",
		"AgentRunsOverBudget", "AgentToolCallsFailing", "AgentTurnEfficiencyDropped", "AgentTokensWasted", "AgentTokensSpentWaiting",
		"ShapeonlyShapingFailures", "AgentguardStateAtCapacity", "ShapeonlyMemoryAtCapacity",
	}
	var got []string
	for _, g := range rules.Groups {
		if g.Name != "agentotel" {
			t.Errorf("group %q, want agentotel", g.Name)
		}
		for _, r := range g.Rules {
			got = append(got, r.Alert)
			if r.For == "" || r.Labels["severity"] == "" || r.Annotations["summary"] == "" || r.Annotations["description"] == "" {
				t.Errorf("rule %s needs for, a severity label and summary and description annotations", r.Alert)
			}
			if !strings.Contains(r.Annotations["description"], "docs/alerting.md#"+strings.ToLower(r.Alert)) {
				t.Errorf("rule %s: description does not point at docs/alerting.md#%s", r.Alert, strings.ToLower(r.Alert))
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("alerts %v, want %v", got, want)
	}
}

// The Grafana alert rules are well formed: their queries go to the provisioned datasource, their
// condition is one of their own threshold or math expressions.
func TestGrafanaAlertsAreWellFormed(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, GrafanaDatasources))
	if err != nil {
		t.Fatal(err)
	}
	var ds struct {
		Datasources []struct {
			UID  string `yaml:"uid"`
			Type string `yaml:"type"`
		} `yaml:"datasources"`
	}
	if err := yaml.Unmarshal(data, &ds); err != nil {
		t.Fatal(err)
	}
	promUIDs := map[string]bool{}
	for _, d := range ds.Datasources {
		if d.Type == "prometheus" && d.UID != "" {
			promUIDs[d.UID] = true
		}
	}
	if len(promUIDs) == 0 {
		t.Fatalf("%s provisions no prometheus datasource with a uid", GrafanaDatasources)
	}

	alerts, err := ReadGrafanaAlerts(filepath.Join(root, GrafanaAlertsFile))
	if err != nil {
		t.Fatal(err)
	}
	if alerts.APIVersion != 1 || len(alerts.Groups) == 0 {
		t.Fatalf("apiVersion %d with %d groups, want apiVersion 1 and a group", alerts.APIVersion, len(alerts.Groups))
	}
	uids := map[string]bool{}
	for _, g := range alerts.Groups {
		if g.Folder == "" || g.Interval == "" {
			t.Errorf("group %s needs a folder and an interval", g.Name)
		}
		for _, a := range g.Rules {
			if a.UID == "" || len(a.UID) > 40 || uids[a.UID] {
				t.Errorf("rule %s: uid %q must be set, unique and at most 40 characters", a.Title, a.UID)
			}
			uids[a.UID] = true
			refs := map[string]string{}
			for _, d := range a.Data {
				if ref, _ := d.Model["refId"].(string); ref != d.RefID {
					t.Errorf("rule %s: data %s has model.refId %q", a.Title, d.RefID, ref)
				}
				if d.DatasourceUID == ExprDatasourceUID {
					kind, _ := d.Model["type"].(string)
					refs[d.RefID] = kind
					continue
				}
				refs[d.RefID] = "query"
				if !promUIDs[d.DatasourceUID] {
					t.Errorf("rule %s: data %s queries datasource %q, which %s does not provision", a.Title, d.RefID, d.DatasourceUID, GrafanaDatasources)
				}
			}
			if kind := refs[a.Condition]; kind != "threshold" && kind != "math" {
				t.Errorf("rule %s: condition %q is a %q, want a threshold or math expression", a.Title, a.Condition, kind)
			}
			if a.Annotations["summary"] == "" || a.Annotations["description"] == "" || a.Labels["severity"] == "" {
				t.Errorf("rule %s needs summary and description annotations and a severity label", a.Title)
			}
		}
	}
}

func TestHistogramsAreServed(t *testing.T) {
	for _, h := range Histograms {
		if !slices.Contains(Served, h) {
			t.Errorf("histogram %s is not in Served", h)
		}
	}
	got := Selectable([]string{"a_total", "h"}, []string{"h"})
	if want := []string{"a_total", "h_bucket", "h_sum", "h_count"}; !slices.Equal(got, want) {
		t.Errorf("Selectable = %v, want %v", got, want)
	}
}

// AgentTurnEfficiencyDropped and the dashboard read the mean turn efficiency, max(0, 1-(rounds-1)*0.2),
// as 0.2 * (buckets le 1 to 5) / count. That is exact only while run_rounds counts whole rounds and
// has a bucket bound at each of 1, 2, 3, 4 and 5.
func TestRunRoundsBucketsMakeTurnEfficiencyExact(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "processor", "agentguard", "metadata.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var md struct {
		Telemetry struct {
			Metrics map[string]struct {
				Histogram *struct {
					ValueType        string    `yaml:"value_type"`
					BucketBoundaries []float64 `yaml:"bucket_boundaries"`
				} `yaml:"histogram"`
			} `yaml:"metrics"`
		} `yaml:"telemetry"`
	}
	if err := yaml.Unmarshal(data, &md); err != nil {
		t.Fatal(err)
	}
	rounds := md.Telemetry.Metrics["processor_agentguard_run_rounds"].Histogram
	if rounds == nil {
		t.Fatal("processor/agentguard/metadata.yaml declares no histogram processor_agentguard_run_rounds")
	}
	if rounds.ValueType != "int" {
		t.Errorf("run_rounds value_type %q, want int", rounds.ValueType)
	}
	for _, bound := range []float64{1, 2, 3, 4, 5} {
		if !slices.Contains(rounds.BucketBoundaries, bound) {
			t.Errorf("run_rounds bucket_boundaries %v lack %v: the turn-efficiency expressions would be wrong", rounds.BucketBoundaries, bound)
		}
	}
}

// docs/alerting.md shows each alert's expression as the first PromQL block of its section: the page an
// alert's description links to must say what the alert evaluates.
func TestAlertingDocShowsEachRulesExpression(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "docs", "alerting.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	rules, err := ReadRules(filepath.Join(root, RulesFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			_, section, ok := strings.Cut(doc, "\n### "+r.Alert+"\n")
			if !ok {
				t.Errorf("docs/alerting.md has no section ### %s", r.Alert)
				continue
			}
			_, block, ok := strings.Cut(section, "```promql\n")
			if !ok {
				t.Errorf("docs/alerting.md section %s shows no PromQL", r.Alert)
				continue
			}
			block, _, _ = strings.Cut(block, "```")
			if got, want := normalize(t, block), normalize(t, r.Expr); got != want {
				t.Errorf("docs/alerting.md section %s shows\n\t%s\nbut the rule evaluates\n\t%s", r.Alert, got, want)
			}
		}
	}
}
