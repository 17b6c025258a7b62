// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/agentotel/agentotel/internal/digest"
)

var (
	norm = digest.New(nil, digest.Limits{})
	t0   = time.Date(2026, 3, 17, 9, 0, 0, 0, time.UTC)
)

// st is a test step: a Step built from readable tool calls.
type st struct {
	Step
	timed bool
}

// call is a step as agentguard builds it from a tool span: the call's key and items and the result's
// digest and units, from digest.
func call(tool, args, result string) st {
	var sc digest.Scratch
	c := norm.Call(tool, []byte(args), &sc)
	items := slices.Clone(sc.Items())
	res := norm.Answer([]byte(result), &sc)
	return st{Step: Step{
		Tool:    tool,
		CallKey: c.Key,
		Pause:   c.Pause,
		Items:   items,
		Result:  res,
		Units:   slices.Clone(sc.Units()),
		Channel: res.Channel,
		Waiting: res.Waiting,
		Brief:   res.Brief,
	}}
}

// at sets the start, in seconds after t0 (default: 10 s per step).
func (s st) at(sec float64) st {
	s.Start = t0.Add(time.Duration(sec * float64(time.Second)))
	s.timed = true
	return s
}

// fail makes the step a failure with msg as its error, as a span with error status is read.
func (s st) fail(msg string) st {
	var sc digest.Scratch
	e := norm.Of([]byte(msg), &sc)
	s.Failed, s.ErrorKey = true, e.Sum
	s.Units = slices.Clone(sc.Units())
	s.Channel, s.Brief = s.Channel || e.Channel, e.Brief
	return s
}

func (s st) state(v string) st         { s.State, s.HasState = v, true; return s }
func (s st) wait(v string) st          { s.WaitState, s.HasWaitState = v, true; return s }
func (s st) plan(v float64) st         { s.Plan, s.HasPlan = v, true; return s }
func (s st) goal(v, target float64) st { s.Goal, s.GoalTarget, s.HasGoal = v, target, true; return s }
func drive(cfg *Config, steps []st) []Verdict {
	r := NewRun(cfg)
	out := make([]Verdict, len(steps))
	for i, s := range steps {
		if !s.timed {
			s.Start = t0.Add(time.Duration(i) * 10 * time.Second)
		}
		out[i] = r.Observe(s.Step)
	}
	return out
}

// want is the expected verdict of one step. Progress is expected exactly
// when stuck is empty, barren is 0 and the step is not the continuation of
// a stuck episode; the table says it explicitly instead.
type want struct {
	prog    bool
	barren  int
	exempt  bool
	waiting bool
	stuck   Reason
	newEp   bool
}

var (
	P = want{prog: true}               // progress
	X = want{prog: true, exempt: true} // exempt poll, Barren 0
)

func barren(n int) want { return want{barren: n} }

// xb is an exempt poll while the counter stands at n.
func xb(n int) want { return want{prog: true, exempt: true, barren: n} }

// wt is a step waiting without a declaration while the counter stands at n.
func wt(n int) want                       { return want{prog: true, waiting: true, barren: n} }
func stuck(n int, r Reason, nw bool) want { return want{barren: n, stuck: r, newEp: nw} }

func check(t *testing.T, cfg *Config, steps []st, wants []want) []Verdict {
	t.Helper()
	if len(steps) != len(wants) {
		t.Fatalf("%d steps, %d expectations", len(steps), len(wants))
	}
	vs := drive(cfg, steps)
	for i, v := range vs {
		w := wants[i]
		if v.Step != i+1 || v.Progress != w.prog || v.Barren != w.barren || v.WaitExempt != w.exempt || v.Waiting != w.waiting || v.Stuck != w.stuck || v.NewEpisode != w.newEp {
			t.Errorf("step %d (%s): got %+v (signals %q), want %+v", i+1, steps[i].Tool, v, v.Signals, w)
		}
	}
	return vs
}

// The reference deploy agent: a build whose status moves.
func buildStatus(status, jobs string, servedAt int) st {
	return call("get_build_status", `{"build_id":"b_88231"}`,
		fmt.Sprintf(`{"status":%q,"jobs":%q,"served_at":"2026-03-17T09:%02d:%02d.181Z"}`, status, jobs, servedAt/60, servedAt%60))
}

