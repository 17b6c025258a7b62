// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package progress

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// fileLines is a made-up file: line n is the same text wherever it is read.
func fileLines(from, to int) string {
	var b strings.Builder
	for n := from; n <= to; n++ {
		fmt.Fprintf(&b, "%6d\tline %d of handler.go: x%d := step(%d)\n", n, n, n, n*7)
	}
	return b.String()
}

// TestWhatTheRunHadAlreadySeen: a step is progress when it brings something the run had not seen,
// through any tool, not merely something its own tool did not return last time.
func TestWhatTheRunHadAlreadySeen(t *testing.T) {
	read := func(off int) st {
		return call("read_file", fmt.Sprintf(`{"path":"handler.go","offset":%d,"limit":40}`, off), fileLines(off, off+39))
	}
	t.Run("a file re-read in windows shifted from the first sweep", func(t *testing.T) {
		steps := []st{read(1), read(41), read(81), read(121), read(21), read(61), read(101), read(141)}
		// The second sweep's windows sit 20 lines off the first's: each is new bytes, nothing
		// new to the run, until the last one reaches past line 160.
		check(t, nil, steps, []want{P, P, P, P, barren(1), barren(2), barren(3), P})
	})
	t.Run("grep hits of a file read whole", func(t *testing.T) {
		steps := []st{call("read_file", `{"path":"handler.go"}`, fileLines(1, 200))}
		for i, at := range []int{12, 40, 77, 150} {
			var hits strings.Builder
			for n := at; n < at+5; n++ {
				sep := "-"
				if n == at {
					sep = ":"
				}
				fmt.Fprintf(&hits, "handler.go%s%d%sline %d of handler.go: x%d := step(%d)\n", sep, n, sep, n, n, n*7)
			}
			steps = append(steps, call("bash", fmt.Sprintf(`{"command":"grep -n -A4 fn%d handler.go"}`, i), hits.String()))
		}
		check(t, nil, steps, []want{P, barren(1), barren(2), barren(3), stuck(4, ReasonNoProgress, true)})
	})
	t.Run("the same fact through other tools", func(t *testing.T) {
		steps := []st{
			call("exec", `{"command":"printenv TARGET"}`, "TARGET=value-1\n"),
			call("exec", `{"command":"env | grep TARGET"}`, "TARGET=value-1"),
			call("read_file", `{"path":".env"}`, "     4\tTARGET=value-1"),
			call("grep", `{"pattern":"TARGET","path":"."}`, ".env:4:TARGET=value-1"),
			call("bash", `{"command":"cat .env | grep TARGET"}`, "TARGET=value-1\n"),
		}
		// read_file and grep name a new path: but their answers differ from their tool's last
		// (there is none), so no sweep credit; what they bring was seen.
		check(t, nil, steps, []want{P, barren(1), barren(2), barren(3), stuck(4, ReasonNoProgress, true)})
	})
	t.Run("searches whose hits were all returned before", func(t *testing.T) {
		hit := func(n int) string { return fmt.Sprintf(`{"title":"Refunds %d","url":"https://kb.example/r%d"}`, n, n) }
		search := func(q string, hits ...int) st {
			parts := make([]string, len(hits))
			for i, h := range hits {
				parts[i] = hit(h)
			}
			return call("search_docs", fmt.Sprintf(`{"q":%q}`, q), "["+strings.Join(parts, ",")+"]")
		}
		steps := []st{
			search("refund policy", 1, 2, 3), search("refund rules", 2, 3), search("annual refunds", 3, 1),
			search("refund annual plan", 1, 2), search("refunds", 2), search("money back", 4),
		}
		check(t, nil, steps, []want{P, barren(1), barren(2), barren(3), stuck(4, ReasonNoProgress, true), P})
	})
}

