// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures OpenAI Agents SDK (JS) traces through the OpenInference
// instrumentation (@arizeai/openinference-instrumentation-openai-agents) for
// the five shared scenarios. The agent uses the SDK's real OpenAI Responses
// model; only the HTTP layer is scripted: the OpenAI client gets a fetch that
// answers POST /responses from the scenario script after reading the input
// items sent so far. No network.
// Output: traces.json next to this file (one OTLP JSON request per line).
import * as agents from "@openai/agents";
import { Agent, Runner, tool, setDefaultOpenAIClient, setOpenAIAPI } from "@openai/agents";
import OpenAI from "openai";
import { OpenAIAgentsInstrumentation } from "@arizeai/openinference-instrumentation-openai-agents";
import { setSession } from "@arizeai/openinference-core";
import { context } from "@opentelemetry/api";
import { z } from "zod";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios, stepFor, makeToolRunner } from "../scenarios.mjs";
import { makeCapture, zodObject } from "../capture-lib.mjs";

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-openai-agents-openinference", sdk: "openai-agents-openinference" },
);

// Exclusive mode: the OpenInference processor replaces the SDK's default
// exporter (which would upload traces to OpenAI).
const instrumentation = new OpenAIAgentsInstrumentation({ tracerProvider: capture.provider });
instrumentation.manuallyInstrument(agents);

let current = null; // the scenario being run
let calls = 0;

// scriptedFetch plays the OpenAI Responses API.
async function scriptedFetch(url, init) {
  const u = String(url);
  if (!u.endsWith("/responses") || init?.method !== "POST") {
    return new Response(JSON.stringify({ error: { message: `unexpected ${init?.method} ${u}` } }), { status: 404 });
  }
  const body = JSON.parse(init.body);
  const items = Array.isArray(body.input) ? body.input : [];
  const seen = items.filter((i) => i.type === "function_call_output").length;
  const step = stepFor(current, seen);
  const n = calls++;
  const output = step.text
    ? [
        {
          type: "message",
          id: `msg_${current.name}_${n}`,
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: step.text, annotations: [] }],
        },
      ]
    : [
        {
          type: "function_call",
          id: `fc_${current.name}_${seen + 1}`,
          call_id: `call_${current.name}_${seen + 1}`,
          name: step.tool,
          arguments: JSON.stringify(step.args),
          status: "completed",
        },
      ];
  const inTok = 100 + 20 * seen;
  const outTok = step.text ? 20 : 15;
  const response = {
    id: `resp_${current.name}_${n}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    model: "scripted-model",
    output,
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: "auto",
    tools: body.tools ?? [],
    top_p: 1,
    usage: {
      input_tokens: inTok,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outTok,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inTok + outTok,
    },
  };
  return new Response(JSON.stringify(response), {
    status: 200,
    headers: { "content-type": "application/json", "x-request-id": `req_${current.name}_${n}` },
  });
}

setDefaultOpenAIClient(new OpenAI({ apiKey: "sk-fixture-not-a-key", fetch: scriptedFetch, maxRetries: 0 }));
setOpenAIAPI("responses");

for (const scenario of scenarios) {
  const runTool = makeToolRunner(scenario);
  const tools = Object.entries(scenario.tools).map(([name, def]) =>
    tool({
      name,
      description: def.description,
      parameters: zodObject(z, def.params),
      execute: async (args) => JSON.stringify(runTool(name, args)),
    }),
  );
  const agent = new Agent({
    name: scenario.agent,
    instructions: scenario.system,
    model: "scripted-model",
    tools,
  });
  current = scenario;
  calls = 0;
  await capture.run(scenario, async () => {
    // setSession: OpenInference's context attribute for the session id; the
    // OpenInference tracer copies it onto every span started in this context.
    const result = await context.with(setSession(context.active(), { sessionId: scenario.runId }), () =>
      new Runner({ workflowName: scenario.agent, groupId: scenario.runId }).run(agent, scenario.prompt, {
        maxTurns: scenario.steps.length + 1,
      }),
    );
    const toolResults = result.newItems.filter((i) => i.type === "tool_call_output_item").length;
    if (toolResults !== scenario.steps.length - 1) {
      throw new Error(`${scenario.name}: ${toolResults} tool results, want ${scenario.steps.length - 1}`);
    }
    // The SDK ends its trace asynchronously; give the processor a moment.
    await new Promise((r) => setTimeout(r, 50));
  });
}

await capture.write(new URL("./traces.json", import.meta.url));
