// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

type benchInput struct {
	name string
	data []byte
}

// benchInputs are realistic tool results of about 300 B, 2 KiB and 8 KiB:
// keys in API order (not sorted), volatile envelope fields, escapes,
// fractional numbers and some non-ASCII text.
func benchInputs() []benchInput {
	build := `{"build_id":"b_88231","status":"running","jobs":"1/4","stages":[{"name":"lint","state":"passed","duration_ms":8123},` +
		`{"name":"test","state":"running","progress":0.42,"runner":"ci-7"}],"branch":"main","commit":"9f8e7d6c",` +
		`"served_at":"2026-03-17T09:12:44.181Z","request_id":"req_7f3a9c2e","etag":"W/\"a1b2c3\""}`

	var search strings.Builder
	search.WriteString(`{"query":"refund policy annual plans","total":9,"page":1,"results":[`)
	for i := 0; i < 9; i++ {
		if i > 0 {
			search.WriteByte(',')
		}
		fmt.Fprintf(&search, `{"title":"Refund policy — section %d","url":"https://docs.example.com/billing/refunds#s%d",`+
			`"snippet":"Annual plans can be refunded within %d days of purchase. See \"Cancellations\" for monthly plans.",`+
			`"score":0.%04d,"updated_at":"2026-02-%02dT10:00:00Z","tags":["billing","refunds"]}`, i, i, 14+i, 9123-i*37, i+1)
	}
	search.WriteString(`],"latency_ms":123,"request_id":"r-55e1"}`)

	var issues strings.Builder
	issues.WriteString(`{"items":[`)
	for i := 0; i < 17; i++ {
		if i > 0 {
			issues.WriteByte(',')
		}
		fmt.Fprintf(&issues, `{"id":%d,"number":%d,"title":"Null pointer in handler %d when request body is empty",`+
			`"state":"%s","locked":false,"labels":[{"name":"bug","color":"d73a4a"},{"name":"p%d","color":"0e8a16"}],`+
			`"user":{"login":"dev%d","id":%d,"site_admin":false},"comments":%d,"body":"Steps:\n1. POST /v1/items with {}\n2. see 500\n`+
			`Expected 400.\tThanks!","created_at":"2026-01-%02dT08:00:00Z","updated_at":"2026-03-%02dT09:30:00Z","reactions":{"+1":%d,"total_count":%d}}`,
			2000000+i*7919, 4100+i, i, []string{"open", "closed"}[i%2], i%3, i, 10000+i, i%5, i%28+1, i%28+1, i%4, i%4)
	}
	issues.WriteString(`],"total_count":17,"incomplete_results":false}`)

	return []benchInput{
		{"300B", []byte(build)},
		{"2KiB", []byte(search.String())},
		{"8KiB", []byte(issues.String())},
	}
}

func TestBenchInputsAreValid(t *testing.T) {
	for _, in := range benchInputs() {
		if !json.Valid(in.data) {
			t.Fatalf("%s: not valid JSON", in.name)
		}
		t.Logf("%s: %d bytes", in.name, len(in.data))
	}
}

func BenchmarkOf(b *testing.B) {
	for _, in := range benchInputs() {
		b.Run(in.name, func(b *testing.B) {
			var s Scratch
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			for b.Loop() {
				def.Of(in.data, &s)
			}
		})
	}
}

// BenchmarkFloor is the cost the normaliser is measured against: one pass of
// the standard library's tokenizer over the same bytes plus SHA-256 of them.
// encoding/json/jsontext needs GOEXPERIMENT=jsonv2 in this Go, so the floor
// is encoding/json's Decoder.Token loop.
func BenchmarkFloor(b *testing.B) {
	for _, in := range benchInputs() {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			r := bytes.NewReader(in.data)
			for b.Loop() {
				r.Reset(in.data)
				d := json.NewDecoder(r)
				for {
					if _, err := d.Token(); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
				}
				sha256.Sum256(in.data)
			}
		})
	}
}

// BenchmarkFloorValid is a stricter reference than BenchmarkFloor: the
// standard library's allocation-free validator plus SHA-256.
func BenchmarkFloorValid(b *testing.B) {
	for _, in := range benchInputs() {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			for b.Loop() {
				if !json.Valid(in.data) {
					b.Fatal("invalid")
				}
				sha256.Sum256(in.data)
			}
		})
	}
}

func BenchmarkKey(b *testing.B) {
	var s Scratch
	args := []byte(`{"q":"what is the refund policy for annual subscriptions","limit":10,"filters":{"lang":"en","section":"billing"}}`)
	b.ReportAllocs()
	for b.Loop() {
		def.Key("search_docs", args, &s)
	}
}
