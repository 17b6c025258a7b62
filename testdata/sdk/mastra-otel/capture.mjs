// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures Mastra agent traces through Mastra's observability pipeline and
// @mastra/otel-exporter (GenAI-style OpenTelemetry spans) for the five shared
// scenarios, with a scripted AI SDK MockLanguageModelV3 as the agent's model
// (scriptedModel in ai-sdk-lib.mjs) and no network. The OtelExporter is handed an in-memory span exporter.
// Output: traces.json next to this file (one OTLP JSON request per line).
import { Mastra } from "@mastra/core/mastra";
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { Observability } from "@mastra/observability";
import { OtelExporter } from "@mastra/otel-exporter";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios, makeToolRunner } from "../scenarios.mjs";
import { makeCapture, zodObject } from "../capture-lib.mjs";
import { scriptedModel } from "../ai-sdk-lib.mjs";

// Mastra sends product telemetry to PostHog unless this is set (read lazily,
// so setting it here, after the imports, is enough). No network here anyway.
process.env.MASTRA_TELEMETRY_DISABLED = "1";

const memory = new InMemorySpanExporter();
const otelExporter = new OtelExporter({
  exporter: memory,
  // A provider is required even with a custom exporter; its endpoint is not
  // used for traces because `exporter` is given, and logs are off.
  provider: { custom: { endpoint: "http://127.0.0.1:4318", protocol: "http/json" } },
  signals: { logs: false },
  resourceAttributes: { "agentotel.fixture.sdk": "mastra-otel" },
});
const observability = new Observability({
  configs: { otel: { serviceName: "agentotel-fixture-mastra-otel", exporters: [otelExporter] } },
});

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  {
    serviceName: "agentotel-fixture-mastra-otel",
    sdk: "mastra-otel",
    register: false,
    exporter: memory,
    flush: async () => {
      await observability.flush();
      await otelExporter.flush();
    },
  },
);

const agents = {};
const runners = {};
for (const scenario of scenarios) {
  const runTool = makeToolRunner(scenario);
  runners[scenario.name] = runTool;
  const tools = {};
  for (const [name, def] of Object.entries(scenario.tools)) {
    tools[name] = createTool({
      id: name,
      description: def.description,
      inputSchema: zodObject(z, def.params),
      execute: async (input) => runTool(name, input),
    });
  }
  agents[scenario.name] = new Agent({
    id: scenario.agent,
    name: scenario.agent,
    instructions: scenario.system,
    model: scriptedModel(MockLanguageModelV3, scenario),
    tools,
  });
}

const mastra = new Mastra({ agents, observability, logger: false });

for (const scenario of scenarios) {
  await capture.run(scenario, async () => {
    const agent = mastra.getAgent(scenario.name);
    const result = await agent.generate(scenario.prompt, {
      maxSteps: scenario.steps.length + 1,
      runId: scenario.runId,
      tracingOptions: { metadata: { sessionId: scenario.runId } },
    });
    const toolResults = result.steps.reduce((n, s) => n + (s.toolResults?.length ?? 0), 0);
    if (toolResults !== scenario.steps.length - 1) {
      throw new Error(`${scenario.name}: ${toolResults} tool results, want ${scenario.steps.length - 1}`);
    }
  });
}

await capture.write(new URL("./traces.json", import.meta.url));
await observability.shutdown?.();