var buildWait = ToolPolicy{
	Kind:           KindWait,
	ProgressField:  "status",
	WaitingValues:  []string{"queued", "running"},
	TerminalValues: []string{"success", "failed", "cancelled", "timed_out"},
	MaxWait:        1200 * time.Second,
	MinInterval:    5 * time.Second,
}

var manifest = &Config{Tools: map[string]ToolPolicy{"get_build_status": buildWait}}

func TestSeedTraces(t *testing.T) {
	searchEmpty := `{"results":[],"total":0,"served_at":"2026-03-17T09:12:44Z"}`
	edit := ToolPolicy{Kind: KindWrite, StateField: "sha"}
	codeCfg := &Config{Tools: map[string]ToolPolicy{"edit_file": edit}}
	plainWrite := &Config{Tools: map[string]ToolPolicy{"edit_file": {Kind: KindWrite}}}
	// Edit-and-revert: add a null check, unrelated test failure, revert,
	// same failure, add it back... The file's sha is the state.
	add := call("edit_file", `{"path":"handler.go","line":40,"insert":"if req == nil { return }"}`, `{"ok":true}`)
	revert := call("edit_file", `{"path":"handler.go","line":40,"delete":1}`, `{"ok":true}`)
	tests := call("run_tests", `{"pkg":"./..."}`, `{"passed":41,"failed":1,"failures":["TestFlakyClock"],"duration_ms":5120}`)
	editRevert := func(cycles int) []st {
		var s []st
		for i := 0; i < cycles; i++ {
			s = append(s, add.state("sha-A"), tests, revert.state("sha-0"), tests)
		}
		return s
	}

	cases := []struct {
		name  string
		cfg   *Config
		steps []st
		wants []want
	}{
		{
			name: "deploy: moving results stay healthy without a manifest",
			steps: []st{
				buildStatus("queued", "0/4", 0), buildStatus("running", "1/4", 5), buildStatus("running", "2/4", 10),
				buildStatus("running", "3/4", 15), buildStatus("success", "4/4", 20),
			},
			wants: []want{P, P, P, P, P},
		},
		{
			name: "deploy: identical polls while running are exempt with the manifest",
			cfg:  manifest,
			steps: []st{
				buildStatus("queued", "0/4", 0), buildStatus("running", "1/4", 5), buildStatus("running", "1/4", 10),
				buildStatus("running", "1/4", 15), buildStatus("running", "2/4", 20), buildStatus("running", "2/4", 25),
				buildStatus("success", "4/4", 30),
			},
			wants: []want{P, P, X, X, P, X, P},
		},
		{
			// The hash calls this a loop; the build says it is running, so the unchanged poll is
			// waiting, declared or not.
			name: "deploy: without the manifest, an unchanged poll of a running build waits",
			steps: []st{
				buildStatus("queued", "0/4", 0), buildStatus("running", "1/4", 5), buildStatus("running", "1/4", 10),
			},
			wants: []want{P, P, wt(0)},
		},
		{
			name: "docs: rewording a search that returns nothing is stuck at step 4",
			steps: []st{
				call("search_docs", `{"q":"refund policy"}`, searchEmpty),
				call("search_docs", `{"q":"refund policy annual plans"}`, searchEmpty),
				call("search_docs", `{"q":"annual plan refund rules"}`, searchEmpty),
				call("search_docs", `{"q":"what is the refund policy for annual subscriptions"}`, searchEmpty),
			},
			wants: []want{barren(1), barren(2), barren(3), stuck(4, ReasonNoProgress, true)},
		},
		{
			name:  "code: edit-and-revert with state_field is caught on the second cycle",
			cfg:   codeCfg,
			steps: editRevert(3),
			// The second cycle writes no new state and learns nothing new: the counter reaches the
			// limit inside it, and the cycle of four shows from its last step on.
			wants: []want{
				P, P, P, barren(1), // first cycle: new states, first test result
				barren(2), barren(3), stuck(4, ReasonNoProgress, true), stuck(5, ReasonCycle, false),
				stuck(6, ReasonCycle, false), stuck(7, ReasonCycle, false), stuck(8, ReasonCycle, false), stuck(9, ReasonCycle, false),
			},
		},
		{
			// A write is progress when it changed something: the second cycle's writes repeat the
			// first cycle's arguments and bring nothing new, so the trace is caught without a
			// state_field too.
			name:  "code: without state_field, writes that repeat earlier writes change nothing",
			cfg:   plainWrite,
			steps: editRevert(3),
			wants: []want{
				P, P, P, barren(1),
				barren(2), barren(3), stuck(4, ReasonNoProgress, true), stuck(5, ReasonCycle, false),
				stuck(6, ReasonCycle, false), stuck(7, ReasonCycle, false), stuck(8, ReasonCycle, false), stuck(9, ReasonCycle, false),
			},
		},
		{
			name: "whitelist counterexample: polling a finished build again is a loop",
			cfg:  manifest,
			steps: []st{
				buildStatus("running", "3/4", 0), buildStatus("running", "3/4", 10), buildStatus("success", "4/4", 20),
				buildStatus("success", "4/4", 30), buildStatus("success", "4/4", 40),
			},
			wants: []want{P, X, P, stuck(1, ReasonLoop, true), stuck(2, ReasonLoop, false)},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			steps := c.steps
			if c.cfg == manifest {
				steps = withWaitState(steps)
			}
			check(t, c.cfg, steps, c.wants)
		})
	}
}

