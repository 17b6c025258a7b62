// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Checks every capture that expected.json lists (each SDK's file,
// contentless_file, logs_file and outcomes_file): one OTLP JSON ExportTraceServiceRequest
// per line, as many lines as scenario_order / outcome_order, every line one
// trace with one root span and well-formed ids and times, and no network
// address in any line other than the scenarios' own *.example URLs. In outcome captures, the number of
// model-call spans must equal the scenario's rounds. Imports no packages.
//
//   node testdata/sdk/check.mjs        (capture.sh runs it at the end)
import { readFileSync } from "node:fs";

const root = new URL("./", import.meta.url);
const expected = JSON.parse(readFileSync(new URL("expected.json", root), "utf8"));

const HEX = (n) => new RegExp(`^[0-9a-f]{${n}}$`);
const IPV4 = /\b(?:\d{1,3}\.){3}\d{1,3}\b/;
const URL_RE = /[a-z][a-z0-9+.-]*:\/\/([^/"\\\s:]+)/gi;
const LOCALHOST = /\blocalhost\b/i;

// The model-call spans of each SDK that has outcome captures.
const attr = (s, k) => s.attributes?.find((a) => a.key === k)?.value?.stringValue;
const MODEL_CALL = {
  "ai-v6": (s) => s.name === "ai.generateText.doGenerate",
  "ai-v7-otel": (s) => attr(s, "gen_ai.operation.name") === "chat",
  "adk-js": (s) => s.name === "call_llm",
  "anthropic-sdk-otel": (s) => s.name === "anthropic.messages.create",
  genkit: (s) => attr(s, "genkit:metadata:subtype") === "model",
};

function checkLine(where, line, isModelCall, rounds) {
  const req = JSON.parse(line);
  if (!Array.isArray(req.resourceSpans) || req.resourceSpans.length === 0) throw new Error(`${where}: no resourceSpans`);
  const spans = [];
  for (const rs of req.resourceSpans) {
    if (!Array.isArray(rs.resource?.attributes)) throw new Error(`${where}: resource without attributes`);
    for (const ss of rs.scopeSpans ?? []) {
      if (typeof ss.scope?.name !== "string") throw new Error(`${where}: scope without a name`);
      for (const s of ss.spans ?? []) spans.push(s);
    }
  }
  if (spans.length === 0) throw new Error(`${where}: no spans`);
  const ids = new Set(spans.map((s) => s.spanId));
  const traces = new Set();
  let roots = 0;
  for (const s of spans) {
    if (!HEX(32).test(s.traceId) || !HEX(16).test(s.spanId)) throw new Error(`${where}: span ${s.name}: bad ids`);
    if (s.parentSpanId && !HEX(16).test(s.parentSpanId)) throw new Error(`${where}: span ${s.name}: bad parent id`);
    if (!/^\d+$/.test(s.startTimeUnixNano) || !/^\d+$/.test(s.endTimeUnixNano)) throw new Error(`${where}: span ${s.name}: bad times`);
    if (BigInt(s.endTimeUnixNano) < BigInt(s.startTimeUnixNano)) throw new Error(`${where}: span ${s.name}: ends before it starts`);
    if (typeof s.name !== "string" || !s.name) throw new Error(`${where}: span without a name`);
    traces.add(s.traceId);
    if (!s.parentSpanId) roots++;
    else if (!ids.has(s.parentSpanId)) throw new Error(`${where}: span ${s.name}: parent not in the line`);
  }
  if (traces.size !== 1) throw new Error(`${where}: ${traces.size} traces, want 1`);
  if (roots !== 1) throw new Error(`${where}: ${roots} root spans, want 1`);
  if (isModelCall) {
    const calls = spans.filter(isModelCall).length;
    if (calls !== rounds) throw new Error(`${where}: ${calls} model calls, want ${rounds} rounds`);
  }
  if (IPV4.test(line)) throw new Error(`${where}: holds an IPv4 address: ${line.match(IPV4)[0]}`);
  if (LOCALHOST.test(line)) throw new Error(`${where}: names localhost`);
  for (const [, host] of line.matchAll(URL_RE)) {
    if (!host.endsWith(".example") && host !== "json-schema.org") throw new Error(`${where}: holds a URL of ${host}`);
  }
  return spans.length;
}

function checkFile(file, order, isModelCall) {
  const lines = readFileSync(new URL(file, root), "utf8").split("\n").filter((l) => l.trim());
  if (lines.length !== order.length) throw new Error(`${file}: ${lines.length} lines, want ${order.length}`);
  const rounds = Object.fromEntries((expected.outcome_scenarios ?? []).map((o) => [o.name, o.rounds]));
  let n = 0;
  lines.forEach((line, i) => (n += checkLine(`${file}:${i + 1} (${order[i]})`, line, isModelCall, rounds[order[i]])));
  console.log(`ok ${file}: ${lines.length} runs, ${n} spans`);
}

// checkLogsFile checks a capture of log records: one ExportLogsServiceRequest per line, every record of
// a line in one trace, and no network address.
function checkLogsFile(file, order) {
  const lines = readFileSync(new URL(file, root), "utf8").split("\n").filter((l) => l.trim());
  if (lines.length !== order.length) throw new Error(`${file}: ${lines.length} lines, want ${order.length}`);
  let n = 0;
  lines.forEach((line, i) => {
    const where = `${file}:${i + 1} (${order[i]})`;
    const records = JSON.parse(line).resourceLogs?.flatMap((rl) => rl.scopeLogs?.flatMap((sl) => sl.logRecords ?? []) ?? []) ?? [];
    if (records.length === 0) throw new Error(`${where}: no log records`);
    if (new Set(records.map((r) => r.traceId)).size !== 1) throw new Error(`${where}: records of more than one trace`);
    if (IPV4.test(line) || LOCALHOST.test(line)) throw new Error(`${where}: holds a network address`);
    n += records.length;
  });
  console.log(`ok ${file}: ${lines.length} runs, ${n} log records`);
}

for (const sdk of expected.sdks) {
  checkFile(sdk.file, expected.scenario_order);
  if (sdk.logs_file) checkLogsFile(sdk.logs_file, expected.scenario_order);
  if (sdk.contentless_file) checkFile(sdk.contentless_file, expected.scenario_order);
  if (sdk.outcomes_file) {
    const isModelCall = MODEL_CALL[sdk.name.replace(/-generated-ids$/, "")];
    if (!isModelCall) throw new Error(`${sdk.name}: check.mjs does not know its model-call spans`);
    checkFile(sdk.outcomes_file, expected.outcome_order, isModelCall);
  }
}
