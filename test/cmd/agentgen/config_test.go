// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentotel/agentotel/internal/agentgen"
)

func TestConfigDefaults(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		endpoint string
		count    int
	}{
		{nil, "127.0.0.1:4317", 4},
		{[]string{"-protocol", "http"}, "127.0.0.1:4318", 4},
		{[]string{"-scenario", "mix"}, "127.0.0.1:4317", 100},
		{[]string{"-scenario", "code"}, "127.0.0.1:4317", 1},
		{[]string{"-scenario", "code", "-count", "7", "-endpoint", "otel:4317"}, "otel:4317", 7},
	} {
		cfg, err := parseConfig(tc.args, io.Discard)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if cfg.endpoint != tc.endpoint || cfg.count != tc.count || cfg.convention != agentgen.GenAI ||
			cfg.batch != 1 || cfg.timeout != 10*time.Second {
			t.Errorf("%q: got %+v", tc.args, cfg)
		}
	}
}

func TestConfigSeed(t *testing.T) {
	// An unset seed comes from the clock, so two invocations at different instants differ.
	t.Cleanup(func() { clock = time.Now })
	for _, at := range []time.Time{time.Unix(1, 0), time.Unix(1, 1)} {
		clock = func() time.Time { return at }
		if c, _ := parseConfig(nil, io.Discard); c.seed != uint64(at.UnixNano()) {
			t.Errorf("unset seed at %v gave %d", at, c.seed)
		}
	}
	if c, _ := parseConfig([]string{"-seed", "0"}, io.Discard); c.seed != 0 {
		t.Errorf("-seed 0 gave %d", c.seed)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-protocol", "udp"}, "grpc or http"},
		{[]string{"-scenario", "nope"}, "alternation"},
		{[]string{"-convention", "otel"}, "openllmetry, unknown"},
		{[]string{"-count", "-1"}, "-count"},
		{[]string{"-rate", "-2"}, "-rate"},
		{[]string{"-batch", "0"}, "-batch"},
		{[]string{"-timeout", "0s"}, "-timeout"},
		{[]string{"-endpoint", "http://127.0.0.1:4318"}, "host:port"},
		{[]string{"extra"}, "unexpected"},
		{[]string{"-nope"}, "not defined"},
	} {
		_, err := parseConfig(tc.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one mentioning %q", tc.args, err, tc.want)
		}
	}
}

func TestList(t *testing.T) {
	code, out, _ := runCLI(t, "-list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, name := range agentgen.Scenarios() {
		if !strings.Contains(out, name) {
			t.Errorf("-list lacks %s:\n%s", name, out)
		}
	}
	if !strings.Contains(out, "wait_timeout") || !strings.Contains(out, "repeated_error") {
		t.Errorf("-list lacks expected reasons:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == "over-budget" && (f[4] != "over_budget" || f[5] != "1m0s") {
			t.Errorf("-list shows over-budget without its outcome and budget: %q", line)
		}
	}
	for _, outcome := range []string{"answered", "cut_off", "empty", "failed", "stuck"} {
		if !strings.Contains(out, " "+outcome+" ") {
			t.Errorf("-list lacks the outcome %s:\n%s", outcome, out)
		}
	}
}

// TestUnknownConvention: the SDK agentotel does not know is selectable by name,
// though it is not one of the known conventions.
func TestUnknownConvention(t *testing.T) {
	cfg, err := parseConfig([]string{"-convention", "unknown", "-scenario", "tool-throws"}, io.Discard)
	if err != nil || cfg.convention != agentgen.Unknown {
		t.Fatalf("-convention unknown: %+v, %v", cfg, err)
	}
	path := filepath.Join(t.TempDir(), "unknown.jsonl")
	if code, _, errOut := runCLI(t, "-out", path, "-convention", "unknown", "-scenario", "mix", "-count", "3", "-seed", "1"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "mysdk.args") {
		t.Errorf("the unknown SDK's spans were not written: %v", err)
	}
}

func TestBadFlagsExitTwo(t *testing.T) {
	if code, _, errOut := runCLI(t, "-batch", "0"); code != 2 || !strings.Contains(errOut, "-batch") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if code, _, _ := runCLI(t, "-h"); code != 0 {
		t.Errorf("-h exits %d", code)
	}
}