// withWaitState fills WaitState for get_build_status steps from the result,
// as the processor does from progress_field.
func withWaitState(steps []st) []st {
	out := make([]st, len(steps))
	for i, s := range steps {
		out[i] = s
		if s.Tool == "get_build_status" && !s.HasWaitState {
			out[i] = s.wait(statusOf[s.Result.Sum])
		}
	}
	return out
}

var statusOf = map[digest.Sum]string{}

func poll(status, jobs string, at float64) st {
	s := call("get_build_status", `{"build_id":"b_88231"}`, fmt.Sprintf(`{"status":%q,"jobs":%q}`, status, jobs))
	return s.wait(status).at(at)
}

func init() {
	for _, status := range []string{"queued", "running", "success"} {
		for _, jobs := range []string{"0/4", "1/4", "2/4", "3/4", "4/4"} {
			for sec := 0; sec < 120; sec += 5 {
				statusOf[buildStatus(status, jobs, sec).Result.Sum] = status
			}
		}
	}
}

func TestWaitManifest(t *testing.T) {
	short := &Config{Tools: map[string]ToolPolicy{"get_build_status": func() ToolPolicy {
		p := buildWait
		p.MaxWait = 300 * time.Second
		return p
	}()}}
	noDeadline := &Config{Tools: map[string]ToolPolicy{"get_build_status": func() ToolPolicy {
		p := buildWait
		p.MaxWait = 0
		return p
	}()}}
	cases := []struct {
		name  string
		cfg   *Config
		steps []st
		wants []want
	}{
		{
			name: "unknown state ends the exemption at once",
			cfg:  manifest,
			steps: []st{
				poll("running", "1/4", 0), poll("running", "1/4", 10),
				poll("unknown", "1/4", 20), poll("unknown", "1/4", 30), poll("unknown", "1/4", 40), // counted normally: new, barren, a loop
				poll("running", "1/4", 50), poll("running", "1/4", 60), // waiting again, same deadline
			},
			wants: []want{P, X, P, barren(1), stuck(2, ReasonLoop, true), xb(2), xb(2)},
		},
		{
			name: "wait timeout after MaxWait",
			cfg:  short,
			steps: []st{
				poll("queued", "0/4", 0), poll("queued", "0/4", 60), poll("queued", "0/4", 120),
				poll("queued", "0/4", 240), poll("queued", "0/4", 299), poll("queued", "0/4", 300),
				poll("running", "1/4", 360), // moving, but past the deadline
				poll("success", "4/4", 420),
			},
			wants: []want{P, X, X, X, X, stuck(1, ReasonWaitTimeout, true), stuck(2, ReasonWaitTimeout, false), P},
		},
		{
			name: "polls faster than MinInterval are counted",
			cfg:  manifest,
			steps: []st{
				poll("running", "1/4", 0), poll("running", "1/4", 10), poll("running", "1/4", 12),
				poll("running", "1/4", 17), poll("running", "1/4", 18),
			},
			// The fast polls are counted: the first is barren, the second the call's third
			// unchanged occurrence with nothing new since the first (the exempt poll between is no
			// part of it).
			wants: []want{P, X, barren(1), xb(1), stuck(2, ReasonLoop, true)},
		},
		{
			name: "MinInterval is per tool, across call keys",
			cfg:  manifest,
			steps: []st{
				poll("running", "1/4", 0),
				call("get_build_status", `{"build_id":"b_2"}`, `{"status":"running","jobs":"0/2"}`).wait("running").at(2),
				poll("running", "1/4", 4), // 2 s after the other build's poll
			},
			// Too fast to be exempt, so it is judged like any call: what it brings, the build's
			// status two steps earlier, is not new to the run.
			wants: []want{P, P, barren(1)},
		},
		{
			name: "a finished build polled again is a loop even if its reply moves",
			cfg:  manifest,
			steps: []st{
				poll("running", "3/4", 0),
				call("get_build_status", `{"build_id":"b_88231"}`, `{"status":"success","finished_ago_s":1}`).wait("success").at(10),
				call("get_build_status", `{"build_id":"b_88231"}`, `{"status":"success","finished_ago_s":11}`).wait("success").at(20),
			},
			wants: []want{P, P, stuck(1, ReasonLoop, true)},
		},
		{
			// A declared wait governs its tool: without a deadline there is no exemption, and the
			// undeclared reading of "running" does not apply either.
			name: "no deadline, no exemption",
			cfg:  noDeadline,
			steps: []st{
				poll("running", "1/4", 0), poll("running", "1/4", 10), poll("running", "1/4", 20),
			},
			wants: []want{P, barren(1), stuck(2, ReasonLoop, true)},
		},
		{
			name: "a terminal build polled again under a different key is not the same wait",
			cfg:  manifest,
			steps: []st{
				poll("success", "4/4", 0),
				call("get_build_status", `{"build_id":"b_2"}`, `{"status":"queued","jobs":"0/2"}`).wait("queued").at(10),
				call("get_build_status", `{"build_id":"b_2"}`, `{"status":"queued","jobs":"0/2"}`).wait("queued").at(20),
			},
			wants: []want{P, P, X},
		},
		{
			name: "a finished build that is re-run starts a new wait",
			cfg:  manifest,
			steps: []st{
				poll("success", "4/4", 0), poll("queued", "0/4", 1500), poll("queued", "0/4", 1510),
			},
			wants: []want{P, P, X},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { check(t, c.cfg, c.steps, c.wants) })
	}
}

