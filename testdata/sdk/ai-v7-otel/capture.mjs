// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures Vercel AI SDK 7 traces through the @ai-sdk/otel integration
// (OpenTelemetry GenAI semantic-convention spans: invoke_agent, chat,
// execute_tool) for the five shared scenarios and the six outcome scenarios,
// with a scripted MockLanguageModelV4 and no network (the agent: ai-sdk-lib.mjs).
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
import { makeCapture } from "../capture-lib.mjs";
import { captureOutcomes, captureScenarios } from "../ai-sdk-lib.mjs";

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-ai-v7-otel", sdk: "ai-v7-otel" },
);

// agentSpanName "functionId": the root span is "invoke_agent <functionId>".
// runtimeContext: emit the run's runtime context (the session id) as
// ai.settings.context.* attributes.
registerTelemetry(new OpenTelemetry({ agentSpanName: "functionId", runtimeContext: true }));

const ai = { generateText, tool, stepCountIs, MockLanguageModel: MockLanguageModelV4, z };
const version = {
  instructions: (scenario) => ({ instructions: scenario.system }),
  telemetry: (scenario) => ({
    runtimeContext: { sessionId: scenario.runId },
    telemetry: {
      isEnabled: true,
      functionId: scenario.agent,
      includeRuntimeContext: { sessionId: true },
    },
  }),
  // Every generateText call is an invoke_agent span of its own, so the
  // application makes the span of the whole run, named and keyed as the
  // integration names its agent spans.
  rootSpan: (scenario) => ({
    name: `invoke_agent ${scenario.agent}`,
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": scenario.agent,
      "ai.settings.context.sessionId": scenario.runId,
    },
  }),
};

await captureScenarios(capture, ai, version);
await capture.write(new URL("./traces.json", import.meta.url), { close: false });
await captureOutcomes(capture, ai, version);
await capture.write(new URL("./outcomes.json", import.meta.url));
