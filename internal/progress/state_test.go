// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/agentotel/agentotel/internal/statecodec"
)

// A moment of a run: a tool step or a model call.
type moment struct {
	step  *Step
	model *ModelCall
}

// savedRunScript is a run that meets every part of the state: reads, failures, declared writes and
// waits, plan values, model calls of every kind, a loop, an alternation and then results large enough
// that what the run has seen outgrows its exact table and both filters.
func savedRunScript() []moment {
	var out []moment
	finishes := []Finish{FinishToolCalls, FinishLength, FinishStop, FinishToolCalls}
	for i, s := range typicalSteps {
		s := s
		out = append(out, moment{step: &s})
		if i%3 == 2 {
			out = append(out, moment{model: &ModelCall{Start: s.Start, Finish: finishes[i%4], Empty: i%5 == 0, EmptyKnown: true,
				Tokens: Tokens{Input: int64(900 + i), Output: int64(40 + i%7), CachedInput: int64(i % 3 * 100)}}})
		}
	}
	at := 400.0
	add := func(s st) {
		at += 10
		step := s.at(at).Step
		out = append(out, moment{step: &step})
	}
	// A step whose result could not be read, and a model call after it, counted unjudged.
	unread := call("search_docs", `{"q":"unread"}`, "")
	unread.Unread = true
	add(unread)
	out = append(out, moment{model: &ModelCall{Finish: FinishToolCalls, Tokens: Tokens{Input: 700, Output: 20}}})
	// A reply cut off and its continuation; a pause between two searches.
	out = append(out, moment{model: &ModelCall{Finish: FinishLength}}, moment{model: &ModelCall{Finish: FinishStop}})
	pause := call("sleep", `{"seconds":5}`, "")
	pause.Pause = true
	add(call("search_docs", `{"q":"refunds"}`, `{"results":[]}`))
	add(pause)
	for range 2 {
		add(call("search_docs", `{"q":"refunds"}`, `{"results":[]}`))
	}
	for range 3 {
		add(call("get_user", `{"id":1}`, `{"name":"a"}`))
		add(call("get_order", `{"id":2}`, `{"total":3}`))
	}
	// A sweep: the same acknowledgement for each new item is news about it.
	for i := range 3 {
		add(call("attach", fmt.Sprintf(`{"file_path":"/papers/paper-%d.pdf","item_key":"ITEM%04d"}`, i, i), "File attached"))
	}
	// A plan value that falls is no advance; neither is a pause right after a pause.
	add(call("tick", `{}`, `{"ok":1}`).plan(5))
	add(call("tick", `{}`, `{"ok":1}`).plan(3))
	add(pause)
	add(pause)
	// The same error thrice; a poll past its terminal state; a declared wait between repeats.
	for range 3 {
		add(call("deploy", `{}`, "").fail("permission denied"))
	}
	add(poll("success", "4/4", 0))
	add(poll("success", "4/4", 0))
	for range 3 {
		add(call("get_queue", `{}`, `{"n":1}`))
		add(poll("running", "1/4", 0))
	}
	// A repeat around a step that brought news is no loop.
	add(call("get_status", `{}`, `{"state":"a"}`))
	add(call("get_news", `{}`, `{"headline":"b"}`))
	add(call("get_status", `{}`, `{"state":"a"}`))
	add(call("get_status", `{}`, `{"state":"a"}`))
	add(call("get_goal", `{}`, `{}`).goal(3, 10))
	add(call("get_goal", `{}`, `{}`).goal(5, 10))
	units := make([]uint64, 1000)
	for i := range 14 {
		for j := range units {
			units[j] = uint64(i*len(units)+j) * 0x9e3779b97f4a7c15
		}
		step := call("read_file", fmt.Sprintf(`{"path":"f%d.go"}`, i), fmt.Sprint(i)).at(at + float64(i)).Step
		step.Units = append([]uint64(nil), units...)
		out = append(out, moment{step: &step})
	}
	return out
}

// play feeds moments to a run and returns what it said of each, as text (a ModelVerdict or a Verdict).
func play(r *Run, moments []moment) []string {
	out := make([]string, len(moments))
	for i, m := range moments {
		if m.model != nil {
			out[i] = fmt.Sprintf("%+v", r.ObserveModel(*m.model))
		} else {
			out[i] = fmt.Sprintf("%+v", r.Observe(*m.step))
		}
	}
	return out
}

func roundTrip(t *testing.T, r *Run, cfg *Config) *Run {
	t.Helper()
	var e statecodec.Encoder
	r.Encode(&e)
	d := statecodec.NewDecoder(e.Data())
	back := DecodeRun(d, cfg)
	if err := d.Finish(); err != nil {
		t.Fatalf("decoding what Encode wrote: %v", err)
	}
	return back
}

// A run saved after any moment and loaded again judges everything after it as the run that never
// stopped, and ends with the same account.
func TestDecodedRunJudgesAsTheOriginal(t *testing.T) {
	script := savedRunScript()
	for n := 0; n <= len(script); n++ {
		original := NewRun(typicalCfg)
		play(original, script[:n])
		restored := roundTrip(t, original, typicalCfg)

		want, got := play(original, script[n:]), play(restored, script[n:])
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("saved after %d moments: moment %d judged %s, the original %s", n, n+i+1, got[i], want[i])
			}
		}
		if a, b := restored.Spent(), original.Spent(); a != b {
			t.Fatalf("saved after %d moments: spent %+v, the original %+v", n, a, b)
		}
		for _, e := range []Ending{{}, {Abandoned: true}, {RootFailed: true}, {Duration: time.Hour, Budget: time.Minute}} {
			if a, b := fmt.Sprintf("%+v", restored.End(e)), fmt.Sprintf("%+v", original.End(e)); a != b {
				t.Fatalf("saved after %d moments: ends %s, the original %s", n, a, b)
			}
		}
	}
}