func TestPatterns(t *testing.T) {
	window := func(n int) *Config { return &Config{LoopWindow: n} }
	writes := &Config{Tools: map[string]ToolPolicy{"write_file": {Kind: KindWrite}}}
	make_ := call("run_cmd", `{"cmd":"make"}`, "")
	pageA := call("get_page", `{"n":1}`, `{"items":["a","b"]}`)
	pageB := call("get_page", `{"n":2}`, `{"items":["c"]}`)
	a := call("read_file", `{"path":"a.go"}`, "package a")
	b := call("grep", `{"q":"TODO"}`, "a.go:3: TODO")
	c := call("list_dir", `{"path":"."}`, `["a.go","b.go"]`)
	d := call("git_status", `{}`, `{"clean":false,"modified":["a.go"]}`)
	e := call("read_todo", `{}`, `["fix handler"]`)

	cases := []struct {
		name  string
		cfg   *Config
		steps []st
		wants []want
	}{
		{
			name:  "repeated error: same call, same error, three times",
			steps: []st{make_.fail("exit 2: missing ;"), make_.fail("exit 2: missing ;"), make_.fail("exit 2: missing ;")},
			wants: []want{P, barren(1), stuck(2, ReasonRepeatedError, true)},
		},
		{
			name:  "repeated error needs the same error",
			steps: []st{make_.fail("exit 2: missing ;"), make_.fail("exit 2: undefined x"), make_.fail("exit 2: missing ;")},
			// The first error again is not news, but no call failed the same way three times in a row.
			wants: []want{P, P, barren(1)},
		},
		{
			name: "repeated error is counted per call key across other calls that bring nothing",
			cfg:  window(1),
			steps: []st{
				make_.fail("exit 2"), call("grep", `{"q":"x"}`, ""), make_.fail("exit 2"), call("grep", `{"q":"y"}`, ""), make_.fail("exit 2"),
			},
			wants: []want{P, barren(1), barren(2), barren(3), stuck(4, ReasonRepeatedError, true)},
		},
		{
			// Something new entered the run between the failures: the agent is finding out, and the
			// repeat is judged by the counter alone.
			name: "a failing call repeated while other calls bring news is no repeated error",
			cfg:  window(1),
			steps: []st{
				make_.fail("exit 2"), a, make_.fail("exit 2"), b, make_.fail("exit 2"),
			},
			wants: []want{P, P, barren(1), P, barren(1)},
		},
		{
			name: "a successful write between failures breaks the chain",
			cfg:  writes,
			steps: []st{
				make_.fail("exit 2"), make_.fail("exit 2"),
				call("write_file", `{"path":"main.go"}`, `{"ok":true}`), make_.fail("exit 2"),
			},
			wants: []want{P, barren(1), P, barren(1)},
		},
		{
			name:  "alternation on one tool, with a loop window too short to see it",
			cfg:   window(1),
			steps: []st{pageA, pageB, pageA, pageB, pageA},
			wants: []want{P, P, barren(1), stuck(2, ReasonAlternation, true), stuck(3, ReasonAlternation, false)},
		},
		{
			name:  "alternation opens its own episode under the default window",
			steps: []st{pageA, pageB, pageA, pageB},
			// pageA again brings nothing new, but one recurrence is not a loop; the fourth step
			// shows the alternation.
			wants: []want{P, P, barren(1), stuck(2, ReasonAlternation, true)},
		},
		{
			name: "alternation with a moving side is not a pattern",
			cfg:  window(1),
			steps: []st{
				pageA, call("get_page", `{"n":2}`, `{"items":["c"]}`), pageA, call("get_page", `{"n":2}`, `{"items":["c","d"]}`),
			},
			wants: []want{P, P, barren(1), P},
		},
		{
			name:  "cycle of three",
			cfg:   window(2),
			steps: []st{a, b, c, a, b, c},
			wants: []want{P, P, P, barren(1), barren(2), stuck(3, ReasonCycle, true)},
		},
		{
			name:  "cycle of five (Gemini CLI)",
			cfg:   &Config{LoopWindow: 4, NoProgressLimit: 10},
			steps: []st{a, b, c, d, e, a, b, c, d, e, a},
			wants: []want{P, P, P, P, P, barren(1), barren(2), barren(3), barren(4), stuck(5, ReasonCycle, true), stuck(6, ReasonCycle, false)},
		},
		{
			name: "a cycle whose results move is not a cycle",
			cfg:  window(2),
			steps: []st{
				a, b, c, a, b, call("list_dir", `{"path":"."}`, `["a.go","b.go","c.go"]`),
			},
			wants: []want{P, P, P, barren(1), barren(2), P},
		},
		{
			name:  "an immediate repeat alone is one wasted step, not a loop",
			steps: []st{a, a},
			wants: []want{P, barren(1)},
		},
		{
			name:  "loop: the same call and result for the third time, nothing new since the first",
			steps: []st{a, a, a},
			wants: []want{P, barren(1), stuck(2, ReasonLoop, true)},
		},
		{
			name: "loop: a call recurring with calls between that bring nothing",
			steps: []st{
				a, call("grep", `{"q":"x"}`, ""), a, call("grep", `{"q":"y"}`, ""), a,
			},
			wants: []want{P, barren(1), barren(2), barren(3), stuck(4, ReasonLoop, true)},
		},
		{
			// What b and c brought is new: the repeated read is a question put while the run learns.
			name:  "a call recurring while other calls bring news is no loop",
			steps: []st{a, b, a, c, a},
			wants: []want{P, P, barren(1), P, barren(1)},
		},
		{
			name:  "loop outside the window is not seen",
			cfg:   window(2),
			steps: []st{a, b, c, a},
			wants: []want{P, P, P, barren(1)},
		},
		{
			name:  "a failed call retried once is not a loop",
			steps: []st{make_.fail("timeout"), make_},
			wants: []want{P, barren(1)}, // empty result: no progress, but no loop either
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { check(t, c.cfg, c.steps, c.wants) })
	}
}

