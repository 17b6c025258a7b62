// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures Langfuse JS traces (@langfuse/tracing with @langfuse/openai) for the
// five shared scenarios. Langfuse's SDK writes OpenTelemetry spans through the
// global tracer provider (its own span processor would export them to Langfuse;
// here the capture's in-memory exporter takes them). The agent loop is plain
// application code as Langfuse's documentation writes it: the run is an
// `agent` observation that propagates its session id, every model
// call goes through observeOpenAI (a `generation` observation with the request's
// messages as input and the reply as output), and every tool runs inside an
// active `tool` observation named after the tool, its arguments as input and its
// return value as output. The client talks to the mock chat-completions server
// of capture-lib.mjs on 127.0.0.1; there is no other network.
import { propagateAttributes, startActiveObservation } from "@langfuse/tracing";
import { observeOpenAI } from "@langfuse/openai";
import OpenAI from "openai";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios } from "../scenarios.mjs";
import { chatCompletionsLoop, eachChatScenario, makeCapture } from "../capture-lib.mjs";

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-langfuse-js", sdk: "langfuse-js" },
);

await eachChatScenario(
  scenarios,
  (baseURL) => observeOpenAI(new OpenAI({ apiKey: "sk-fixture-not-a-key", baseURL, maxRetries: 0 })),
  (scenario, client, runTool, tools) =>
    capture.run(scenario, () =>
      startActiveObservation(
        scenario.agent,
        (agent) =>
          // On the active span (the agent's) at once; Langfuse's own span processor would copy it to
          // the spans started inside, which this capture, exporting with its own, does not run.
          propagateAttributes({ sessionId: scenario.runId }, async () => {
            agent.update({ input: scenario.prompt });
            const answer = await chatCompletionsLoop(client, scenario, tools, (name, args) =>
              startActiveObservation(
                name,
                async (tool) => {
                  tool.update({ input: args });
                  const out = await runTool(name, args);
                  tool.update({ output: out });
                  return out;
                },
                { asType: "tool" },
              ),
            );
            agent.update({ output: answer });
          }),
        { asType: "agent" },
      ),
    ),
);
await capture.write(new URL("./traces.json", import.meta.url));
