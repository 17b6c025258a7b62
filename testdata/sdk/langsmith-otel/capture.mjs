// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures LangSmith JS traces in its OpenTelemetry tracing mode
// (LANGSMITH_TRACING_MODE=otel: the runs go to OpenTelemetry only, never to
// LangSmith's API) for the five shared scenarios. The agent loop is plain
// application code, as LangSmith users write it without LangChain: the run is
// a traceable chain, the model the real `openai` client wrapped by
// wrapOpenAI (an llm run per call) and every tool a traceable tool run. The
// client talks to the mock chat-completions server of capture-lib.mjs on
// 127.0.0.1. LangSmith's translator turns each run into a span of the tracer
// provider given to initializeOTEL: here the capture's in-memory one.
// Output: traces.json next to this file (one OTLP JSON request per line).
import OpenAI from "openai";
import { traceable } from "langsmith/traceable";
import { wrapOpenAI } from "langsmith/wrappers";
import { Client } from "langsmith";
import { initializeOTEL } from "langsmith/experimental/otel/setup";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios } from "../scenarios.mjs";
import { chatCompletionsLoop, eachChatScenario, makeCapture } from "../capture-lib.mjs";

process.env.LANGSMITH_TRACING = "true";
process.env.LANGSMITH_TRACING_MODE = "otel";

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-langsmith-otel", sdk: "langsmith-otel" },
);
initializeOTEL({ globalTracerProvider: capture.provider });
const langsmith = new Client({ apiKey: "lsv2-fixture-not-a-key", tracingMode: "otel", manualFlushMode: true });
// The client asks LangSmith's API for its batch limits before each flush, and falls back to its defaults
// when that fails. There is no network here: it is given the empty answer it would fall back to.
langsmith._serverInfo = {};

// The agent loop against the mock chat-completions server (capture-lib.mjs).
await eachChatScenario(
  scenarios,
  (baseURL) => wrapOpenAI(new OpenAI({ apiKey: "sk-fixture-not-a-key", baseURL, maxRetries: 0 }), { client: langsmith }),
  (scenario, openai, runTool, tools) => {
    const agent = traceable(
      () =>
        chatCompletionsLoop(openai, scenario, tools, (name, args) =>
          traceable(async (input) => runTool(name, input), { name, run_type: "tool", client: langsmith })(args),
        ),
      { name: scenario.agent, run_type: "chain", client: langsmith, metadata: { session_id: scenario.runId } },
    );
    return capture.run(scenario, async () => {
      await agent();
      // manualFlushMode: the runs are handed to the translator (and so become spans) on flush.
      await langsmith.flush();
    });
  },
);
await capture.write(new URL("./traces.json", import.meta.url));