// The script reaches every part of the state at some moment, so the test above covers each of them.
func TestSavedRunScriptFillsTheState(t *testing.T) {
	r := NewRun(typicalCfg)
	reached := map[string]bool{}
	for _, m := range savedRunScript() {
		play(r, []moment{m})
		for part, ok := range map[string]bool{
			"episode": r.reason != rNone, "barren": r.barren > 0, "full ring": r.histLen == histCap,
			"failed": r.failed != 0, "exempt": r.exempt != 0, "news": r.news != 0, "paused": r.paused != 0,
			"cut off": r.calls.flags&afterCut != 0, "continuation": r.calls.continuations > 0, "empty": r.calls.empties > 0,
			"tools": len(r.tools) > 0, "states": len(r.states) > 1, "waits": len(r.waits) > 0,
			"plan": r.hasPlan, "goal": r.hasDist, "exact seen": r.seen.small.n > 0, "two filters": r.seen.old != nil,
			"tokens": r.tokens.Total() > 0, "tokens since progress": r.tokens.SinceProgress > 0,
			"waiting": r.lastStep == lastWaiting, "unjudged": r.lastStep == lastUnjudged,
		} {
			reached[part] = reached[part] || ok
		}
	}
	for part, ok := range reached {
		if !ok {
			t.Errorf("the script never reaches %s", part)
		}
	}
}

// A step, every field set, decodes as it was.
func TestStepRoundTrip(t *testing.T) {
	s := call("get_build_status", `{"build_id":"b1"}`, `{"status":"running"}`).fail("rate limited").
		wait("running").state("sha1").plan(2).goal(3, 4).at(12.5).Step
	s.Pause, s.Waiting, s.Unread, s.NoCallKey = true, true, true, true
	s.Result.Empty, s.Result.Invalid, s.Result.Failed, s.Result.Channel, s.Result.Waiting, s.Result.Brief = true, true, true, true, true, true
	s.Items = []uint64{1, 1 << 63}
	for _, step := range []Step{s, {Tool: "bare"}} {
		var e statecodec.Encoder
		step.Encode(&e)
		d := statecodec.NewDecoder(e.Data())
		back := DecodeStep(d)
		if err := d.Finish(); err != nil {
			t.Fatal(err)
		}
		if !back.Start.Equal(step.Start) || back.Start.IsZero() != step.Start.IsZero() {
			t.Errorf("start %v, want %v", back.Start, step.Start)
		}
		back.Start, step.Start = time.Time{}, time.Time{}
		if !reflect.DeepEqual(back, step) {
			t.Errorf("decoded\n%+v\nwant\n%+v", back, step)
		}
	}
}

// Values no run can hold are refused, not loaded: a ring position past the ring, an episode reason
// that does not exist, a table past its bound.
func TestDecodeRunRefusesWhatNoRunHolds(t *testing.T) {
	r := NewRun(typicalCfg)
	play(r, savedRunScript()[:20])
	var good statecodec.Encoder
	r.Encode(&good)
	cases := map[string]func(e *statecodec.Encoder){
		"reason past the reasons": func(e *statecodec.Encoder) { e.Uint(1); e.Uint(0); e.Uint(uint64(len(reasons))) },
		"ring position past the ring": func(e *statecodec.Encoder) {
			e.Uint(1)
			e.Uint(0)
			e.Uint(0)
			e.Bool(false)
			e.Float(0)
			e.Bool(false)
			e.Float(0)
			e.Uint(histCap)
			e.Uint(histCap)
		},
	}
	for name, write := range cases {
		var e statecodec.Encoder
		write(&e)
		d := statecodec.NewDecoder(append(e.Data(), good.Data()...))
		if DecodeRun(d, typicalCfg) != nil || d.Err() == nil {
			t.Errorf("%s: decoded", name)
		}
	}
	// Cut short anywhere, the encoding is refused.
	for n := 0; n < len(good.Data()); n += 7 {
		d := statecodec.NewDecoder(good.Data()[:n])
		if DecodeRun(d, typicalCfg) != nil && d.Finish() == nil {
			t.Fatalf("cut to %d of %d bytes: decoded", n, len(good.Data()))
		}
	}
}

// Whatever the bytes, DecodeRun does not panic, and a run it returns can be judged and ended.
func FuzzDecodeRun(f *testing.F) {
	script := savedRunScript()
	for _, n := range []int{0, 5, 40, len(script)} {
		r := NewRun(typicalCfg)
		play(r, script[:n])
		var e statecodec.Encoder
		r.Encode(&e)
		f.Add(e.Data())
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		r := DecodeRun(statecodec.NewDecoder(payload), typicalCfg)
		if r == nil {
			return
		}
		play(r, script[:30])
		r.End(Ending{})
	})
}

// Whatever the bytes, DecodeStep does not panic.
func FuzzDecodeStep(f *testing.F) {
	var e statecodec.Encoder
	s := typicalSteps[0]
	s.Encode(&e)
	f.Add(e.Data())
	f.Fuzz(func(t *testing.T, payload []byte) {
		d := statecodec.NewDecoder(payload)
		step := DecodeStep(d)
		if d.Err() == nil {
			NewRun(typicalCfg).Observe(step)
		}
	})
}
