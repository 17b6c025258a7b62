// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures Strands Agents TypeScript (@strands-agents/sdk) traces for the five
// shared scenarios: an Agent with zod tools against a scripted Model subclass
// (no network). Strands' own tracer writes the spans through the global
// OpenTelemetry API (invoke_agent > execute_agent_loop_cycle > chat,
// execute_tool), with every message on span events.
//
// Two variants, each the five scenarios:
//   traces.json         the default conventions: one event per message
//                       (gen_ai.user.message, gen_ai.tool.message, ...), a
//                       tool span's arguments and result on its
//                       gen_ai.tool.message and gen_ai.choice events
//   traces-latest.json  OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental:
//                       gen_ai.client.inference.operation.details events with
//                       gen_ai.input.messages / gen_ai.output.messages, and
//                       gen_ai.tool.call.arguments / result on tool spans
//
// The scripted model streams what Strands' Bedrock model turns a Converse
// stream into: a message start, content blocks (text deltas, or a tool use
// start and its input as one JSON delta), a message stop with the stop reason
// (toolUse, endTurn) and a metadata event with the usage.
import { Agent, Model, tool } from "@strands-agents/sdk";
import { z } from "zod";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios, stepFor, makeToolRunner } from "../scenarios.mjs";
import { makeCapture, zodObject } from "../capture-lib.mjs";

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-strands-js", sdk: "strands-js" },
);

// countToolResults counts the tool results the model has been given: toolResult
// blocks in the messages.
function countToolResults(messages) {
  let n = 0;
  for (const m of messages) for (const b of m.content ?? []) if (b.type === "toolResultBlock") n++;
  return n;
}

class ScriptedModel extends Model {
  constructor(scenario) {
    super();
    this.scenario = scenario;
    this.requests = 0;
  }

  updateConfig() {}

  getConfig() {
    return { modelId: "scripted-model" };
  }

  async *stream(messages) {
    this.requests++;
    const seen = countToolResults(messages);
    const step = stepFor(this.scenario, seen);
    const inputTokens = 100 + 20 * (this.requests - 1);
    const outputTokens = step.text ? 20 : 15;
    yield { type: "modelMessageStartEvent", role: "assistant" };
    if (step.text) {
      yield { type: "modelContentBlockDeltaEvent", delta: { type: "textDelta", text: step.text } };
      yield { type: "modelContentBlockStopEvent" };
      yield { type: "modelMessageStopEvent", stopReason: "endTurn" };
    } else {
      const toolUseId = `tooluse_${this.scenario.name}_${seen + 1}`;
      yield { type: "modelContentBlockStartEvent", start: { type: "toolUseStart", name: step.tool, toolUseId } };
      yield { type: "modelContentBlockDeltaEvent", delta: { type: "toolUseInputDelta", input: JSON.stringify(step.args) } };
      yield { type: "modelContentBlockStopEvent" };
      yield { type: "modelMessageStopEvent", stopReason: "toolUse" };
    }
    yield { type: "modelMetadataEvent", usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } };
  }
}

async function runScenario(scenario) {
  const runTool = makeToolRunner(scenario);
  const tools = Object.entries(scenario.tools).map(([name, def]) =>
    tool({ name, description: def.description, inputSchema: zodObject(z, def.params), callback: (input) => runTool(name, input) }),
  );
  const model = new ScriptedModel(scenario);
  const agent = new Agent({
    model,
    tools,
    name: scenario.agent,
    systemPrompt: scenario.system,
    printer: false,
    // The run id, as an application passes it: Strands puts trace attributes on every span it makes.
    traceAttributes: { "session.id": scenario.runId },
  });
  await capture.run(scenario, async () => {
    const result = await agent.invoke(scenario.prompt);
    const last = scenario.steps.at(-1).text;
    if (String(result).trim() !== last) throw new Error(`${scenario.name}: answered ${String(result)}, want ${last}`);
    if (model.requests !== scenario.steps.length) {
      throw new Error(`${scenario.name}: ${model.requests} model calls, want ${scenario.steps.length}`);
    }
  });
}

for (const scenario of scenarios) await runScenario(scenario);
await capture.write(new URL("./traces.json", import.meta.url), { close: false });

// Strands reads the opt-in when its tracer is made, which every Agent does.
process.env.OTEL_SEMCONV_STABILITY_OPT_IN = "gen_ai_latest_experimental";
for (const scenario of scenarios) await runScenario(scenario);
await capture.write(new URL("./traces-latest.json", import.meta.url));
