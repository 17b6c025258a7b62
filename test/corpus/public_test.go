// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package corpus measures agentguard on runs reconstructed from failure reports in public agent projects
// (testdata/corpus/public), so its detection quality is not measured only on our own generator's
// scenarios. See docs/detection.md.
package corpus

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor/processortest"

	"github.com/agentotel/agentotel/internal/repo"
	"github.com/agentotel/agentotel/internal/walk"
	"github.com/agentotel/agentotel/processor/agentguard"
)

// publicCase is one file of testdata/corpus/public.
type publicCase struct {
	Source struct {
		URL   string `json:"url"`
		Repo  string `json:"repo"`
		Issue int    `json:"issue"`
		Quote string `json:"quote"`
	} `json:"source"`
	Pattern string `json:"pattern"`
	Agent   string `json:"agent"`
	Expect  string `json:"expect"`
	// Reason is the reason agentguard should give on the first stuck event ("" when any reason will do,
	// or when the run is healthy).
	Reason string `json:"reason"`
	Why    string `json:"why"`
	// Config holds agentguard configuration keys (the tools manifest, and any other key) as in YAML.
	Config map[string]any `json:"config"`
	// KnownMiss marks a case agentguard is known to get wrong: it counts in the figures, and the test
	// fails if agentguard starts getting it right, so the mark is removed.
	KnownMiss       bool   `json:"known_miss"`
	KnownMissReason string `json:"known_miss_reason"`
	Steps           []step `json:"steps"`
}

type step struct {
	Tool     string          `json:"tool"`
	Args     json.RawMessage `json:"args"`
	Result   json.RawMessage `json:"result"`
	Error    string          `json:"error"`
	OffsetMS int64           `json:"offset_ms"`
}

// verdict is what agentguard said about one run.
type verdict struct {
	reasons []string // the reason of every agentguard.stuck event, in step order
	steps   []int64  // the agentguard.step of the span carrying each event
}

func (v verdict) stuck() bool { return len(v.reasons) > 0 }

func (v verdict) String() string {
	if !v.stuck() {
		return "healthy"
	}
	parts := make([]string, len(v.reasons))
	for i, r := range v.reasons {
		parts[i] = fmt.Sprintf("%s@%d", r, v.steps[i])
	}
	return "stuck (" + strings.Join(parts, ", ") + ")"
}

type outcome struct {
	name string
	c    publicCase
	v    verdict
}

// TestPublicCorpus judges every public case with agentguard built from its factory and reports precision
// and recall (stuck is positive). It fails when a case agentguard gets right goes wrong, and when a case
// marked known_miss starts passing (remove the mark then).
func TestPublicCorpus(t *testing.T) {
	outcomes := judgeAll(t)
	var all tally
	for _, o := range outcomes {
		want, got := o.c.Expect == "stuck", o.v.stuck()
		all.count(want, got)
		t.Run(o.name, func(t *testing.T) {
			right := want == got
			switch {
			case o.c.KnownMiss && right:
				t.Errorf("known miss now passes (agentguard says %s): remove known_miss from %s.json and update docs/detection.md", o.v, o.name)
			case !o.c.KnownMiss && !right:
				t.Errorf("expected %s, agentguard says %s", o.c.Expect, o.v)
			case !o.c.KnownMiss && want && o.c.Reason != "" && o.v.reasons[0] != o.c.Reason:
				t.Errorf("expected reason %s, agentguard says %s", o.c.Reason, o.v)
			}
		})
	}
	t.Logf("| case | pattern | expected | agentguard |")
	for _, o := range outcomes {
		mark := ""
		if o.c.KnownMiss {
			mark = " (known miss)"
		}
		t.Logf("| %s | %s | %s | %s%s |", o.name, o.c.Pattern, o.c.Expect, o.v, mark)
	}
	t.Log(all.figures("public corpus"))
}

// TestPublicCorpusDocumented keeps docs/detection.md in step with the corpus: every case is named there,
// and the figures line is the one TestPublicCorpus measures.
func TestPublicCorpusDocumented(t *testing.T) {
	outcomes := judgeAll(t)
	var all tally
	for _, o := range outcomes {
		all.count(o.c.Expect == "stuck", o.v.stuck())
	}
	doc := detectionDoc(t)
	for _, o := range outcomes {
		row, ok := docRow(doc, o.name)
		switch {
		case !ok:
			t.Errorf("docs/detection.md does not list %s.json", o.name)
		case !strings.Contains(row, "| "+o.v.String()):
			t.Errorf("docs/detection.md shows %s.json without the verdict agentguard gives it, %s", o.name, o.v)
		}
	}
	if line := all.figures("public corpus"); !bytes.Contains(doc, []byte(line)) {
		t.Errorf("docs/detection.md does not carry the measured figures; expected the line:\n%s", line)
	}
}

