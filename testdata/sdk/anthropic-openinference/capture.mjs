// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures Anthropic SDK (@anthropic-ai/sdk) traces through the OpenInference
// Anthropic instrumentation for the five shared scenarios. The agent loop is
// application code, as OpenInference users write it: the run is an AGENT span
// (traceAgent from @arizeai/openinference-core) inside
// setSession(context, { sessionId }), every messages.create call is an LLM span
// from the instrumentation, and every tool runs in a TOOL span (traceTool, with
// getToolAttributes and the tool_use id as tool_call.id). The client talks to a
// mock Messages API this program starts on 127.0.0.1, which answers
// POST /v1/messages from the scenario script after counting the tool_result
// blocks in the request. No other network.
// Output: traces.json next to this file (one OTLP JSON request per line).
import Anthropic from "@anthropic-ai/sdk";
import { AnthropicInstrumentation } from "@arizeai/openinference-instrumentation-anthropic";
import { setSession, traceAgent, traceTool, getToolAttributes } from "@arizeai/openinference-core";
import { SemanticConventions } from "@arizeai/openinference-semantic-conventions";
import { context } from "@opentelemetry/api";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios, makeToolRunner } from "../scenarios.mjs";
import { anthropicToolDefs, makeCapture, startMessagesAPI } from "../capture-lib.mjs";

// Registered globally: openinference-core's helpers use the global tracer
// provider (tracer "openinference-core").
const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-anthropic-openinference", sdk: "anthropic-openinference" },
);

const instrumentation = new AnthropicInstrumentation({ tracerProvider: capture.provider });
instrumentation.manuallyInstrument(Anthropic);

// The mock Messages API (capture-lib.mjs). `current` is the scenario being run.
let current = null;
const mock = await startMessagesAPI(() => current);

// openTelemetry: false turns off the SDK's own GenAI spans (on by default
// since @anthropic-ai/sdk 1.x), so the capture holds one instrumentation.
const client = new Anthropic({
  apiKey: "sk-ant-fixture-not-a-key",
  baseURL: mock.baseURL,
  maxRetries: 0,
  openTelemetry: false,
});

try {
  for (const scenario of scenarios) {
    current = scenario;
    mock.reset();
    const runTool = makeToolRunner(scenario);
    const tools = anthropicToolDefs(scenario);
    // One TOOL-span wrapper per tool call: the tool's arguments object is the
    // wrapped function's only argument (input.value), its result the return
    // value (output.value).
    const callTool = (block) =>
      traceTool(async (input) => runTool(block.name, input), {
        name: block.name,
        attributes: {
          ...getToolAttributes({
            name: block.name,
            description: scenario.tools[block.name].description,
            parameters: tools.find((t) => t.name === block.name).input_schema,
          }),
          [SemanticConventions.TOOL_CALL_ID]: block.id,
        },
      })(block.input);

    let toolResults = 0;
    const agent = traceAgent(
      async (prompt) => {
        const messages = [{ role: "user", content: prompt }];
        for (let round = 0; round <= scenario.steps.length; round++) {
          const reply = await client.messages.create({
            model: "scripted-model",
            max_tokens: 1024,
            system: scenario.system,
            messages,
            tools,
          });
          messages.push({ role: "assistant", content: reply.content });
          const uses = reply.content.filter((b) => b.type === "tool_use");
          if (uses.length === 0) return reply.content.filter((b) => b.type === "text").map((b) => b.text).join("");
          const results = [];
          for (const block of uses) {
            const result = await callTool(block);
            results.push({ type: "tool_result", tool_use_id: block.id, content: JSON.stringify(result) });
            toolResults++;
          }
          messages.push({ role: "user", content: results });
        }
        throw new Error(`${scenario.name}: no final answer`);
      },
      { name: scenario.agent, attributes: { [SemanticConventions.AGENT_NAME]: scenario.agent } },
    );

    await capture.run(scenario, async () => {
      await context.with(setSession(context.active(), { sessionId: scenario.runId }), () => agent(scenario.prompt));
      if (toolResults !== scenario.steps.length - 1) {
        throw new Error(`${scenario.name}: ${toolResults} tool results, want ${scenario.steps.length - 1}`);
      }
    });
  }
  await capture.write(new URL("./traces.json", import.meta.url));
} finally {
  mock.server.close();
}
