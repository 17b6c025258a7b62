// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	dto "github.com/prometheus/client_model/go"
)

// metrics is the samples of each family, as label set and value.
type metrics map[string][]sample

type sample struct {
	labels map[string]string
	value  float64
}

func (m metrics) sum(name string) float64 {
	total := 0.0
	for _, s := range m[name] {
		total += s.value
	}
	return total
}

// by sums a family's samples per value of one label.
func (m metrics) by(name, label string) map[string]float64 {
	out := map[string]float64{}
	for _, s := range m[name] {
		out[s.labels[label]] += s.value
	}
	return out
}

func toMetrics(families map[string]*dto.MetricFamily) metrics {
	out := metrics{}
	for name, fam := range families {
		for _, m := range fam.GetMetric() {
			s := sample{labels: map[string]string{}}
			for _, l := range m.GetLabel() {
				s.labels[l.GetName()] = l.GetValue()
			}
			switch {
			case m.GetCounter() != nil:
				s.value = m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				s.value = m.GetGauge().GetValue()
			default:
				continue
			}
			out[name] = append(out[name], s)
		}
	}
	return out
}

// outcomes are runs_finished's outcomes in the order the summary lists them; an outcome not listed
// here (a newer collector's) follows them.
var outcomes = []string{"answered", "cut_off", "empty", "failed", "over_budget", "stuck", "abandoned"}

// perAgent sums a family's samples per agent and per value of label.
func (m metrics) perAgent(name, label string) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for _, s := range m[name] {
		agent := s.labels["gen_ai_agent_name"]
		if out[agent] == nil {
			out[agent] = map[string]float64{}
		}
		out[agent][s.labels[label]] += s.value
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func summarize(w io.Writer, m metrics) {
	fmt.Fprintf(w, "spans received:   %.0f\n", m.sum("otelcol_receiver_accepted_spans"))
	fmt.Fprintf(w, "shapeonly:        %.0f values withheld (%.0f found again by content) in %.0f spans and log records, %.0f withheld whole after a failure\n",
		m.sum("otelcol_processor_shapeonly_values_withheld"), m.sum("otelcol_processor_shapeonly_content_matches"),
		m.sum("otelcol_processor_shapeonly_records_shaped"), m.sum("otelcol_processor_shapeonly_values_failed"))
	if _, ok := m["otelcol_processor_agentguard_steps"]; !ok {
		return
	}
	fmt.Fprintf(w, "agentguard runs:  %.0f seen, %.0f held now\n", m.sum("otelcol_processor_agentguard_runs_started"), m.sum("otelcol_processor_agentguard_runs_active"))
	steps := m.by("otelcol_processor_agentguard_steps", "progress")
	fmt.Fprintf(w, "agentguard steps: %.0f with progress, %.0f barren, %.0f unjudged, %.0f exempt polls\n",
		steps["true"], steps["false"], steps["unknown"], m.sum("otelcol_processor_agentguard_polls_exempt"))
	if tokens := m.by("otelcol_processor_agentguard_tokens", "state"); len(tokens) > 0 {
		fmt.Fprintf(w, "agentguard tokens: %.0f, by the run's state at each model call: %.0f progress, %.0f waiting, %.0f barren, %.0f stuck, %.0f unjudged\n",
			m.sum("otelcol_processor_agentguard_tokens"), tokens["progress"], tokens["waiting"], tokens["barren"], tokens["stuck"], tokens["unjudged"])
	}
	summarizeOutcomes(w, m)
	if steps["unknown"] > 0 {
		summarizeUnjudged(w, m)
	}
	summarizeStuck(w, m)
}

// summarizeOutcomes lists how each agent's runs ended, leaving out outcomes no run had.
func summarizeOutcomes(w io.Writer, m metrics) {
	fmt.Fprintf(w, "runs finished:    %.0f\n", m.sum("otelcol_processor_agentguard_runs_finished"))
	byAgent := m.perAgent("otelcol_processor_agentguard_runs_finished", "outcome")
	for _, agent := range sortedKeys(byAgent) {
		counts := byAgent[agent]
		order := append([]string(nil), outcomes...)
		for _, o := range sortedKeys(counts) {
			if !slices.Contains(order, o) {
				order = append(order, o)
			}
		}
		var parts []string
		for _, o := range order {
			if counts[o] > 0 {
				parts = append(parts, fmt.Sprintf("%s %.0f", o, counts[o]))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "  %-24s %s\n", agent, strings.Join(parts, ", "))
		}
	}
}

// summarizeUnjudged lists the agents with tool calls agentguard could not judge: no convention could
// read their results, so it cannot tell whether those runs are stuck.
func summarizeUnjudged(w io.Writer, m metrics) {
	fmt.Fprintln(w, "unjudged steps (agentguard could not read the tool results):")
	byAgent := m.perAgent("otelcol_processor_agentguard_steps", "progress")
	for _, agent := range sortedKeys(byAgent) {
		steps := byAgent[agent]
		if steps["unknown"] > 0 {
			fmt.Fprintf(w, "  %-24s %.0f of %.0f\n", agent, steps["unknown"], steps["true"]+steps["false"]+steps["unknown"])
		}
	}
}

func summarizeStuck(w io.Writer, m metrics) {
	fmt.Fprintf(w, "stuck episodes:   %.0f\n", m.sum("otelcol_processor_agentguard_stuck_episodes"))
	type flag struct {
		agent, reason string
		n             float64
	}
	var flags []flag
	for _, s := range m["otelcol_processor_agentguard_stuck_episodes"] {
		if s.value > 0 {
			flags = append(flags, flag{s.labels["gen_ai_agent_name"], s.labels["reason"], s.value})
		}
	}
	sort.Slice(flags, func(i, j int) bool {
		if flags[i].agent != flags[j].agent {
			return flags[i].agent < flags[j].agent
		}
		return flags[i].reason < flags[j].reason
	})
	for _, f := range flags {
		fmt.Fprintf(w, "  %-24s %-16s %.0f\n", f.agent, f.reason, f.n)
	}
	if len(flags) == 0 {
		fmt.Fprintln(w, "  none")
	}
}
