// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"fmt"
	"time"
)

// docQueries are reworded searches for one missing page; the first set is the
// one a run that does not vary its values sends.
var docQueries = [][]string{
	{"refund policy", "refund policy annual plans", "annual plan refund rules",
		"what is the refund policy for annual subscriptions", "cancel annual plan money back"},
	{"sso setup", "configure saml sso", "okta single sign-on setup",
		"how do I enable single sign-on for my workspace", "saml metadata url"},
	{"export data", "export workspace data csv", "bulk data export api",
		"how can I download all of my account data", "gdpr data export request"},
}

// docsRun varies every request and gets the same nothing back: a hash of the
// call sees progress, a digest of the reply sees none.
func docsRun(g *gen) script {
	qs := docQueries[0]
	if g.vary {
		qs = docQueries[g.rng.IntN(len(docQueries))]
	}
	steps := make([]step, len(qs))
	for i, q := range qs {
		steps[i] = step{
			tool:   "search_docs",
			args:   obj{{"q", q}},
			result: obj{{"results", []obj{}}, {"total", 0}},
			stamp:  servedAt,
		}
	}
	return script{
		task:     "A customer asks about " + qs[0] + ". Find the documentation and summarise it.",
		interval: 5 * time.Second,
		steps:    steps,
		answer:   "I could not find any documentation on " + qs[0] + ".",
	}
}

// codeRun edits and reverts the same fix around a failing test it does not
// touch: every write succeeds, and the file alternates between two states.
func codeRun(g *gen) script {
	path := g.article("src/pay.go", func() string {
		return g.pick([]string{"src/pay.go", "internal/billing/refund.go", "pkg/invoice/totals.go"})
	})
	failing := g.article("TestRefund", func() string {
		return g.pick([]string{"TestRefund", "TestInvoiceRounding", "TestProration"})
	})
	withCheck, without := g.hex(40), g.hex(40)
	edit := func(args obj, sha string) step {
		return step{tool: "edit_file", args: args, result: obj{{"path", path}, {"sha", sha}, {"ok", true}}}
	}
	add := edit(obj{{"path", path}, {"line", 40}, {"insert", "if r.Customer == nil {\n\treturn ErrNoCustomer\n}"}}, withCheck)
	revert := edit(obj{{"path", path}, {"line", 40}, {"delete_lines", 3}}, without)
	test := step{
		tool:   "run_tests",
		args:   obj{{"pkg", "./..."}},
		result: obj{{"passed", 41}, {"failed", 1}, {"failures", []string{failing}}},
	}
	var steps []step
	for range 3 {
		steps = append(steps, add, test, revert, test)
	}
	return script{
		task:     fmt.Sprintf("%s fails with a nil pointer in %s; fix it.", failing, path),
		interval: 6 * time.Second,
		steps:    steps,
		answer:   fmt.Sprintf("I could not get %s to pass; the nil check does not change the failure.", failing),
	}
}

