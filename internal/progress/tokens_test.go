// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

import (
	"testing"
	"time"
)

// TestModelCallsCountInTheRunsState: each model call's tokens go to the state the run was in after the
// steps before it; the run's account and the episode's cost follow.
func TestModelCallsCountInTheRunsState(t *testing.T) {
	cfg := &Config{NoProgressLimit: 2, Tools: map[string]ToolPolicy{"get_build_status": buildWait}}
	r := NewRun(cfg)
	start := 0
	step := func(s st) Verdict {
		start++
		s.Start = t0.Add(time.Duration(start) * 10 * time.Second)
		return r.Observe(s.Step)
	}
	model := func(n int64) State {
		return r.ObserveModel(ModelCall{Tokens: Tokens{Input: n, Output: 1, CachedInput: 2 * n}}).State
	}
	empty := call("search_docs", `{"q":"refunds"}`, `{"results":[]}`)
	unread := call("fetch", `{}`, ``)
	unread.Unread = true

	var got []State
	got = append(got, model(10)) // nothing judged yet
	step(call("search_docs", `{"q":"a"}`, `{"results":["a"]}`))
	got = append(got, model(10))
	// A poll's first answer is news; the same answer again is an exempt poll.
	step(buildStatus("running", "1/4", 10).wait("running"))
	if v := step(buildStatus("running", "1/4", 10).wait("running")); !v.WaitExempt {
		t.Fatalf("the repeated poll is exempt: %+v", v)
	}
	got = append(got, model(10))
	step(empty)
	got = append(got, model(10))
	if v := step(empty); !v.NewEpisode || v.EpisodeTokens != 62 {
		t.Errorf("the episode opens with the tokens since the last progress step, the waiting call's and the barren one's: %+v", v)
	}
	got = append(got, model(10))
	step(call("search_docs", `{"q":"b"}`, `{"results":["b"]}`))
	step(unread)
	got = append(got, model(10))
	if v := step(call("search_docs", `{"q":"c"}`, ``)); v.Progress {
		t.Fatalf("a known empty result is no progress: %+v", v)
	}

	want := []State{StateProgress, StateProgress, StateWaiting, StateBarren, StateStuck, StateUnjudged}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("model call %d: state %s, want %s", i+1, got[i], want[i])
		}
	}
	s := r.Spent()
	if s.Tokens != (Tokens{Input: 60, Output: 6, CachedInput: 120}) || s.Total() != 186 {
		t.Errorf("account %+v", s)
	}
	for st, n := range map[State]int64{StateProgress: 62, StateWaiting: 31, StateBarren: 31, StateStuck: 31, StateUnjudged: 31} {
		if s.ByState[st] != n {
			t.Errorf("%s: %d tokens, want %d", st, s.ByState[st], n)
		}
	}
	if share := s.Share(StateBarren, StateStuck); share != 62.0/186 {
		t.Errorf("share barren or stuck %v", share)
	}
	if end := r.End(Ending{}); end.Tokens != s {
		t.Errorf("the summary holds the account: %+v", end.Tokens)
	}
	if (&Spend{}).Share(StateStuck) != 0 {
		t.Error("a run without tokens spent no share")
	}
}
