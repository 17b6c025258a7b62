// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package toolname

import (
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	s := NewSet([]string{"find_customer", "customer", "get_build_status", "Search", "crm.find_customer"})
	cases := []struct {
		name, want string
	}{
		{"find_customer", "find_customer"},
		{"  Find_Customer ", "find_customer"},
		{"mcp__crm__find_customer", "find_customer"},  // Claude Code
		{"mcp_crm_find_customer", "find_customer"},    // Gemini CLI
		{"mcp_my_crm_find_customer", "find_customer"}, // a server name with underscores
		{"crm__find_customer", "find_customer"},
		{"CRM-find_customer", "find_customer"}, // Semantic Kernel: Plugin-function
		{"billing/find_customer", "find_customer"},
		{"crm:find_customer", "find_customer"},
		{"crm.find_customer", "crm.find_customer"}, // an exact configured name wins
		{"erp.find_customer", "find_customer"},
		{"ci__get_build_status", "get_build_status"},
		{"mcp__web__search", "search"},
		{"mcp__crm__customer", "customer"},
		// Not behind a namespace.
		{"find_customer_report", ""}, {"find_customers", ""}, {"refind_customer", ""}, {"my_find_customer", ""},
		{"__find_customer", ""}, {"-find_customer", ""}, {"mcp__find_customer", ""},
		// Gemini CLI's form cannot tell where the server ends: mcp_find_customer is the tool customer
		// of a server named find, and no name of find_customer's.
		{"mcp_find_customer", "customer"},
		{"", ""}, {"mcp__", ""}, {"research", ""},
	}
	for _, c := range cases {
		got, ok := s.Resolve(c.name)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Resolve(%q) = %q, %v, want %q", c.name, got, ok, c.want)
		}
	}
}

// TestHas: a Set has its names as they were configured, normalised, and not the names that only end
// with one behind a namespace, which Resolve resolves.
func TestHas(t *testing.T) {
	s := NewSet([]string{" Find_Customer", "crm.find_customer"})
	for name, want := range map[string]bool{
		"find_customer": true, "crm.find_customer": true,
		"mcp__crm__find_customer": false, "customer": false, "find_customer_report": false, "": false,
	} {
		if got := s.Has(name); got != want {
			t.Errorf("Has(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestSplit(t *testing.T) {
	cases := [][3]string{
		{"mcp__crmfind_customer", "crm", "find_customer"},
		{"mcp__crm__find_customer", "crm", "find_customer"},
		{"mcp__crmfind_customer", "", "mcp__crmfind_customer"},
		{"find_customer", "crm", "find_customer"},
		{"mcp__crm", "crm", "mcp__crm"},
	}
	for _, c := range cases {
		if got := Split(c[0], c[1]); got != c[2] {
			t.Errorf("Split(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// FuzzResolve: a resolved name is configured, and the name is it or ends with it behind a namespace.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"mcp__crm__find_customer", "mcp_x_find_customer", "a-find_customer", "find_customer", "mcp_", "_"} {
		f.Add(s)
	}
	set := NewSet([]string{"find_customer", "customer", "x", "a_b"})
	f.Fuzz(func(t *testing.T, name string) {
		got, ok := set.Resolve(name)
		if !ok {
			return
		}
		n := Normal(name)
		if !set.Has(got) {
			t.Fatalf("Resolve(%q) = %q, not configured", name, got)
		}
		if n != got && (!strings.HasSuffix(n, got) || !namespace(n[:len(n)-len(got)])) {
			t.Fatalf("Resolve(%q) = %q without a namespace before it", name, got)
		}
	})
}
