// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package promcheck checks the PromQL that agentotel ships (the Prometheus alerting rules, the Grafana
// dashboard and the Grafana-managed alert rules) against the metrics otelcol-agent really serves, so a
// typo'd or renamed metric fails a test instead of leaving an alert that can never fire or a panel that
// stays empty.
package promcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
	"go.yaml.in/yaml/v3"
)

// Served lists every metric family otelcol-agent serves on its internal telemetry endpoint (Prometheus
// format) that our rules and dashboards may query, named as the endpoint's "# TYPE" lines name them: the
// collector prefixes its components' metrics with otelcol_ and, at this collector release (v0.161.0),
// serves counters without a _total suffix. A histogram's family is served as its _bucket, _sum and
// _count series (see Histograms and Selectable).
//
// Extend it when a processor gains a metric (its metadata.yaml and documentation.md say the name) or
// when a rule or dashboard starts to use one of the collector's own metrics (say otelcol_process_*),
// after checking the name on a running collector's /metrics. Remove a name here when the collector
// stops serving it: the tests then point at every expression that still uses it.
var Served = []string{
	// processor/agentguard
	"otelcol_processor_agentguard_stuck_episodes", // counter: gen_ai_agent_name, reason
	"otelcol_processor_agentguard_steps",          // counter: gen_ai_agent_name, progress ("true", "false", "unknown")
	"otelcol_processor_agentguard_runs_finished",  // counter: gen_ai_agent_name, outcome
	"otelcol_processor_agentguard_model_calls",    // counter: gen_ai_agent_name, finish
	"otelcol_processor_agentguard_tool_calls",     // counter: gen_ai_agent_name, gen_ai_tool_name, outcome ("ok", "failed")
	"otelcol_processor_agentguard_tokens",         // counter: gen_ai_agent_name, direction, state
	"otelcol_processor_agentguard_run_rounds",     // histogram: gen_ai_agent_name; model calls per finished run
	"otelcol_processor_agentguard_run_duration",   // histogram: gen_ai_agent_name; seconds
	"otelcol_processor_agentguard_runs_active",    // gauge
	"otelcol_processor_agentguard_runs_evicted",   // counter: reason (idle, capacity)
	"otelcol_processor_agentguard_polls_exempt",   // counter
	"otelcol_processor_agentguard_steps_waiting",  // counter
	"otelcol_processor_agentguard_seen_forgotten", // counter
	"otelcol_processor_agentguard_runs_started",   // counter
	// processor/shapeonly
	"otelcol_processor_shapeonly_values_withheld",   // counter
	"otelcol_processor_shapeonly_content_matches",   // counter: values withheld because they repeated a withheld value
	"otelcol_processor_shapeonly_records_shaped",    // counter
	"otelcol_processor_shapeonly_values_failed",     // counter
	"otelcol_processor_shapeonly_memory_evicted",    // counter: reason (age, capacity, fingerprints)
	"otelcol_processor_shapeonly_fingerprints",      // gauge
	"otelcol_processor_shapeonly_forgotten_dropped", // counter: forgotten ids dropped past max_forgotten
}

// Histograms names the families in Served that are histograms. Prometheus stores a histogram only as
// its _bucket, _sum and _count series: a query that names the family itself selects nothing.
var Histograms = []string{
	"otelcol_processor_agentguard_run_rounds",
	"otelcol_processor_agentguard_run_duration",
}

// histogramSeries are the suffixes of the series a histogram family is stored as.
var histogramSeries = []string{"_bucket", "_sum", "_count"}

// Selectable returns the metric names PromQL can select from the served families: each family by its
// own name, except a histogram, which is selectable only as its _bucket, _sum and _count series.
func Selectable(served, histograms []string) []string {
	var out []string
	for _, name := range served {
		if !slices.Contains(histograms, name) {
			out = append(out, name)
			continue
		}
		for _, suffix := range histogramSeries {
			out = append(out, name+suffix)
		}
	}
	return out
}

// The shipped files, relative to the repository root.
const (
	RulesFile          = "deploy/prometheus/agentotel-rules.yaml"
	DashboardFile      = "deploy/grafana/dashboards/agentotel.json"
	GrafanaAlertsFile  = "deploy/grafana/provisioning/alerting/agentotel-alerts.yaml"
	GrafanaDatasources = "deploy/grafana/provisioning/datasources/prometheus.yaml"
)

