// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package collectortest

import (
	"net/http"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/require"
)

// Serves reports whether the collector's internal telemetry has a metric family of this name.
func (c *Collector) Serves(name string) bool {
	c.t.Helper()
	_, ok := families(c.t, "http://"+c.Metrics+"/metrics")[name]
	return ok
}

// Scrape reads a Prometheus text endpoint and sums the samples of one metric family whose labels
// include every pair in match.
func Scrape(t testing.TB, url, name string, match map[string]string) float64 {
	t.Helper()
	fam, ok := families(t, url)[name]
	if !ok {
		return 0
	}
	total := 0.0
	for _, m := range fam.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		if !includes(labels, match) {
			continue
		}
		switch {
		case m.GetCounter() != nil:
			total += m.GetCounter().GetValue()
		case m.GetGauge() != nil:
			total += m.GetGauge().GetValue()
		case m.GetUntyped() != nil:
			total += m.GetUntyped().GetValue()
		}
	}
	return total
}

func includes(labels, match map[string]string) bool {
	for k, v := range match {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func families(t testing.TB, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	return fams
}
