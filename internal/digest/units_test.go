// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import (
	"slices"
	"testing"
)

// unitsOf returns the units of a result, sorted.
func unitsOf(result string) []uint64 {
	var s Scratch
	def.Of([]byte(result), &s)
	u := slices.Clone(s.Units())
	slices.Sort(u)
	return slices.Compact(u)
}

func holds(all []uint64, part []uint64) bool {
	for _, u := range part {
		if _, ok := slices.BinarySearch(all, u); !ok {
			return false
		}
	}
	return true
}

// TestUnitsAreLinesAndLeaves: what a result brings is its lines and its leaves, so the same lines
// read whole, in a window, or found by grep are the same units, and a leaf is known by its member.
func TestUnitsAreLinesAndLeaves(t *testing.T) {
	file := "package a\n\nfunc A() {\n\treturn\n}\n"
	whole := unitsOf(file)
	if len(whole) != 4 {
		t.Errorf("%d units in a 4-line text (one blank), want 4", len(whole))
	}
	for _, view := range []string{
		"     3\tfunc A() {\n     4\t\treturn\n",                      // cat -n, Claude Code's Read, stella's read_file
		"3→func A() {\n4→\treturn",                                    // an editor's read tool
		"a.go:3:func A() {\na.go-4-\treturn",                          // grep -n -A1 through a path
		"3:func A() {\n4-\treturn",                                    // grep -n -A1 in one file
		"L3: func A() {",                                              // Gemini CLI's search_file_content
		`{"content":[{"type":"text","text":"func A() {\n\treturn"}]}`, // an MCP content part
	} {
		if !holds(whole, linesOnly(view)) {
			t.Errorf("the lines of %q are not the file's", view)
		}
	}
	// A leaf is its member name and value: a poll's moving count is a new unit, the status that
	// stands still is not.
	a, b := unitsOf(`{"status":"running","jobs":"1/4"}`), unitsOf(`{"status":"running","jobs":"2/4"}`)
	if holds(a, b) {
		t.Error("a moved count brings no new unit")
	}
	if !holds(unitsOf(`{"status":"running"}`), unitsOf(`{"status":"running","served_at":"2026-03-17T09:12:44Z"}`)) {
		t.Error("a volatile member brought a unit")
	}
	if holds(unitsOf(`{"passed":10}`), unitsOf(`{"failed":10}`)) {
		t.Error("the same number under another member is the same unit")
	}
	// Empty leaves and blank lines are no units.
	if u := unitsOf(`{"a":null,"b":false,"c":0,"d":"","e":[]}`); len(u) != 0 {
		t.Errorf("empty leaves gave %d units", len(u))
	}
	// Volatile tokens are masked before a line becomes a unit.
	if !holds(unitsOf("3 passed in 1.21s"), unitsOf("3 passed in 1.24s")) {
		t.Error("timings make a line new")
	}
}

// linesOnly is unitsOf for text whose units are all lines, content parts included.
func linesOnly(s string) []uint64 {
	var sc Scratch
	def.Of([]byte(s), &sc)
	var out []uint64
	for _, u := range sc.Units() {
		// The MCP part's "type":"text" leaf is no line of the file.
		if u != leafOf("type", "text") {
			out = append(out, u)
		}
	}
	return out
}

func leafOf(key, value string) uint64 {
	var s Scratch
	s.leafUnit([]byte(key), []byte(value))
	return s.units[0]
}

func TestUnitsAreBounded(t *testing.T) {
	var big []byte
	for i := 0; i < 2*MaxUnits; i++ {
		big = append(big, []byte("line "+string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676%26))+"\n")...)
	}
	var s Scratch
	def.Of(big, &s)
	if len(s.Units()) != MaxUnits {
		t.Errorf("%d units listed, want the bound %d", len(s.Units()), MaxUnits)
	}
}