func detectionDoc(t *testing.T) []byte {
	doc, err := os.ReadFile(filepath.Join(repo.Root(t), "docs", "detection.md"))
	require.NoError(t, err)
	return doc
}

// docRow is the cases table's row of a case in docs/detection.md: the line that links its file.
func docRow(doc []byte, name string) (string, bool) {
	link := "[" + name + ".json]"
	for line := range bytes.Lines(doc) {
		if bytes.HasPrefix(line, []byte("| "+link)) {
			return string(line), true
		}
	}
	return "", false
}

// tally counts a detector's verdicts against the cases' expectations.
type tally struct{ tp, fp, fn, tn int }

// count adds one case: want, it is stuck; got, the detector flagged it.
func (x *tally) count(want, got bool) {
	switch {
	case want && got:
		x.tp++
	case !want && got:
		x.fp++
	case want && !got:
		x.fn++
	default:
		x.tn++
	}
}

// figures is the line docs/detection.md carries for a detector, named name.
func (x tally) figures(name string) string {
	ratio := func(a, b int) string {
		if b == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.3f (%d/%d)", float64(a)/float64(b), a, b)
	}
	return fmt.Sprintf("%s: %d cases, tp=%d fp=%d fn=%d tn=%d, precision %s, recall %s",
		name, x.tp+x.fp+x.fn+x.tn, x.tp, x.fp, x.fn, x.tn, ratio(x.tp, x.tp+x.fp), ratio(x.tp, x.tp+x.fn))
}

func judgeAll(t *testing.T) []outcome {
	t.Helper()
	dir := filepath.Join(repo.Root(t), "testdata", "corpus", "public")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no cases in %s", dir)
	slices.Sort(files)
	var out []outcome
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		c := loadCase(t, f)
		out = append(out, outcome{name: name, c: c, v: judge(t, name, c)})
	}
	return out
}

func loadCase(t *testing.T, path string) publicCase {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var c publicCase
	require.NoError(t, dec.Decode(&c), path)
	name := filepath.Base(path)
	require.NotEmpty(t, c.Source.URL, "%s: source.url", name)
	require.NotEmpty(t, c.Source.Repo, "%s: source.repo", name)
	require.Positive(t, c.Source.Issue, "%s: source.issue", name)
	require.Contains(t, c.Source.URL, c.Source.Repo, "%s: source.url names source.repo", name)
	require.True(t, strings.HasSuffix(c.Source.URL, fmt.Sprintf("/%d", c.Source.Issue)), "%s: source.url ends in source.issue", name)
	require.NotEmpty(t, c.Source.Quote, "%s: source.quote", name)
	require.Contains(t, []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}, c.Pattern, "%s: pattern", name)
	require.NotEmpty(t, c.Agent, "%s: agent", name)
	require.Contains(t, []string{"stuck", "healthy"}, c.Expect, "%s: expect", name)
	require.True(t, c.Expect == "stuck" || c.Reason == "", "%s: a healthy case has no reason", name)
	require.NotEmpty(t, c.Why, "%s: why", name)
	require.Equal(t, c.KnownMiss, c.KnownMissReason != "", "%s: known_miss and known_miss_reason go together", name)
	require.NotEmpty(t, c.Steps, "%s: steps", name)
	for i, s := range c.Steps {
		require.NotEmpty(t, s.Tool, "%s: step %d: tool", name, i)
		require.True(t, len(s.Result) > 0 || s.Error != "", "%s: step %d: a result or an error", name, i)
		if i > 0 {
			require.GreaterOrEqual(t, s.OffsetMS, c.Steps[i-1].OffsetMS, "%s: step %d: offsets never go back", name, i)
		}
	}
	return c
}

