// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures Vercel AI SDK 6 traces (legacy ai.* telemetry spans) for the five
// shared scenarios and the six outcome scenarios, with a scripted
// MockLanguageModelV3 and no network.
// Output, next to this file (one OTLP JSON request per line):
//   traces.json    the five scenarios, one generateText call each
//   outcomes.json  the outcome scenarios: the capture's outer loop (outerLoop in
//                  capture-lib.mjs) calls generateText once per round, with
//                  stopWhen stepCountIs(1), inside a root span of its own
import { generateText, tool, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios, stepFor, makeToolRunner, outcomeScenarios, outcomeStepFor, countControls } from "../scenarios.mjs";
import { makeCapture, countToolResults, outerLoop } from "../capture-lib.mjs";

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-ai-v6", sdk: "ai-v6" },
);

const usage = (i, o) => ({
  inputTokens: { total: i, noCache: i, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: o, text: o, reasoning: 0 },
});

function scriptedModel(scenario) {
  let call = 0;
  return new MockLanguageModelV3({
    provider: "mock",
    modelId: "scripted-model",
    doGenerate: async ({ prompt }) => {
      const seen = countToolResults(prompt);
      const step = stepFor(scenario, seen);
      const id = `resp_${scenario.name}_${call++}`;
      const response = { id, modelId: "scripted-model", timestamp: new Date() };
      if (step.text) {
        return {
          content: [{ type: "text", text: step.text }],
          finishReason: { unified: "stop", raw: "stop" },
          usage: usage(100 + 20 * seen, 20),
          response,
          warnings: [],
        };
      }
      return {
        content: [
          {
            type: "tool-call",
            toolCallId: `call_${scenario.name}_${seen + 1}`,
            toolName: step.tool,
            input: JSON.stringify(step.args),
          },
        ],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: usage(100 + 20 * seen, 15),
        response,
        warnings: [],
      };
    },
  });
}

function zodParams(params) {
  const shape = {};
  for (const [k, t] of Object.entries(params)) shape[k] = t === "number" ? z.number() : z.string();
  return z.object(shape);
}

for (const scenario of scenarios) {
  const runTool = makeToolRunner(scenario);
  const tools = {};
  for (const [name, def] of Object.entries(scenario.tools)) {
    tools[name] = tool({
      description: def.description,
      inputSchema: zodParams(def.params),
      execute: async (args) => runTool(name, args),
    });
  }
  await capture.run(scenario, async () => {
    const result = await generateText({
      model: scriptedModel(scenario),
      system: scenario.system,
      prompt: scenario.prompt,
      tools,
      stopWhen: stepCountIs(scenario.steps.length + 1),
      experimental_telemetry: {
        isEnabled: true,
        functionId: scenario.agent,
        metadata: { sessionId: scenario.runId },
      },
    });
    if (result.steps.length !== scenario.steps.length) {
      throw new Error(`${scenario.name}: ${result.steps.length} steps, want ${scenario.steps.length}`);
    }
  });
}

await capture.write(new URL("./traces.json", import.meta.url), { close: false });

// Outcome scenarios. The output limit the cut replies hit.
const MAX_OUTPUT_TOKENS = 64;

function outcomeModel(scenario) {
  let call = 0;
  return new MockLanguageModelV3({
    provider: "mock",
    modelId: "scripted-model",
    doGenerate: async ({ prompt }) => {
      const seen = countToolResults(prompt);
      const step = outcomeStepFor(scenario, seen, countControls(prompt));
      const response = { id: `resp_${scenario.name}_${call++}`, modelId: "scripted-model", timestamp: new Date() };
      const inTok = 100 + 20 * call;
      if (step.empty) {
        return { content: [], finishReason: { unified: "stop", raw: "stop" }, usage: usage(inTok, 0), response, warnings: [] };
      }
      if (step.text) {
        return {
          content: [{ type: "text", text: step.text }],
          finishReason: step.cut ? { unified: "length", raw: "length" } : { unified: "stop", raw: "stop" },
          usage: usage(inTok, step.cut ? MAX_OUTPUT_TOKENS : 20),
          response,
          warnings: [],
        };
      }
      return {
        content: [
          { type: "tool-call", toolCallId: `call_${scenario.name}_${seen + 1}`, toolName: step.tool, input: JSON.stringify(step.args) },
        ],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: usage(inTok, 15),
        response,
        warnings: [],
      };
    },
  });
}

// appendUserText appends text to a trailing user message, or adds one.
function appendUserText(messages, text) {
  const last = messages[messages.length - 1];
  if (last?.role === "user") {
    if (typeof last.content === "string") last.content = [{ type: "text", text: last.content }];
    last.content.push({ type: "text", text });
  } else {
    messages.push({ role: "user", content: [{ type: "text", text }] });
  }
}

for (const scenario of outcomeScenarios) {
  const runTool = makeToolRunner(scenario);
  let failures = 0;
  const tools = {};
  for (const [name, def] of Object.entries(scenario.tools)) {
    tools[name] = tool({
      description: def.description,
      inputSchema: zodParams(def.params),
      // A throw is the SDK's to handle: it marks the ai.toolCall span as an
      // error and sends the model a tool-error result.
      execute: async (args) => {
        try {
          return await runTool(name, args);
        } catch (e) {
          failures++;
          throw e;
        }
      },
    });
  }
  const model = outcomeModel(scenario);
  const messages = [{ role: "user", content: scenario.prompt }];
  await capture.run(scenario, () =>
    // The run's root span: the SDK has no span for a loop of generateText
    // calls, so the application makes one, named after the agent and carrying
    // the SDK's own agent and session keys.
    capture.tracer.startActiveSpan(
      scenario.agent,
      { attributes: { "ai.telemetry.functionId": scenario.agent, "ai.telemetry.metadata.sessionId": scenario.runId } },
      async (span) => {
        try {
          await outerLoop(scenario, {
            callModel: async () => {
              const result = await generateText({
                model,
                system: scenario.system,
                messages,
                tools,
                maxOutputTokens: MAX_OUTPUT_TOKENS,
                stopWhen: stepCountIs(1),
                experimental_telemetry: {
                  isEnabled: true,
                  functionId: scenario.agent,
                  metadata: { sessionId: scenario.runId },
                },
              });
              messages.push(...result.response.messages);
              return { finish: result.finishReason, text: result.text, toolCalls: result.toolCalls.length };
            },
            appendUserText: (text) => appendUserText(messages, text),
            toolFailures: () => failures,
          });
        } finally {
          span.end();
        }
      },
    ),
  );
}

await capture.write(new URL("./outcomes.json", import.meta.url));