// ExprDatasourceUID is the datasource uid of Grafana's server-side expressions (math, reduce,
// threshold): their models hold no PromQL.
const ExprDatasourceUID = "__expr__"

// Expr is one PromQL expression and where it was found.
type Expr struct {
	File  string // the file, relative to the repository root
	Where string // file and the rule, alert or panel holding it
	Name  string // the alert name or title (rules and alerts), or the panel title
	Query string
}

// grafanaMacros are Grafana's interval variables, replaced by values of the right kind so the PromQL
// parses; longer names come first so $__interval_ms is not read as $__interval.
var grafanaMacros = strings.NewReplacer(
	"${__rate_interval}", "5m",
	"$__rate_interval", "5m",
	"${__interval_ms}", "300000",
	"$__interval_ms", "300000",
	"${__interval}", "5m",
	"$__interval", "5m",
	"${__range_ms}", "300000",
	"$__range_ms", "300000",
	"${__range_s}", "300",
	"$__range_s", "300",
	"${__range}", "5m",
	"$__range", "5m",
)

var promql = parser.NewParser(parser.Options{})

// Parse parses a PromQL expression after replacing Grafana's interval variables with a duration.
func Parse(query string) (parser.Expr, error) {
	return promql.ParseExpr(grafanaMacros.Replace(query))
}

// MetricNames returns the metric names of every vector selector in query, in order of appearance
// without repeats. A selector that names no single metric (only {__name__=~"..."} or no name at all) is
// an error: it cannot be checked.
func MetricNames(query string) ([]string, error) {
	expr, err := Parse(query)
	if err != nil {
		return nil, err
	}
	var names []string
	var errs []error
	parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
		vs, ok := node.(*parser.VectorSelector)
		if !ok {
			return nil
		}
		name := vs.Name
		if name == "" {
			for _, m := range vs.LabelMatchers {
				if m.Name == model.MetricNameLabel && m.Type == labels.MatchEqual {
					name = m.Value
				}
			}
		}
		if name == "" {
			errs = append(errs, fmt.Errorf("selector %s names no single metric", vs))
			return nil
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
		return nil
	})
	return names, errors.Join(errs...)
}

// Check parses query and fails unless every metric it selects is in selectable (see Selectable).
func Check(query string, selectable []string) error {
	names, err := MetricNames(query)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return errors.New("selects no metric")
	}
	var unknown []string
	for _, n := range names {
		if slices.Contains(selectable, n) {
			continue
		}
		if slices.Contains(selectable, n+"_bucket") {
			unknown = append(unknown, fmt.Sprintf("%q (a histogram: select its _bucket, _sum or _count series)", n))
			continue
		}
		unknown = append(unknown, fmt.Sprintf("%q", n))
	}
	if len(unknown) > 0 {
		return fmt.Errorf("selects %s, which the collector does not serve (promcheck.Served lists what it does)", strings.Join(unknown, ", "))
	}
	return nil
}

// CheckAll checks every shipped PromQL expression of the repository rooted at root against selectable,
// and returns how many it checked per file and one error per failing expression.
func CheckAll(root string, selectable []string) (map[string]int, []error) {
	exprs, err := AllExprs(root)
	if err != nil {
		return nil, []error{err}
	}
	perFile := map[string]int{}
	var errs []error
	for _, e := range exprs {
		perFile[e.File]++
		if err := Check(e.Query, selectable); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w\n\t%s", e.Where, err, strings.TrimSpace(e.Query)))
		}
	}
	return perFile, errs
}

// RuleGroups is the part of a Prometheus rule file that the checks read (promtool check rules
// validates the rest).
type RuleGroups struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []Rule `yaml:"rules"`
	} `yaml:"groups"`
}

