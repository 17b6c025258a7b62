// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures OpenLLMetry JS traces (@traceloop/node-server-sdk with its OpenAI
// instrumentation) for the five shared scenarios. The agent loop is plain
// application code, as OpenLLMetry users write it: the run is wrapped in
// withAgent({ name, associationProperties: { session_id } }), the model is the
// real `openai` client (chat completions) and every tool runs inside
// withTool({ name }). The client talks to a mock OpenAI-compatible server this
// program starts on 127.0.0.1, which answers POST /v1/chat/completions from the
// scenario script after counting the tool messages in the request. No other
// network: Traceloop's prompt sync is off and its exporter is an in-memory one.
// Output: traces.json next to this file (one OTLP JSON request per line).
import * as traceloop from "@traceloop/node-server-sdk";
import OpenAI from "openai";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios } from "../scenarios.mjs";
import { chatCompletionsLoop, eachChatScenario, makeCapture } from "../capture-lib.mjs";

// Traceloop starts an OpenTelemetry NodeSDK. Keep it to traces and to a
// resource without host or process details: no metric or log exporters, only
// the environment resource detector, which adds the fixture's own attribute.
process.env.OTEL_METRICS_EXPORTER = "none";
process.env.OTEL_LOGS_EXPORTER = "none";
process.env.OTEL_NODE_RESOURCE_DETECTORS = "env";
process.env.OTEL_RESOURCE_ATTRIBUTES = "agentotel.fixture.sdk=openllmetry-openai";
process.env.TRACELOOP_TRACE_CONTENT = "true";

const memory = new InMemorySpanExporter();
traceloop.initialize({
  appName: "agentotel-fixture-openllmetry-openai",
  exporter: memory,
  disableBatch: true,
  traceloopSyncEnabled: false,
  silenceInitializationMessage: true,
  instrumentModules: { openAI: OpenAI },
});

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  {
    serviceName: "agentotel-fixture-openllmetry-openai",
    sdk: "openllmetry-openai",
    register: false,
    exporter: memory,
    flush: () => traceloop.forceFlush(),
  },
);

// The agent loop against the mock chat-completions server (capture-lib.mjs).
await eachChatScenario(
  scenarios,
  (baseURL) => new OpenAI({ apiKey: "sk-fixture-not-a-key", baseURL, maxRetries: 0 }),
  (scenario, client, runTool, tools) =>
    capture.run(scenario, () =>
      traceloop.withAgent({ name: scenario.agent, associationProperties: { session_id: scenario.runId } }, () =>
        chatCompletionsLoop(client, scenario, tools, (name, args) =>
          // withTool records its function's arguments as traceloop.entity.input and its return
          // value as traceloop.entity.output.
          traceloop.withTool({ name }, async (input) => runTool(name, input), args),
        ),
      ),
    ),
);
await capture.write(new URL("./traces.json", import.meta.url));
