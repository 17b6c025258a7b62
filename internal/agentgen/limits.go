// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"fmt"
	"time"
)

// The soft-limit scenarios: runs that end on one of the limits an agent loop
// lands softly (docs/design.md#7-how-a-run-ended-internalprogress-internalagentspanreplygo),
// each a healthy run whose outcome is what is tested. Their tool calls make
// progress, so none is stuck.

// incident is what the cut-off scenarios report on: one get_incident call, then
// a report longer than the output limit.
type incident struct {
	id     string
	lookup step
	// head is the reply cut at the output limit; tail finishes it, cutTail is
	// a continuation that runs out again.
	head, tail, cutTail string
}

func newIncident(g *gen) incident {
	id := g.article("INC-4411", func() string { return fmt.Sprintf("INC-%04d", g.between(1000, 9999)) })
	service := g.article("checkout", func() string { return g.pick([]string{"checkout", "search", "billing", "login"}) })
	build := buildID(g)
	events := []string{
		"09:12 502s from " + service,
		"09:20 deploy of build " + build + " identified",
		"09:30 rollback started",
		"09:41 error rate normal",
	}
	head := fmt.Sprintf("%s: %s returned 502s from 09:12 for 29 minutes. The cause was the deploy of build %s, "+
		"which shipped a connection pool limit of 4 instead of 40; requests queued behind the pool until the load "+
		"balancer timed them out. The rollback", id, service, build)
	return incident{
		id: id,
		lookup: step{
			tool: "get_incident",
			args: obj{{"incident_id", id}},
			result: obj{
				{"id", id}, {"service", service}, {"status", "resolved"},
				{"opened_at", "09:12"}, {"resolved_at", "09:41"}, {"events", events},
			},
		},
		head: head,
		tail: " started at 09:30 and the error rate was back to normal at 09:41. Follow-up: load-test pool " +
			"settings before they ship.",
		cutTail: " started at 09:30 and the error rate was back to normal at 09:41. Follow-ups: load-test pool " +
			"settings in CI before they ship, alert on time spent waiting for the pool rather than on 502s at the " +
			"edge, and",
	}
}

// cutoffContinuedRun: the report is cut at the output limit, and the one
// continuation the loop asks for finishes it.
func cutoffContinuedRun(g *gen) script {
	inc := newIncident(g)
	return script{
		task:     "Write the incident report for " + inc.id + ".",
		interval: 5 * time.Second,
		steps:    []step{inc.lookup},
		replies:  []reply{{text: inc.head, cut: true}, {text: inc.tail}},
	}
}

// cutoffLeftRun: the continuation is cut again, and the loop, having continued
// once, ends the run on it.
func cutoffLeftRun(g *gen) script {
	inc := newIncident(g)
	return script{
		task:     "Write the incident report for " + inc.id + ".",
		interval: 5 * time.Second,
		steps:    []step{inc.lookup},
		replies:  []reply{{text: inc.head, cut: true}, {text: inc.cutTail, cut: true}},
	}
}

// kbQuestion is a knowledge-base question, its search and the answer it gets.
type kbQuestion struct{ question, query, title, id, answer string }

// kbQuestions are the empty-reply scenarios' questions; the first is the one a
// run that does not vary its values asks.
var kbQuestions = []kbQuestion{
	{"How do I rotate an API key?", "rotate API key", "Rotating API keys", "kb_112",
		"Open Settings > API keys, create a new key, switch your clients to it, then revoke the old key."},
	{"How do I add a teammate to my workspace?", "invite teammate workspace", "Inviting people to a workspace", "kb_031",
		"Open Settings > Members, choose Invite, enter their email and pick a role; the invite link lasts 7 days."},
	{"Can I change my billing currency?", "change billing currency", "Billing currencies", "kb_245",
		"Only before the first invoice: after that, contact support to move the account to a new currency."},
}

