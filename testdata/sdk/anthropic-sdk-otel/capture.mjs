// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures the OpenTelemetry spans the Anthropic SDK (@anthropic-ai/sdk) writes
// itself, with no instrumentation package, for the five shared scenarios. The
// SDK traces every client by default, into the global tracer provider, without
// content unless told otherwise; content mode records the messages, the tool
// arguments and the tool results, which is what both processors read. The
// agent loop is the SDK's own tool runner (client.beta.messages.toolRunner)
// with betaTool tools, inside an application span naming the agent, as GenAI's
// invoke_agent does. The client talks to the mock Messages API of
// capture-lib.mjs on 127.0.0.1 (through its fetch option, so that the spans name
// api.anthropic.example). No other network.
// Output, next to this file (one OTLP JSON request per line): traces.json in
// content mode, traces-metadata-only.json in the default mode.
import Anthropic from "@anthropic-ai/sdk";
import { betaTool } from "@anthropic-ai/sdk/helpers/beta/json-schema";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios, makeToolRunner } from "../scenarios.mjs";
import { anthropicToolDefs, makeCapture, startMessagesAPI } from "../capture-lib.mjs";

// Registered globally: the SDK traces into the global tracer provider.
const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-anthropic-sdk-otel", sdk: "anthropic-sdk-otel" },
);

let current = null;
const mock = await startMessagesAPI(() => current);

// The SDK records the server's address and URL on its spans: the client is
// given a .example host, and its fetch sends each request to the mock instead.
const BASE_URL = "https://api.anthropic.example";
const toMock = (url) => String(url).replace(BASE_URL, mock.baseURL);

// A client in a content mode: "content" is what
// ANTHROPIC_OPEN_TELEMETRY_TRACES_CONTENT_MODE=content gives a client constructed
// without this option, "metadata_only" the default; said here, whoever runs this.
const clientIn = (contentMode) =>
  new Anthropic({
    apiKey: "sk-ant-fixture-not-a-key",
    baseURL: BASE_URL,
    fetch: (url, init) => fetch(toMock(url), init),
    maxRetries: 0,
    openTelemetry: { traces: { enabled: true, contentMode } },
  });

// runScenario runs one scenario's tool runner on client and records its spans.
async function runScenario(client, scenario) {
  current = scenario;
  mock.reset();
  const runTool = makeToolRunner(scenario);
  let toolResults = 0;
  const tools = anthropicToolDefs(scenario).map((def) =>
    betaTool({
      name: def.name,
      description: def.description,
      inputSchema: def.input_schema,
      run: async (input) => {
        toolResults++;
        return JSON.stringify(await runTool(def.name, input));
      },
    }),
  );
  await capture.run(scenario, () =>
    capture.tracer.startActiveSpan(
      `invoke_agent ${scenario.agent}`,
      { attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": scenario.agent, "gen_ai.conversation.id": scenario.runId } },
      async (span) => {
        const runner = client.beta.messages.toolRunner({
          model: "scripted-model",
          max_tokens: 1024,
          system: scenario.system,
          messages: [{ role: "user", content: scenario.prompt }],
          tools,
          max_iterations: scenario.steps.length + 1,
        });
        const final = await runner.runUntilDone();
        span.end();
        const answer = final.content.filter((b) => b.type === "text").map((b) => b.text).join("");
        if (answer !== scenario.steps.at(-1).text) throw new Error(`${scenario.name}: answered ${JSON.stringify(answer)}`);
        if (toolResults !== scenario.steps.length - 1) {
          throw new Error(`${scenario.name}: ${toolResults} tool results, want ${scenario.steps.length - 1}`);
        }
      },
    ),
  );
}

try {
  // traces.json: content mode, what both processors need to read a run.
  for (const scenario of scenarios) await runScenario(clientIn("content"), scenario);
  await capture.write(new URL("./traces.json", import.meta.url), { close: false });
  // traces-metadata-only.json: the default, no messages, arguments or results.
  for (const scenario of scenarios) await runScenario(clientIn("metadata_only"), scenario);
  await capture.write(new URL("./traces-metadata-only.json", import.meta.url));
} finally {
  mock.server.close();
}
