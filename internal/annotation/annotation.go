// Package annotation names what agentguard writes on the spans it judges: the verdict attributes on
// every tool span and the event on the step where a run becomes stuck. agentguard writes them from here
// and shapeonly, which runs after it, leaves them readable from here, so the two cannot drift apart and
// a new annotation can never be withheld by accident.
package annotation

// Verdict attributes on every judged tool span.
const (
	// Step is the step's number in its run (int).
	Step = "agentguard.step"
	// Progress says whether the step brought something new into the run (bool).
	Progress = "agentguard.progress"
	// Signals lists the progress signals that fired, e.g. "result,write"; empty when none.
	Signals = "agentguard.signals"
	// Barren is the number of steps in a row without progress (int).
	Barren = "agentguard.barren"
	// WaitExempt marks a poll of a declared wait exempted from the loop and no-progress checks (bool,
	// written only when true).
	WaitExempt = "agentguard.wait_exempt"
	// Stuck is the reason the run is stuck at this step (written only while it is).
	Stuck = "agentguard.stuck"
)

// Keys lists every verdict attribute agentguard may write on a tool span.
func Keys() []string {
	return []string{Step, Progress, Signals, Barren, WaitExempt, Stuck}
}

// The event on the step where a run becomes stuck: one per stuck episode, so a count connector can turn
// episodes into a pipeline metric labelled by agent and reason, the same labels agentguard's own
// stuck-episode counter carries.
const (
	StuckEvent = "agentguard.stuck"
	// EventReason is the stuck reason, e.g. "loop".
	EventReason = "reason"
	// EventAgentName is the agent the run belongs to.
	EventAgentName = "gen_ai.agent.name"
	// EventBarren is the number of steps in a row without progress when the run became stuck.
	EventBarren = Barren
)
