// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package confighint

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

var durationType = reflect.TypeFor[time.Duration]()

// durationExamples follow "expected a duration" wherever one is wrong.
const durationExamples = "20m, 1h30m or 500ms"

// shape says, in YAML terms, what a value of one Go type looks like: one, several (for a list or a
// map of them), and an example that decodes into the type.
type shape struct {
	one, many, example string
}

func shapeOf(t reflect.Type) shape { return shapeWithin(t, nil) }

// shapeWithin is the shape of t inside the structs on the stack, whose own examples are being
// written, so that a struct that contains itself ends.
func shapeWithin(t reflect.Type, onStack []reflect.Type) shape {
	if t == durationType {
		const units = "a number with one of the units h, m, s, ms, us, ns"
		return shape{"a duration, " + units, "durations, each " + units, "20m"}
	}
	switch t.Kind() {
	case reflect.Bool:
		return shape{"true or false", "true or false values", "true"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return shape{"a whole number", "whole numbers", "10"}
	case reflect.Float32, reflect.Float64:
		return shape{"a number", "numbers", "0.5"}
	case reflect.String:
		return shape{"a string", "strings", `"value"`}
	case reflect.Pointer:
		return shapeWithin(t.Elem(), onStack)
	case reflect.Slice:
		item := shapeWithin(t.Elem(), onStack)
		return shape{"a list of " + item.many, "lists of " + item.many, "[" + item.example + "]"}
	case reflect.Map:
		entry := shapeWithin(t.Elem(), onStack)
		return shape{"a map from names to " + entry.many, "maps from names to " + entry.many, "{name: " + entry.example + "}"}
	case reflect.Struct:
		fields := fieldsOf(t)
		if len(fields) == 0 || slices.Contains(onStack, t) {
			return shape{"a map", "maps", "{}"}
		}
		keys := strings.Join(keysOf(fields), ", ")
		first := fields[0]
		example := "{" + first.key + ": " + shapeWithin(first.typ, append(onStack, t)).example + "}"
		return shape{"a map with the keys " + keys, "maps with the keys " + keys, example}
	}
	return shape{"a value of type " + t.String(), "values of type " + t.String(), ""}
}

// described names a decoded YAML value the way the user wrote it.
func described(raw any) string {
	switch v := raw.(type) {
	case nil:
		return "nothing"
	case string:
		return strconv.Quote(v)
	case bool:
		return strconv.FormatBool(v)
	case []any:
		return "a list"
	case map[string]any:
		return "a map"
	}
	if isNumber(raw) {
		return fmt.Sprintf("the number %v", raw)
	}
	return fmt.Sprintf("%v", raw)
}

// isNumber reports whether a decoded YAML value is a number.
func isNumber(raw any) bool {
	switch reflect.ValueOf(raw).Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// wrongValue explains a value that does not decode into t: what was written, what is expected and an
// example. A duration written as a string also says why Go could not read it (an unknown unit, a
// missing unit), which the decoder's own message leaves out.
func wrongValue(path string, raw any, t reflect.Type) error {
	got, expected := described(raw), shapeOf(t)
	example := expected.example
	if t == durationType {
		example = durationExamples
		if text, ok := raw.(string); ok {
			if mistake := durationMistake(text); mistake != "" {
				got += " (" + mistake + ")"
			}
		}
	}
	if example == "" {
		return fmt.Errorf("%s: got %s, expected %s", path, got, expected.one)
	}
	return fmt.Errorf("%s: got %s, expected %s (e.g. %s)", path, got, expected.one, example)
}

// durationMistake is what time.ParseDuration finds wrong in text beyond its not being a duration,
// without the text itself: `time: unknown unit "mins" in duration "20mins"` gives `unknown unit
// "mins"`, `time: invalid duration "soon"` nothing.
func durationMistake(text string) string {
	_, err := time.ParseDuration(text)
	if err == nil {
		return ""
	}
	mistake := strings.TrimSuffix(strings.TrimPrefix(err.Error(), "time: "), " in duration "+strconv.Quote(text))
	if strings.HasPrefix(mistake, "invalid duration") {
		return ""
	}
	return mistake
}
