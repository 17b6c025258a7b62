// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/fingerprint"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// A W3C trace state ("vendor=value,...") is propagation data, but any string can ride in it. A
// member is dropped rather than rewritten: "[withheld]" would not be a valid one. The rules are in
// docs/design.md#5-then-content-internalfingerprint-processorshapeonly.

// traceState drops the members of a W3C trace state ("vendor=value,...") that hold a withheld value:
// "[withheld]" would not be a valid member, and the others still propagate as they were. When what is
// left still holds one (a value with a comma spans members), the whole trace state goes.
func (c *contentSearch) traceState(ts pcommon.TraceState, sets []*fingerprint.Set) bool {
	raw := ts.AsRaw()
	if !c.scanner.Hit(sets, zerocopy.Bytes(raw)) {
		return false
	}
	left := keptMembers(raw, func(member string) bool { return !c.scanner.Hit(sets, zerocopy.Bytes(member)) })
	if c.scanner.Hit(sets, zerocopy.Bytes(left)) {
		left = ""
	}
	ts.FromRaw(left)
	c.matched++
	return true
}

// withholdTraceState drops the members of a saturated trace's trace state long enough to hold a value
// it could not remember.
func withholdTraceState(ts pcommon.TraceState) {
	raw := ts.AsRaw()
	if len(raw) < fingerprint.WindowLen {
		return
	}
	ts.FromRaw(keptMembers(raw, func(member string) bool { return len(member) < fingerprint.WindowLen }))
}

// keptMembers is a trace state's raw form with only the members keep keeps.
func keptMembers(raw string, keep func(member string) bool) string {
	var kept []string
	for member := range strings.SplitSeq(raw, ",") {
		if keep(member) {
			kept = append(kept, member)
		}
	}
	return strings.Join(kept, ",")
}
