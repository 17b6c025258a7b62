// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package configschema

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"go.opentelemetry.io/collector/component"
)

type entry struct {
	Kind string `mapstructure:"kind"`
}

type toy struct {
	Limit   int              `mapstructure:"limit"`
	Name    string           `mapstructure:"name"`
	Keys    []string         `mapstructure:"keys"`
	Timeout time.Duration    `mapstructure:"timeout"`
	Entries map[string]entry `mapstructure:"entries"`
	Ratio   float64          `mapstructure:"ratio"`
	Storage *component.ID    `mapstructure:"storage"`
	_       struct{}
}

// Validate allows limit 1 to 10, a non-empty name, non-empty keys and entry kinds a or b.
func (c *toy) Validate() error {
	var errs []error
	if c.Limit < 1 || c.Limit > 10 {
		errs = append(errs, fmt.Errorf("limit: %d: out of range", c.Limit))
	}
	if c.Name == "" {
		errs = append(errs, errors.New("name: must be non-empty"))
	}
	for _, k := range c.Keys {
		if k == "" {
			errs = append(errs, errors.New("keys: entries must be non-empty"))
		}
	}
	for name, e := range c.Entries {
		if e.Kind != "" && e.Kind != "a" && e.Kind != "b" {
			errs = append(errs, fmt.Errorf("entries::%s::kind: must be a or b", name))
		}
	}
	return errors.Join(errs...)
}

func defaults() *toy {
	return &toy{Limit: 5, Name: "x", Keys: []string{"k"}, Timeout: time.Minute, Entries: map[string]entry{}}
}

const good = `
description: toy
type: object
properties:
  limit: {description: l, type: integer, default: 5, minimum: 1, maximum: 10}
  name: {description: n, type: string, default: x, minLength: 1}
  keys: {description: k, type: array, items: {type: string, minLength: 1}, default: [k]}
  timeout: {description: t, type: string, format: duration, default: 1m}
  entries: {description: e, type: object, additionalProperties: {$ref: entry}, default: {}}
  ratio: {description: r, type: number, default: 0}
  storage: {description: s, type: string}
$defs:
  entry:
    description: an entry
    type: object
    properties:
      kind: {description: k, type: string, enum: [a, b]}
`

func check(t *testing.T, schema string) []string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.schema.yaml")
	if err := os.WriteFile(path, []byte(schema), 0o600); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, err := range Check(path, defaults()) {
		out = append(out, err.Error())
	}
	return out
}

func TestAgreeingSchemaPasses(t *testing.T) {
	assert.Empty(t, check(t, good))
}

func TestEachDisagreementIsReported(t *testing.T) {
	bad := `
description: toy
type: object
properties:
  limit: {description: l, type: integer, default: 4, minimum: 0, maximum: 9}
  ratio: {description: r, type: integer, default: 0}
  name: {description: n, type: string, minLength: 1}
  keys: {description: k, type: array, items: {type: string, minLength: 1}, default: [k]}
  timeout: {description: t, type: string, format: duration, default: 2m}
  entries: {description: e, type: object, additionalProperties: {$ref: entry}, default: {}}
  extra: {description: x, type: string, default: ""}
  storage: {description: s, type: object}
$defs:
  entry:
    description: an entry
    type: object
    properties:
      kind: {type: string, enum: [a, b, c]}
  unused: {type: string}
`
	assert.ElementsMatch(t, []string{
		"timeout: the schema's default is 2m0s; the default configuration holds 1m0s",
		"entries::<name>::kind: no description",
		`ratio: the schema says type "integer" format ""; the Go field (float64) is type "number" format ""`,
		"limit: Validate accepts 10, above the schema's maximum",
		"extra: the schema has it; the config accepts no such key",
		"$defs::unused: no property refers to it",
		"limit: the schema's default is 4; the default configuration holds 5",
		"limit: Validate refuses 0, the schema's minimum",
		"name: no default (the default configuration holds x)",
		`entries::x::kind: Validate refuses "c", a value of the schema's enum`,
		`storage: the schema says type "object" format ""; the Go field (component.ID) is type "string" format ""`,
	}, check(t, bad))
}