// TestSweepsOfDistinctItems: a tool answering alike for each new item it is asked about is doing
// distinct work; the same answer to the same item again, or to a reworded question, is not.
func TestSweepsOfDistinctItems(t *testing.T) {
	attach := func(i int) st {
		return call("attach", fmt.Sprintf(`{"file_path":"/papers/paper-%d.pdf","item_key":"ITEM%04d"}`, i, i), "File attached")
	}
	lookup := func(m string) st {
		return call("get-model", fmt.Sprintf(`{"model":%q}`, m), "").fail("Model not found")
	}
	cases := []struct {
		name  string
		steps []st
		wants []want
	}{
		{"attachments of distinct files", []st{attach(1), attach(2), attach(3), attach(4), attach(5), attach(6)}, []want{P, P, P, P, P, P}},
		{"lookups of distinct models failing alike", []st{lookup("m-1"), lookup("m-2"), lookup("m-3"), lookup("m-4"), lookup("m-5")}, []want{P, P, P, P, P}},
		{"the same item again", []st{attach(1), attach(2), attach(2), attach(2)}, []want{P, P, barren(1), stuck(2, ReasonLoop, true)}},
		{
			"a reworded search is the same question",
			[]st{
				call("search", `{"q":"refund"}`, "0 results"), call("search", `{"q":"refunds"}`, "0 results"),
				call("search", `{"q":"reimbursement"}`, "0 results"), call("search", `{"q":"money"}`, "0 results"),
				call("search", `{"q":"repayment"}`, "0 results"),
			},
			[]want{P, barren(1), barren(2), barren(3), stuck(4, ReasonNoProgress, true)},
		},
		{
			// The same page for every URL is a document seen again, not news about each URL.
			"the same document for distinct items",
			[]st{
				call("web_fetch", `{"url":"https://a.example/1"}`, "<title>Race</title>\n<div id=root></div>"),
				call("web_fetch", `{"url":"https://a.example/2"}`, "<title>Race</title>\n<div id=root></div>"),
				call("web_fetch", `{"url":"https://a.example/3"}`, "<title>Race</title>\n<div id=root></div>"),
				call("web_fetch", `{"url":"https://a.example/4"}`, "<title>Race</title>\n<div id=root></div>"),
				call("web_fetch", `{"url":"https://a.example/5"}`, "<title>Race</title>\n<div id=root></div>"),
			},
			[]want{P, barren(1), barren(2), barren(3), stuck(4, ReasonNoProgress, true)},
		},
		{
			// A rate limit says nothing about the item asked about.
			"distinct items failing on the channel",
			[]st{
				call("fetch", `{"url":"https://a.example/1"}`, "").fail("429 Too Many Requests"),
				call("fetch", `{"url":"https://a.example/2"}`, "").fail("429 Too Many Requests"),
				call("fetch", `{"url":"https://a.example/3"}`, "").fail("429 Too Many Requests"),
				call("fetch", `{"url":"https://a.example/4"}`, "").fail("429 Too Many Requests"),
				call("fetch", `{"url":"https://a.example/5"}`, "").fail("429 Too Many Requests"),
			},
			[]want{P, barren(1), barren(2), barren(3), stuck(4, ReasonNoProgress, true)},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { check(t, nil, c.steps, c.wants) })
	}
}

// TestWritesThatChangeNothing: a declared write without a state_field is progress when its
// arguments are new among the run's writes, or its result brings something new.
func TestWritesThatChangeNothing(t *testing.T) {
	cfg := &Config{Tools: map[string]ToolPolicy{"write_scratchpad": {Kind: KindWrite}}}
	write := func(text, result string) st {
		return call("write_scratchpad", fmt.Sprintf(`{"text":%q}`, text), result)
	}
	t.Run("the same scratchpad rewritten", func(t *testing.T) {
		steps := []st{write("plan: a", "ok"), write("plan: a", "ok"), write("plan: a", "ok")}
		vs := check(t, cfg, steps, []want{P, barren(1), stuck(2, ReasonLoop, true)})
		if vs[0].Signals&SignalWrite == 0 || vs[1].Signals&SignalWrite != 0 {
			t.Errorf("write signals %q, %q", vs[0].Signals, vs[1].Signals)
		}
	})
	t.Run("new contents are new writes", func(t *testing.T) {
		check(t, cfg, []st{write("plan: a", "ok"), write("plan: a, b", "ok"), write("plan: a, b, c", "ok")}, []want{P, P, P})
	})
	t.Run("a result that says what changed", func(t *testing.T) {
		steps := []st{write("x", "ok"), write("x", "ok"), write("x", "1 line appended (total 2)")}
		check(t, cfg, steps, []want{P, barren(1), P})
	})
}

// TestFailuresInBand: a retry of a failed call, however the failure was reported, is a retry.
func TestFailuresInBand(t *testing.T) {
	failing := `{"content":[{"type":"text","text":"database is locked"}],"isError":true}`
	q := func(result string) st {
		s := call("db_query", `{"sql":"select 1"}`, result)
		s.Failed, s.ErrorKey = s.Result.Failed, s.Result.Sum
		return s
	}
	if !q(failing).Failed {
		t.Fatal("an MCP isError result is not read as failed")
	}
	check(t, nil, []st{q(failing), q(failing), q(`{"rows":[[1]]}`)}, []want{P, barren(1), P})
	check(t, nil, []st{q(failing), q(failing), q(failing)}, []want{P, barren(1), stuck(2, ReasonRepeatedError, true)})
}

