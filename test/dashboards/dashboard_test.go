// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// The dashboard is the v1 JSON model on purpose: Grafana provisions dashboards from files in that model,
// and the v2 schema the SDK now prefers needs Grafana 12 with the kubernetesDashboards feature enabled.
//
//lint:file-ignore SA1019 the v1 dashboard model is what file provisioning reads (see above)

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/cog/plugins"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/agentotel/agentotel/test/promcheck"
)

// committed is the dashboard JSON in the repository, relative to this package.
var committed = filepath.Join("..", "..", "deploy", "grafana", "dashboards", "agentotel.json")

const regenerate = "make dashboards"

func TestCommittedDashboardIsCurrent(t *testing.T) {
	want, err := Render()
	if err != nil {
		t.Fatalf("building the dashboard: %v", err)
	}
	got, err := os.ReadFile(committed)
	if err != nil {
		t.Fatalf("reading the committed dashboard: %v\nwrite it with: %s", err, regenerate)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: it differs from what test/dashboards builds (%s).\nregenerate it from the repository root with:\n\t%s\nand commit the result", committed, firstDifference(got, want), regenerate)
	}
}

func TestRenderIsDeterministic(t *testing.T) {
	a, err := Render()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Render()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two renders of the dashboard differ")
	}
}

// The committed JSON must decode strictly as a dashboard of the SDK's schema, panels and queries
// included: no unknown or mistyped field.
func TestCommittedDashboardDecodesStrictly(t *testing.T) {
	data, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	plugins.RegisterDefaultPlugins()
	var d dashboard.Dashboard
	if err := failed(d.UnmarshalJSONStrict(data)); err != nil {
		t.Fatalf("%s: %v", committed, err)
	}
	if err := failed(d.Validate()); err != nil {
		t.Fatalf("%s: %v", committed, err)
	}
}

// failed unwraps the SDK's habit of returning an empty cog.BuildErrors as a non-nil error.
func failed(err error) error {
	if be, ok := err.(cog.BuildErrors); ok && len(be) == 0 {
		return nil
	}
	return err
}

// The parts of the dashboard JSON that Grafana depends on.
type jsonDashboard struct {
	UID        string `json:"uid"`
	Templating struct {
		List []struct {
			Type  string `json:"type"`
			Name  string `json:"name"`
			Query string `json:"query"`
		} `json:"list"`
	} `json:"templating"`
	Panels []jsonPanel `json:"panels"`
}

type jsonPanel struct {
	ID         int             `json:"id"`
	Type       string          `json:"type"`
	Title      string          `json:"title"`
	Datasource *jsonDatasource `json:"datasource"`
	GridPos    struct {
		X int `json:"x"`
		Y int `json:"y"`
		W int `json:"w"`
		H int `json:"h"`
	} `json:"gridPos"`
	Targets []struct {
		RefID      string          `json:"refId"`
		Expr       string          `json:"expr"`
		Datasource *jsonDatasource `json:"datasource"`
	} `json:"targets"`
}

type jsonDatasource struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

