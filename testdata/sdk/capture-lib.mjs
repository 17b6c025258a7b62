// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Shared capture plumbing for testdata/sdk/*/capture.mjs.
//
// This file imports no packages itself (each SDK folder has its own
// node_modules), so the capture script passes in the OpenTelemetry modules it
// loaded. Spans are kept in memory and written as OTLP JSON
// (ExportTraceServiceRequest, hex ids), one request per line per scenario run.

import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import {
  CONTINUE_TEXT,
  NUDGE_TEXT,
  MAX_ROUNDS,
  countControls,
  makeToolRunner,
  outcomeStepFor,
  stepFor,
} from "./scenarios.mjs";

// makeCapture sets up a tracer provider with an in-memory exporter.
//   otel: { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor,
//           resourceFromAttributes, JsonTraceSerializer }
//   register: false when the SDK under test wants the provider handed to it
//             rather than registered globally.
//   exporter, flush: for SDKs that run their own span pipeline (Mastra's
//             OtelExporter): the in-memory exporter handed to that pipeline
//             and an async function that flushes it.
export function makeCapture(otel, { serviceName, sdk, register = true, exporter: external, flush }) {
  const exporter = external ?? new otel.InMemorySpanExporter();
  const provider = new otel.NodeTracerProvider({
    resource: otel.resourceFromAttributes({
      "service.name": serviceName,
      "agentotel.fixture.sdk": sdk,
    }),
    spanProcessors: [new otel.SimpleSpanProcessor(exporter)],
  });
  if (register) provider.register();

  const lines = [];
  const summary = [];

  const tracer = provider.getTracer("agentotel-fixture");
  // inSpan runs fn inside a span the application opens, named name, with the attributes given.
  const inSpan = (name, attributes, fn) =>
    tracer.startActiveSpan(name, { attributes }, async (span) => {
      try {
        return await fn();
      } finally {
        span.end();
      }
    });
  return {
    provider,
    tracer,
    inSpan,
    // inAgentSpan runs fn inside the span an application opens around a run in GenAI's terms,
    // invoke_agent <agent>, naming the agent and the run (as its conversation id).
    inAgentSpan(scenario, fn) {
      const attributes = { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": scenario.agent, "gen_ai.conversation.id": scenario.runId };
      return inSpan(`invoke_agent ${scenario.agent}`, attributes, fn);
    },
    // run runs one scenario and records its spans as one line.
    async run(scenario, fn) {
      exporter.reset();
      await fn();
      await provider.forceFlush();
      if (flush) await flush();
      const spans = exporter.getFinishedSpans();
      if (spans.length === 0) throw new Error(`scenario ${scenario.name}: no spans captured`);
      const traceIds = new Set(spans.map((s) => s.spanContext().traceId));
      const bytes = otel.JsonTraceSerializer.serializeRequest(spans);
      lines.push(new TextDecoder().decode(bytes));
      summary.push({ scenario: scenario.name, spans: spans.length, traces: traceIds.size });
      exporter.reset();
    },
    // write writes the runs recorded since the last write (JSON lines, in
    // run order) to path, e.g. traces.json. With { close: false } the provider
    // stays up, so one capture program can write several files (traces.json,
    // outcomes.json, variants).
    async write(path, { close = true } = {}) {
      writeFileSync(path, lines.join("\n") + "\n");
      for (const s of summary) console.log(`${sdk}: ${s.scenario}: ${s.spans} spans in ${s.traces} trace(s)`);
      lines.length = 0;
      summary.length = 0;
      if (close) await provider.shutdown();
    },
  };
}

// zodObject is a scenario tool's params as a zod object schema (z: the zod module of the SDK folder):
// "number" params are z.number(), every other one z.string().
export function zodObject(z, params) {
  const shape = {};
  for (const [k, t] of Object.entries(params)) shape[k] = t === "number" ? z.number() : z.string();
  return z.object(shape);
}

// countToolResults counts the tool results in a prompt/message list, accepting
// the shapes used by the different SDKs.
export function countToolResults(messages) {
  let n = 0;
  for (const m of messages ?? []) {
    if (m.role === "tool") {
      if (Array.isArray(m.content)) n += m.content.filter((p) => p.type === "tool-result").length || 1;
      else n += 1;
    }
  }
  return n;
}

// outerLoop runs the outer agent loop of an outcome scenario (see
// outcomeScenarios in scenarios.mjs) and checks what it counted against
// scenario.expect, so a capture fails if the SDK or the scripted model did
// not behave as scripted.
//   callModel(round): makes one model call on the conversation so far, runs
//     the reply's tool calls (or lets the SDK run them) and appends the reply
//     and the tool results to the conversation. Returns
//     { finish, text, toolCalls, modelCalls }: the reply's finish reason as the
//     loop reads it ("length" when cut at the output limit), its text, the
//     number of tool calls it made, and, for an SDK whose one call runs its own
//     tool loop until a reply without tool calls (ADK's Runner), the number of
//     model calls that took (default 1).
//   appendUserText(text): appends user text to the conversation.
//   toolFailures(): the number of tool calls that threw so far.
export async function outerLoop(scenario, { callModel, appendUserText, toolFailures }) {
  const started = Date.now();
  const n = { rounds: 0, cut_offs: 0, continuations: 0, empty_replies: 0 };
  let continued = false;
  let nudged = false;
  let last;
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    last = await callModel(round);
    n.rounds += last.modelCalls ?? 1;
    last.cut = last.finish === "length";
    last.empty = !last.text && last.toolCalls === 0;
    if (last.cut) n.cut_offs++;
    if (last.empty) n.empty_replies++;
    if (last.cut && !continued) {
      appendUserText(CONTINUE_TEXT);
      continued = true;
      n.continuations++;
      continue;
    }
    if (last.empty && !nudged) {
      appendUserText(NUDGE_TEXT);
      nudged = true;
      continue;
    }
    if (last.toolCalls === 0) break;
  }
  const elapsedMs = Date.now() - started;
  const budgetMs = scenario.expect.run_budget ? parseFloat(scenario.expect.run_budget) * 1000 : Infinity;
  let outcome = "answered";
  if (elapsedMs > budgetMs) outcome = "over_budget";
  else if (last.cut) outcome = "cut_off";
  else if (last.empty) outcome = "empty";
  else if (last.toolCalls > 0) outcome = "max_rounds";
  const got = { outcome, ...n, tool_failures: toolFailures() };
  for (const [k, v] of Object.entries(got)) {
    if (scenario.expect[k] !== v) {
      throw new Error(`${scenario.name}: ${k} = ${v}, want ${scenario.expect[k]} (${JSON.stringify(got)})`);
    }
  }
  return { ...got, elapsedMs };
}

