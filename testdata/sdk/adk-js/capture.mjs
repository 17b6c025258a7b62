// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures Google ADK JS (@google/adk) traces for the five shared scenarios:
// an LlmAgent with FunctionTools, run by a Runner with an InMemorySessionService,
// against a scripted BaseLlm subclass (no network). ADK's own tracer
// ("gcp.vertex.agent") writes the spans; the capture registers its own tracer
// provider instead of ADK's maybeSetOtelProviders() (which would add metric
// and log exporters).
//
// Two variants, each the five scenarios:
//   traces.json                the scripted model gives every functionCall an
//                              id (call_<scenario>_<n>), as Gemini 3 / Vertex do
//   traces-generated-ids.json  the model gives no ids (as the Gemini API often
//                              does): ADK makes adk-<uuid> ids for the tool
//                              calls and strips them again from the contents
//                              of later llm_requests
//   outcomes.json              the six outcome scenarios (model-given ids): the
//                              capture's outer loop (outerLoop in
//                              capture-lib.mjs) calls runner.runAsync once per
//                              turn (ADK runs the tool calls and calls the model
//                              again until a reply without tool calls), inside
//                              a root span of its own
//
// The scripted model yields LlmResponses the way ADK's Gemini class turns a
// generateContent response into one (createLlmResponse): content and
// finishReason, or, for a candidate without parts (an empty reply), errorCode =
// finishReason and no content.
import { BaseLlm, LlmAgent, FunctionTool, Runner, InMemorySessionService } from "@google/adk";
import { z } from "zod";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios, stepFor, makeToolRunner, outcomeScenarios, outcomeStepFor, countControls } from "../scenarios.mjs";
import { makeCapture, outerLoop, zodObject } from "../capture-lib.mjs";

// ADK records the request and response contents on its spans unless this is
// "false"; say so explicitly, whoever runs this.
process.env.ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS = "true";

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-adk-js", sdk: "adk-js" },
);

const APP = "agentotel-fixture";
const USER = "user-0001";

// countFunctionResponses counts the tool results the model has been given:
// Gemini functionResponse parts in the request's contents.
function countFunctionResponses(llmRequest) {
  let n = 0;
  for (const c of llmRequest.contents ?? []) for (const p of c.parts ?? []) if (p.functionResponse) n++;
  return n;
}

// The output limit the outcome scenarios' cut replies hit.
const MAX_OUTPUT_TOKENS = 64;

// ScriptedLlm plays the model: it reads the request's contents, counts the
// function responses (and, in outcome scenarios, the loop's control texts) in
// it and answers with the scenario's next step, as ADK's Gemini class would
// yield a Gemini reply (finishReason STOP for tool calls too, as Gemini sends
// it; MAX_TOKENS when cut; an empty candidate becomes errorCode STOP).
class ScriptedLlm extends BaseLlm {
  constructor(scenario, { withIds, outcome = false }) {
    super({ model: "scripted-model" });
    this.scenario = scenario;
    this.withIds = withIds;
    this.outcome = outcome;
    this.requests = [];
  }

  async *generateContentAsync(llmRequest) {
    this.requests.push(structuredClone(llmRequest.contents));
    const seen = countFunctionResponses(llmRequest);
    const step = this.outcome
      ? outcomeStepFor(this.scenario, seen, countControls(llmRequest.contents))
      : stepFor(this.scenario, seen);
    const inTok = 100 + 20 * (this.requests.length - 1);
    const outTok = step.empty ? 0 : step.cut ? MAX_OUTPUT_TOKENS : step.text ? 20 : 15;
    const usageMetadata = { promptTokenCount: inTok, candidatesTokenCount: outTok, totalTokenCount: inTok + outTok };
    if (step.empty) {
      yield { errorCode: "STOP", usageMetadata, finishReason: "STOP" };
      return;
    }
    if (step.text) {
      yield { content: { role: "model", parts: [{ text: step.text }] }, usageMetadata, finishReason: step.cut ? "MAX_TOKENS" : "STOP" };
      return;
    }
    const functionCall = { name: step.tool, args: step.args };
    if (this.withIds) functionCall.id = `call_${this.scenario.name}_${seen + 1}`;
    yield { content: { role: "model", parts: [{ functionCall }] }, usageMetadata, finishReason: "STOP" };
  }

  async connect() {
    throw new Error("ScriptedLlm: live connections are not scripted");
  }
}

