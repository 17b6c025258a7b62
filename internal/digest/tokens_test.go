// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import (
	"bytes"
	"testing"
)

func masked(s string) string {
	b := []byte(s)
	return string(b[:maskVolatile(b)])
}

func TestVolatileTokens(t *testing.T) {
	const m = "\x01"
	cases := []struct{ in, want string }{
		// Times.
		{"served 2026-03-17T09:12:44.181Z ok", "served " + m + " ok"},
		{"at 2026-03-17 09:12:44+02:00.", "at " + m + "."},
		{"[09:12:44] Building", "[" + m + "] Building"},
		{"61.32s (0:01:01)", m + " (" + m + ")"},
		{"released 2026-03-17", "released 2026-03-17"}, // a date alone is content
		// Ids.
		{"request 3f2a9c1e-7b4d-4e8a-9f00-1a2b3c4d5e6f failed", "request " + m + " failed"},
		{"trace 4bf92f3577b34da6a3ce929d0e0e4736", "trace " + m},
		{"at 0x7f8e9c0b1a20>", "at " + m + ">"},
		{"deadbeefdeadbeef", "deadbeefdeadbeef"}, // hex letters without a digit: a word
		{"1234567890123456", "1234567890123456"}, // digits without a letter: a number
		// Epochs.
		{"ts=1712345678 ms=1712345678123", "ts=" + m + " ms=" + m},
		{"order 1234567890", "order 1234567890"}, // before 2017: not an epoch
		// Durations.
		{"3 passed in 1.21s", "3 passed in " + m},
		{"took 45ms, 12µs, 2m30s", "took " + m + ", " + m + ", " + m},
		{"after 12 seconds", "after " + m},
		{"waited 0.5 min", "waited " + m},
		{"5m rows", "5m rows"}, // an integer needs a unit below the minute
		// Counters of the agent's own calls.
		{"pid 4242 exited", "pid " + m + " exited"},
		{"PID: 77", "PID: " + m},
		{"attempt 3 of 5", "attempt " + m + " of 5"},
		{"Retry #2", "Retry #" + m},
		{"(read 7× this session)", "(read " + m + " this session)"},
		{"called 4 times", "called " + m},
		// Progress stays.
		{`jobs 1/4 45% passed: 10`, `jobs 1/4 45% passed: 10`},
		{"build 12 of 40", "build 12 of 40"},
		{"v1.2.3", "v1.2.3"},
	}
	for _, c := range cases {
		if got := masked(c.in); got != c.want {
			t.Errorf("mask(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestVolatileTokensInResults: a result that differs only in volatile tokens inside its strings
// digests alike, in a JSON string or as text; one whose counts moved does not.
func TestVolatileTokensInResults(t *testing.T) {
	same := [][2]string{
		{`{"error":"timeout after 1.5s (attempt 2)"}`, `{"error":"timeout after 2.25s (attempt 3)"}`},
		{"3 passed in 1.21s", "3 passed in 1.24s"},
		{`{"log":"[09:12:44] pid 41 started"}`, `{"log":"[09:13:02] pid 57 started"}`},
		{"request 3f2a9c1e-7b4d-4e8a-9f00-1a2b3c4d5e6f: 503", "request 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0: 503"},
	}
	for _, p := range same {
		if of(p[0]).Sum != of(p[1]).Sum {
			t.Errorf("%q and %q digest differently", p[0], p[1])
		}
	}
	differ := [][2]string{
		{`{"jobs":"1/4"}`, `{"jobs":"2/4"}`},
		{"passed: 10", "passed: 11"},
		{`{"msg":"3 passed"}`, `{"msg":"4 passed"}`},
	}
	for _, p := range differ {
		if of(p[0]).Sum == of(p[1]).Sum {
			t.Errorf("%q and %q digest alike", p[0], p[1])
		}
	}
	// Arguments are not results: a time in a call is a parameter the model chose.
	if def.Key("t", []byte(`{"at":"2026-03-17T09:12:44Z"}`), nil) == def.Key("t", []byte(`{"at":"2026-03-18T09:12:44Z"}`), nil) {
		t.Error("call keys mask volatile tokens")
	}
}

// FuzzMaskVolatile: masking never lengthens the text, only replaces spans of it (what it keeps is
// the input in order), never touches text without a digit, and agrees with the byte-by-byte
// reference.
func FuzzMaskVolatile(f *testing.F) {
	for _, s := range []string{"2026-03-17T09:12:44.181Z", "pid 42", "1.5s", "read 3× this", "0x7fff00aa", "attempt", "9", "\xc3", "0×0×"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		b := bytes.Clone(in)
		n := maskVolatile(b)
		if n > len(in) {
			t.Fatalf("masking lengthened %q to %d bytes", in, n)
		}
		out := b[:n]
		if !subsequence(bytes.ReplaceAll(out, []byte{marker}, nil), in) {
			t.Fatalf("masking %q kept bytes out of order: %q", in, out)
		}
		if bytes.IndexFunc(in, func(r rune) bool { return '0' <= r && r <= '9' }) < 0 && string(out) != string(in) {
			t.Fatalf("text without a digit changed: %q -> %q", in, out)
		}
		if slow := maskVolatileSlow(in); string(out) != string(slow) {
			t.Fatalf("mask(%q) = %q, the reference says %q", in, out, slow)
		}
	})
}

// maskVolatileSlow is the reference maskVolatile is held to: at every start of a token, in order, the
// first class that matches, or a counter word and its number, is masked.
func maskVolatileSlow(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		if alnum[b[i]] && (i == 0 || !alnum[b[i-1]]) {
			if n := volatileAtSlow(b[i:]); n > 0 {
				out = append(out, marker)
				i += n
				continue
			}
			if k, n := keywordNumber(b[i:]); n > 0 {
				out = append(out, b[i:i+k]...)
				out = append(out, marker)
				i += k + n
				continue
			}
		}
		out = append(out, b[i])
		i++
	}
	return out
}

// volatileAtSlow tries every class, in the documented order.
func volatileAtSlow(b []byte) int {
	for _, class := range []func([]byte) int{dateTime, timeOfDay, uuid, hexID, epoch, repetitions, duration} {
		if n := class(b); n > 0 {
			return n
		}
	}
	return 0
}

func subsequence(sub, s []byte) bool {
	for _, c := range sub {
		i := bytes.IndexByte(s, c)
		if i < 0 {
			return false
		}
		s = s[i+1:]
	}
	return true
}
