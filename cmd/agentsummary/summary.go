package main

import (
	"fmt"
	"io"
	"sort"

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

func summarize(w io.Writer, m metrics) {
	fmt.Fprintf(w, "spans received:   %.0f\n", m.sum("otelcol_receiver_accepted_spans"))
	fmt.Fprintf(w, "shapeonly:        %.0f values withheld in %.0f spans and log records, %.0f withheld whole after a failure\n",
		m.sum("otelcol_processor_shapeonly_values_withheld"), m.sum("otelcol_processor_shapeonly_records_shaped"), m.sum("otelcol_processor_shapeonly_values_failed"))
	if _, ok := m["otelcol_processor_agentguard_steps"]; !ok {
		return
	}
	fmt.Fprintf(w, "agentguard runs:  %.0f seen, %.0f held now\n", m.sum("otelcol_processor_agentguard_runs_started"), m.sum("otelcol_processor_agentguard_runs_active"))
	steps := m.by("otelcol_processor_agentguard_steps", "progress")
	fmt.Fprintf(w, "agentguard steps: %.0f with progress, %.0f barren, %.0f exempt polls\n",
		steps["true"], steps["false"], m.sum("otelcol_processor_agentguard_polls_exempt"))
	fmt.Fprintf(w, "stuck episodes:   %.0f\n", m.sum("otelcol_processor_agentguard_stuck_episodes"))
	type flag struct {
		agent, reason string
		n             float64
	}
	var flags []flag
	for _, s := range m["otelcol_processor_agentguard_stuck_episodes"] {
		flags = append(flags, flag{s.labels["gen_ai_agent_name"], s.labels["reason"], s.value})
	}
	sort.Slice(flags, func(i, j int) bool { return flags[i].agent+flags[i].reason < flags[j].agent+flags[j].reason })
	for _, f := range flags {
		fmt.Fprintf(w, "  %-24s %-16s %.0f\n", f.agent, f.reason, f.n)
	}
	if len(flags) == 0 {
		fmt.Fprintln(w, "  none")
	}
}
