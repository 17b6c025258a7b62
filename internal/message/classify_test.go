// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package message

import (
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// FuzzResultParts: whatever a tool message's content holds, it is read as result blocks, each naming
// its own call, only when it is a valid JSON array.
func FuzzResultParts(f *testing.F) {
	for _, seed := range []string{
		`[{"toolResult":{"toolUseId":"tooluse_1","status":"success","content":[{"json":{"email":"ada@example.test"}}]}},` +
			`{"toolResult":{"toolUseId":"tooluse_2","status":"success","content":[{"text":"overcast"}]}}]`,
		`[{"text":"a"},{"toolResult":{"toolUseId":"t","content":[]}}]`,
		`[{"type":"text","text":"a"},{"type":"tool_result","tool_use_id":"t"}]`, `[{"functionResponse":{"name":"f"}}]`,
		`[{"json":{"a":1}}]`, `[{"text":"a","type":"text","x":1},{"toolResult":{}}]`,
		`[`, `[]`, ` `, `"x"`, "[\"\xff\"]", ` [{"toolResult":{}}] `,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		if got := holdsResultParts(OTLPNode(pcommon.NewValueStr(data))); got && (!jsonraw.Valid([]byte(data)) || !strings.HasPrefix(strings.TrimSpace(data), "[")) {
			t.Fatalf("%q read as result blocks", data)
		}
	})
}