func TestPlanAndGoal(t *testing.T) {
	empty := `{"rows":[]}`
	q := func(i int, mod func(st) st) st {
		return mod(call("query", fmt.Sprintf(`{"sql":"select %d"}`, i), empty))
	}
	id := func(s st) st { return s }
	var planSteps, goalSteps, awaySteps, flatSteps []st
	for i := 0; i < 6; i++ {
		planSteps = append(planSteps, q(i, func(s st) st { return s.plan(float64(i / 2)) }))
		goalSteps = append(goalSteps, q(i, func(s st) st { return s.goal(float64(i), 10) }))
		awaySteps = append(awaySteps, q(i, func(s st) st { return s.goal(float64(-i), 10) }))
		flatSteps = append(flatSteps, q(i, id))
	}
	check(t, nil, planSteps, []want{barren(1), barren(2), P, barren(1), P, barren(1)})
	vs := check(t, nil, goalSteps, []want{barren(1), P, P, P, P, P})
	if vs[1].Signals != SignalGoal {
		t.Errorf("goal step signals = %q, want goal", vs[1].Signals)
	}
	check(t, nil, awaySteps, []want{barren(1), barren(2), barren(3), stuck(4, ReasonNoProgress, true), stuck(5, ReasonNoProgress, false), stuck(6, ReasonNoProgress, false)})
	check(t, nil, flatSteps, []want{barren(1), barren(2), barren(3), stuck(4, ReasonNoProgress, true), stuck(5, ReasonNoProgress, false), stuck(6, ReasonNoProgress, false)})
}

