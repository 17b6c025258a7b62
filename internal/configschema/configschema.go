// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package configschema holds a component's config.schema.yaml (the JSON Schema, in contrib's shape, that
// editors validate a user's YAML against) to its Go config struct, so that neither can change without
// the other. Check reports where they disagree:
//
//   - keys: every key the struct's mapstructure tags accept is a property of the schema, with a
//     description, and the schema has no other, at every depth (struct fields, map values, list items,
//     $defs entries);
//   - types: each property's type is its Go field's: string, integer, number, boolean, array (with its
//     items), object (a struct's properties, or a map's additionalProperties), and a time.Duration is
//     a string of format duration, and a type that unmarshals from text (a component.ID) a string;
//     a pointer is its element's type, an optional setting;
//   - defaults: every top-level property states a default, and it is the value the factory's default
//     configuration holds (an optional setting the default leaves nil states none);
//   - allowed values: where the schema bounds a top-level value (minimum, maximum, minLength, minItems,
//     a minLength on list items, an enum, or an enum on a field of a map's entries), Validate accepts
//     the value at the bound and refuses the one just past it, with an error at that field's path.
//
// The cost is one Validate per bound; the limit is that a rule linking two fields (max_wait within
// run_budget) is only the schema's description, and bounds below the top level other than a map
// entry's enums are not exercised.
package configschema

import (
	"encoding"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/agentotel/agentotel/internal/confighint"
)

// Validator is a config struct, by pointer, with its Validate method.
type Validator interface{ Validate() error }

// node is one schema: the keywords config.schema.yaml uses.
type node struct {
	Description          string           `yaml:"description"`
	Type                 string           `yaml:"type"`
	Format               string           `yaml:"format"`
	Ref                  string           `yaml:"$ref"`
	Properties           map[string]*node `yaml:"properties"`
	AdditionalProperties *node            `yaml:"additionalProperties"`
	Items                *node            `yaml:"items"`
	Default              any              `yaml:"default"`
	Enum                 []any            `yaml:"enum"`
	Minimum              *int64           `yaml:"minimum"`
	Maximum              *int64           `yaml:"maximum"`
	MinLength            *int             `yaml:"minLength"`
	MinItems             *int             `yaml:"minItems"`
}

type schema struct {
	node `yaml:",inline"`
	Defs map[string]*node `yaml:"$defs"`
}

// checker collects the disagreements of one schema with one config.
type checker struct {
	defs     map[string]*node
	usedDefs map[string]bool
	problems []error
}

func (c *checker) errorf(format string, args ...any) {
	c.problems = append(c.problems, fmt.Errorf(format, args...))
}

// Check reads the schema at path and holds it to defaults, the factory's default configuration (a
// pointer to the config struct).
func Check(path string, defaults Validator) []error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return []error{err}
	}
	var s schema
	if err := yaml.Unmarshal(raw, &s); err != nil {
		return []error{fmt.Errorf("%s: %w", path, err)}
	}
	c := &checker{defs: s.Defs, usedDefs: map[string]bool{}}
	v := reflect.ValueOf(defaults)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return []error{fmt.Errorf("defaults is a %T, not a pointer to a config struct", defaults)}
	}
	c.shape(v.Elem().Type(), &s.node, "")
	for _, name := range slices.Sorted(maps.Keys(s.Defs)) {
		if !c.usedDefs[name] {
			c.errorf("$defs::%s: no property refers to it", name)
		}
	}
	for _, f := range fields(v.Elem().Type()) {
		n := c.resolve(s.Properties[f.key], f.key)
		if n == nil {
			continue
		}
		c.defaultOf(v.Elem().FieldByIndex(f.index), n, f.key)
		c.bounds(defaults, f, n)
	}
	return c.problems
}

// field is one key a config struct accepts.
type field struct {
	key   string
	index []int
	typ   reflect.Type
}

// fields lists the keys of a struct type by its mapstructure tags, in declaration order.
func fields(t reflect.Type) []field {
	var out []field
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
		if name == "" || name == "-" {
			name = strings.ToLower(f.Name)
		}
		out = append(out, field{key: name, index: f.Index, typ: f.Type})
	}
	return out
}

// resolve follows a $ref into $defs; nil (reported) when it leads nowhere.
func (c *checker) resolve(n *node, path string) *node {
	for n != nil && n.Ref != "" {
		def, ok := c.defs[n.Ref]
		if !ok {
			c.errorf("%s: $ref %s is not in $defs", path, n.Ref)
			return nil
		}
		c.usedDefs[n.Ref] = true
		n = def
	}
	return n
}

