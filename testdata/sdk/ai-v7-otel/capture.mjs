// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures Vercel AI SDK 7 traces through the @ai-sdk/otel integration
// (OpenTelemetry GenAI semantic-convention spans: invoke_agent, chat,
// execute_tool) for the five shared scenarios and the six outcome scenarios,
// with a scripted MockLanguageModelV4 and no network.
// Output, next to this file (one OTLP JSON request per line):
//   traces.json    the five scenarios, one generateText call each
//   outcomes.json  the outcome scenarios: the capture's outer loop (outerLoop in
//                  capture-lib.mjs) calls generateText once per round, with
//                  stopWhen stepCountIs(1), inside a root span of its own
import { generateText, tool, stepCountIs, registerTelemetry } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { OpenTelemetry } from "@ai-sdk/otel";
import { z } from "zod";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios, stepFor, makeToolRunner, outcomeScenarios, outcomeStepFor, countControls } from "../scenarios.mjs";
import { makeCapture, countToolResults, outerLoop } from "../capture-lib.mjs";

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-ai-v7-otel", sdk: "ai-v7-otel" },
);

// agentSpanName "functionId": the root span is "invoke_agent <functionId>".
// runtimeContext: emit the run's runtime context (the session id) as
// ai.settings.context.* attributes.
registerTelemetry(new OpenTelemetry({ agentSpanName: "functionId", runtimeContext: true }));

const usage = (i, o) => ({
  inputTokens: { total: i, noCache: i, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: o, text: o, reasoning: 0 },
});

function scriptedModel(scenario) {
  let call = 0;
  return new MockLanguageModelV4({
    provider: "mock",
    modelId: "scripted-model",
    doGenerate: async ({ prompt }) => {
      const seen = countToolResults(prompt);
      const step = stepFor(scenario, seen);
      const response = { id: `resp_${scenario.name}_${call++}`, modelId: "scripted-model", timestamp: new Date() };
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
      instructions: scenario.system,
      prompt: scenario.prompt,
      tools,
      stopWhen: stepCountIs(scenario.steps.length + 1),
      runtimeContext: { sessionId: scenario.runId },
      telemetry: {
        isEnabled: true,
        functionId: scenario.agent,
        includeRuntimeContext: { sessionId: true },
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
  return new MockLanguageModelV4({
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
      // A throw is the SDK's to handle: it marks the execute_tool span as an
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
    // The run's root span: every generateText call is an invoke_agent span of
    // its own, so the application makes the span of the whole run, named and
    // keyed as the integration names its agent spans.
    capture.tracer.startActiveSpan(
      `invoke_agent ${scenario.agent}`,
      {
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.agent.name": scenario.agent,
          "ai.settings.context.sessionId": scenario.runId,
        },
      },
      async (span) => {
        try {
          await outerLoop(scenario, {
            callModel: async () => {
              const result = await generateText({
                model,
                instructions: scenario.system,
                messages,
                tools,
                maxOutputTokens: MAX_OUTPUT_TOKENS,
                stopWhen: stepCountIs(1),
                runtimeContext: { sessionId: scenario.runId },
                telemetry: {
                  isEnabled: true,
                  functionId: scenario.agent,
                  includeRuntimeContext: { sessionId: true },
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
