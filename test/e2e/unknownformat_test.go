// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"bufio"
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentotel/agentotel/internal/repo"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// TestUnknownFormatThroughTheCollector posts, as OTLP/HTTP JSON, a LlamaIndex run as its own
// OpenTelemetry integration writes it (testdata/formats/genai/llamaindex-otel.traces.json, written from
// its source): no convention reads it, its tool's span is named generically, and the tool's name is
// only an event attribute's value. No value of the customer record find_customer returned may leave the
// collector: the span that names the tool is withheld whole, and the copies of what it held are found
// in the model call's messages and the steps' summaries.
func TestUnknownFormatThroughTheCollector(t *testing.T) {
	c := collectortest.Start(t, shapeonlyConfig, nil)
	root := repo.Root(t)
	f, err := os.Open(filepath.Join(root, "testdata", "formats", "genai", "llamaindex-otel.traces.json"))
	require.NoError(t, err)
	defer f.Close()
	want := 0
	lines := bufio.NewScanner(f)
	lines.Buffer(nil, 16<<20)
	for lines.Scan() {
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(lines.Bytes())
		require.NoError(t, err)
		want += td.SpanCount()
		resp, err := http.Post("http://"+c.HTTP+"/v1/traces", "application/json", bytes.NewReader(lines.Bytes()))
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	require.NoError(t, lines.Err())
	all := dump(t, c.SpansOut(want))
	for _, secret := range []string{"cus_88421907", "Jane Roe-Whitfield", "jane.roe@example-mail.test", "+1 415 555 0199",
		"VIP; disputes every invoice since March"} {
		if strings.Contains(all, secret) {
			t.Errorf("%q leaves the collector", secret)
		}
	}
	assert.Contains(t, all, "overcast skies today", "get_weather's result, nobody's customer data, stays")
	assert.Contains(t, all, "find_customer", "the tool's name stays: it is not remembered as its data")
}
