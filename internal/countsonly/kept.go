// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package countsonly

import "github.com/agentotel/agentotel/internal/jsonraw"

// DefaultKeptKeys returns a fresh copy of the keys whose string values are kept by default:
// the ones that describe what a tool was asked and what it reported, not the data it returned.
func DefaultKeptKeys() []string {
	return []string{"query", "question", "status", "source", "kind", "title", "description", "error"}
}

// keptSet answers "is this object key kept?" for keys as they appear in the input.
type keptSet struct {
	byName map[string]struct{} // indexed with string(raw), which the compiler does without allocating
	names  []string            // the same keys, for the rare escaped key that must be decoded first
	// filter[c] has bit lenBit(n) set when some kept key of n bytes starts with c. One table
	// load rules out nearly every other key before the map (and its hashing) is reached.
	filter [256]uint64
}

// lenBit maps a key length to its bit in keptSet.filter; lengths of 63 and more share a bit.
func lenBit(n int) uint64 { return 1 << min(n, 63) }

func newKeptSet(keys []string) keptSet {
	k := keptSet{byName: make(map[string]struct{}, len(keys))}
	for _, key := range keys {
		if _, dup := k.byName[key]; dup {
			continue
		}
		k.byName[key] = struct{}{}
		k.names = append(k.names, key)
		if key != "" {
			k.filter[key[0]] |= lenBit(len(key))
		}
	}
	return k
}

// has reports whether the object key key (quotes included, already validated) is kept. Keys
// are compared by decoded value, so "st\u0061tus" is status; escaped says whether key contains
// a backslash at all, which keeps the common case a plain map lookup.
func (k *keptSet) has(key []byte, escaped bool) bool {
	if !escaped {
		raw := key[1 : len(key)-1]
		if len(raw) > 0 && k.filter[raw[0]]&lenBit(len(raw)) == 0 {
			return false
		}
		_, ok := k.byName[string(raw)]
		return ok
	}
	for _, name := range k.names {
		if jsonraw.StringIs(key, name) {
			return true
		}
	}
	return false
}