// Rule is one Prometheus alerting or recording rule.
type Rule struct {
	Alert       string            `yaml:"alert"`
	Record      string            `yaml:"record"`
	Expr        string            `yaml:"expr"`
	For         string            `yaml:"for"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

// ReadRules reads a Prometheus rule file, rejecting fields Prometheus does not know.
func ReadRules(path string) (*RuleGroups, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	dec.KnownFields(true)
	var rg RuleGroups
	if err := dec.Decode(&rg); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &rg, nil
}

// RuleExprs returns the expression of every rule in a Prometheus rule file.
func RuleExprs(path string) ([]Expr, error) {
	rg, err := ReadRules(path)
	if err != nil {
		return nil, err
	}
	var out []Expr
	var errs []error
	for _, g := range rg.Groups {
		for _, r := range g.Rules {
			name := r.Alert
			if name == "" {
				name = r.Record
			}
			where := fmt.Sprintf("%s: group %s: %s", path, g.Name, name)
			if strings.TrimSpace(r.Expr) == "" {
				errs = append(errs, fmt.Errorf("%s: no expr", where))
				continue
			}
			out = append(out, Expr{Where: where, Name: name, Query: r.Expr})
		}
	}
	return out, errors.Join(errs...)
}

// DashboardExprs returns the expr of every query target in a Grafana dashboard JSON, panels inside rows
// included.
func DashboardExprs(path string) ([]Expr, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []Expr
	var walk func(v any, title string)
	walk = func(v any, title string) {
		switch v := v.(type) {
		case map[string]any:
			if t, ok := v["title"].(string); ok {
				title = t
			}
			if targets, ok := v["targets"].([]any); ok {
				for _, t := range targets {
					q, _ := t.(map[string]any)
					if expr, ok := q["expr"].(string); ok {
						ref, _ := q["refId"].(string)
						out = append(out, Expr{Where: fmt.Sprintf("%s: panel %q query %s", path, title, ref), Name: title, Query: expr})
					}
				}
			}
			keys := make([]string, 0, len(v))
			for k := range v {
				if k != "targets" {
					keys = append(keys, k)
				}
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(v[k], title)
			}
		case []any:
			for _, e := range v {
				walk(e, title)
			}
		}
	}
	walk(doc, "")
	return out, nil
}

// GrafanaAlerts is the part of a Grafana alerting provisioning file that the checks read.
type GrafanaAlerts struct {
	APIVersion int `yaml:"apiVersion"`
	Groups     []struct {
		Name     string         `yaml:"name"`
		Folder   string         `yaml:"folder"`
		Interval string         `yaml:"interval"`
		Rules    []GrafanaAlert `yaml:"rules"`
	} `yaml:"groups"`
}

// GrafanaAlert is one Grafana-managed alert rule.
type GrafanaAlert struct {
	UID         string            `yaml:"uid"`
	Title       string            `yaml:"title"`
	Condition   string            `yaml:"condition"`
	For         string            `yaml:"for"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
	Data        []struct {
		RefID         string         `yaml:"refId"`
		DatasourceUID string         `yaml:"datasourceUid"`
		Model         map[string]any `yaml:"model"`
	} `yaml:"data"`
}

// ReadGrafanaAlerts reads a Grafana alerting provisioning file.
func ReadGrafanaAlerts(path string) (*GrafanaAlerts, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var a GrafanaAlerts
	if err := yaml.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &a, nil
}

// GrafanaAlertExprs returns data[].model.expr of every alert rule query that is not a server-side
// expression (datasourceUid __expr__). A query without an expr is an error.
func GrafanaAlertExprs(path string) ([]Expr, error) {
	a, err := ReadGrafanaAlerts(path)
	if err != nil {
		return nil, err
	}
	var out []Expr
	var errs []error
	for _, g := range a.Groups {
		for _, r := range g.Rules {
			for _, d := range r.Data {
				if d.DatasourceUID == ExprDatasourceUID {
					continue
				}
				where := fmt.Sprintf("%s: group %s: rule %s query %s", path, g.Name, r.Title, d.RefID)
				expr, ok := d.Model["expr"].(string)
				if !ok || strings.TrimSpace(expr) == "" {
					errs = append(errs, fmt.Errorf("%s: no model.expr", where))
					continue
				}
				out = append(out, Expr{Where: where, Name: r.Title, Query: expr})
			}
		}
	}
	return out, errors.Join(errs...)
}

// AllExprs collects every shipped PromQL expression, from the repository rooted at root.
func AllExprs(root string) ([]Expr, error) {
	var all []Expr
	for _, collect := range []struct {
		file string
		fn   func(string) ([]Expr, error)
	}{
		{RulesFile, RuleExprs},
		{DashboardFile, DashboardExprs},
		{GrafanaAlertsFile, GrafanaAlertExprs},
	} {
		exprs, err := collect.fn(filepath.Join(root, collect.file))
		if err != nil {
			return nil, err
		}
		for i := range exprs {
			exprs[i].File = collect.file
		}
		if len(exprs) == 0 {
			return nil, fmt.Errorf("%s: no PromQL found", collect.file)
		}
		all = append(all, exprs...)
	}
	return all, nil
}
