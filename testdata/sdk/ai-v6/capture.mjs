// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures Vercel AI SDK 6 traces (legacy ai.* telemetry spans) for the five
// shared scenarios and the six outcome scenarios, with a scripted
// MockLanguageModelV3 and no network (the agent: ai-sdk-lib.mjs).
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
import { makeCapture } from "../capture-lib.mjs";
import { captureOutcomes, captureScenarios } from "../ai-sdk-lib.mjs";

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-ai-v6", sdk: "ai-v6" },
);

const ai = { generateText, tool, stepCountIs, MockLanguageModel: MockLanguageModelV3, z };
const version = {
  instructions: (scenario) => ({ system: scenario.system }),
  telemetry: (scenario) => ({
    experimental_telemetry: {
      isEnabled: true,
      functionId: scenario.agent,
      metadata: { sessionId: scenario.runId },
    },
  }),
  // The SDK has no span for a loop of generateText calls, so the application
  // makes one, named after the agent and carrying the SDK's own agent and
  // session keys.
  rootSpan: (scenario) => ({
    name: scenario.agent,
    attributes: { "ai.telemetry.functionId": scenario.agent, "ai.telemetry.metadata.sessionId": scenario.runId },
  }),
};

await captureScenarios(capture, ai, version);
await capture.write(new URL("./traces.json", import.meta.url), { close: false });
await captureOutcomes(capture, ai, version);
await capture.write(new URL("./outcomes.json", import.meta.url));
