// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import "slices"

// Waiting reports. A tool that reports on something still in progress (a job, a build, a running
// command) answers a repeated poll the same way until the thing moves, and polling it is waiting,
// whether or not anyone declared the tool a wait. Of marks a result Waiting when:
//
//   - a member of a JSON result, at any depth, named status or state (or ending so: job_status,
//     runState), or phase or stage, holds one of waitingValues (compared as member names are:
//     "in_progress", "In Progress" and "in-progress" are one value);
//   - or the first or last waitingScan bytes of a text result (where a tool writes a status line:
//     "(session 2 still running)", a long command's output and then "[... no new output after 30
//     seconds ...]"), or a string of a JSON result of more than one word and at most statusLine
//     bytes, hold one of waitingPhrases at the start of a word.
//
// The progress state lets such a poll wait, within a deadline of its own (see package progress).

var waitingValues = []string{
	"queued", "pending", "running", "inprogress", "processing", "started", "starting", "waiting",
	"scheduled", "provisioning", "building", "deploying", "initializing", "initialising",
	"executing", "inqueue", "notstarted",
}

const (
	waitingScan = 192
	statusLine  = 160
)

var waitingPhrases = newWordList([]string{
	"still running", "still in progress", "in progress", "no new output", "not finished",
	"not yet finished", "not yet complete", "still processing", "still pending", "still waiting",
	"is running", "is still running",
})

// waitingText reports whether the head or the tail of a text says something is still in progress.
func waitingText(t []byte) bool {
	if len(t) <= 2*waitingScan {
		return waitingPhrases.in(t, nil)
	}
	return waitingPhrases.in(t[:waitingScan], nil) || waitingPhrases.in(t[len(t)-waitingScan:], nil)
}

// statusKey reports whether a member name (canonical text) names a status: status, state, phase,
// stage, or a name ending in status or state.
func statusKey(key []byte) bool {
	// Every such name ends in s or e (status, state, phase, stage): most names are ruled out at once.
	if len(key) == 0 || key[len(key)-1]|0x20 != 's' && key[len(key)-1]|0x20 != 'e' {
		return false
	}
	var buf [40]byte
	k := string(normaliseName(buf[:0], key, len(buf)))
	return k == "phase" || k == "stage" || len(k) >= 5 && (k[len(k)-5:] == "state") || len(k) >= 6 && k[len(k)-6:] == "status"
}

// waitingValue reports whether a status's canonical string content is a waiting value.
func waitingValue(v []byte) bool {
	var buf [40]byte
	k := normaliseName(buf[:0], v, len(buf))
	return k != nil && slices.Contains(waitingValues, string(k))
}