func TestEpisodes(t *testing.T) {
	empty := `{"results":[],"total":0}`
	q := func(i int) st { return call("search_docs", fmt.Sprintf(`{"q":"try %d"}`, i), empty) }
	found := call("search_docs", `{"q":"refund"}`, `{"results":["refunds.md"],"total":1}`)
	steps := []st{q(1), q(2), q(3), q(4), q(5), found, q(6), q(7), q(8), q(9), q(10)}
	vs := check(t, nil, steps, []want{
		barren(1), barren(2), barren(3), stuck(4, ReasonNoProgress, true), stuck(5, ReasonNoProgress, false),
		P,
		barren(1), barren(2), barren(3), stuck(4, ReasonNoProgress, true), stuck(5, ReasonNoProgress, false),
	})
	episodes := 0
	for _, v := range vs {
		if v.NewEpisode {
			episodes++
		}
	}
	if episodes != 2 {
		t.Errorf("%d episodes, want 2", episodes)
	}

	// A loop episode continues (with its reason) through barren steps that
	// match no pattern, and an exempt poll neither ends nor extends it.
	a := call("read_file", `{"path":"a.go"}`, "package a")
	steps = []st{
		poll("running", "1/4", 0),
		a, a, a, call("grep", `{"q":"x"}`, ""),
		poll("running", "1/4", 40),
		call("grep", `{"q":"y"}`, ""),
		call("grep", `{"q":"z"}`, "z.go:1"),
	}
	check(t, &Config{NoProgressLimit: 10, Tools: manifest.Tools}, steps, []want{
		P, P, barren(1), stuck(2, ReasonLoop, true), stuck(3, ReasonLoop, false),
		xb(3),
		stuck(4, ReasonLoop, false),
		P,
	})
}

