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
import { scenarios, makeToolRunner, outcomeScenarios } from "../scenarios.mjs";
import { anthropicToolDefs, makeCapture, outerLoop, startMessagesAPI } from "../capture-lib.mjs";

// Registered globally: the SDK traces into the global tracer provider.
const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-anthropic-sdk-otel", sdk: "anthropic-sdk-otel" },
);

let current = null;
const mock = await startMessagesAPI(() => current);
const outcomeMock = await startMessagesAPI(() => current, { outcome: true });

// The SDK records the server's address and URL on its spans: the client is
// given a .example host, and its fetch sends each request to the mock instead.
const BASE_URL = "https://api.anthropic.example";
let serving = mock;
const toMock = (url) => String(url).replace(BASE_URL, serving.baseURL);

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

// runnableTools are a scenario's tools for the tool runner, with counts of the
// results they gave and of the calls that threw (the runner sends the model an
// error result for those).
function runnableTools(scenario) {
  const runTool = makeToolRunner(scenario);
  let results = 0;
  let failures = 0;
  const tools = anthropicToolDefs(scenario).map((def) =>
    betaTool({
      name: def.name,
      description: def.description,
      inputSchema: def.input_schema,
      run: async (input) => {
        results++;
        try {
          return JSON.stringify(await runTool(def.name, input));
        } catch (e) {
          failures++;
          throw e;
        }
      },
    }),
  );
  return { tools, toolResults: () => results, toolFailures: () => failures };
}

// runScenario runs one scenario's tool runner on client and records its spans.
async function runScenario(client, scenario) {
  current = scenario;
  mock.reset();
  const { tools, toolResults } = runnableTools(scenario);
  await capture.run(scenario, () =>
    capture.inAgentSpan(scenario, async () => {
      const runner = client.beta.messages.toolRunner({
        model: "scripted-model",
        max_tokens: 1024,
        system: scenario.system,
        messages: [{ role: "user", content: scenario.prompt }],
        tools,
        max_iterations: scenario.steps.length + 1,
      });
      const final = await runner.runUntilDone();
      const answer = final.content.filter((b) => b.type === "text").map((b) => b.text).join("");
      if (answer !== scenario.steps.at(-1).text) throw new Error(`${scenario.name}: answered ${JSON.stringify(answer)}`);
      if (toolResults() !== scenario.steps.length - 1) {
        throw new Error(`${scenario.name}: ${toolResults()} tool results, want ${scenario.steps.length - 1}`);
      }
    }),
  );
}

// runOutcome runs an outcome scenario's outer loop (capture-lib.mjs) inside
// the run's root span: each round is a tool runner over the conversation so
// far, which runs the tools until a reply without tool calls. The runner is
// given thread: false, so that it keeps the conversation itself and each round
// can begin where the one before ended.
async function runOutcome(client, scenario) {
  current = scenario;
  outcomeMock.reset();
  const { tools, toolFailures } = runnableTools(scenario);
  let messages = [{ role: "user", content: scenario.prompt }];
  let requests = 0;
  const callModel = async () => {
    const runner = client.beta.messages.toolRunner({
      model: "scripted-model",
      max_tokens: 64,
      system: scenario.system,
      messages,
      tools,
      thread: false,
      max_iterations: scenario.steps.length + 1,
    });
    const before = requests;
    for await (const _ of runner) requests++;
    messages = runner.params.messages;
    const reply = await runner.done();
    return {
      finish: reply.stop_reason === "max_tokens" ? "length" : reply.stop_reason,
      text: reply.content.filter((b) => b.type === "text").map((b) => b.text).join(""),
      toolCalls: reply.content.filter((b) => b.type === "tool_use").length,
      modelCalls: requests - before,
    };
  };
  await capture.run(scenario, () =>
    capture.inAgentSpan(scenario, () =>
      outerLoop(scenario, {
        callModel,
        appendUserText: (text) => (messages = [...messages, { role: "user", content: text }]),
        toolFailures,
      }),
    ),
  );
}

try {
  // traces.json: content mode, what both processors need to read a run.
  for (const scenario of scenarios) await runScenario(clientIn("content"), scenario);
  await capture.write(new URL("./traces.json", import.meta.url), { close: false });
  // traces-metadata-only.json: the default, no messages, arguments or results.
  for (const scenario of scenarios) await runScenario(clientIn("metadata_only"), scenario);
  await capture.write(new URL("./traces-metadata-only.json", import.meta.url), { close: false });
  // outcomes.json: the outcome scenarios, in content mode.
  serving = outcomeMock;
  for (const scenario of outcomeScenarios) await runOutcome(clientIn("content"), scenario);
  await capture.write(new URL("./outcomes.json", import.meta.url));
} finally {
  mock.server.close();
  outcomeMock.server.close();
}
