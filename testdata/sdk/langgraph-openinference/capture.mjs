// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures LangGraph.js traces through the OpenInference LangChain
// instrumentation (@arizeai/openinference-instrumentation-langchain) for the
// five shared scenarios. The agent is LangGraph's prebuilt ReAct agent on a
// scripted chat model (langgraph-lib.mjs). No network.
// Output: traces.json next to this file (one OTLP JSON request per line).
import * as CallbackManagerModule from "@langchain/core/callbacks/manager";
import { LangChainInstrumentation } from "@arizeai/openinference-instrumentation-langchain";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { scenarios } from "../scenarios.mjs";
import { makeCapture } from "../capture-lib.mjs";
import { invokeAgent, reactAgent } from "../langgraph-lib.mjs";

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-langgraph-openinference", sdk: "langgraph-openinference" },
);

const instrumentation = new LangChainInstrumentation({ tracerProvider: capture.provider });
instrumentation.manuallyInstrument(CallbackManagerModule);

const lc = { BaseChatModel, AIMessage, tool, toJsonSchema, createReactAgent, z };
for (const scenario of scenarios) {
  const agent = reactAgent(lc, scenario);
  await capture.run(scenario, () => invokeAgent(agent, scenario));
}

await capture.write(new URL("./traces.json", import.meta.url));