func TestResultSignalPerTool(t *testing.T) {
	// Alternating tools each with a stable result: the per-tool digest sees
	// no change, so the counter climbs (and the hash sees the alternation).
	a := call("status", `{}`, `{"ok":1}`)
	b := call("logs", `{}`, `last line`)
	check(t, &Config{LoopWindow: 1, NoProgressLimit: 10}, []st{a, b, a, b}, []want{P, P, barren(1), stuck(2, ReasonAlternation, true)})
	// An empty result never counts, even the first time.
	vs := drive(nil, []st{call("list", `{}`, `[]`)})
	if vs[0].Progress || vs[0].Signals != 0 {
		t.Errorf("empty first result counted: %+v", vs[0])
	}
}

func TestMovingResultsNeverLoop(t *testing.T) {
	// Random calls over a few keys, every result new: always progress.
	rng := rand.New(rand.NewPCG(1, 2))
	r := NewRun(nil)
	for i := 0; i < 2000; i++ {
		k := rng.IntN(3)
		s := call(fmt.Sprintf("tool%d", k%2), fmt.Sprintf(`{"k":%d}`, k), fmt.Sprintf(`{"seq":%d}`, i+1)).Step
		s.Start = t0.Add(time.Duration(i) * time.Second)
		if v := r.Observe(s); !v.Progress || v.Stuck != "" {
			t.Fatalf("step %d: %+v", i+1, v)
		}
	}
}

func TestStateSetBounded(t *testing.T) {
	cfg := &Config{Tools: map[string]ToolPolicy{"edit_file": {Kind: KindWrite, StateField: "sha"}}}
	r := NewRun(cfg)
	e := call("edit_file", `{}`, `{"ok":true}`)
	for i := 0; i < 100; i++ {
		s := e.state(fmt.Sprint("sha-", i)).Step
		if v := r.Observe(s); v.Signals&SignalWrite == 0 {
			t.Fatalf("new state %d not counted", i)
		}
	}
	if len(r.states) != maxStates {
		t.Errorf("seen set holds %d, want %d", len(r.states), maxStates)
	}
	// The most recent states are remembered, the oldest forgotten.
	if v := r.Observe(e.state("sha-99").Step); v.Signals&SignalWrite != 0 {
		t.Error("a recent state counted as new")
	}
	if v := r.Observe(e.state("sha-0").Step); v.Signals&SignalWrite == 0 {
		t.Error("an evicted state did not count as new")
	}
}

func TestToolTableBounded(t *testing.T) {
	r := NewRun(nil)
	for i := 0; i < 100; i++ {
		r.Observe(call(fmt.Sprint("tool", i), `{}`, `{"x":1}`).Step)
	}
	if len(r.tools) != maxTools || cap(r.tools) != maxTools {
		t.Errorf("tool table len %d cap %d, want %d", len(r.tools), cap(r.tools), maxTools)
	}
	// The table keeps each tool's last answer for sweeps: tool99 answers a new item as it answered
	// before (a sweep: the result signal fires); tool0 was evicted, so its same answer to a new item
	// is judged as content alone, already seen.
	if v := r.Observe(call("tool99", `{"id":"again"}`, `{"x":1}`).Step); v.Signals&SignalResult == 0 {
		t.Error("recent tool forgot its last answer")
	}
	if v := r.Observe(call("tool0", `{"id":"again"}`, `{"x":1}`).Step); v.Signals&SignalResult != 0 {
		t.Error("evicted tool still remembered")
	}
}

func TestSignalString(t *testing.T) {
	cases := map[Signal]string{0: "", SignalResult: "result", SignalResult | SignalWrite: "result,write", SignalPlan | SignalGoal: "plan,goal"}
	for s, want := range cases {
		if s.String() != want {
			t.Errorf("%d.String() = %q, want %q", s, s.String(), want)
		}
	}
}

func TestConfigDefaults(t *testing.T) {
	r := NewRun(&Config{})
	if r.limit() != 4 || r.window != 8 {
		t.Errorf("defaults: limit %d window %d", r.limit(), r.window)
	}
	r = NewRun(&Config{LoopWindow: 100, NoProgressLimit: 2})
	if r.limit() != 2 || r.window != histCap-1 {
		t.Errorf("clamp: limit %d window %d", r.limit(), r.window)
	}
}

// typicalRun drives a run through the steps of a realistic session: a dozen
// tools, writes with states, a wait, plan attributes, failures.
func typicalRun(r *Run, steps int) {
	for i := 0; i < steps; i++ {
		r.Observe(typicalSteps[i%len(typicalSteps)])
	}
}

