package promcheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// root is the repository root, relative to this package.
var root = filepath.Join("..", "..")

func TestShippedPromQLSelectsOnlyServedMetrics(t *testing.T) {
	perFile, errs := CheckAll(root, Served)
	for _, err := range errs {
		t.Error(err)
	}
	// Each source must contribute: a collector that finds nothing would pass vacuously.
	for file, min := range map[string]int{RulesFile: 6, DashboardFile: 10, GrafanaAlertsFile: 6} {
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
		{DashboardFile, "otelcol_processor_shapeonly_values_withheld[", "otelcol_processor_shapeonly_values_withheld_total[", `panel "Values withheld"`},
		{GrafanaAlertsFile, "otelcol_processor_shapeonly_memory_evicted{", "otelcol_processor_shapeonly_memory_evict{", "ShapeonlyMemoryAtCapacity"},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
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
			_, errs := CheckAll(tmp, Served)
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
	} {
		t.Run(name, func(t *testing.T) {
			err := Check(tc.query, Served)
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
	} {
		if err := Check(q, Served); err != nil {
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
		}
	}
	for name := range prom {
		if !seen[name] {
			t.Errorf("Prometheus rule %s has no Grafana alert", name)
		}
	}
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
	want := []string{"AgentRunStuck", "AgentBarrenStepsHigh", "AgentWaitTimeouts", "ShapeonlyShapingFailures", "AgentguardStateAtCapacity", "ShapeonlyMemoryAtCapacity"}
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
