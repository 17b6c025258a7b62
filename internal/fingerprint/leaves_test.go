// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"errors"
	"testing"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

func TestAddJSONLeaves(t *testing.T) {
	doc := []byte(`{
		"query": "customers named Whitfield",
		"status": ["Jane Roe-Whitfield"],
		"rows": [{"name": "Zo\u00eb Whitfield", "query": "in the array: withheld"}],
		"note": "prefers email; disputes invoices",
		"raw": "{\"inner\":\"stringified leaf value\",\"query\":\"stringified kept value\"}",
		"customer@example.com": 5550100123,
		"short": "Ada"
	}`)
	s := NewSet(1000)
	if _, full, err := s.AddJSONLeaves(doc, keptKeys("query", "status")); err != nil || full {
		t.Fatalf("full %v, err %v", full, err)
	}
	var sc Scanner
	for text, want := range map[string]bool{
		"Jane Roe-Whitfield":               true, // in an array under a kept key: arrays are withheld whole
		"Zoë Whitfield":                    true,
		"in the array: withheld":           true,
		"prefers email; disputes invoices": true,
		"stringified leaf value":           true,
		"customers named Whitfield":        false, // directly under a kept key
		"stringified kept value":           false,
		`{"inner":"stringified`:            false, // a stringified document is not itself a leaf
		"customer@example.com":             false, // keys are kept
		"5550100123":                       false, // numbers are kept
	} {
		if got := sc.Hit([]*Set{s}, []byte(text)); got != want {
			t.Errorf("Hit(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestAddJSONLeavesOfInvalidJSONAddsTheWholeText(t *testing.T) {
	doc := []byte(`{"name": "Jane Doe", oops}`)
	s := NewSet(1000)
	added, _, err := s.AddJSONLeaves(doc, nil)
	if !errors.Is(err, jsonraw.ErrSyntax) || added == 0 {
		t.Fatalf("added %d, err %v", added, err)
	}
	var sc Scanner
	if !sc.Hit([]*Set{s}, doc) {
		t.Error("the invalid document is not remembered")
	}
	if sc.Hit([]*Set{s}, []byte("Jane Doe")) {
		t.Error("a string inside the invalid document was remembered as a leaf of its own")
	}
}
