// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

func keptKeys(keys ...string) func([]byte) bool {
	return func(k []byte) bool {
		for _, key := range keys {
			if string(k) == key {
				return true
			}
		}
		return false
	}
}

func TestRedactJSON(t *testing.T) {
	record := setOf([]byte("Jane Roe-Whitfield"), []byte("Zoë Whitfield"), []byte("5550100123"), []byte("Acme Holdings Ltd"),
		[]byte(`Ada Byron","b":"Lovelace`), []byte(`\",\"y\":\"bcdefgh`))
	kept := keptKeys("status", "query")
	for _, tc := range []struct{ name, doc, want string }{
		{"string values", `{"name":"Jane Roe-Whitfield","note":"ask Zo\u00eb Whitfield","total":2}`,
			`{"name":"[withheld]","note":"[withheld]","total":2}`},
		{"kept key", `{"query":"Jane Roe-Whitfield","status":"Jane Roe-Whitfield"}`, `{"query":"Jane Roe-Whitfield","status":"Jane Roe-Whitfield"}`},
		{"kept key inside an array", `{"rows":[{"query":"Jane Roe-Whitfield"}]}`, `{"rows":[{"query":"Jane Roe-Whitfield"}]}`},
		{"array elements", `["ok", "Acme Holdings Ltd", 3]`, `["ok","[withheld]",3]`},
		{"key", `{"Jane Roe-Whitfield":{"orders":1}}`, `{"[withheld]":{"orders":1}}`},
		{"number", `{"phone":5550100123,"n":12}`, `{"phone":"[withheld]","n":12}`},
		{"stringified document", `{"content":"{\"name\":\"Jane Roe-Whitfield\",\"status\":\"ok\",\"total\":2}"}`,
			`{"content":"{\"name\":\"[withheld]\",\"status\":\"ok\",\"total\":2}"}`},
		{"stringified twice", `["{\"m\":\"{\\\"to\\\":\\\"Acme Holdings Ltd\\\"}\"}"]`, `["{\"m\":\"{\\\"to\\\":\\\"[withheld]\\\"}\"}"]`},
		{"stringified document holding a leaf only under a kept key", `{"c":"{\"query\":\"Jane Roe-Whitfield\"}"}`, `{"c":"{\"query\":\"Jane Roe-Whitfield\"}"}`},
		{"stringified document under a kept key is read by its own keys", `{"description":"{\"name\":\"Jane Roe-Whitfield\",\"n\":2}"}`,
			`{"description":"{\"name\":\"[withheld]\",\"n\":2}"}`},
		{"a region across values withholds each", `{"a":"Ada Byron","b":"Lovelace","c":1}`, `{"a":"[withheld]","[withheld]":"[withheld]","c":1}`},
		{"a region only the encoding shows withholds the string", `{"c":"{\"x\":\"a\",\"y\":\"bcdefgh\"}"}`, `{"c":"[withheld]"}`},
		{"untouched parts keep their spacing", `{"a": [1, 2], "b": {"n": "Acme Holdings Ltd"}}`, `{"a":[1, 2],"b":{"n":"[withheld]"}}`},
		{"top-level string", ` "Acme Holdings Ltd" `, `"[withheld]"`},
		{"no hit keeps the bytes", "{ \"a\" : [ 1 , \"b\" ] }", "{ \"a\" : [ 1 , \"b\" ] }"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sc Scanner
			got, changed, err := sc.redactJSON([]byte("x"), []*Set{record}, []byte(tc.doc), kept)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != "x"+tc.want || changed != (tc.want != tc.doc) {
				t.Errorf("redactJSON(%s)\n got %s, %v\nwant %s", tc.doc, got[1:], changed, tc.want)
			}
			if !json.Valid(got[1:]) {
				t.Errorf("output is not JSON: %s", got[1:])
			}
		})
	}
}

func TestRedactJSONRejectsInvalidJSON(t *testing.T) {
	record := setOf([]byte("Jane Roe-Whitfield"))
	var sc Scanner
	for _, doc := range []string{`{"a":"Jane Roe-Whitfield"`, `Jane Roe-Whitfield`, `{"a":1} x`, "\"\xff Jane Roe-Whitfield\"", ``} {
		got, changed, err := sc.redactJSON([]byte("x"), []*Set{record}, []byte(doc), nil)
		if !errors.Is(err, jsonraw.ErrSyntax) || changed || string(got) != "x" {
			t.Errorf("redactJSON(%q) = %q, %v, %v; want dst unchanged and ErrSyntax", doc, got, changed, err)
		}
	}
}
