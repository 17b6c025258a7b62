// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"fmt"
	"strings"
	"time"
)

// supportRun reads one customer record and refunds it. The record's name,
// email and notes are the run's secrets: they appear in the find_customer
// result and, through the tool_call_response parts, in every later model
// span's transcript, which is exactly where shape-only redaction has to reach.
// Nothing else in the run carries them: the query and the task use the
// surname alone, and issue_refund works from the customer id.
func supportRun(g *gen) script {
	first, last := g.pick(firstNames), g.pick(lastNames)
	name := first + " " + last
	email := fmt.Sprintf("%s.%s%d@%s", strings.ToLower(first), strings.ToLower(last), g.between(10, 99), g.pick(mailDomains))
	notes := fmt.Sprintf("Called %d times about the %s invoice; prefers contact after %dpm; mentioned %s.",
		g.between(2, 6), g.words(2), g.between(4, 8), g.words(6))
	balance := 1234.5
	if g.vary {
		balance = float64(g.between(5000, 250000)) / 100
	}
	customer := "cus_" + g.hex(14)
	refund := "re_" + g.hex(16)
	return script{
		task:     fmt.Sprintf("Customer %s wants a refund of the unused part of their annual plan. Find them and refund the balance.", last),
		interval: 5 * time.Second,
		steps: []step{
			{
				tool:  "find_customer",
				args:  obj{{"query", last}},
				class: dataCustomer,
				result: obj{
					{"rows", []obj{{
						{"id", customer}, {"name", name}, {"email", email}, {"plan", "annual"},
						{"balance", balance}, {"notes", notes},
					}}},
					{"total", 1}, {"status", "ok"},
				},
			},
			{
				tool:   "issue_refund",
				args:   obj{{"customer_id", customer}, {"amount", balance}, {"reason", "annual plan cancellation"}},
				result: obj{{"refund_id", refund}, {"status", "succeeded"}, {"amount", balance}},
			},
		},
		answer:  fmt.Sprintf("Refunded %.2f to the customer's card; refund %s has succeeded.", balance, refund),
		secrets: []string{name, email, notes},
	}
}
