// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package jsonraw

import (
	"encoding/json"
	"testing"
)

// BenchmarkUnquote decodes a stringified tool result of about 3.2 KiB, nearly every quote
// escaped, three ways: AppendUnquote into a reused buffer (what a walker that decodes per span
// should do), Unquote (a new string), and encoding/json.Unmarshal into a string, the anchor.
func BenchmarkUnquote(b *testing.B) {
	raw := []byte(stringifiedToolResult(20))
	b.Run("AppendUnquote", func(b *testing.B) {
		dst := make([]byte, 0, len(raw))
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			var ok bool
			if dst, ok = AppendUnquote(dst[:0], raw); !ok {
				b.Fatal("not a string")
			}
		}
	})
	b.Run("Unquote", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := Unquote(raw); !ok {
				b.Fatal("not a string")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				b.Fatal(err)
			}
		}
	})
}
