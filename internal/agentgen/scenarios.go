package agentgen

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
)

// scenario is one row of the table: adding a scenario is one entry here plus
// its build function.
type scenario struct {
	name   string
	agent  string
	expect string
	reason string // "" when any stuck reason is acceptable
	build  func(*gen) script
}

// scenarios are the four seed traces from the articles first, then the cases
// that probe the edges of the wait manifest and the progress counter.
var scenarios = []scenario{
	{"deploy", "deploy", healthy, "", deployRun},
	{"docs", "docs", stuck, reasonNoProgress, docsRun},
	// Edit-and-revert: with edit_file declared {kind: write, state_field: sha}, the second cycle
	// writes no new state and the counter reaches its limit inside it.
	{"code", "code", stuck, reasonNoProgress, codeRun},
	{"support", "support", healthy, "", supportRun},
	{"research", "research", healthy, "", researchRun},
	{"finished_poll", "deploy", stuck, reasonLoop, finishedPollRun},
	// Past an unknown state the poll is no longer exempt, and the identical next poll is a loop.
	{"unknown_wait", "deploy", stuck, reasonLoop, unknownWaitRun},
	{"wait_timeout", "deploy", stuck, reasonWaitTimeout, waitTimeoutRun},
	{"error_loop", "billing", stuck, reasonRepeatedError, errorLoopRun},
	{"alternation", "ops", stuck, reasonAlternation, alternationRun},
	{"cycle", "code", stuck, reasonCycle, cycleRun},
}

func lookup(name string) (scenario, bool) {
	for _, sc := range scenarios {
		if sc.name == name {
			return sc, true
		}
	}
	return scenario{}, false
}
