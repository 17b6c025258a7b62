// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package docs

import (
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/docscheck"
	"github.com/agentotel/agentotel/internal/repo"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// metricPattern matches the families our processors serve.
var metricPattern = regexp.MustCompile(`^otelcol_processor_(?:agentguard|shapeonly)_`)

// TestServedLabelsAreDocumented runs the built collector on the shipped default config (its addresses
// moved to free ports), sends a mix of agent runs, and reads its metrics endpoint: the processors'
// families are the metrics docs/alerting.md's table lists, each served with exactly the labels its
// metadata.yaml declares (and its documentation.md lists). The page says the collector adds no label of
// its own to them; a release that adds one fails here.
func TestServedLabelsAreDocumented(t *testing.T) {
	root := repo.Root(t)
	// The preamble again after the default config: its free ports win over the config's fixed ones, and
	// the debug exporter no longer prints every span.
	c := collectortest.Start(t, collectortest.Preamble+"exporters:\n  debug: {verbosity: basic}\n", nil,
		filepath.Join(root, "deploy", "otelcol-agent.yaml"))
	c.Send("grpc", "-scenario", "mix", "-count", "40", "-seed", "5")
	collectortest.Eventually(t, "the finished runs' histograms", func() bool {
		return c.Serves("otelcol_processor_agentguard_run_rounds") && c.Serves("otelcol_processor_agentguard_run_duration")
	})

	resp, err := http.Get("http://" + c.Metrics + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	served := map[string][]string{}
	for name, fam := range families {
		if !metricPattern.MatchString(name) {
			continue
		}
		served[name] = []string{}
		for _, m := range fam.GetMetric() {
			for _, l := range m.GetLabel() {
				if !slices.Contains(served[name], l.GetName()) {
					served[name] = append(served[name], l.GetName())
				}
			}
		}
	}

	// The labels are those each metric's metadata.yaml entry declares, which mdatagen writes into the
	// processor's documentation.md and docs/alerting.md's table links to.
	declared, err := docscheck.DeclaredMetrics(root)
	require.NoError(t, err)
	docs, err := docscheck.Read(root)
	require.NoError(t, err)
	i := slices.IndexFunc(docs, func(d docscheck.Doc) bool { return d.Path == "docs/alerting.md" })
	require.GreaterOrEqual(t, i, 0)
	doc := docs[i]
	documented := map[string]bool{}
	for _, row := range doc.Metrics() {
		documented[row.Name] = true
		got, ok := served[row.Name]
		if !ok {
			t.Errorf("%s: the collector does not serve %s", doc.At(row.Line), row.Name)
			continue
		}
		assert.ElementsMatch(t, declared[row.Name].LabelNames(), got, "%s: the labels of %s as served, against its metadata.yaml attributes", doc.At(row.Line), row.Name)
	}
	require.NotEmpty(t, documented, "docs/alerting.md has no metric table")
	for name := range served {
		assert.True(t, documented[name], "the collector serves %s, which docs/alerting.md's table does not list", name)
	}
}