// scenarioRunner is a Runner of the scenario's LlmAgent on model, whose
// FunctionTools are run by runTool(name, args), with the session created it runs
// in; config: more of the agent's settings. The session id is the run id: ADK
// writes it as gen_ai.conversation.id and gcp.vertex.agent.session_id.
async function scenarioRunner(scenario, model, runTool, config = {}) {
  const tools = Object.entries(scenario.tools).map(
    ([name, def]) =>
      new FunctionTool({
        name,
        description: def.description,
        parameters: zodObject(z, def.params),
        execute: async (args) => runTool(name, args),
      }),
  );
  const agent = new LlmAgent({
    name: scenario.agent,
    description: `The ${scenario.name} agent.`,
    model,
    instruction: scenario.system,
    tools,
    ...config,
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP, agent, sessionService });
  await sessionService.createSession({ appName: APP, userId: USER, sessionId: scenario.runId });
  return runner;
}

async function runScenario(scenario, { withIds }) {
  const model = new ScriptedLlm(scenario, { withIds });
  const runner = await scenarioRunner(scenario, model, makeToolRunner(scenario));

  await capture.run(scenario, async () => {
    const events = [];
    for await (const event of runner.runAsync({
      userId: USER,
      sessionId: scenario.runId,
      newMessage: { role: "user", parts: [{ text: scenario.prompt }] },
    })) {
      if (event.errorCode || event.errorMessage) throw new Error(`${scenario.name}: ${event.errorCode} ${event.errorMessage}`);
      events.push(event);
    }
    const responses = events.flatMap((e) => (e.content?.parts ?? []).filter((p) => p.functionResponse));
    if (responses.length !== scenario.steps.length - 1) {
      throw new Error(`${scenario.name}: ${responses.length} tool results, want ${scenario.steps.length - 1}`);
    }
    if (model.requests.length !== scenario.steps.length) {
      throw new Error(`${scenario.name}: ${model.requests.length} model calls, want ${scenario.steps.length}`);
    }
    const ids = responses.map((p) => p.functionResponse.id ?? "");
    const generated = ids.filter((id) => id.startsWith("adk-")).length;
    if (withIds ? generated !== 0 : generated !== ids.length) {
      throw new Error(`${scenario.name}: ${generated} of ${ids.length} call ids generated by ADK (withIds=${withIds})`);
    }
  });
}

for (const scenario of scenarios) await runScenario(scenario, { withIds: true });
await capture.write(new URL("./traces.json", import.meta.url), { close: false });

for (const scenario of scenarios) await runScenario(scenario, { withIds: false });
await capture.write(new URL("./traces-generated-ids.json", import.meta.url), { close: false });

async function runOutcome(scenario) {
  const runTool = makeToolRunner(scenario);
  let failures = 0;
  // A throw is ADK's to handle: the model gets {"error": <message>}.
  const runCounted = async (name, args) => {
    try {
      return await runTool(name, args);
    } catch (e) {
      failures++;
      throw e;
    }
  };
  const model = new ScriptedLlm(scenario, { withIds: true, outcome: true });
  const runner = await scenarioRunner(scenario, model, runCounted, {
    generateContentConfig: { maxOutputTokens: MAX_OUTPUT_TOKENS },
  });

  // Each turn of the outer loop is one runAsync with the next user message.
  let next = scenario.prompt;
  const callModel = async () => {
    const before = model.requests.length;
    const events = [];
    for await (const event of runner.runAsync({
      userId: USER,
      sessionId: scenario.runId,
      newMessage: { role: "user", parts: [{ text: next }] },
    })) {
      events.push(event);
    }
    next = null;
    // The turn's last model reply: the last event the agent wrote.
    const last = events.filter((e) => e.author === scenario.agent).at(-1);
    const parts = last?.content?.parts ?? [];
    return {
      finish: last?.finishReason === "MAX_TOKENS" ? "length" : String(last?.finishReason ?? "").toLowerCase(),
      text: parts.map((p) => p.text ?? "").join(""),
      toolCalls: parts.filter((p) => p.functionCall).length,
      modelCalls: model.requests.length - before,
    };
  };

  await capture.run(scenario, () =>
    // The run's root span: every runAsync is an `invocation` trace of its own
    // unless something encloses them, so the application makes the span of the
    // whole run, named and keyed as ADK names its agent spans.
    capture.inAgentSpan(scenario, () =>
      outerLoop(scenario, {
        callModel,
        appendUserText: (text) => {
          // A new turn: ADK appends it to the session as a user content.
          next = next ? `${next}\n\n${text}` : text;
        },
        toolFailures: () => failures,
      }),
    ),
  );
}

for (const scenario of outcomeScenarios) await runOutcome(scenario);
await capture.write(new URL("./outcomes.json", import.meta.url));
