// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures LangGraph.js traces through OpenLLMetry's LangChain instrumentation
// (@traceloop/instrumentation-langchain) for the five shared scenarios: the
// agent of langgraph-openinference (langgraph-lib.mjs), under the other
// instrumentation LangChain users run. No network.
// Output: traces.json next to this file (one OTLP JSON request per line).
import * as CallbackManagerModule from "@langchain/core/callbacks/manager";
import { LangChainInstrumentation } from "@traceloop/instrumentation-langchain";
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
  { serviceName: "agentotel-fixture-langgraph-openllmetry", sdk: "langgraph-openllmetry" },
);

// Message content is traced unless TRACELOOP_TRACE_CONTENT says otherwise: said here, whoever runs this.
process.env.TRACELOOP_TRACE_CONTENT = "true";
const instrumentation = new LangChainInstrumentation();
instrumentation.setTracerProvider(capture.provider);
instrumentation.manuallyInstrument({ callbackManagerModule: CallbackManagerModule });

const lc = { BaseChatModel, AIMessage, tool, toJsonSchema, createReactAgent, z };
for (const scenario of scenarios) {
  const agent = reactAgent(lc, scenario);
  // OpenLLMetry's LangChain handler starts each span in the context active when LangChain calls it,
  // never under its parent run: without a span of the application's around the agent, every span would
  // be a trace of its own. OpenLLMetry's users wrap it in withAgent or withWorkflow; here the application
  // opens a GenAI invoke_agent span, as the other captures do.
  await capture.run(scenario, () => capture.inAgentSpan(scenario, () => invokeAgent(agent, scenario)));
}

await capture.write(new URL("./traces.json", import.meta.url));
