// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package docscheck

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Processors are the components whose metadata.yaml declares the metrics the docs name.
var Processors = []string{"agentguard", "shapeonly"}

// Declared is a telemetry metric as a processor's metadata.yaml declares it.
type Declared struct {
	// Processor is the component that declares it.
	Processor string
	// Histogram: it is served as _bucket, _sum and _count series.
	Histogram bool
	// Labels are its attributes by the names Prometheus serves them under (dots become underscores),
	// in the order declared, each with the values of its enum (none when any value may occur).
	Labels []Label
}

// DeclaredMetrics reads processor/*/metadata.yaml under root: every telemetry metric by the name the
// collector serves it under, otelcol_ followed by its key. mdatagen writes each processor's
// documentation.md from the same file, so these are the metrics and labels the generated tables list.
func DeclaredMetrics(root string) (map[string]Declared, error) {
	out := map[string]Declared{}
	for _, p := range Processors {
		path := filepath.Join(root, "processor", p, "metadata.yaml")
		raw, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var md struct {
			Attributes map[string]struct {
				NameOverride string   `yaml:"name_override"`
				Enum         []string `yaml:"enum"`
			} `yaml:"attributes"`
			Telemetry struct {
				Metrics map[string]struct {
					Histogram  any      `yaml:"histogram"`
					Attributes []string `yaml:"attributes"`
				} `yaml:"metrics"`
			} `yaml:"telemetry"`
		}
		if err := yaml.Unmarshal(raw, &md); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(md.Telemetry.Metrics) == 0 {
			return nil, fmt.Errorf("%s declares no metric", path)
		}
		for key, m := range md.Telemetry.Metrics {
			d := Declared{Processor: p, Histogram: m.Histogram != nil}
			for _, id := range m.Attributes {
				a, ok := md.Attributes[id]
				if !ok {
					return nil, fmt.Errorf("%s: %s names the attribute %s, which attributes: does not declare", path, key, id)
				}
				name := id
				if a.NameOverride != "" {
					name = a.NameOverride
				}
				d.Labels = append(d.Labels, Label{Name: strings.ReplaceAll(name, ".", "_"), Values: a.Enum})
			}
			out["otelcol_"+key] = d
		}
	}
	return out, nil
}

// LabelNames are the names of the metric's labels, in order.
func (d Declared) LabelNames() []string { return Metric{Labels: d.Labels}.LabelNames() }