var typicalSteps = func() []Step {
	var out []Step
	at := 0.0
	add := func(s st) {
		at += 7
		out = append(out, s.at(at).Step)
	}
	for round := 0; round < 4; round++ {
		add(call("search_docs", fmt.Sprintf(`{"q":"refund %d"}`, round), `{"results":[],"total":0}`))
		add(call("read_file", fmt.Sprintf(`{"path":"f%d.go"}`, round), fmt.Sprintf("package f%d", round)).plan(float64(round)))
		add(call("edit_file", fmt.Sprintf(`{"path":"f%d.go"}`, round), `{"ok":true}`).state(fmt.Sprint("sha", round)))
		add(call("run_tests", `{}`, `{"failed":1}`).fail("exit 1"))
		add(poll("running", "1/4", 0))
		add(call("grep", `{"q":"TODO"}`, "a.go:1"))
		add(call("list_dir", `{}`, `["a"]`))
		add(call("git_diff", `{}`, "diff --git"))
	}
	return out
}()

var typicalCfg = &Config{Tools: map[string]ToolPolicy{
	"edit_file":        {Kind: KindWrite, StateField: "sha"},
	"get_build_status": buildWait,
}}

// fixedBudget bounds what a run holds besides what it has seen: its call history, tool, state and
// wait tables, full, and its token account (80 bytes).
const fixedBudget = 1168

func TestSizeBytes(t *testing.T) {
	r := NewRun(typicalCfg)
	typicalRun(r, 200)
	if n := r.SizeBytes() - r.seen.sizeBytes(); n > fixedBudget {
		t.Errorf("typical run: %d bytes besides what it has seen, budget %d", n, fixedBudget)
	}
	if n := r.seen.sizeBytes(); n > 1024 {
		t.Errorf("typical run: %d bytes of what it has seen, budget 1024", n)
	}
	// Every table full: still within the budget.
	full := NewRun(typicalCfg)
	for i := 0; i < 100; i++ {
		full.Observe(call(fmt.Sprint("tool", i), `{}`, `{"x":1}`).Step)
		full.Observe(call("edit_file", `{}`, `{"ok":true}`).state(fmt.Sprint("sha-", i)).Step)
		full.Observe(call("get_build_status", fmt.Sprintf(`{"build_id":"b%d"}`, i), `{"status":"running"}`).wait("running").at(float64(i)).Step)
	}
	if len(full.tools) != maxTools || len(full.states) != maxStates || len(full.waits) != maxWaits {
		t.Fatalf("tables not full: %d %d %d", len(full.tools), len(full.states), len(full.waits))
	}
	if n := full.SizeBytes() - full.seen.sizeBytes(); n > fixedBudget {
		t.Errorf("run with every table full: %d bytes besides what it has seen, budget %d", n, fixedBudget)
	}
	t.Logf("typical run %d bytes, full run %d bytes", r.SizeBytes(), full.SizeBytes())
}

func TestObserveAllocs(t *testing.T) {
	r := NewRun(typicalCfg)
	typicalRun(r, 200)
	i := 0
	if a := testing.AllocsPerRun(1000, func() {
		r.Observe(typicalSteps[i%len(typicalSteps)])
		i++
	}); a != 0 {
		t.Errorf("Observe: %v allocs per step in steady state, want 0", a)
	}
}

func TestSharedConfigConcurrentRuns(t *testing.T) {
	// Runs are per goroutine; the Config is shared read-only (checked by -race).
	done := make(chan int)
	for g := 0; g < 4; g++ {
		go func() {
			r := NewRun(typicalCfg)
			stuckSteps := 0
			for i := 0; i < 500; i++ {
				if r.Observe(typicalSteps[i%len(typicalSteps)]).Stuck != "" {
					stuckSteps++
				}
			}
			done <- stuckSteps
		}()
	}
	first := <-done
	for g := 1; g < 4; g++ {
		if n := <-done; n != first {
			t.Errorf("runs over the same steps disagree: %d vs %d stuck steps", n, first)
		}
	}
}