func TestDashboardShape(t *testing.T) {
	data, err := Render()
	if err != nil {
		t.Fatal(err)
	}
	var d jsonDashboard
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if d.UID != UID {
		t.Errorf("uid = %q, want %q", d.UID, UID)
	}
	if len(d.Templating.List) != 1 || d.Templating.List[0].Type != "datasource" ||
		d.Templating.List[0].Name != datasourceVar || d.Templating.List[0].Query != "prometheus" {
		t.Errorf("templating = %+v, want one datasource variable %q of type prometheus", d.Templating.List, datasourceVar)
	}

	wantDS := jsonDatasource{Type: "prometheus", UID: "${" + datasourceVar + "}"}
	ids := map[int]bool{}
	titles := map[string]bool{}
	for _, p := range d.Panels {
		if ids[p.ID] {
			t.Errorf("panel id %d used twice", p.ID)
		}
		ids[p.ID] = true
		titles[p.Title] = true
		if p.Type == "row" {
			continue
		}
		if p.Datasource == nil || *p.Datasource != wantDS {
			t.Errorf("panel %q: datasource %+v, want %+v", p.Title, p.Datasource, wantDS)
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		refIDs := map[string]bool{}
		for _, q := range p.Targets {
			if q.Expr == "" || q.RefID == "" || refIDs[q.RefID] {
				t.Errorf("panel %q: query %+v needs an expr and a refId of its own", p.Title, q)
			}
			refIDs[q.RefID] = true
			if q.Datasource == nil || *q.Datasource != wantDS {
				t.Errorf("panel %q: query datasource %+v, want %+v", p.Title, q.Datasource, wantDS)
			}
		}
		if p.GridPos.W <= 0 || p.GridPos.H <= 0 || p.GridPos.X+p.GridPos.W > 24 {
			t.Errorf("panel %q: gridPos %+v does not fit the 24-column grid", p.Title, p.GridPos)
		}
	}
	for _, title := range []string{
		"Stuck episodes by agent and reason", "Barren-step share by agent", "Active runs", "Active runs over time",
		"agentguard run-state evictions by reason", "shapeonly memory evictions by reason",
		"Values withheld", "Shaping failures (values withheld whole)",
		"Runs finished by agent and outcome", "Cut-off share by agent", "Over-budget share by agent",
		"Tool-call failure share by agent and tool", "Unjudged-step share by agent", "Model rounds per run",
		"Model rounds per run by agent", "Mean turn efficiency by agent", "Values found by content", "Fingerprints held",
		"Tokens by state per agent", "Top wasting agents", "Tokens spent stuck or barren, share by agent", "Tokens by direction",
	} {
		if !titles[title] {
			t.Errorf("no panel %q", title)
		}
	}
}

// A panel that draws an alert's threshold reads what the alert reads: the alert fires where the rule
// compares the panel's expression with the panel's threshold.
func TestPanelsDrawTheirAlertsThresholds(t *testing.T) {
	rules, err := promcheck.ReadRules(filepath.Join("..", "..", promcheck.RulesFile))
	if err != nil {
		t.Fatal(err)
	}
	exprs := map[string]string{}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			exprs[r.Alert] = r.Expr
		}
	}
	for _, tc := range []struct {
		alert     string
		threshold float64
		compared  string // what the rule compares with the threshold; empty: the panel's window differs
	}{
		{"AgentBarrenStepsHigh", barrenThreshold, ""},
		{"AgentStepsUnjudged", unjudgedThreshold, exprUnjudgedShare},
		{"AgentRunsCutOff", cutOffThreshold, exprCutOffShare},
		{"AgentRunsOverBudget", overBudgetThreshold, exprOverBudgetShare},
		{"AgentToolCallsFailing", toolFailureThreshold, exprToolFailureShare},
		{"AgentTurnEfficiencyDropped", turnEfficiencyDropStep, "(" + exprTurnEfficiencyDayBefore + " - " + exprTurnEfficiency + ")"},
		{"AgentTokensWasted", tokensWastedThreshold, exprTokensWasted},
	} {
		t.Run(tc.alert, func(t *testing.T) {
			rule, ok := exprs[tc.alert]
			if !ok {
				t.Fatalf("%s has no rule %s", promcheck.RulesFile, tc.alert)
			}
			expr, err := promcheck.Parse(rule)
			if err != nil {
				t.Fatal(err)
			}
			var want string
			if tc.compared != "" {
				compared, err := promcheck.Parse(tc.compared)
				if err != nil {
					t.Fatal(err)
				}
				want = compared.String()
			}
			found := false
			parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
				cmp, ok := node.(*parser.BinaryExpr)
				if !ok || cmp.Op != parser.GTR {
					return nil
				}
				if n, ok := cmp.RHS.(*parser.NumberLiteral); ok && n.Val == tc.threshold && (want == "" || cmp.LHS.String() == want) {
					found = true
				}
				return nil
			})
			if !found {
				t.Errorf("rule %s does not compare the panel's expression with > %v:\n\t%s", tc.alert, tc.threshold, rule)
			}
		})
	}
}

// firstDifference says on which line two renderings first differ.
func firstDifference(got, want []byte) string {
	g := strings.Split(string(got), "\n")
	w := strings.Split(string(want), "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			return "line " + strconv.Itoa(i+1) + ": committed " + strings.TrimSpace(g[i]) + ", built " + strings.TrimSpace(w[i])
		}
	}
	return "committed has " + strconv.Itoa(len(g)) + " lines, built " + strconv.Itoa(len(w))
}