// judge runs the case's trace through agentguard, built from its public factory with the case's
// configuration, and reads the verdict from the agentguard.stuck events of the output.
func judge(t *testing.T, name string, c publicCase) verdict {
	t.Helper()
	ctx := context.Background()
	factory := agentguard.NewFactory()
	cfg := factory.CreateDefaultConfig().(*agentguard.Config)
	if len(c.Config) > 0 {
		require.NoError(t, confmap.NewFromStringMap(c.Config).Unmarshal(cfg), "%s: config", name)
	}
	require.NoError(t, cfg.Validate(), "%s: config", name)
	sink := new(consumertest.TracesSink)
	proc, err := factory.CreateTraces(ctx, processortest.NewNopSettings(factory.Type()), cfg, sink)
	require.NoError(t, err)
	require.NoError(t, proc.Start(ctx, componenttest.NewNopHost()))
	require.NoError(t, proc.ConsumeTraces(ctx, buildTrace(t, name, c)))
	require.NoError(t, proc.Shutdown(ctx))
	require.Len(t, sink.AllTraces(), 1)

	type event struct {
		step   int64
		reason string
	}
	var events []event
	for _, span := range walk.Spans(sink.AllTraces()[0]) {
		for i := 0; i < span.Events().Len(); i++ {
			e := span.Events().At(i)
			if e.Name() != "agentguard.stuck" {
				continue
			}
			r, _ := e.Attributes().Get("reason")
			s, _ := span.Attributes().Get("agentguard.step")
			events = append(events, event{s.Int(), r.Str()})
		}
	}
	slices.SortStableFunc(events, func(a, b event) int { return int(a.step - b.step) })
	var v verdict
	for _, e := range events {
		v.reasons = append(v.reasons, e.reason)
		v.steps = append(v.steps, e.step)
	}
	return v
}

// base is the start of every reconstructed run: a fixed time keeps the corpus deterministic.
var base = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// buildTrace turns a case into one trace of GenAI semantic-convention spans: an invoke_agent root naming
// the agent, and one execute_tool child per step carrying the call id, the arguments and the result as
// JSON text (a text result as the text itself, as SDKs write tool output), error status when the step
// failed, and a start time from offset_ms.
func buildTrace(t *testing.T, name string, c publicCase) ptrace.Traces {
	t.Helper()
	sum := sha256.Sum256([]byte(name))
	var traceID pcommon.TraceID
	copy(traceID[:], sum[:16])
	spanID := func(i int) pcommon.SpanID {
		var id pcommon.SpanID
		copy(id[:], sum[16:24])
		id[7] ^= byte(i + 1)
		id[6] ^= byte((i + 1) >> 8)
		return id
	}

	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", c.Agent)
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName("agentotel/test/corpus")

	last := c.Steps[len(c.Steps)-1].OffsetMS
	root := ss.Spans().AppendEmpty()
	root.SetTraceID(traceID)
	root.SetSpanID(spanID(-1))
	root.SetName("invoke_agent " + c.Agent)
	root.SetKind(ptrace.SpanKindInternal)
	root.SetStartTimestamp(pcommon.NewTimestampFromTime(base))
	root.SetEndTimestamp(pcommon.NewTimestampFromTime(base.Add(time.Duration(last+1000) * time.Millisecond)))
	root.Attributes().PutStr("gen_ai.operation.name", "invoke_agent")
	root.Attributes().PutStr("gen_ai.agent.name", c.Agent)

	for i, s := range c.Steps {
		span := ss.Spans().AppendEmpty()
		span.SetTraceID(traceID)
		span.SetSpanID(spanID(i))
		span.SetParentSpanID(root.SpanID())
		span.SetName("execute_tool " + s.Tool)
		span.SetKind(ptrace.SpanKindInternal)
		start := base.Add(time.Duration(s.OffsetMS) * time.Millisecond)
		span.SetStartTimestamp(pcommon.NewTimestampFromTime(start))
		span.SetEndTimestamp(pcommon.NewTimestampFromTime(start.Add(500 * time.Microsecond)))
		attrs := span.Attributes()
		attrs.PutStr("gen_ai.operation.name", "execute_tool")
		attrs.PutStr("gen_ai.tool.name", s.Tool)
		attrs.PutStr("gen_ai.tool.call.id", fmt.Sprintf("call_%03d", i))
		attrs.PutStr("gen_ai.tool.call.arguments", compact(t, name, s.Args, "{}"))
		if len(s.Result) > 0 && string(s.Result) != "null" {
			attrs.PutStr("gen_ai.tool.call.result", resultText(t, name, s.Result))
		}
		if s.Error != "" {
			span.Status().SetCode(ptrace.StatusCodeError)
			span.Status().SetMessage(s.Error)
		}
	}
	return td
}

func compact(t *testing.T, name string, raw json.RawMessage, empty string) string {
	if len(raw) == 0 {
		return empty
	}
	var buf bytes.Buffer
	require.NoError(t, json.Compact(&buf, raw), "%s: %s", name, raw)
	return buf.String()
}

// resultText is the result attribute: a JSON string is tool output text and goes in as the text; any
// other JSON value goes in as compact JSON.
func resultText(t *testing.T, name string, raw json.RawMessage) string {
	var text string
	if err := json.Unmarshal(raw, &text); err == nil {
		return text
	}
	return compact(t, name, raw, "")
}
