// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"slices"
	"strconv"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/fingerprint"
)

// Attribute names carry data when an SDK keys a map by its values or flattens a record into
// attributes named by them. The content search renames a name that holds a withheld value; on a
// trace past its fingerprint bound every name that could hold one is renamed. The rules are in
// docs/design.md#5-then-content-internalfingerprint-processorshapeonly.

// unknownName reports whether an attribute's name, whose search rule is rule, is one the search reads:
// a name a convention or the configuration defines (a flattened transcript's fields among them), or
// one that names where data comes from, is vocabulary; any other may be data.
func (p *shapeOnly) unknownName(k string, rule searchRule) bool {
	return rule == 0 && !resourceIdentity[k] && !p.registry.FlatField(k)
}

// searchedName is unknownName for a name found outside the search's pass: top says it is a record's,
// resource's or scope's own attribute rather than a key inside a map value, where only the kept keys
// are vocabulary.
func (b *batch) searchedName(k string, top bool) bool {
	if top {
		return b.p.unknownName(k, b.p.searchRules[k])
	}
	return !b.p.shaper.Kept(k)
}

// withholdNames renames, on a trace past its fingerprint bound, every name in attrs and in the maps
// they hold that is long enough to hold a value it could not remember and that the search would read.
func (b *batch) withholdNames(attrs pcommon.Map, top bool) {
	var named []string
	attrs.Range(func(k string, v pcommon.Value) bool {
		if len(k) >= fingerprint.WindowLen && b.searchedName(k, top) {
			named = append(named, k)
		}
		b.withholdNestedNames(v)
		return true
	})
	if len(named) > 0 {
		renameKeys(attrs, named)
		b.values.withheld += len(named)
	}
}

func (b *batch) withholdNestedNames(v pcommon.Value) {
	switch v.Type() {
	case pcommon.ValueTypeMap:
		b.withholdNames(v.Map(), false)
	case pcommon.ValueTypeSlice:
		for i := 0; i < v.Slice().Len(); i++ {
			b.withholdNestedNames(v.Slice().At(i))
		}
	}
}

// renameKeys renames the keys of m listed in named to "[withheld]" ("[withheld 2]" and on when m
// already has that key: a map holds each key once), keeping every value and the order of the keys.
// A map cannot rename in place, so it is rebuilt; that is rare.
func renameKeys(m pcommon.Map, named []string) {
	renamed := pcommon.NewMap()
	renamed.EnsureCapacity(m.Len())
	m.Range(func(k string, v pcommon.Value) bool {
		if slices.Contains(named, k) {
			k = freeWithheldKey(m, renamed)
		}
		v.MoveTo(renamed.PutEmpty(k))
		return true
	})
	renamed.MoveTo(m)
}

// freeWithheldKey is the first of "[withheld]", "[withheld 2]", ... that neither the map being
// rebuilt nor its rebuilt copy holds.
func freeWithheldKey(old, renamed pcommon.Map) string {
	k := countsonly.Withheld
	for n := 2; ; n++ {
		_, inOld := old.Get(k)
		_, inRenamed := renamed.Get(k)
		if !inOld && !inRenamed {
			return k
		}
		k = countsonly.Withheld[:len(countsonly.Withheld)-1] + " " + strconv.Itoa(n) + "]"
	}
}
