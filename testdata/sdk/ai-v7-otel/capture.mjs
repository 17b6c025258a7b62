// Captures Vercel AI SDK 7 traces through the @ai-sdk/otel integration
// (OpenTelemetry GenAI semantic-convention spans: invoke_agent, chat,
// execute_tool) for the five shared scenarios, with a scripted
// MockLanguageModelV4 and no network.
// Output: traces.json next to this file (one OTLP JSON request per line).
import { generateText, tool, stepCountIs, registerTelemetry } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { OpenTelemetry } from "@ai-sdk/otel";
import { z } from "zod";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios, stepFor, makeToolRunner } from "../scenarios.mjs";
import { makeCapture, countToolResults } from "../capture-lib.mjs";

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

await capture.write(new URL("./traces.json", import.meta.url));
