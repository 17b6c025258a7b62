// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// The LangGraph.js agent of the captures that instrument LangChain
// (langgraph-openinference, langgraph-openllmetry): LangGraph's prebuilt ReAct
// agent (createReactAgent) with the scenario's tools on a scripted fake chat
// model (a BaseChatModel subclass, like the fakes in
// @langchain/core/utils/testing) that emits tool calls by reading the
// conversation so far. No network.
//
// This file imports no packages itself (each SDK folder has its own
// node_modules): the capture script passes in the modules it loaded,
//   lc: { BaseChatModel, AIMessage, tool, toJsonSchema, createReactAgent, z }
import { stepFor, makeToolRunner } from "./scenarios.mjs";

// reactAgent builds a scenario's agent.
export function reactAgent(lc, scenario) {
  const { BaseChatModel, AIMessage, tool, toJsonSchema, createReactAgent, z } = lc;

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

  const runTool = makeToolRunner(scenario);
  const params = (p) => z.object(Object.fromEntries(Object.entries(p).map(([k, t]) => [k, t === "number" ? z.number() : z.string()])));
  const tools = Object.entries(scenario.tools).map(([name, def]) =>
    tool(async (args) => JSON.stringify(runTool(name, args)), { name, description: def.description, schema: params(def.params) }),
  );
  return createReactAgent({ llm: new ScriptedChatModel({ scenario }), tools, prompt: scenario.system, name: scenario.agent });
}

// invokeAgent runs a scenario's agent, its run and session ids given as LangGraph's thread id and as
// metadata, and checks that the model was given every scripted tool result.
export async function invokeAgent(agent, scenario) {
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
}
