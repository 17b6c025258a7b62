// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package confighint

import (
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// field is one key a struct accepts, as the collector's decoder matches it.
type field struct {
	key string
	typ reflect.Type
}

// fieldsOf lists the keys struct type t accepts, in declaration order, read from the mapstructure
// tags as the decoder reads them: the tag's name or else the Go name, a squashed struct's (or
// pointed-to struct's) keys in its place, and no unexported, "-" or remain field.
func fieldsOf(t reflect.Type) []field {
	var fields []field
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, options, _ := strings.Cut(f.Tag.Get(mapstructureTag), ",")
		opts := strings.Split(options, ",")
		squashed := f.Type
		if squashed.Kind() == reflect.Pointer {
			squashed = squashed.Elem()
		}
		switch {
		case name == "-" || slices.Contains(opts, "remain"):
			continue
		case slices.Contains(opts, "squash") && squashed.Kind() == reflect.Struct:
			fields = append(fields, fieldsOf(squashed)...)
			continue
		case name == "":
			name = f.Name
		}
		fields = append(fields, field{key: name, typ: f.Type})
	}
	return fields
}

func keysOf(fields []field) []string {
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.key
	}
	return keys
}

// nearest returns the key of valid closest to key when it is close enough to be a likely typo or a
// shortening: at most a third of key's letters apart (at least one), counting a swap of neighbours
// as one edit, or the start of a valid key when key has at least minPrefix letters. Case and
// separators do not count, so that maxWait and max-wait find max_wait. The fewest edits win, and on a
// tie the key declared first.
func nearest(key string, valid []string) (string, bool) {
	typed := normalKey(key)
	tolerance := max(1, utf8.RuneCountInString(typed)/3)
	best, bestDistance := "", 0
	for _, candidate := range valid {
		normal := normalKey(candidate)
		d := editDistance(typed, normal)
		likely := d <= tolerance || utf8.RuneCountInString(typed) >= minPrefix && strings.HasPrefix(normal, typed)
		if likely && (best == "" || d < bestDistance) {
			best, bestDistance = candidate, d
		}
	}
	return best, best != ""
}

// minPrefix is the fewest letters (without separators) that, starting a valid key, name it: fewer
// start too many keys (max, run) to mean one.
const minPrefix = 4

// normalKey is how keys compare when looking for what was meant: case and separators do not count.
func normalKey(key string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToLower(r)
	}, key)
}

// editDistance counts the insertions, deletions, substitutions and swaps of neighbouring letters
// that turn a into b (optimal string alignment).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	// rows[i%3] holds distances from x[:i]; the swap looks two rows back.
	var rows [3][]int
	for i := range rows {
		rows[i] = make([]int, len(y)+1)
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		row, prev := rows[i%3], rows[(i-1)%3]
		row[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			row[j] = min(prev[j]+1, row[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				row[j] = min(row[j], rows[(i-2)%3][j-2]+1)
			}
		}
	}
	return rows[len(x)%3][len(y)]
}

// placesOf lists where in t's tree a key spelt like key (ignoring case and separators) is valid,
// as paths from t with <name> for a map entry and [n] for a list item, so that a key indented at
// the wrong level can be pointed to where it belongs.
func placesOf(t reflect.Type, key string) []string {
	var places []string
	var walk func(t reflect.Type, path string, onStack []reflect.Type)
	walk = func(t reflect.Type, path string, onStack []reflect.Type) {
		switch t.Kind() {
		case reflect.Map:
			walk(t.Elem(), joinKey(path, "<name>"), onStack)
		case reflect.Slice:
			walk(t.Elem(), path+"[n]", onStack)
		case reflect.Struct:
			if slices.Contains(onStack, t) {
				return
			}
			for _, f := range fieldsOf(t) {
				if normalKey(f.key) == normalKey(key) {
					places = append(places, joinKey(path, f.key))
				}
				walk(f.typ, joinKey(path, f.key), append(onStack, t))
			}
		}
	}
	walk(t, "", nil)
	return places
}

// joinKey appends key to a user-facing path, with the collector's key delimiter.
func joinKey(path, key string) string {
	if path == "" {
		return key
	}
	return path + keyDelimiter + key
}
