// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures LangGraph.js traces through the OpenInference LangChain
// instrumentation (@arizeai/openinference-instrumentation-langchain) for the
// five shared scenarios. The agent is LangGraph's prebuilt ReAct agent
// (createReactAgent); the model is a scripted fake chat model (a
// BaseChatModel subclass, like the fakes in @langchain/core/utils/testing)
// that emits tool calls by reading the conversation so far. No network.
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
import { scenarios, stepFor, makeToolRunner } from "../scenarios.mjs";
import { makeCapture } from "../capture-lib.mjs";

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-langgraph-openinference", sdk: "langgraph-openinference" },
);

const instrumentation = new LangChainInstrumentation({ tracerProvider: capture.provider });
instrumentation.manuallyInstrument(CallbackManagerModule);

// ScriptedChatModel: step i of the scenario after i tool messages.
class ScriptedChatModel extends BaseChatModel {
  static lc_name() {
    return "ScriptedChatModel";
  }
  constructor(fields) {
    super({});
    this.scenario = fields.scenario;
    this.calls = 0;
  }
  _llmType() {
    return "scripted";
  }
  invocationParams(options) {
    return { model: "scripted-model", tools: options?.tools };
  }
  getLsParams() {
    return { ls_provider: "mock", ls_model_name: "scripted-model", ls_model_type: "chat" };
  }
  bindTools(tools) {
    const dicts = tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: toJsonSchema(t.schema) },
    }));
    return this.withConfig({ tools: dicts });
  }
  async _generate(messages) {
    const seen = messages.filter((m) => m.getType() === "tool").length;
    const step = stepFor(this.scenario, seen);
    const id = `resp_${this.scenario.name}_${this.calls++}`;
    const callId = `call_${this.scenario.name}_${seen + 1}`;
    const usage = { input_tokens: 100 + 20 * seen, output_tokens: step.text ? 20 : 15 };
    usage.total_tokens = usage.input_tokens + usage.output_tokens;
    const message = step.text
      ? new AIMessage({ id, content: step.text, usage_metadata: usage, response_metadata: { finish_reason: "stop", model_name: "scripted-model" } })
      : new AIMessage({
          id,
          content: "",
          tool_calls: [{ id: callId, name: step.tool, args: step.args, type: "tool_call" }],
          // Like ChatOpenAI (chat completions), keep the provider's raw tool
          // calls in additional_kwargs: OpenInference reads tool calls on LLM
          // spans only from there.
          additional_kwargs: {
            tool_calls: [{ id: callId, type: "function", function: { name: step.tool, arguments: JSON.stringify(step.args) } }],
          },
          usage_metadata: usage,
          response_metadata: { finish_reason: "tool_calls", model_name: "scripted-model" },
        });
    return {
      generations: [{ text: typeof message.content === "string" ? message.content : "", message }],
      llmOutput: { tokenUsage: { promptTokens: usage.input_tokens, completionTokens: usage.output_tokens, totalTokens: usage.total_tokens } },
    };
  }
}

function zodParams(params) {
  const shape = {};
  for (const [k, t] of Object.entries(params)) shape[k] = t === "number" ? z.number() : z.string();
  return z.object(shape);
}

for (const scenario of scenarios) {
  const runTool = makeToolRunner(scenario);
  const tools = Object.entries(scenario.tools).map(([name, def]) =>
    tool(async (args) => JSON.stringify(runTool(name, args)), {
      name,
      description: def.description,
      schema: zodParams(def.params),
    }),
  );
  const agent = createReactAgent({
    llm: new ScriptedChatModel({ scenario }),
    tools,
    prompt: scenario.system,
    name: scenario.agent,
  });
  await capture.run(scenario, async () => {
    const out = await agent.invoke(
      { messages: [{ role: "user", content: scenario.prompt }] },
      {
        configurable: { thread_id: scenario.runId },
        metadata: { session_id: scenario.runId },
        recursionLimit: 100,
      },
    );
    const toolMsgs = out.messages.filter((m) => m.getType() === "tool").length;
    if (toolMsgs !== scenario.steps.length - 1) {
      throw new Error(`${scenario.name}: ${toolMsgs} tool results, want ${scenario.steps.length - 1}`);
    }
  });
}

await capture.write(new URL("./traces.json", import.meta.url));
