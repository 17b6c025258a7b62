// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures Genkit JS (genkit) traces for the five shared scenarios: a flow
// named after the scenario's agent calls ai.generate with the scenario's tools
// (ai.defineTool) against a scripted model (ai.defineModel, no network), and
// Genkit's generate loop runs the tools and calls the model again until it
// answers. Genkit's own tracer ("genkit-tracer") writes the spans; its own
// telemetry setup is switched off so that they reach the capture's tracer
// provider, registered globally, as an application's would.
// Output, next to this file (one OTLP JSON request per line): traces.json, the
// five scenarios; outcomes.json, the six outcome scenarios (below).
import { genkit, z } from "genkit";
import { disableGenkitOTelInitialization } from "genkit/tracing";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios, stepFor, makeToolRunner, outcomeScenarios, outcomeStepFor, countControls } from "../scenarios.mjs";
import { makeCapture, outerLoop } from "../capture-lib.mjs";

disableGenkitOTelInitialization();
const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-genkit", sdk: "genkit" },
);

// countToolResponses counts the tool results the model has been given:
// toolResponse parts in the request's messages.
function countToolResponses(request) {
  let n = 0;
  for (const m of request.messages ?? []) for (const p of m.content ?? []) if (p.toolResponse) n++;
  return n;
}

const ai = genkit({});

for (const scenario of scenarios) {
  const runTool = makeToolRunner(scenario);
  let calls = 0;
  const model = ai.defineModel(
    { name: `scripted/${scenario.name}`, supports: { tools: true, multiturn: true, systemRole: true } },
    async (request) => {
      calls++;
      const seen = countToolResponses(request);
      const step = stepFor(scenario, seen);
      const usage = { inputTokens: 100 + 20 * (calls - 1), outputTokens: step.text ? 20 : 15 };
      if (step.text) {
        return { message: { role: "model", content: [{ text: step.text }] }, finishReason: "stop", usage };
      }
      const ref = `call_${scenario.name}_${seen + 1}`;
      return {
        message: { role: "model", content: [{ toolRequest: { name: step.tool, ref, input: step.args } }] },
        finishReason: "stop",
        usage,
      };
    },
  );
  const tools = Object.entries(scenario.tools).map(([name, def]) => {
    const shape = {};
    for (const [k, t] of Object.entries(def.params)) shape[k] = t === "number" ? z.number() : z.string();
    return ai.defineTool(
      { name, description: def.description, inputSchema: z.object(shape), outputSchema: z.any() },
      async (input) => runTool(name, input),
    );
  });
  const flow = ai.defineFlow({ name: scenario.agent, inputSchema: z.string(), outputSchema: z.string() }, async (prompt) => {
    const response = await ai.generate({ model, system: scenario.system, prompt, tools, maxTurns: 20 });
    return response.text;
  });
  await capture.run(scenario, async () => {
    const answer = await flow(scenario.prompt);
    if (calls !== scenario.steps.length) throw new Error(`${scenario.name}: ${calls} model calls, want ${scenario.steps.length}`);
    if (answer !== scenario.steps.at(-1).text) throw new Error(`${scenario.name}: answered ${JSON.stringify(answer)}`);
  });
}
await capture.write(new URL("./traces.json", import.meta.url), { close: false });

// The outcome scenarios (capture-lib.mjs, outerLoop): each turn of the outer loop is one generate over
// the conversation so far, which runs the tools until a reply without tool requests, inside a flow named
// after the agent. A tool that throws fails the whole generate call in Genkit, so the tools here, as an
// application's that lets the model recover, return the error as their result ({"error": message}).
// Tools are defined once per name (two scenarios share a tool) and run the current scenario's script.
let outcome = null;
const outcomeTools = new Map();
function outcomeTool(name, def) {
  if (!outcomeTools.has(name)) {
    const shape = {};
    for (const [k, t] of Object.entries(def.params)) shape[k] = t === "number" ? z.number() : z.string();
    outcomeTools.set(
      name,
      ai.defineTool({ name, description: def.description, inputSchema: z.object(shape), outputSchema: z.any() }, async (input) => {
        try {
          return await outcome.runTool(name, input);
        } catch (e) {
          outcome.failures++;
          return { error: e.message };
        }
      }),
    );
  }
  return outcomeTools.get(name);
}

for (const scenario of outcomeScenarios) {
  outcome = { runTool: makeToolRunner(scenario), failures: 0 };
  let calls = 0;
  const model = ai.defineModel(
    { name: `scripted/${scenario.name}`, supports: { tools: true, multiturn: true, systemRole: true } },
    async (request) => {
      calls++;
      const step = outcomeStepFor(scenario, countToolResponses(request), countControls(request.messages));
      const usage = { inputTokens: 100 + 20 * (calls - 1), outputTokens: step.empty ? 0 : step.cut ? 64 : step.text ? 20 : 15 };
      if (step.empty) return { message: { role: "model", content: [] }, finishReason: "stop", usage };
      if (step.text) {
        return { message: { role: "model", content: [{ text: step.text }] }, finishReason: step.cut ? "length" : "stop", usage };
      }
      const ref = `call_${scenario.name}_${calls}`;
      return { message: { role: "model", content: [{ toolRequest: { name: step.tool, ref, input: step.args } }] }, finishReason: "stop", usage };
    },
  );
  const tools = Object.entries(scenario.tools).map(([name, def]) => outcomeTool(name, def));
  let messages = [{ role: "user", content: [{ text: scenario.prompt }] }];
  const callModel = async () => {
    const before = calls;
    const response = await ai.generate({ model, system: scenario.system, messages, tools, maxTurns: 10, config: { maxOutputTokens: 64 } });
    messages = response.messages.filter((m) => m.role !== "system");
    return {
      finish: response.finishReason,
      text: response.text,
      toolCalls: response.toolRequests.length,
      modelCalls: calls - before,
    };
  };
  const flow = ai.defineFlow({ name: scenario.agent }, () =>
    outerLoop(scenario, {
      callModel,
      appendUserText: (text) => (messages = [...messages, { role: "user", content: [{ text }] }]),
      toolFailures: () => outcome.failures,
    }),
  );
  await capture.run(scenario, () => flow());
}
await capture.write(new URL("./outcomes.json", import.meta.url));
