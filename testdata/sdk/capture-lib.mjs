// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Shared capture plumbing for testdata/sdk/*/capture.mjs.
//
// This file imports no packages itself (each SDK folder has its own
// node_modules), so the capture script passes in the OpenTelemetry modules it
// loaded. Spans are kept in memory and written as OTLP JSON
// (ExportTraceServiceRequest, hex ids), one request per line per scenario run.

import { writeFileSync } from "node:fs";
import { CONTINUE_TEXT, NUDGE_TEXT, MAX_ROUNDS } from "./scenarios.mjs";

// makeCapture sets up a tracer provider with an in-memory exporter.
//   otel: { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor,
//           resourceFromAttributes, JsonTraceSerializer }
//   register: false when the SDK under test wants the provider handed to it
//             rather than registered globally.
//   exporter, flush: for SDKs that run their own span pipeline (Mastra's
//             OtelExporter): the in-memory exporter handed to that pipeline
//             and an async function that flushes it.
export function makeCapture(otel, { serviceName, sdk, register = true, exporter: external, flush }) {
  const exporter = external ?? new otel.InMemorySpanExporter();
  const provider = new otel.NodeTracerProvider({
    resource: otel.resourceFromAttributes({
      "service.name": serviceName,
      "agentotel.fixture.sdk": sdk,
    }),
    spanProcessors: [new otel.SimpleSpanProcessor(exporter)],
  });
  if (register) provider.register();

  const lines = [];
  const summary = [];

  return {
    provider,
    tracer: provider.getTracer("agentotel-fixture"),
    // run runs one scenario and records its spans as one line.
    async run(scenario, fn) {
      exporter.reset();
      await fn();
      await provider.forceFlush();
      if (flush) await flush();
      const spans = exporter.getFinishedSpans();
      if (spans.length === 0) throw new Error(`scenario ${scenario.name}: no spans captured`);
      const traceIds = new Set(spans.map((s) => s.spanContext().traceId));
      const bytes = otel.JsonTraceSerializer.serializeRequest(spans);
      lines.push(new TextDecoder().decode(bytes));
      summary.push({ scenario: scenario.name, spans: spans.length, traces: traceIds.size });
      exporter.reset();
    },
    // write writes the runs recorded since the last write (JSON lines, in
    // run order) to path, e.g. traces.json. With { close: false } the provider
    // stays up, so one capture program can write several files (traces.json,
    // outcomes.json, variants).
    async write(path, { close = true } = {}) {
      writeFileSync(path, lines.join("\n") + "\n");
      for (const s of summary) console.log(`${sdk}: ${s.scenario}: ${s.spans} spans in ${s.traces} trace(s)`);
      lines.length = 0;
      summary.length = 0;
      if (close) await provider.shutdown();
    },
  };
}

// countToolResults counts the tool results in a prompt/message list, accepting
// the shapes used by the different SDKs.
export function countToolResults(messages) {
  let n = 0;
  for (const m of messages ?? []) {
    if (m.role === "tool") {
      if (Array.isArray(m.content)) n += m.content.filter((p) => p.type === "tool-result").length || 1;
      else n += 1;
    }
  }
  return n;
}

// outerLoop runs the outer agent loop of an outcome scenario (see
// outcomeScenarios in scenarios.mjs) and checks what it counted against
// scenario.expect, so a capture fails if the SDK or the scripted model did
// not behave as scripted.
//   callModel(round): makes one model call on the conversation so far, runs
//     the reply's tool calls (or lets the SDK run them) and appends the reply
//     and the tool results to the conversation. Returns
//     { finish, text, toolCalls, modelCalls }: the reply's finish reason as the
//     loop reads it ("length" when cut at the output limit), its text, the
//     number of tool calls it made, and, for an SDK whose one call runs its own
//     tool loop until a reply without tool calls (ADK's Runner), the number of
//     model calls that took (default 1).
//   appendUserText(text): appends user text to the conversation.
//   toolFailures(): the number of tool calls that threw so far.
export async function outerLoop(scenario, { callModel, appendUserText, toolFailures }) {
  const started = Date.now();
  const n = { rounds: 0, cut_offs: 0, continuations: 0, empty_replies: 0 };
  let continued = false;
  let nudged = false;
  let last;
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    last = await callModel(round);
    n.rounds += last.modelCalls ?? 1;
    last.cut = last.finish === "length";
    last.empty = !last.text && last.toolCalls === 0;
    if (last.cut) n.cut_offs++;
    if (last.empty) n.empty_replies++;
    if (last.cut && !continued) {
      appendUserText(CONTINUE_TEXT);
      continued = true;
      n.continuations++;
      continue;
    }
    if (last.empty && !nudged) {
      appendUserText(NUDGE_TEXT);
      nudged = true;
      continue;
    }
    if (last.toolCalls === 0) break;
  }
  const elapsedMs = Date.now() - started;
  const budgetMs = scenario.expect.run_budget ? parseFloat(scenario.expect.run_budget) * 1000 : Infinity;
  let outcome = "answered";
  if (elapsedMs > budgetMs) outcome = "over_budget";
  else if (last.cut) outcome = "cut_off";
  else if (last.empty) outcome = "empty";
  else if (last.toolCalls > 0) outcome = "max_rounds";
  const got = { outcome, ...n, tool_failures: toolFailures() };
  for (const [k, v] of Object.entries(got)) {
    if (scenario.expect[k] !== v) {
      throw new Error(`${scenario.name}: ${k} = ${v}, want ${scenario.expect[k]} (${JSON.stringify(got)})`);
    }
  }
  return { ...got, elapsedMs };
}