// researchRun explores: different tools, different non-empty replies.
func researchRun(g *gen) script {
	topic := g.pick([]string{"vector database pricing", "EU battery regulation", "async runtime benchmarks", "heat pump efficiency"})
	url := func() string { return fmt.Sprintf("https://%s.example.org/%s", g.pick(wordList), g.pick(wordList)) }
	hits := func() []obj {
		h := make([]obj, g.between(2, 4))
		for i := range h {
			h[i] = obj{{"title", g.words(4)}, {"url", url()}}
		}
		return h
	}
	first, second := url(), url()
	all := []step{
		{tool: "web_search", args: obj{{"q", topic}}, result: obj{{"results", hits()}, {"total", g.between(40, 900)}}},
		{tool: "fetch_url", args: obj{{"url", first}}, result: obj{{"status", 200}, {"title", g.words(5)}, {"words", g.between(800, 6000)}}},
		{tool: "extract_table", args: obj{{"url", first}, {"index", 0}}, result: obj{{"columns", []string{"name", "value", "unit"}}, {"rows", g.between(5, 40)}}},
		{tool: "search_papers", args: obj{{"q", topic + " survey"}}, result: obj{{"papers", hits()}, {"total", g.between(3, 60)}}},
		{tool: "fetch_url", args: obj{{"url", second}}, result: obj{{"status", 200}, {"title", g.words(5)}, {"words", g.between(800, 6000)}}},
		{tool: "calculate", args: obj{{"expr", fmt.Sprintf("%d * 12 / %d", g.between(20, 400), g.between(2, 9))}}, result: obj{{"value", g.between(30, 2400)}}},
		{tool: "web_search", args: obj{{"q", topic + " comparison 2026"}}, result: obj{{"results", hits()}, {"total", g.between(40, 900)}}},
	}
	steps := all[:g.between(5, 7)]
	return script{
		task:     "Research " + topic + " and give me a short briefing with sources.",
		interval: 5 * time.Second,
		steps:    steps,
		answer:   fmt.Sprintf("Briefing on %s from %d sources: %s.", topic, len(steps), g.words(8)),
	}
}

// errorLoopRun retries the same failing call with the same error.
func errorLoopRun(g *gen) script {
	invoice := g.article("inv_20931", func() string { return fmt.Sprintf("inv_%05d", g.between(10000, 99999)) })
	fail := step{
		tool: "fetch_invoice",
		args: obj{{"invoice_id", invoice}},
		err:  &failure{typ: "TimeoutError", msg: "billing API did not respond within 30s"},
	}
	return script{
		task:     "Resend invoice " + invoice + " to the customer.",
		interval: 5 * time.Second,
		steps:    []step{fail, fail, fail, fail},
		answer:   "I could not fetch invoice " + invoice + "; the billing API keeps timing out.",
	}
}

// alternationRun swaps between two tools whose replies never change: each
// step differs from the one before, and nothing new enters the context.
func alternationRun(g *gen) script {
	queue := g.article("payments", func() string { return g.pick([]string{"payments", "emails", "webhooks", "exports"}) })
	depth := step{tool: "get_queue_depth", args: obj{{"queue", queue}}, result: obj{{"queue", queue}, {"depth", 1204}, {"consumers", 3}}}
	workers := step{tool: "list_workers", args: obj{{"pool", queue}}, result: obj{{"workers", []string{"w1", "w2", "w3"}}, {"healthy", 3}}}
	return script{
		task:     fmt.Sprintf("The %s queue is backing up; find out why.", queue),
		interval: 5 * time.Second,
		steps:    []step{depth, workers, depth, workers, depth, workers},
		answer:   fmt.Sprintf("The %s queue has 1204 messages waiting; all 3 workers report healthy.", queue),
	}
}

// cycleRun walks the same three reads round and round, as Gemini CLI's loop detector describes: no
// call repeats its neighbour, and nothing new comes back.
func cycleRun(g *gen) script {
	path := g.article("src/billing/invoice.go", func() string {
		return g.pick([]string{"src/billing/invoice.go", "src/auth/session.go", "src/api/routes.go"})
	})
	read := step{tool: "read_file", args: obj{{"path", path}}, result: obj{{"path", path}, {"lines", 214}, {"content", "package billing // ..."}}}
	grep := step{tool: "grep_code", args: obj{{"pattern", "ApplyDiscount"}}, result: obj{{"matches", []string{path + ":88"}}, {"total", 1}}}
	list := step{tool: "list_dir", args: obj{{"path", "src/billing"}}, result: obj{{"entries", []string{"invoice.go", "discount.go"}}}}
	return script{
		task:     "Find where discounts are applied to invoices.",
		interval: 5 * time.Second,
		steps:    []step{read, grep, list, read, grep, list, read, grep, list},
		answer:   "Discounts are applied in " + path + " at line 88.",
	}
}