// TestUndeclaredWaits: waiting that nobody declared is still waiting, within bounds of its own.
func TestUndeclaredWaits(t *testing.T) {
	job := func(status string, sec float64) st {
		return call("job_status", `{"jobId":"job-2c9f"}`, fmt.Sprintf(`{"jobId":"job-2c9f","status":%q}`, status)).at(sec)
	}
	t.Run("a job that says it is running", func(t *testing.T) {
		steps := []st{job("running", 0), job("running", 46), job("running", 92), job("running", 138), job("done", 184), job("done", 190), job("done", 195)}
		// Once it stops saying so, the wait is over: the finished job polled again is barren, and
		// a loop at its third answer.
		check(t, nil, steps, []want{P, wt(0), wt(0), wt(0), P, barren(1), stuck(2, ReasonLoop, true)})
	})
	t.Run("past its deadline", func(t *testing.T) {
		cfg := &Config{UndeclaredMaxWait: 2 * time.Minute}
		steps := []st{job("running", 0), job("running", 60), job("running", 119), job("running", 120)}
		check(t, cfg, steps, []want{P, wt(0), wt(0), stuck(1, ReasonWaitTimeout, true)})
	})
	t.Run("switched off", func(t *testing.T) {
		cfg := &Config{UndeclaredMaxWait: -1}
		check(t, cfg, []st{job("running", 0), job("running", 60), job("running", 120)}, []want{P, barren(1), stuck(2, ReasonLoop, true)})
	})
	t.Run("a read of output that moved, in a quiet spell", func(t *testing.T) {
		out := func(lines int) st {
			return call("bash_output", `{"id":"sh-1"}`, strings.Repeat("compiling...\n", 1)+fmt.Sprintf("%d targets built", lines))
		}
		steps := []st{out(1), out(2), out(2), out(2), out(2), out(2), out(3)}
		// The call's own result moved: its next three unchanged repeats wait; after that they
		// count, and the second counted one is the outcome's third occurrence: a loop.
		check(t, nil, steps, []want{P, P, wt(0), wt(0), wt(0), barren(1), P})
		check(t, nil, append(steps[:6:6], out(2)), []want{P, P, wt(0), wt(0), wt(0), barren(1), stuck(2, ReasonLoop, true)})
	})
	t.Run("pauses between reads", func(t *testing.T) {
		sleep := call("bash", `{"command":"sleep 5"}`, "")
		read := func(n int) st { return call("read_output", `{"id":"b1"}`, fmt.Sprintf("step %d of 40 done", n)) }
		steps := []st{read(1), sleep, read(2), sleep, read(2), sleep, read(2), sleep, read(3)}
		check(t, nil, steps, []want{P, wt(0), P, wt(0), wt(0), wt(0), wt(0), wt(0), P})
		// Pausing back to back is judged like any step.
		check(t, nil, []st{read(1), sleep, sleep, sleep}, []want{P, wt(0), barren(1), barren(2)})
	})
	t.Run("a task board polled between teammates' updates", func(t *testing.T) {
		board := call("list_tasks", `{}`, `[{"id":1,"title":"migrate db","owner":"bob"}]`)
		msg := func(n int) st { return call("read_messages", `{}`, fmt.Sprintf("bob: migration step %d done", n)) }
		steps := []st{board, msg(1), board, msg(2), board, msg(3), board}
		check(t, nil, steps, []want{P, P, barren(1), P, barren(1), P, barren(1)})
	})
}

// TestSeenSetBound: what a run has seen is bounded; what it forgets looks new again and is counted.
func TestSeenSetBound(t *testing.T) {
	var s seenSet
	for i := uint64(0); i < smallMax; i++ {
		if !s.add(i * 0x9e3779b97f4a7c15) {
			t.Fatalf("unit %d seen before it was added", i)
		}
	}
	if s.cur != nil || s.sizeBytes() > 4096 {
		t.Fatalf("exact table: filters %v, %d bytes", s.cur != nil, s.sizeBytes())
	}
	for i := uint64(0); i < smallMax; i++ {
		if s.add(i * 0x9e3779b97f4a7c15) {
			t.Fatalf("unit %d forgotten in the exact table", i)
		}
	}
	// Past smallMax the set becomes filters; what the table held stays known.
	s.add(1 << 62)
	if s.cur == nil {
		t.Fatal("no filters past the exact table's bound")
	}
	for i := uint64(0); i < smallMax; i++ {
		if s.add(i * 0x9e3779b97f4a7c15) {
			t.Fatalf("unit %d lost moving into the filters", i)
		}
	}
	// Three generations' worth: the oldest are forgotten, and counted.
	falseSeen := 0
	for i := uint64(0); i < 3*generationMax; i++ {
		if !s.add(mix(i + 1<<40)) {
			falseSeen++
		}
	}
	if n := s.sizeBytes(); n > 2*int(unsafe.Sizeof(bloom{})) {
		t.Errorf("%d bytes, bound two filters", n)
	}
	if f := s.takeForgotten(); f < int64(generationMax) {
		t.Errorf("forgot %d fingerprints, want at least %d", f, generationMax)
	}
	if s.add(1) == false && s.add(2) == false {
		t.Error("long-forgotten units still seen")
	}
	// A new unit wrongly reported seen: below 1 % with both filters full.
	rate := float64(falseSeen) / float64(3*generationMax)
	if rate > 0.01 {
		t.Errorf("false 'seen' rate %.4f", rate)
	}
	t.Logf("new units reported seen: %d of %d (%.3f %%), %d bytes", falseSeen, 3*generationMax, 100*rate, s.sizeBytes())
}
