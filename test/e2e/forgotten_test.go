// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// customerRecord is what find_customer returns in the flood: every value but the status is withheld.
const customerRecord = `{"customer_id":"cus_88421907","name":"Jane Roe-Whitfield","email":"jane.roe@example-mail.test","status":"active"}`

// TestForgottenTracesThroughTheCollector measures forgetting: max_traces traces of
// one find_customer call each and 100 more, so the first 100 are forgotten, then in each of those 100
// traces a model call whose transcript shows only the tool's response. Every response must be withheld:
// the traces' ids are kept past forgetting, so their later batches are walked and a result whose call
// is not in the batch is withheld. With the defaults (100,000 traces) and with small bounds.
func TestForgottenTracesThroughTheCollector(t *testing.T) {
	for _, tc := range []struct {
		name      string
		bounds    string
		maxTraces int
	}{
		{"defaults", "{}", 100_000},
		{"small bounds", "{max_traces: 100, max_fingerprints: 1000, max_fingerprints_per_trace: 100, max_forgotten: 100}", 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The bounds are merged under shapeonlyConfig's processor, as the collector merges its configs.
			bounds := filepath.Join(t.TempDir(), "bounds.yaml")
			require.NoError(t, os.WriteFile(bounds, []byte("processors:\n  shapeonly: "+tc.bounds+"\n"), 0o600))
			c := collectortest.Start(t, shapeonlyConfig, nil, bounds)
			flood := tc.maxTraces + 100
			const perRequest = 5000
			for first := 0; first < flood; first += perRequest {
				td := ptrace.NewTraces()
				for i := first; i < min(first+perRequest, flood); i++ {
					addSpan(td, i, 1, map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer",
						"gen_ai.tool.call.id": callID(i), "gen_ai.tool.call.result": customerRecord})
				}
				postTraces(t, c, td)
			}
			assert.Positive(t, c.Metric("otelcol_processor_shapeonly_memory_evicted", map[string]string{"reason": "capacity"})+
				c.Metric("otelcol_processor_shapeonly_memory_evicted", map[string]string{"reason": "fingerprints"}))

			transcripts := ptrace.NewTraces()
			for i := range 100 {
				addSpan(transcripts, i, 2, map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": `[{"role":"tool","parts":` +
					`[{"type":"tool_call_response","id":"` + callID(i) + `","response":` + customerRecord + `}]}]`})
			}
			postTraces(t, c, transcripts)

			shown := 0
			for _, td := range c.SpansOut(flood + 100) {
				for _, span := range walk.Spans(td) {
					if op, _ := span.Attributes().Get("gen_ai.operation.name"); op.Str() != "chat" {
						continue
					}
					shown++
					messages, _ := span.Attributes().Get("gen_ai.input.messages")
					for _, secret := range []string{"cus_88421907", "Jane Roe-Whitfield", "jane.roe@example-mail.test"} {
						assert.NotContains(t, messages.Str(), secret, "trace %s", span.TraceID())
					}
				}
			}
			assert.Equal(t, 100, shown)
			assert.Zero(t, c.Metric("otelcol_processor_shapeonly_forgotten_dropped", nil), "no forgotten id was dropped")
		})
	}
}

func callID(i int) string { return "call_" + strconv.Itoa(i) }

// addSpan adds to td's first scope a span of trace i with the given id and attributes.
func addSpan(td ptrace.Traces, i int, id byte, attrs map[string]any) {
	if td.ResourceSpans().Len() == 0 {
		td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
	}
	span := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().AppendEmpty()
	var trace pcommon.TraceID
	trace[0] = 0xf1
	binary.BigEndian.PutUint64(trace[8:], uint64(i))
	span.SetTraceID(trace)
	span.SetSpanID(pcommon.SpanID{id})
	span.SetName(fmt.Sprint(attrs["gen_ai.operation.name"]))
	if err := span.Attributes().FromRaw(attrs); err != nil {
		panic(err)
	}
}

// postTraces sends td to the collector as one OTLP/HTTP protobuf request and requires success.
func postTraces(t *testing.T, c *collectortest.Collector, td ptrace.Traces) {
	t.Helper()
	body, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	require.NoError(t, err)
	resp, err := http.Post("http://"+c.HTTP+"/v1/traces", "application/x-protobuf", bytes.NewReader(body))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
}
