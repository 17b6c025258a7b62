// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package confighint decodes a component's configuration exactly as the collector does and, when that
// fails, says what was meant: for an unknown key, its path and the nearest valid key (or where else
// it belongs, or the keys allowed there); for a value of the wrong type or an unreadable duration,
// its path, what is expected and an example. The valid keys are read from the config structs'
// mapstructure tags, so a new field is suggested as soon as it exists.
package confighint

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/confmap"
)

const (
	mapstructureTag = "mapstructure"
	// keyDelimiter separates keys in a path as the collector writes them (--set processors::x::key=v).
	keyDelimiter = "::"
)

// Unmarshal decodes conf into target, a pointer to a config struct, with conf.Unmarshal: what it
// accepts and what it produces are unchanged. When decoding fails, every place the decoder names is
// explained with a path from the component's own key (tools::get_build_status::max_wait,
// conventions[0]::match::attribute); a place this package cannot explain keeps the decoder's words.
//
// target must not itself implement confmap.Unmarshaler by calling Unmarshal, or the decoder would
// call it again: a config's Unmarshal method passes its own type converted to a type without
// methods.
//
// One thing the decoder accepts is refused: a duration written as a bare number (max_wait: 20), which
// it reads as nanoseconds, where the writer almost surely meant seconds or minutes.
func Unmarshal(conf *confmap.Conf, target any) error {
	err := conf.Unmarshal(target)
	failures := map[string]error{}
	if err != nil {
		collectFailures(err, failures)
		if len(failures) == 0 {
			// Not a decoding failure at a place (target is not a pointer, say): nothing to explain.
			return err
		}
	}
	root := reflect.TypeOf(target).Elem()
	e := &explainer{root: root, failures: failures, explained: map[string]bool{}}
	e.visit(node{raw: conf.ToStringMap(), typ: root})
	// A place the walk did not reach (below a pointer, which it does not follow), or where it found
	// nothing to say, keeps the decoder's words.
	for _, failure := range sortedKeys(failures) {
		if !e.explained[failure] {
			e.problems = append(e.problems, e.unexplained(failure))
		}
	}
	return errors.Join(e.problems...)
}

// namedError is how the decoder (mapstructure) reports one place: its name, e.g.
// tools[get_build_status].max_wait, and what went wrong there.
type namedError interface {
	Name() string
	Unwrap() error
}

// collectFailures records each place err names, with what the decoder said about it.
func collectFailures(err error, failures map[string]error) {
	switch e := err.(type) {
	case interface{ Unwrap() []error }:
		for _, inner := range e.Unwrap() {
			collectFailures(inner, failures)
		}
	case namedError:
		failures[e.Name()] = e.Unwrap()
	default:
		if inner := errors.Unwrap(err); inner != nil {
			collectFailures(inner, failures)
		}
	}
}

// node is one value of the configuration with the Go type it decodes into.
type node struct {
	// path is what the user reads: tools::get_build_status::max_wait, conventions[0]::match.
	path string
	// name is what the decoder calls the same place: tools[get_build_status].max_wait,
	// conventions[0].match.
	name string
	raw  any
	typ  reflect.Type
}

// field, entry and item are n's children: a struct's field, a map's entry and a list's item, each
// named as the user and as the decoder name it.
func (n node) field(key string, raw any, t reflect.Type) node {
	name := key
	if n.name != "" {
		name = n.name + "." + key
	}
	return node{path: joinKey(n.path, key), name: name, raw: raw, typ: t}
}

func (n node) entry(key string, raw any, t reflect.Type) node {
	return node{path: joinKey(n.path, key), name: n.name + "[" + key + "]", raw: raw, typ: t}
}

func (n node) item(i int, raw any, t reflect.Type) node {
	index := "[" + strconv.Itoa(i) + "]"
	return node{path: n.path + index, name: n.name + index, raw: raw, typ: t}
}

// explainer walks the configuration along its Go types, explaining each place the decoder failed.
type explainer struct {
	// root is the config struct's type, where a misplaced key is looked for.
	root reflect.Type
	// failures holds what the decoder said, by the decoder's name for the place.
	failures  map[string]error
	explained map[string]bool
	problems  []error
}

func (e *explainer) visit(n node) {
	failure := n.failureName()
	if _, failed := e.failures[failure]; failed {
		e.explain(n, failure)
	} else if n.typ == durationType && isBareNumber(n.raw) {
		e.problems = append(e.problems, fmt.Errorf("%s: got %s, expected a duration with its unit (e.g. %s): a bare number is read as nanoseconds",
			n.path, described(n.raw), durationExamples))
	}
	switch n.typ.Kind() {
	case reflect.Struct:
		values, ok := n.raw.(map[string]any)
		if !ok {
			return
		}
		for _, f := range fieldsOf(n.typ) {
			if raw, ok := values[f.key]; ok {
				e.visit(n.field(f.key, raw, f.typ))
			}
		}
	case reflect.Map:
		entries, ok := n.raw.(map[string]any)
		if !ok {
			return
		}
		for _, key := range sortedKeys(entries) {
			e.visit(n.entry(key, entries[key], n.typ.Elem()))
		}
	case reflect.Slice:
		items, ok := n.raw.([]any)
		if !ok {
			return
		}
		for i, raw := range items {
			e.visit(n.item(i, raw, n.typ.Elem()))
		}
	}
}

// failureName is the name the decoder gives n's failure: its name, except that it names the
// unknown keys of the top-level struct, which has none, by the struct's type.
func (n node) failureName() string {
	if n.name == "" {
		return n.typ.String()
	}
	return n.name
}

// explain adds what is wrong at n, the place the decoder calls failure, unless it finds nothing to
// say, when the failure keeps the decoder's words.
func (e *explainer) explain(n node, failure string) {
	values, isMap := n.raw.(map[string]any)
	if n.typ.Kind() != reflect.Struct || !isMap {
		e.explained[failure] = true
		e.problems = append(e.problems, wrongValue(n.path, n.raw, n.typ))
		return
	}
	valid := keysOf(fieldsOf(n.typ))
	for _, key := range sortedKeys(values) {
		if !slices.Contains(valid, key) {
			e.explained[failure] = true
			e.problems = append(e.problems, e.unknownKey(joinKey(n.path, key), key, valid))
		}
	}
}

func (e *explainer) unknownKey(path, key string, valid []string) error {
	if meant, ok := nearest(key, valid); ok {
		return fmt.Errorf("%s: unknown key; did you mean %s?", path, meant)
	}
	var elsewhere []string
	for _, place := range placesOf(e.root, key) {
		if place == key {
			place = "top-level " + place
		}
		elsewhere = append(elsewhere, place)
	}
	if len(elsewhere) > 0 {
		return fmt.Errorf("%s: unknown key here; did you mean %s? Valid keys here: %s", path, strings.Join(elsewhere, " or "), strings.Join(valid, ", "))
	}
	return fmt.Errorf("%s: unknown key; valid keys here: %s", path, strings.Join(valid, ", "))
}

// unexplained is the decoder's own message for a failure, in its own form.
func (e *explainer) unexplained(failure string) error {
	return fmt.Errorf("'%s' %w", failure, e.failures[failure])
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// isBareNumber reports whether a decoded YAML value is a number other than 0 (0 needs no unit).
func isBareNumber(raw any) bool {
	v := reflect.ValueOf(raw)
	return isNumber(raw) && !v.Equal(reflect.Zero(v.Type()))
}
