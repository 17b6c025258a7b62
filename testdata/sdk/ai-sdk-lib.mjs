// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// The Vercel AI SDK agent of the captures that run one: ai-v6 (the SDK's legacy
// ai.* spans) and ai-v7-otel (the @ai-sdk/otel integration). generateText with
// the scenario's tools on a scripted mock language model (MockLanguageModelV3
// or V4, the same script) that emits tool calls by reading the prompt so far;
// mastra-otel's agent runs on scriptedModel too. No network.
//
// This file imports no packages itself (each SDK folder has its own
// node_modules): the capture script passes in the modules it loaded,
//   ai: { generateText, tool, stepCountIs, MockLanguageModel, z }
// and what its major version of the SDK spells differently,
//   version: {
//     instructions(scenario): the call option holding the system prompt
//     telemetry(scenario):    the call options that turn telemetry on, naming the
//                             agent and the run's session
//     rootSpan(scenario):     { name, attributes } of the span the application
//                             opens around an outcome run's generateText calls
//   }
import { scenarios, stepFor, makeToolRunner, outcomeScenarios, outcomeStepFor, countControls } from "./scenarios.mjs";
import { countToolResults, outerLoop, zodObject } from "./capture-lib.mjs";

// The output limit the outcome scenarios' cut replies hit.
const MAX_OUTPUT_TOKENS = 64;

const usage = (i, o) => ({
  inputTokens: { total: i, noCache: i, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: o, text: o, reasoning: 0 },
});

// mockModel is a MockLanguageModel whose replies reply(prompt, seen, call) makes: seen is the number
// of tool results in the prompt, call the number of the call (from 1).
function mockModel(MockLanguageModel, scenario, reply) {
  let call = 0;
  return new MockLanguageModel({
    provider: "mock",
    modelId: "scripted-model",
    doGenerate: async ({ prompt }) => {
      const seen = countToolResults(prompt);
      const response = { id: `resp_${scenario.name}_${call++}`, modelId: "scripted-model", timestamp: new Date() };
      return { ...reply(prompt, seen, call), response, warnings: [] };
    },
  });
}

// toolCall is the reply that calls the step's tool, as the seen+1-th call of the run.
function toolCall(scenario, seen, step, inTok) {
  return {
    content: [
      { type: "tool-call", toolCallId: `call_${scenario.name}_${seen + 1}`, toolName: step.tool, input: JSON.stringify(step.args) },
    ],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage: usage(inTok, 15),
  };
}

// scriptedModel is a scenario's model: step i of the scenario after i tool
// results in the prompt.
export function scriptedModel(MockLanguageModel, scenario) {
  return mockModel(MockLanguageModel, scenario, (prompt, seen) => {
    const step = stepFor(scenario, seen);
    if (step.text) {
      return { content: [{ type: "text", text: step.text }], finishReason: { unified: "stop", raw: "stop" }, usage: usage(100 + 20 * seen, 20) };
    }
    return toolCall(scenario, seen, step, 100 + 20 * seen);
  });
}

// outcomeModel is an outcome scenario's model: its step after the tool results
// and the loop's control texts in the prompt, cut at MAX_OUTPUT_TOKENS or empty
// where the script says so.
function outcomeModel(MockLanguageModel, scenario) {
  return mockModel(MockLanguageModel, scenario, (prompt, seen, call) => {
    const step = outcomeStepFor(scenario, seen, countControls(prompt));
    const inTok = 100 + 20 * call;
    if (step.empty) return { content: [], finishReason: { unified: "stop", raw: "stop" }, usage: usage(inTok, 0) };
    if (step.text) {
      return {
        content: [{ type: "text", text: step.text }],
        finishReason: step.cut ? { unified: "length", raw: "length" } : { unified: "stop", raw: "stop" },
        usage: usage(inTok, step.cut ? MAX_OUTPUT_TOKENS : 20),
      };
    }
    return toolCall(scenario, seen, step, inTok);
  });
}

// captureScenarios runs the five scenarios, one generateText call each that
// runs the tools itself, and checks each took the scripted number of steps.
export async function captureScenarios(capture, ai, version) {
  const { generateText, tool, stepCountIs, MockLanguageModel, z } = ai;
  for (const scenario of scenarios) {
    const runTool = makeToolRunner(scenario);
    const tools = {};
    for (const [name, def] of Object.entries(scenario.tools)) {
      tools[name] = tool({
        description: def.description,
        inputSchema: zodObject(z, def.params),
        execute: async (args) => runTool(name, args),
      });
    }
    await capture.run(scenario, async () => {
      const result = await generateText({
        model: scriptedModel(MockLanguageModel, scenario),
        ...version.instructions(scenario),
        prompt: scenario.prompt,
        tools,
        stopWhen: stepCountIs(scenario.steps.length + 1),
        ...version.telemetry(scenario),
      });
      if (result.steps.length !== scenario.steps.length) {
        throw new Error(`${scenario.name}: ${result.steps.length} steps, want ${scenario.steps.length}`);
      }
    });
  }
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

// captureOutcomes runs the outcome scenarios: the capture's outer loop
// (outerLoop in capture-lib.mjs) calls generateText once per round, with
// stopWhen stepCountIs(1), inside the root span of version.rootSpan.
export async function captureOutcomes(capture, ai, version) {
  const { generateText, tool, stepCountIs, MockLanguageModel, z } = ai;
  for (const scenario of outcomeScenarios) {
    const runTool = makeToolRunner(scenario);
    let failures = 0;
    const tools = {};
    for (const [name, def] of Object.entries(scenario.tools)) {
      tools[name] = tool({
        description: def.description,
        inputSchema: zodObject(z, def.params),
        // A throw is the SDK's to handle: it marks the tool call's span (ai.toolCall
        // in 6, execute_tool in 7) as an error and sends the model a tool-error result.
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
    const model = outcomeModel(MockLanguageModel, scenario);
    const messages = [{ role: "user", content: scenario.prompt }];
    const root = version.rootSpan(scenario);
    await capture.run(scenario, () =>
      capture.inSpan(root.name, root.attributes, () =>
        outerLoop(scenario, {
          callModel: async () => {
            const result = await generateText({
              model,
              ...version.instructions(scenario),
              messages,
              tools,
              maxOutputTokens: MAX_OUTPUT_TOKENS,
              stopWhen: stepCountIs(1),
              ...version.telemetry(scenario),
            });
            messages.push(...result.response.messages);
            return { finish: result.finishReason, text: result.text, toolCalls: result.toolCalls.length };
          },
          appendUserText: (text) => appendUserText(messages, text),
          toolFailures: () => failures,
        }),
      ),
    );
  }
}
