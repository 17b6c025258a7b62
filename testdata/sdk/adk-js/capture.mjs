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
import { BaseLlm, LlmAgent, FunctionTool, Runner, InMemorySessionService } from "@google/adk";
import { z } from "zod";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios, stepFor, makeToolRunner } from "../scenarios.mjs";
import { makeCapture } from "../capture-lib.mjs";

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

// ScriptedLlm plays the model: it reads the request's contents, counts the
// function responses in it and answers with the scenario's next step, shaped
// like a Gemini generateContent response (finishReason STOP for tool calls
// too, as Gemini does).
class ScriptedLlm extends BaseLlm {
  constructor(scenario, { withIds }) {
    super({ model: "scripted-model" });
    this.scenario = scenario;
    this.withIds = withIds;
    this.requests = [];
  }

  async *generateContentAsync(llmRequest) {
    this.requests.push(structuredClone(llmRequest.contents));
    const seen = countFunctionResponses(llmRequest);
    const step = stepFor(this.scenario, seen);
    const usageMetadata = {
      promptTokenCount: 100 + 20 * seen,
      candidatesTokenCount: step.text ? 20 : 15,
      totalTokenCount: 100 + 20 * seen + (step.text ? 20 : 15),
    };
    if (step.text) {
      yield { content: { role: "model", parts: [{ text: step.text }] }, finishReason: "STOP", usageMetadata, modelVersion: "scripted-model" };
      return;
    }
    const functionCall = { name: step.tool, args: step.args };
    if (this.withIds) functionCall.id = `call_${this.scenario.name}_${seen + 1}`;
    yield { content: { role: "model", parts: [{ functionCall }] }, finishReason: "STOP", usageMetadata, modelVersion: "scripted-model" };
  }

  async connect() {
    throw new Error("ScriptedLlm: live connections are not scripted");
  }
}

function zodParams(params) {
  const shape = {};
  for (const [k, t] of Object.entries(params)) shape[k] = t === "number" ? z.number() : z.string();
  return z.object(shape);
}

async function runScenario(scenario, { withIds }) {
  const runTool = makeToolRunner(scenario);
  const tools = Object.entries(scenario.tools).map(
    ([name, def]) =>
      new FunctionTool({
        name,
        description: def.description,
        parameters: zodParams(def.params),
        execute: async (args) => runTool(name, args),
      }),
  );
  const model = new ScriptedLlm(scenario, { withIds });
  const agent = new LlmAgent({
    name: scenario.agent,
    description: `The ${scenario.name} agent.`,
    model,
    instruction: scenario.system,
    tools,
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP, agent, sessionService });
  // The session id is the run id: ADK writes it as gen_ai.conversation.id and
  // gcp.vertex.agent.session_id.
  await sessionService.createSession({ appName: APP, userId: USER, sessionId: scenario.runId });

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
await capture.write(new URL("./traces-generated-ids.json", import.meta.url));
