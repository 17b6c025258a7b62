// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import (
	"strings"
	"testing"
)

// TestInBandFailures: a failure returned as the result is a failure, however the tool reports it;
// a result that reports one failed item among others is a result.
func TestInBandFailures(t *testing.T) {
	failed := []string{
		`{"content":[{"type":"text","text":"Error: no such table"}],"isError":true}`,
		`{"is_error":true,"content":"boom"}`,
		`{"error":"upstream 503"}`,
		`{"error":{"code":-32602,"message":"Invalid params"},"id":3}`,
		`{"errors":[{"message":"Field 'x' doesn't exist"}],"data":null}`,
		`{"ok":false,"reason":"not_found"}`,
		`{"success":false}`,
		`{"status":"error","message":"quota"}`,
		"Error: ENOENT: no such file or directory",
		"ERROR: relation \"users\" does not exist",
		"Traceback (most recent call last):\n  File \"x.py\"",
		"fatal: not a git repository",
		"Failed to fetch https://example.com",
		"I encountered an error while trying to use the tool. This was the error: 202 Ratelimit.",
		`"Error: quoted"`,
	}
	for _, r := range failed {
		if !of(r).Failed {
			t.Errorf("%q not read as a failure", r)
		}
	}
	results := []string{
		`{"error":null,"data":[1]}`, `{"error":"","rows":2}`, `{"errors":[]}`, `{"ok":true}`,
		`{"status":"failed","build":"b_1"}`, // a build that failed is the build's state, not the tool's
		`{"items":[{"error":"x"}]}`,         // one item's failure inside a result
		"errors: 0", "0 errors found", "Errored tests: none", "The error handler is in a.go",
		`{"content":[{"type":"text","text":"ok"}],"isError":false}`,
	}
	for _, r := range results {
		if of(r).Failed {
			t.Errorf("%q read as a failure", r)
		}
	}
}

func TestChannelFailures(t *testing.T) {
	channel := []string{
		"429 Too Many Requests", "HTTP 403 Forbidden", "rate limit exceeded", "Request throttled",
		"upstream connect error: connection refused", "503 Service Unavailable", "blocked by robots.txt",
		"Please complete the CAPTCHA", "request timed out", `{"error":"quota exceeded"}`,
	}
	for _, r := range channel {
		if !of(r).Channel {
			t.Errorf("%q not a channel failure", r)
		}
	}
	item := []string{"Model not found", "404 Not Found", "no such file or directory", "File attached", "Invalid model name", "took 403ms"}
	for _, r := range item {
		if of(r).Channel {
			t.Errorf("%q read as a channel failure", r)
		}
	}
}

func TestWaitingReports(t *testing.T) {
	waiting := []string{
		`{"status":"running","jobs":"1/4"}`, `{"jobId":"j","state":"QUEUED"}`,
		`{"workflow_runs":[{"id":1,"status":"in_progress","conclusion":null}]}`,
		`{"job":{"jobStatus":"In Progress"}}`, `{"phase":"Pending"}`,
		"(session 2 still running)",
		"[The command has no new output after 30 seconds. You may wait longer to see additional output]",
		"Build is still running (3/10 steps)",
	}
	for _, r := range waiting {
		if !of(r).Waiting {
			t.Errorf("%q not read as waiting", r)
		}
	}
	done := []string{
		`{"status":"completed","conclusion":"success"}`, `{"status":"failed"}`, `{"message":"running total: 3"}`,
		`{"items":[{"name":"running shoes"}]}`, "all 212 tests passed", `{"status_code":200}`,
	}
	for _, r := range done {
		if of(r).Waiting {
			t.Errorf("%q read as waiting", r)
		}
	}
}

// TestBriefAnswers: an acknowledgement is empty, one short line, or a few JSON units of which one at
// most is a line; anything more is a document.
func TestBriefAnswers(t *testing.T) {
	brief := []string{
		"", "File attached", "Model not found", "[]", `{"products":[]}`, `{"ok":true,"id":"a1"}`,
		`{"content":[{"type":"text","text":"File attached"}]}`, "replaced 1 occurrence(s) in /app/input.tex",
	}
	for _, r := range brief {
		if !of(r).Brief {
			t.Errorf("%q is not brief", r)
		}
	}
	documents := []string{
		"<title>Race</title>\n<div id=root></div>", strings.Repeat("word ", 40),
		`{"a":1,"b":2,"c":3,"d":4,"e":5}`, `{"title":"Refund policy","body":"Annual plans are refunded pro rata"}`,
		`[{"title":"a","url":"https://x/a"},{"title":"b","url":"https://x/b"},{"title":"c","url":"https://x/c"}]`,
	}
	for _, r := range documents {
		if of(r).Brief {
			t.Errorf("%q is brief", r)
		}
	}
}
