// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

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
	// Waiting marks a step exempted from the loop and no-progress checks as waiting that no manifest
	// declares: an unchanged poll of something its result says is in progress, a repeat of a call whose
	// result moved before, or a pause between other calls (bool, written only when true).
	Waiting = "agentguard.waiting"
	// Stuck is the reason the run is stuck at this step (written only while it is).
	Stuck = "agentguard.stuck"
	// Judged is false on a step whose result no convention could read: agentguard did not judge it,
	// and writes no Progress, Signals or Barren on it (written only when false).
	Judged = "agentguard.judged"
	// NewEpisode marks, on a log record, the step where a run became stuck: a record has no events to
	// carry agentguard.stuck (bool, written only when true).
	NewEpisode = "agentguard.new_episode"
	// Run names the run: its run attribute, else a run or session id, else its trace id. It is on the
	// root span that ends a run and in its stuck events, and on every step and model call of a run named
	// by a run attribute (which spans traces); a run that is its trace is found by its trace id.
	Run = "agentguard.run"
)

// On every model call agentguard saw.
const (
	// Round is the model call's number in its run (int).
	Round = "agentguard.round"
	// Finish is why the model call stopped, normalised: stop, tool_calls, length, content_filter,
	// error, other, or unknown when the span does not say.
	Finish = "agentguard.finish"
	// Empty marks a reply with no text and no tool call (bool, written only when true).
	Empty = "agentguard.empty"
	// Continuation marks a model call that directly follows a cut-off (bool, written only when true).
	Continuation = "agentguard.continuation"
)

// On the root span of a run that ends with it.
const (
	// Outcome is how the run ended: answered, cut_off, empty, failed, over_budget, stuck, abandoned,
	// or unknown when nothing of the run could be read.
	Outcome = "agentguard.outcome"
	// Rounds is how many model calls the run made (int).
	Rounds = "agentguard.rounds"
	// TurnEfficiency is max(0, 1-(rounds-1)*0.2) (double; absent when the run made no model call).
	TurnEfficiency = "agentguard.turn_efficiency"
	// CutOffs counts replies cut off at the output limit (int).
	CutOffs = "agentguard.cut_offs"
	// ToolFailures counts tool calls that failed (int).
	ToolFailures = "agentguard.tool_failures"

	// What the run's model calls cost, written only when they carried usage: the tokens in each of the
	// three disjoint directions (int), and the share of all of them spent while the run was barren,
	// stuck or waiting (double, 0 to 1, each only when above zero), by the state it was in when it made
	// each call.
	TokensInput        = "agentguard.tokens.input"
	TokensOutput       = "agentguard.tokens.output"
	TokensCachedInput  = "agentguard.tokens.cached_input"
	TokensBarrenShare  = "agentguard.tokens.barren_share"
	TokensStuckShare   = "agentguard.tokens.stuck_share"
	TokensWaitingShare = "agentguard.tokens.waiting_share"
)

// Keys lists every attribute agentguard may write on a span.
func Keys() []string {
	return []string{Step, Progress, Signals, Barren, WaitExempt, Waiting, Stuck, Judged, NewEpisode, Run,
		Round, Finish, Empty, Continuation, Outcome, Rounds, TurnEfficiency, CutOffs, ToolFailures,
		TokensInput, TokensOutput, TokensCachedInput, TokensBarrenShare, TokensStuckShare, TokensWaitingShare, EpisodeTokens}
}

// The event on a model span for each step read from its request (its result shows there, not on a
// tool span of its own): the verdict attributes above, with the tool and the call.
const (
	StepEvent = "agentguard.step"
	// EventTool is the step's tool, EventCallID its call id (when the request names one).
	EventTool   = "gen_ai.tool.name"
	EventCallID = "gen_ai.tool.call.id"
)

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
	// EventRun names the run.
	EventRun = Run
	// EpisodeTokens are the tokens the run's model calls spent since its latest progress step: what the
	// streak that opened the episode cost (int; on a log record beside NewEpisode). The episode's tokens
	// after it are the root span's TokensStuckShare.
	EpisodeTokens = "agentguard.tokens.since_progress"
)
