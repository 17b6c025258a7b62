// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"fmt"
	"time"
)

// The poll scenarios all watch one CI build through get_build_status, the
// tool the README's wait manifest declares (waiting: queued, running;
// terminal: success and friends). Every reply carries served_at and
// request_id, the volatile fields a detector has to strip before comparing.

func buildID(g *gen) string {
	return g.article("b_88231", func() string { return fmt.Sprintf("b_%05d", g.between(10000, 99999)) })
}

func pollStep(build string, status obj) step {
	return step{tool: "get_build_status", args: obj{{"build_id", build}}, result: status, stamp: servedAt | requestID}
}

func polls(build string, status obj, n int) []step {
	s := make([]step, n)
	for i := range s {
		s[i] = pollStep(build, status)
	}
	return s
}

// deployRun is the healthy poll: byte-identical requests, moving replies.
func deployRun(g *gen) script {
	build := buildID(g)
	pr := 4412
	if g.vary {
		pr = g.between(1000, 9999)
	}
	var steps []step
	for _, st := range [][2]string{
		{"queued", "0/4"}, {"running", "1/4"}, {"running", "1/4"},
		{"running", "2/4"}, {"running", "3/4"}, {"success", "4/4"},
	} {
		steps = append(steps, pollStep(build, obj{{"status", st[0]}, {"jobs", st[1]}}))
	}
	sha := g.hex(40)
	steps = append(steps, step{
		tool:   "merge_pr",
		args:   obj{{"pr", pr}, {"build_id", build}},
		result: obj{{"merged", true}, {"sha", sha}},
	})
	return script{
		task:     fmt.Sprintf("Wait for build %s to pass, then merge PR #%d.", build, pr),
		interval: 10 * time.Second,
		steps:    steps,
		answer:   fmt.Sprintf("Build %s passed all 4 jobs; PR #%d is merged as %s.", build, pr, sha[:7]),
	}
}

// finishedPollRun keeps asking a build that has already succeeded: no
// exemption applies to a terminal status, so this is the plain loop.
func finishedPollRun(g *gen) script {
	build := buildID(g)
	return script{
		task:     fmt.Sprintf("Tell me when build %s is done.", build),
		interval: 10 * time.Second,
		steps:    polls(build, obj{{"status", "success"}, {"jobs", "4/4"}}, 5),
		answer:   fmt.Sprintf("Build %s has finished successfully.", build),
	}
}

// unknownWaitRun leaves the waiting states for one the manifest does not
// list, which ends the exemption on its first occurrence.
func unknownWaitRun(g *gen) script {
	build := buildID(g)
	steps := polls(build, obj{{"status", "running"}}, 2)
	steps = append(steps, polls(build, obj{{"status", "unknown"}}, 5)...)
	return script{
		task:     fmt.Sprintf("Wait for build %s to finish and report the result.", build),
		interval: 10 * time.Second,
		steps:    steps,
		answer:   fmt.Sprintf("The CI provider reports build %s as unknown; I cannot tell whether it passed.", build),
	}
}

// waitTimeoutRun polls a build that never leaves the queue, once a minute for
// 25 minutes: a legitimate wait that outlives a 20-minute max_wait.
func waitTimeoutRun(g *gen) script {
	build := buildID(g)
	return script{
		task:     fmt.Sprintf("Wait for build %s to pass, then merge the PR.", build),
		interval: time.Minute,
		steps:    polls(build, obj{{"status", "queued"}, {"jobs", "0/4"}}, 26),
		answer:   fmt.Sprintf("Build %s is still queued after 25 minutes; I did not merge.", build),
	}
}
