// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import (
	"crypto/sha256"
	"strings"
	"testing"
)

var def = New(nil, Limits{})

func of(s string) Result { return def.Of([]byte(s), nil) }

// canonical runs the parser alone and returns the canonical text.
func canonical(t *testing.T, n *Normaliser, in string) string {
	t.Helper()
	var s Scratch
	p := parser{n: n, s: &s, in: []byte(strings.TrimSpace(in)), strip: true}
	if _, ok := p.document(); !ok {
		t.Fatalf("canonical(%q): not accepted", in)
	}
	return string(p.out)
}

func TestCanonicalForm(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{` { "b" : [ 1 , 2 ] , "a" : { "d" : null , "c" : true } } `, `{"a":{"c":true,"d":null},"b":[1,2]}`},
		{`{"a":1,"served_at":"x","b":{"timestamp":1,"c":2}}`, `{"a":1,"b":{"c":2}}`},
		{`{"served_at":"x","a":1}`, `{"a":1}`},
		{`{"a":1,"served_at":"x"}`, `{"a":1}`},
		{`{"served_at":"x"}`, `{}`},
		{`[{"Request-ID":"r1","x":1},{"REQUESTID":"r2","x":2}]`, `[{"x":1},{"x":2}]`},
		{`{"\u0074ime":1,"k":2}`, `{"k":2}`}, // escaped key still volatile
		{`"\u0061\/\"\\\n\u0001\u00e9"`, `"a/\"\\\n\u0001é"`},
		{`"\ud83d\ude00"`, `"😀"`},
		{`"\uD800x"`, `"\ud800x"`},
		{`"\udc00\ud800"`, `"\udc00\ud800"`},
		{`1.0`, `1`},
		{`-0`, `0`},
		{`-0.0e5`, `0`},
		{`1e2`, `100`},
		{`100`, `100`},
		{`1.50`, `1.5`},
		{`0.001`, `0.001`},
		{`1e-6`, `0.000001`},
		{`1e-7`, `1e-7`},
		{`123e-20`, `1.23e-18`},
		{`1e21`, `1e+21`},
		{`1e20`, `100000000000000000000`},
		{`1234567890123456789012`, `1.234567890123456789012e+21`},
		{`-12.3400e1`, `-123.4`},
		{`0.10000000000000001`, `0.10000000000000001`},
		{`{"a":1,"a":0}`, `{"a":0,"a":1}`}, // duplicates kept, ordered by value
		{`{"ab":1,"a":2,"a!":3}`, `{"a":2,"a!":3,"ab":1}`},
	}
	for _, c := range cases {
		if got := canonical(t, def, c.in); got != c.want {
			t.Errorf("canonical(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestOfEqual(t *testing.T) {
	cases := []struct {
		name string
		a, b string
		same bool
	}{
		{"key order", `{"status":"ok","jobs":[1,2],"meta":{"x":1,"y":2}}`, `{"meta":{"y":2,"x":1},"jobs":[1,2],"status":"ok"}`, true},
		{"array order matters", `[1,2]`, `[2,1]`, false},
		{"volatile at depth", `{"data":{"items":[{"id":1,"updated_at":"2026-03-17T09:12:44Z"}]},"request_id":"a"}`,
			`{"request_id":"b","data":{"items":[{"updated_at":"2026-03-18T00:00:00Z","id":1}]}}`, true},
		{"deploy queued vs running",
			`{"status":"queued","jobs":"0/4","served_at":"2026-03-17T09:12:44.181Z"}`,
			`{"status":"running","jobs":"1/4","served_at":"2026-03-17T09:12:49.181Z"}`, false},
		{"deploy running twice",
			`{"status":"running","jobs":"1/4","served_at":"2026-03-17T09:12:49.181Z"}`,
			`{"served_at":"2026-03-17T09:12:54.002Z","jobs":"1/4","status":"running"}`, true},
		{"number forms", `{"n":1.0,"m":2e1}`, `{"n":1,"m":20}`, true},
		{"string escapes", `{"s":"\u0061"}`, `{"s":"a"}`, true},
		{"whitespace", "{\n  \"a\": [ 1 ]\n}", `{"a":[1]}`, true},
		{"text equals JSON string", `  0 results `, `"0 results"`, true},
		{"text vs number", `0 results`, `0`, false},
		{"non-volatile kept", `{"a":1,"statuses":"x"}`, `{"a":1}`, false},
		{"blank equals empty string", "  \n", `""`, true},
		{"invalid JSON is text", `{"a":1`, `"{\"a\":1"`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ra, rb := of(c.a), of(c.b)
			if (ra.Sum == rb.Sum) != c.same {
				t.Errorf("Of(%s) == Of(%s): %v, want %v", c.a, c.b, ra.Sum == rb.Sum, c.same)
			}
		})
	}
}

func TestEmpty(t *testing.T) {
	cases := []struct {
		in    string
		empty bool
	}{
		{`{}`, true},
		{`[]`, true},
		{`{"rows":[]}`, true},
		{`{"count":0,"items":null}`, true},
		{`""`, true},
		{``, true},
		{`   `, true},
		{`{"results":[],"total":0}`, true},
		{`{"results":[{}],"total":0.0,"more":false}`, true},
		{`{"served_at":"2026-03-17T09:12:44Z","rows":[]}`, true},
		{`null`, true},
		{`0`, true},
		{`{"status":"ok"}`, false},
		{`{"total":1}`, false},
		{`{"more":true}`, false},
		{`[0,0," "]`, false},
		{`0 results`, false},
		{`no rows`, false},
		{`{"a":`, false}, // invalid: text, not empty
	}
	for _, c := range cases {
		if got := of(c.in); got.Empty != c.empty {
			t.Errorf("Of(%q).Empty = %v, want %v", c.in, got.Empty, c.empty)
		}
	}
}

func TestInvalid(t *testing.T) {
	deep := strings.Repeat("[", 65) + strings.Repeat("]", 65)
	okDeep := strings.Repeat("[", 64) + strings.Repeat("]", 64)
	cases := []struct {
		in      string
		invalid bool
	}{
		{`{"a":1`, true},
		{`[1,]`, true},
		{`{"a":01}`, true},
		{`{"a":"x` + "\n" + `"}`, true}, // raw control character in a string
		{`{"a":1} trailing`, true},
		{`{'a':1}`, true},
		{`["\x"]`, true},
		{deep, true},
		{okDeep, false},
		{`{"a":1}`, false},
		{`0 results`, false}, // text, not JSON-looking
		{`true story`, false},
		{`"unterminated`, false},
	}
	for _, c := range cases {
		if got := of(c.in); got.Invalid != c.invalid {
			t.Errorf("Of(%.40q).Invalid = %v, want %v", c.in, got.Invalid, c.invalid)
		}
	}
	// Digest as text: same as the JSON string holding the trimmed input.
	if a, b := of(" [1,] "), of(`"[1,]"`); a.Sum != b.Sum {
		t.Error("invalid JSON not digested as text")
	}
}

func TestMaxBytes(t *testing.T) {
	n := New(nil, Limits{MaxBytes: 16})
	small := `{"b":1,"a":2}`
	if r := n.Of([]byte(small), nil); r.Invalid || r.Sum != def.Of([]byte(small), nil).Sum {
		t.Errorf("small input under MaxBytes not normalised: %+v", r)
	}
	big := `{"b":1,"a":2,"c":3}`
	r := n.Of([]byte(big), nil)
	if !r.Invalid {
		t.Error("input over MaxBytes: Invalid not reported")
	}
	if r.Sum != def.Of([]byte(`"`+strings.ReplaceAll(big, `"`, `\"`)+`"`), nil).Sum {
		t.Error("input over MaxBytes not digested as text")
	}
	// Text longer than one streaming chunk hashes the same as if it were
	// escaped in one piece.
	long := strings.Repeat("line \"quoted\"\n", 10000)
	want := sha256.Sum256([]byte(`"` + string(appendEscaped(nil, []byte(strings.TrimSpace(long)))) + `"`))
	if got := def.Of([]byte(long), nil); got.Sum != sum16(want) {
		t.Error("streamed text digest differs from the one-piece digest")
	}
}

func TestVolatileConfig(t *testing.T) {
	n := New([]string{"Request-Id", "x"}, Limits{})
	if a, b := n.Of([]byte(`{"requestId":1,"v":1}`), nil), n.Of([]byte(`{"request_id":2,"v":1}`), nil); a.Sum != b.Sum {
		t.Error("configured volatile field not stripped")
	}
	if a, b := n.Of([]byte(`{"served_at":1}`), nil), n.Of([]byte(`{"served_at":2}`), nil); a.Sum == b.Sum {
		t.Error("served_at stripped although not configured")
	}
	none := New([]string{}, Limits{})
	if a, b := none.Of([]byte(`{"etag":1}`), nil), none.Of([]byte(`{"etag":2}`), nil); a.Sum == b.Sum {
		t.Error("empty volatile list still strips")
	}
}

func TestKey(t *testing.T) {
	var s Scratch
	k := func(tool, args string) Sum { return def.Key(tool, []byte(args), &s) }
	base := k("get_build_status", `{"build_id":"b_88231","verbose":false}`)
	same := []struct{ tool, args string }{
		{" Get_Build_Status ", `{"verbose":false,"build_id":"b_88231"}`},
		{"get_build_status", "{ \"build_id\" : \"b_88231\" , \"verbose\" : false }"},
	}
	for _, c := range same {
		if k(c.tool, c.args) != base {
			t.Errorf("Key(%q, %s) differs from the base call", c.tool, c.args)
		}
	}
	differ := []struct{ tool, args string }{
		{"get_build_status", `{"build_id":"b_88232","verbose":false}`},
		{"get_build_log", `{"build_id":"b_88231","verbose":false}`},
		{"get_build_status", `{"build_id":"b_88231","verbose":false,"date":"2026-01-01"}`},
	}
	for _, c := range differ {
		if k(c.tool, c.args) == base {
			t.Errorf("Key(%q, %s) equals the base call", c.tool, c.args)
		}
	}
	if k("ls", "") != k("ls", "{}") || k("ls", "  ") != k("ls", "{}") {
		t.Error("blank arguments are not {}")
	}
	if k("ls", "not json") == k("ls", `"not json`) {
		t.Error("text arguments collide with other text")
	}
	if k("ls", "not json") != k("ls", `"not json"`) {
		t.Error("text arguments not digested as a JSON string")
	}
	// Tool name and arguments cannot run into each other.
	if k("a", `"b"`) == k(`a","b`, "") {
		t.Error("tool/argument boundary is ambiguous")
	}
	if k("ls", "") != def.Of([]byte(`["ls",{}]`), nil).Sum {
		t.Error("Key is not the digest of [tool, args]")
	}
}

func TestAllocs(t *testing.T) {
	var s Scratch
	for _, in := range benchInputs() {
		in := in
		def.Of(in.data, &s)
		if a := testing.AllocsPerRun(100, func() { def.Of(in.data, &s) }); a != 0 {
			t.Errorf("Of(%s): %v allocs per call, want 0", in.name, a)
		}
	}
	text := []byte("plain text result, not JSON at all")
	def.Of(text, &s)
	if a := testing.AllocsPerRun(100, func() { def.Of(text, &s) }); a != 0 {
		t.Errorf("Of(text): %v allocs per call, want 0", a)
	}
	args := []byte(`{"q":"refund policy annual plans","limit":10}`)
	def.Key("search_docs", args, &s)
	if a := testing.AllocsPerRun(100, func() { def.Key("search_docs", args, &s) }); a != 0 {
		t.Errorf("Key: %v allocs per call, want 0", a)
	}
}

func TestScratchConcurrentUse(t *testing.T) {
	// One Normaliser, one Scratch per goroutine: the -race run checks this.
	in := benchInputs()
	want := make([]Sum, len(in))
	for i, b := range in {
		want[i] = def.Of(b.data, nil).Sum
	}
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			var s Scratch
			ok := true
			for r := 0; r < 50; r++ {
				for i, b := range in {
					ok = ok && def.Of(b.data, &s).Sum == want[i]
				}
			}
			done <- ok
		}()
	}
	for g := 0; g < 4; g++ {
		if !<-done {
			t.Error("concurrent Of gave a different digest")
		}
	}
}