func kbSearch(g *gen) (kbQuestion, step) {
	q := kbQuestions[0]
	if g.vary {
		q = kbQuestions[g.rng.IntN(len(kbQuestions))]
	}
	return q, step{
		tool:   "search_kb",
		args:   obj{{"query", q.query}},
		result: obj{{"results", []obj{{{"title", q.title}, {"id", q.id}}}}, {"total", 1}},
	}
}

// emptyNudgedRun: the model replies with nothing, the loop nudges it once, and
// it answers.
func emptyNudgedRun(g *gen) script {
	q, search := kbSearch(g)
	return script{
		task:     q.question,
		interval: 5 * time.Second,
		steps:    []step{search},
		replies:  []reply{{}, {text: q.answer}},
	}
}

// emptyLeftRun: the nudged model replies with nothing again, and the run ends
// on the empty reply.
func emptyLeftRun(g *gen) script {
	q, search := kbSearch(g)
	return script{
		task:     q.question,
		interval: 5 * time.Second,
		steps:    []step{search},
		replies:  []reply{{}, {}},
	}
}

// toolThrowsRun: lookup_order throws, the model sees the error as the call's
// result and works around it with search_kb.
func toolThrowsRun(g *gen) script {
	order := g.article("o_5521", func() string { return fmt.Sprintf("o_%04d", g.between(1000, 9999)) })
	return script{
		task:     "Where is order " + order + "?",
		interval: 5 * time.Second,
		steps: []step{
			{
				tool:   "lookup_order",
				args:   obj{{"order_id", order}},
				err:    &failure{typ: "Error", msg: "upstream 503"},
				thrown: true,
			},
			{
				tool:   "search_kb",
				args:   obj{{"query", "order status while the order service is down"}},
				result: obj{{"results", []obj{{{"title", "Tracking an order without the order service"}, {"id", "kb_208"}}}}, {"total", 1}},
			},
		},
		answer: "The order service is not answering right now (upstream 503). The shipping email for order " + order +
			" has a tracking link that works meanwhile; ask me again later for the full status.",
	}
}

// overBudgetRun makes three slow exports, about 40 s each, and answers after
// about two minutes: past a one-minute run_budget, though every call progressed.
func overBudgetRun(g *gen) script {
	report := g.article("quarterly-revenue", func() string {
		return g.pick([]string{"quarterly-revenue", "churn-by-plan", "usage-by-region"})
	})
	var steps []step
	for part := 1; part <= 3; part++ {
		steps = append(steps, step{
			tool:   "export_report",
			args:   obj{{"report", report}, {"part", part}},
			result: obj{{"report", report}, {"part", part}, {"rows", g.between(20000, 90000)}, {"file", fmt.Sprintf("%s-%d.csv", report, part)}},
			takes:  40 * time.Second,
		})
	}
	return script{
		task:     "Export the " + report + " report as CSV.",
		interval: 43 * time.Second,
		steps:    steps,
		answer:   fmt.Sprintf("The %s report is exported in 3 parts: %s-1.csv to %s-3.csv.", report, report, report),
	}
}

// failedRun reads the invoices, then the request's deadline aborts the run
// before the model is asked again: the root span ends in error.
func failedRun(g *gen) script {
	account := g.article("acc_7310", func() string { return fmt.Sprintf("acc_%04d", g.between(1000, 9999)) })
	invoices := make([]string, g.between(3, 6))
	for i := range invoices {
		invoices[i] = fmt.Sprintf("inv_%05d", g.between(10000, 99999))
	}
	return script{
		task:     "Summarise this month's invoices for account " + account + ".",
		interval: 5 * time.Second,
		steps: []step{{
			tool:   "list_invoices",
			args:   obj{{"account_id", account}, {"month", "2026-03"}},
			result: obj{{"invoices", invoices}, {"total", len(invoices)}},
		}},
		fail: &failure{typ: "TimeoutError", msg: "The operation was aborted due to timeout"},
	}
}
