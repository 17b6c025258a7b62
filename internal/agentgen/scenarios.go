// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import "time"

// Expectations a detector should reach for a run.
const (
	healthy = "healthy"
	stuck   = "stuck"

	reasonNoProgress    = "no_progress"
	reasonLoop          = "loop"
	reasonWaitTimeout   = "wait_timeout"
	reasonRepeatedError = "repeated_error"
	reasonAlternation   = "alternation"
	reasonCycle         = "cycle"

	// How a run ended, as docs/design.md#7-how-a-run-ended-internalprogress-internalagentspanreplygo
	// names the outcomes.
	answered   = "answered"
	cutOff     = "cut_off"
	empty      = "empty"
	failed     = "failed"
	overBudget = "over_budget"
	stuckRun   = "stuck"
)

// overBudgetLimit is the run_budget the over-budget scenario exceeds.
const overBudgetLimit = time.Minute

// scenario is one row of the table: adding a scenario is one entry here plus
// its build function.
type scenario struct {
	name    string
	agent   string
	expect  string
	reason  string // "" when any stuck reason is acceptable
	outcome string
	budget  time.Duration // the run_budget outcome assumes; 0: none
	build   func(*gen) script
}

// scenarios are the four seed runs first (seedScenarios in cmd/agentgen), then the cases
// that probe the edges of the wait manifest and the progress counter, then the
// soft limits an agent loop ends on. A stuck run is still stuck when it ends.
var scenarios = []scenario{
	{"deploy", "deploy", healthy, "", answered, 0, deployRun},
	{"docs", "docs", stuck, reasonNoProgress, stuckRun, 0, docsRun},
	// Edit-and-revert: with edit_file declared {kind: write, state_field: sha}, the second cycle
	// writes no new state and the counter reaches its limit inside it.
	{"code", "code", stuck, reasonNoProgress, stuckRun, 0, codeRun},
	{"support", "support", healthy, "", answered, 0, supportRun},
	{"research", "research", healthy, "", answered, 0, researchRun},
	{"finished_poll", "deploy", stuck, reasonLoop, stuckRun, 0, finishedPollRun},
	// Past an unknown state the poll is no longer exempt, and the identical next poll is a loop.
	{"unknown_wait", "deploy", stuck, reasonLoop, stuckRun, 0, unknownWaitRun},
	{"wait_timeout", "deploy", stuck, reasonWaitTimeout, stuckRun, 0, waitTimeoutRun},
	{"error_loop", "billing", stuck, reasonRepeatedError, stuckRun, 0, errorLoopRun},
	{"alternation", "ops", stuck, reasonAlternation, stuckRun, 0, alternationRun},
	{"cycle", "code", stuck, reasonCycle, stuckRun, 0, cycleRun},
	{"cutoff-continued", "incident", healthy, "", answered, 0, cutoffContinuedRun},
	{"cutoff-left", "incident", healthy, "", cutOff, 0, cutoffLeftRun},
	{"empty-nudged", "kb", healthy, "", answered, 0, emptyNudgedRun},
	{"empty-left", "kb", healthy, "", empty, 0, emptyLeftRun},
	{"tool-throws", "orders", healthy, "", answered, 0, toolThrowsRun},
	{"over-budget", "reports", healthy, "", overBudget, overBudgetLimit, overBudgetRun},
	{"failed-run", "billing", healthy, "", failed, 0, failedRun},
}

func lookup(name string) (scenario, bool) {
	for _, sc := range scenarios {
		if sc.name == name {
			return sc, true
		}
	}
	return scenario{}, false
}
