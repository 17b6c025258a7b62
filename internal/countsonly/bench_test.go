// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package countsonly

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

// benchDocs are customer-search tool results: "small" is a typical single result (~3 KiB),
// "large" a big page (~64 KiB).
var benchDocs = []benchDoc{
	{"small", customerSearchResult(4, 2)},
	{"large", customerSearchResult(64, 66)},
}

type benchDoc struct {
	name string
	doc  []byte
}

// eachDoc runs bench as a sub-benchmark per document, in bytes per second and allocations.
func eachDoc(b *testing.B, bench func(b *testing.B, bd benchDoc)) {
	for _, bd := range benchDocs {
		b.Run(bd.name, func(b *testing.B) {
			b.SetBytes(int64(len(bd.doc)))
			b.ReportAllocs()
			bench(b, bd)
		})
	}
}

func BenchmarkShape(b *testing.B) {
	eachDoc(b, func(b *testing.B, bd benchDoc) {
		dst := make([]byte, 0, len(bd.doc))
		for b.Loop() {
			if _, _, err := defaultShaper.AppendJSON(dst, bd.doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkEncodingJSONRoundTrip is the anchor Shape must beat by 5x: the obvious implementation
// decodes into any and encodes again (shaping itself left out, so the anchor is a lower bound).
func BenchmarkEncodingJSONRoundTrip(b *testing.B) {
	eachDoc(b, func(b *testing.B, bd benchDoc) {
		for b.Loop() {
			var v any
			if err := json.Unmarshal(bd.doc, &v); err != nil {
				b.Fatal(err)
			}
			if _, err := json.Marshal(v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTokenizerOnly walks the same bytes with encoding/json's Decoder.Token, the stdlib's
// tokenizer (encoding/json/jsontext needs GOEXPERIMENT=jsonv2 in Go 1.26, so it is not used).
func BenchmarkTokenizerOnly(b *testing.B) {
	eachDoc(b, func(b *testing.B, bd benchDoc) {
		r := bytes.NewReader(nil)
		for b.Loop() {
			r.Reset(bd.doc)
			dec := json.NewDecoder(r)
			for {
				if _, err := dec.Token(); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkValidOnly is a stricter floor than the tokenizer: encoding/json.Valid's state
// machine produces no tokens at all, only a yes or no.
func BenchmarkValidOnly(b *testing.B) {
	eachDoc(b, func(b *testing.B, bd benchDoc) {
		for b.Loop() {
			if !json.Valid(bd.doc) {
				b.Fatal("invalid")
			}
		}
	})
}