var (
	durationType = reflect.TypeFor[time.Duration]()
	textType     = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// isText reports a type YAML gives as a string its UnmarshalText reads (a component.ID).
func isText(t reflect.Type) bool {
	return t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(textType)
}

// shape holds the schema n to the Go type t at path.
func (c *checker) shape(t reflect.Type, n *node, path string) {
	n = c.resolve(n, path)
	if n == nil {
		return
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem() // an optional setting: nil when left out
	}
	want, format := jsonType(t)
	if n.Type != want || n.Format != format {
		c.errorf("%s: the schema says type %q format %q; the Go field (%s) is type %q format %q", at(path), n.Type, n.Format, t, want, format)
		return
	}
	if isText(t) {
		return
	}
	switch t.Kind() {
	case reflect.Slice:
		if n.Items == nil {
			c.errorf("%s: an array without items", at(path))
			return
		}
		c.shape(t.Elem(), n.Items, path+"[]")
	case reflect.Map:
		if n.AdditionalProperties == nil {
			c.errorf("%s: a map without additionalProperties", at(path))
			return
		}
		c.shape(t.Elem(), n.AdditionalProperties, join(path, "<name>"))
	case reflect.Struct:
		accepted := map[string]bool{}
		for _, f := range fields(t) {
			accepted[f.key] = true
			p, ok := n.Properties[f.key]
			if !ok {
				c.errorf("%s: the config accepts it; the schema has no such property", join(path, f.key))
				continue
			}
			if r := c.resolve(p, join(path, f.key)); p.Description == "" && (r == nil || r.Description == "") {
				c.errorf("%s: no description", join(path, f.key))
			}
			c.shape(f.typ, p, join(path, f.key))
		}
		for _, key := range slices.Sorted(maps.Keys(n.Properties)) {
			if !accepted[key] {
				c.errorf("%s: the schema has it; the config accepts no such key", join(path, key))
			}
		}
	}
}

// jsonType is the schema type (and format) of a Go type, as contrib's schemas write it.
func jsonType(t reflect.Type) (typ, format string) {
	if t == durationType {
		return "string", "duration"
	}
	if isText(t) {
		return "string", ""
	}
	switch t.Kind() {
	case reflect.String:
		return "string", ""
	case reflect.Bool:
		return "boolean", ""
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer", ""
	case reflect.Float32, reflect.Float64:
		return "number", ""
	case reflect.Slice:
		return "array", ""
	case reflect.Map, reflect.Struct:
		return "object", ""
	}
	return t.String(), ""
}

// defaultOf holds a top-level property's default to the default configuration's value.
func (c *checker) defaultOf(v reflect.Value, n *node, path string) {
	if v.Kind() == reflect.Pointer && v.IsNil() && n.Default == nil {
		return // an optional setting left out by default: the schema states no default
	}
	if n.Default == nil {
		c.errorf("%s: no default (the default configuration holds %v)", path, v.Interface())
		return
	}
	got, err := plain(n.Default, v.Type())
	if err != nil {
		c.errorf("%s: default %v: %v", path, n.Default, err)
		return
	}
	if want := plainGo(v); !reflect.DeepEqual(got, want) {
		c.errorf("%s: the schema's default is %v; the default configuration holds %v", path, got, want)
	}
}

// plain turns a default as YAML decoded it into the form plainGo gives the Go value of type t.
func plain(raw any, t reflect.Type) (any, error) {
	if t == durationType {
		s, ok := raw.(string)
		if !ok {
			return nil, fmt.Errorf("a duration default must be a string such as 10m")
		}
		return time.ParseDuration(s)
	}
	switch t.Kind() {
	case reflect.Slice:
		items, ok := raw.([]any)
		if !ok {
			return nil, fmt.Errorf("not a list")
		}
		out := []any{}
		for _, item := range items {
			p, err := plain(item, t.Elem())
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
		return out, nil
	case reflect.Map:
		entries, ok := raw.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("not a map")
		}
		out := map[string]any{}
		for k, e := range entries {
			p, err := plain(e, t.Elem())
			if err != nil {
				return nil, err
			}
			out[k] = p
		}
		return out, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if i, ok := raw.(int); ok {
			return int64(i), nil
		}
		return nil, fmt.Errorf("not a whole number")
	case reflect.Float32, reflect.Float64:
		switch x := raw.(type) {
		case int:
			return float64(x), nil
		case float64:
			return x, nil
		}
		return nil, fmt.Errorf("not a number")
	}
	return raw, nil
}

// plainGo is a Go value in plain's form: nil and empty lists and maps alike.
func plainGo(v reflect.Value) any {
	if v.Type() == durationType {
		return time.Duration(v.Int())
	}
	switch v.Kind() {
	case reflect.Slice:
		out := []any{}
		for i := range v.Len() {
			out = append(out, plainGo(v.Index(i)))
		}
		return out
	case reflect.Map:
		out := map[string]any{}
		for it := v.MapRange(); it.Next(); {
			out[it.Key().String()] = plainGo(it.Value())
		}
		return out
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Float32, reflect.Float64:
		return v.Float()
	}
	return v.Interface()
}

// bounds holds the allowed values the schema states for a top-level field to what Validate accepts.
func (c *checker) bounds(defaults Validator, f field, n *node) {
	try := func(path, what string, set func(reflect.Value), wantError bool) {
		cfg := reflect.New(reflect.TypeOf(defaults).Elem())
		cfg.Elem().Set(reflect.ValueOf(defaults).Elem())
		set(cfg.Elem().FieldByIndex(f.index))
		if got := hasErrorAt(cfg.Interface().(Validator).Validate(), path); got != wantError {
			verb := "accepts"
			if got {
				verb = "refuses"
			}
			c.errorf("%s: Validate %s %s", path, verb, what)
		}
	}
	isInt, isString := f.typ.Kind() >= reflect.Int && f.typ.Kind() <= reflect.Int64 && f.typ != durationType, f.typ.Kind() == reflect.String
	if n.Minimum != nil && isInt {
		m := *n.Minimum
		try(f.key, fmt.Sprintf("%d, the schema's minimum", m), func(v reflect.Value) { v.SetInt(m) }, false)
		try(f.key, fmt.Sprintf("%d, below the schema's minimum", m-1), func(v reflect.Value) { v.SetInt(m - 1) }, true)
	}
	if n.Maximum != nil && isInt {
		m := *n.Maximum
		try(f.key, fmt.Sprintf("%d, the schema's maximum", m), func(v reflect.Value) { v.SetInt(m) }, false)
		try(f.key, fmt.Sprintf("%d, above the schema's maximum", m+1), func(v reflect.Value) { v.SetInt(m + 1) }, true)
	}
	if n.MinLength != nil && *n.MinLength == 1 && isString {
		try(f.key, `"", shorter than the schema's minLength`, func(v reflect.Value) { v.SetString("") }, true)
	}
	if n.MinItems != nil && *n.MinItems == 1 {
		try(f.key, "an empty list, shorter than the schema's minItems", func(v reflect.Value) { v.Set(reflect.MakeSlice(v.Type(), 0, 0)) }, true)
	}
	if items := c.resolve(n.Items, f.key+"[]"); items != nil && items.MinLength != nil && *items.MinLength == 1 {
		try(f.key, `an empty entry, shorter than the schema's minLength for items`, func(v reflect.Value) {
			v.Set(reflect.Append(reflect.MakeSlice(v.Type(), 0, 1), reflect.Zero(v.Type().Elem())))
		}, true)
	}
	if len(n.Enum) > 0 && isString {
		for _, e := range enumStrings(n) {
			try(f.key, fmt.Sprintf("%q, a value of the schema's enum", e), func(v reflect.Value) { v.SetString(e) }, false)
		}
		try(f.key, `"not-an-enum-value"`, func(v reflect.Value) { v.SetString("not-an-enum-value") }, true)
	}
	// A map of structs: each enum of an entry's fields, on one entry named "x".
	entry := c.resolve(n.AdditionalProperties, join(f.key, "<name>"))
	if f.typ.Kind() != reflect.Map || f.typ.Elem().Kind() != reflect.Struct || entry == nil {
		return
	}
	for _, ef := range fields(f.typ.Elem()) {
		p := c.resolve(entry.Properties[ef.key], join(f.key, "<name>", ef.key))
		if p == nil || len(p.Enum) == 0 || ef.typ.Kind() != reflect.String {
			continue
		}
		path := join(f.key, "x", ef.key)
		setEntry := func(value string) func(reflect.Value) {
			return func(v reflect.Value) {
				e := reflect.New(f.typ.Elem()).Elem()
				e.FieldByIndex(ef.index).SetString(value)
				m := reflect.MakeMap(f.typ)
				m.SetMapIndex(reflect.ValueOf("x"), e)
				v.Set(m)
			}
		}
		for _, e := range enumStrings(p) {
			try(path, fmt.Sprintf("%q, a value of the schema's enum", e), setEntry(e), false)
		}
		try(path, `"not-an-enum-value"`, setEntry("not-an-enum-value"), true)
	}
}

func enumStrings(n *node) []string {
	var out []string
	for _, e := range n.Enum {
		out = append(out, fmt.Sprint(e))
	}
	return out
}

// hasErrorAt reports whether err (joined errors included) has one at exactly path.
func hasErrorAt(err error, path string) bool {
	return slices.ContainsFunc(confighint.Split(err), func(e error) bool { return confighint.PathOf(e) == path })
}

func join(parts ...string) string {
	var nonEmpty []string
	for _, p := range parts {
		if p != "" {
			nonEmpty = append(nonEmpty, p)
		}
	}
	return strings.Join(nonEmpty, "::")
}

func at(path string) string {
	if path == "" {
		return "(the config)"
	}
	return path
}