// serveJSON starts an HTTP server on 127.0.0.1 for a mock API: answer(req, body)
// is given each request with its body (read whole) and returns [status,
// headers, reply], sent as JSON with the headers given.
async function serveJSON(answer) {
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const [status, headers, reply] = answer(req, raw);
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return server;
}

// startChatCompletions starts a mock OpenAI-compatible server on 127.0.0.1 for
// the captures that drive the real `openai` client: it answers POST
// /v1/chat/completions from the script of scenario() (the scenario being run),
// after counting the tool messages in the request. It returns the server and
// its base URL (.../v1); call reset() before each scenario.
export async function startChatCompletions(scenario) {
  let calls = 0;
  const completion = (body) => {
    const current = scenario();
    const messages = body.messages ?? [];
    const seen = messages.filter((m) => m.role === "tool").length;
    const step = stepFor(current, seen);
    const n = calls++;
    const message = step.text
      ? { role: "assistant", content: step.text, refusal: null }
      : {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [
            {
              id: `call_${current.name}_${seen + 1}`,
              type: "function",
              function: { name: step.tool, arguments: JSON.stringify(step.args) },
            },
          ],
        };
    const inTok = 100 + 20 * seen;
    const outTok = step.text ? 20 : 15;
    return {
      id: `chatcmpl_${current.name}_${n}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: "scripted-model",
      choices: [{ index: 0, message, logprobs: null, finish_reason: step.text ? "stop" : "tool_calls" }],
      usage: { prompt_tokens: inTok, completion_tokens: outTok, total_tokens: inTok + outTok },
      system_fingerprint: "fp_fixture",
    };
  };
  // The request id counts the completions answered, this one included.
  const server = await serveJSON((req, raw) => {
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      return [404, { "x-request-id": `req_${calls}` }, { error: { message: `unexpected ${req.method} ${req.url}` } }];
    }
    const reply = completion(JSON.parse(raw));
    return [200, { "x-request-id": `req_${calls}` }, reply];
  });
  return { server, baseURL: `http://127.0.0.1:${server.address().port}/v1`, reset: () => (calls = 0) };
}

// startMessagesAPI starts a mock Anthropic Messages API on 127.0.0.1 for the
// captures that drive the real `@anthropic-ai/sdk` client: it answers POST
// /v1/messages (and /v1/messages?beta=true) from the script of scenario() (the
// scenario being run), after counting the tool_result blocks in the request:
// a tool_use block with the id toolu_<scenario>_<n>, or the final text. A
// request that continues a thread ({"thread": {"type": "continue",
// "previous_message_id"}}, as the SDK's tool runner sends them) holds only the
// new messages: the results counted before that message count too. With
// { outcome: true } the scenario is an outcome scenario: its steps are chosen
// by outcomeStepFor, counting the loop's control texts too, and a cut step
// stops at max_tokens, an empty one with no content. It returns the server and
// its base URL; call reset() before each scenario.
export async function startMessagesAPI(scenario, { outcome = false } = {}) {
  let calls = 0;
  const seenBefore = new Map(); // message id -> tool results its thread had seen
  const message = (body) => {
    const current = scenario();
    let seen = body.thread?.type === "continue" ? (seenBefore.get(body.thread.previous_message_id) ?? 0) : 0;
    for (const m of body.messages ?? []) {
      if (m.role === "user" && Array.isArray(m.content)) seen += m.content.filter((b) => b.type === "tool_result").length;
    }
    const step = outcome ? outcomeStepFor(current, seen, countControls(body.messages)) : stepFor(current, seen);
    const n = calls++;
    seenBefore.set(`msg_${current.name}_${n}`, seen);
    let content = [{ type: "tool_use", id: `toolu_${current.name}_${seen + 1}`, name: step.tool, input: step.args }];
    let stop = "tool_use";
    if (step.empty) [content, stop] = [[], "end_turn"];
    else if (step.text) [content, stop] = [[{ type: "text", text: step.text }], step.cut ? "max_tokens" : "end_turn"];
    return {
      id: `msg_${current.name}_${n}`,
      type: "message",
      role: "assistant",
      model: "scripted-model",
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: { input_tokens: 100 + 20 * seen, output_tokens: step.empty ? 0 : step.cut ? body.max_tokens : step.text ? 20 : 15 },
    };
  };
  // The request id counts the messages answered, this one included.
  const server = await serveJSON((req, raw) => {
    if (req.method !== "POST" || (req.url !== "/v1/messages" && req.url !== "/v1/messages?beta=true")) {
      return [404, { "request-id": `req_fixture_${calls}` }, { type: "error", error: { type: "not_found_error", message: `unexpected ${req.method} ${req.url}` } }];
    }
    const reply = message(JSON.parse(raw));
    return [200, { "request-id": `req_fixture_${calls}` }, reply];
  });
  return {
    server,
    baseURL: `http://127.0.0.1:${server.address().port}`,
    reset: () => {
      calls = 0;
      seenBefore.clear();
    },
  };
}

// anthropicToolDefs are a scenario's tools as Anthropic Messages API tools.
export function anthropicToolDefs(scenario) {
  return Object.entries(scenario.tools).map(([name, def]) => ({
    name,
    description: def.description,
    input_schema: {
      type: "object",
      properties: Object.fromEntries(Object.entries(def.params).map(([k, t]) => [k, { type: t }])),
      required: Object.keys(def.params),
    },
  }));
}

// toolDefs are a scenario's tools as OpenAI chat-completions function tools.
export function toolDefs(scenario) {
  return Object.entries(scenario.tools).map(([name, def]) => ({
    type: "function",
    function: {
      name,
      description: def.description,
      parameters: {
        type: "object",
        properties: Object.fromEntries(Object.entries(def.params).map(([k, t]) => [k, { type: t }])),
        required: Object.keys(def.params),
        additionalProperties: false,
      },
    },
  }));
}

// eachChatScenario runs every scenario against the mock chat-completions
// server: the SDK's client is made once, by makeClient(baseURL), and each run is
// run(scenario, client, runTool, tools) (makeToolRunner, toolDefs). The server
// is closed when they are done or one fails.
export async function eachChatScenario(scenarios, makeClient, run) {
  let current = null;
  const mock = await startChatCompletions(() => current);
  try {
    const client = makeClient(mock.baseURL);
    for (const scenario of scenarios) {
      current = scenario;
      mock.reset();
      await run(scenario, client, makeToolRunner(scenario), toolDefs(scenario));
    }
  } finally {
    mock.server.close();
  }
}

// chatCompletionsLoop runs a scenario's agent loop as application code on the `openai` client: chat
// completions until a reply without tool calls, each tool call run by runCall(name, args, callID) and its
// result appended as a tool message. It checks that the model was given every scripted tool result
// and returns the final answer.
export async function chatCompletionsLoop(client, scenario, tools, runCall) {
  const messages = [
    { role: "system", content: scenario.system },
    { role: "user", content: scenario.prompt },
  ];
  let toolResults = 0;
  for (let round = 0; round <= scenario.steps.length; round++) {
    const reply = await client.chat.completions.create({ model: "scripted-model", messages, tools });
    const msg = reply.choices[0].message;
    messages.push(msg);
    if (!msg.tool_calls?.length) {
      if (toolResults !== scenario.steps.length - 1) {
        throw new Error(`${scenario.name}: ${toolResults} tool results, want ${scenario.steps.length - 1}`);
      }
      return msg.content;
    }
    for (const call of msg.tool_calls) {
      const result = await runCall(call.function.name, JSON.parse(call.function.arguments), call.id);
      messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(result) });
      toolResults++;
    }
  }
  throw new Error(`${scenario.name}: no final answer`);
}
