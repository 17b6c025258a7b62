// Shared capture plumbing for testdata/sdk/*/capture.mjs.
//
// This file imports no packages itself (each SDK folder has its own
// node_modules), so the capture script passes in the OpenTelemetry modules it
// loaded. Spans are kept in memory and written as OTLP JSON
// (ExportTraceServiceRequest, hex ids), one request per line per scenario run.

import { writeFileSync } from "node:fs";

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
