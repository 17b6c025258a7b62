// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/agentotel/agentotel/internal/agentgen"
)

// printList shows what a detector should conclude about each scenario, and how
// the run ended (with the run_budget that outcome assumes), read from a
// generated run so the list cannot drift from the table.
func printList(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tAGENT\tEXPECT\tREASON\tOUTCOME\tBUDGET\tROUNDS\tSPANS")
	for _, name := range agentgen.Scenarios() {
		r, err := agentgen.Generate(name, agentgen.Options{})
		if err != nil {
			panic(err) // Scenarios names only what Generate accepts
		}
		reason, budget := r.ExpectReason, "-"
		if reason == "" {
			reason = "-"
		}
		if r.ExpectBudget > 0 {
			budget = r.ExpectBudget.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n",
			name, r.Agent, r.Expect, reason, r.ExpectOutcome, budget, r.ExpectCounts.Rounds, r.Spans)
	}
	tw.Flush()
}
