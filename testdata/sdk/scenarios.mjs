// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Shared scenario scripts for the SDK capture programs in testdata/sdk/*/capture.mjs.
//
// Every SDK runs the same five scenarios. A scenario has:
//   - name:    scenario id (also the line order in traces.json)
//   - agent:   agent / function name, set where the SDK allows it
//   - runId:   run / session id, set where the SDK allows it
//   - prompt:  the user message
//   - system:  the system prompt
//   - tools:   { toolName: { description, params: {name: "string"|"number"} } }
//   - steps:   the scripted model: step i is what the model emits after it has
//              seen i tool results in the conversation so far:
//              { tool, args } for a tool call, or { text } for the final answer
//   - results: the scripted tool implementations: results[toolName](args, n)
//              returns the tool's result object, n is the 0-based call number
//              of that tool within the run.
//
// The mock models never look at a step counter of their own: they count the
// tool results already in the prompt they are given (see stepFor), so they
// really read the conversation so far.

const now = () => new Date().toISOString();

export const SHA_A = "3f9c2a7d1e4b8f60a5c3d2e1f0b9a8c7d6e5f4a3";
export const SHA_B = "8e1d4c6b2a9f7e3d5c1b0a9f8e7d6c5b4a3f2e1d";

const buildStates = [
  { status: "queued", jobs: "0/4" },
  { status: "running", jobs: "1/4" },
  { status: "running", jobs: "1/4" },
  { status: "running", jobs: "2/4" },
  { status: "success", jobs: "4/4" },
];

const docsQueries = [
  "refund policy",
  "refund policy annual plans",
  "annual plan refund rules",
  "what is the refund policy for annual subscriptions",
  "refund terms annual billing",
];

const PATCH_FIX = "--- a/src/pay.go\n+++ b/src/pay.go\n@@ -88 +88 @@\n-\treturn amount\n+\treturn amount - fee\n";
const PATCH_REVERT = "--- a/src/pay.go\n+++ b/src/pay.go\n@@ -88 +88 @@\n-\treturn amount - fee\n+\treturn amount\n";

export const SECRETS = [
  "Augusta Ada Lovelace",
  "ada.lovelace@analytical-engine.example",
  "prefers contact by post after the refund dispute",
];

export const scenarios = [
  {
    name: "deploy",
    agent: "deploy-agent",
    runId: "run-deploy-0001",
    system: "You are a deploy assistant. Poll the build until it finishes, then report.",
    prompt: "Is build b_88231 done yet? Tell me when it has finished.",
    tools: {
      get_build_status: {
        description: "Get the current status of a CI build.",
        params: { build_id: "string" },
      },
    },
    steps: [
      ...buildStates.map(() => ({ tool: "get_build_status", args: { build_id: "b_88231" } })),
      { text: "Build b_88231 finished successfully: all 4 jobs passed." },
    ],
    results: {
      get_build_status: (_args, n) => ({ ...buildStates[Math.min(n, buildStates.length - 1)], served_at: now() }),
    },
  },
  {
    name: "docs",
    agent: "docs-agent",
    runId: "run-docs-0001",
    system: "You answer questions from the product documentation.",
    prompt: "What is our refund policy for annual plans?",
    tools: {
      search_docs: {
        description: "Search the product documentation.",
        params: { query: "string" },
      },
    },
    steps: [
      ...docsQueries.map((q) => ({ tool: "search_docs", args: { query: q } })),
      { text: "I could not find anything about refunds for annual plans in the documentation." },
    ],
    results: {
      search_docs: () => ({ results: [], total: 0, served_at: now() }),
    },
  },
  {
    name: "code",
    agent: "code-agent",
    runId: "run-code-0001",
    system: "You are a coding agent. Fix the failing test.",
    prompt: "TestRefund fails in src/pay.go. Please fix it.",
    tools: {
      edit_file: {
        description: "Apply a unified diff to a file.",
        params: { path: "string", patch: "string" },
      },
      run_tests: {
        description: "Run the test suite.",
        params: { package: "string" },
      },
    },
    steps: [
      { tool: "edit_file", args: { path: "src/pay.go", patch: PATCH_FIX } },
      { tool: "run_tests", args: { package: "./..." } },
      { tool: "edit_file", args: { path: "src/pay.go", patch: PATCH_REVERT } },
      { tool: "run_tests", args: { package: "./..." } },
      { tool: "edit_file", args: { path: "src/pay.go", patch: PATCH_FIX } },
      { tool: "run_tests", args: { package: "./..." } },
      { tool: "edit_file", args: { path: "src/pay.go", patch: PATCH_REVERT } },
      { tool: "run_tests", args: { package: "./..." } },
      { text: "I could not get TestRefund to pass." },
    ],
    results: {
      edit_file: (_args, n) => ({ path: "src/pay.go", sha: n % 2 === 0 ? SHA_A : SHA_B, ok: true }),
      run_tests: () => ({ passed: 41, failed: 1, failures: ["TestRefund"] }),
    },
  },
  {
    name: "support",
    agent: "support-agent",
    runId: "run-support-0001",
    system: "You are a support agent. Never repeat customer personal data in replies.",
    prompt: "Customer Lovelace asked for a refund of 120 on her annual plan. Please issue it.",
    tools: {
      find_customer: {
        description: "Look up a customer by name.",
        params: { query: "string" },
      },
      issue_refund: {
        description: "Issue a refund to a customer.",
        params: { customer_id: "string", amount: "number" },
      },
    },
    steps: [
      { tool: "find_customer", args: { query: "Lovelace" } },
      { tool: "issue_refund", args: { customer_id: "cus_1", amount: 120 } },
      { text: "Done: refund rf_1 for 120 has been issued to customer cus_1." },
    ],
    results: {
      find_customer: () => ({
        rows: [
          {
            id: "cus_1",
            name: "Augusta Ada Lovelace",
            email: "ada.lovelace@analytical-engine.example",
            plan: "annual",
            balance: 1234.5,
            notes: "prefers contact by post after the refund dispute",
          },
        ],
        total: 1,
        status: "ok",
      }),
      issue_refund: () => ({ ok: true, refund_id: "rf_1" }),
    },
  },
  {
    name: "research",
    agent: "research-agent",
    runId: "run-research-0001",
    system: "You are a research assistant.",
    prompt: "How much energy do large data centres use? Give me a sourced summary.",
    tools: {
      search_web: { description: "Search the web.", params: { query: "string" } },
      fetch_page: { description: "Fetch a web page as text.", params: { url: "string" } },
      extract_figures: { description: "Extract numeric figures from text.", params: { text: "string" } },
      summarize: { description: "Summarize text.", params: { text: "string" } },
      cite_sources: { description: "Format citations.", params: { urls: "string" } },
    },
    steps: [
      { tool: "search_web", args: { query: "data centre electricity use 2024" } },
      { tool: "fetch_page", args: { url: "https://energy.example/reports/datacentres-2024" } },
      { tool: "extract_figures", args: { text: "Data centres used about 415 TWh in 2024, roughly 1.5% of global electricity." } },
      { tool: "summarize", args: { text: "Data centres used about 415 TWh in 2024 (1.5% of global electricity); demand may double by 2030." } },
      { tool: "cite_sources", args: { urls: "https://energy.example/reports/datacentres-2024" } },
      { text: "Data centres used about 415 TWh of electricity in 2024 (about 1.5% of global use), and demand could double by 2030 [1]." },
    ],
    results: {
      search_web: () => ({
        results: [
          { title: "Energy and AI: data centre demand", url: "https://energy.example/reports/datacentres-2024" },
          { title: "Data centre efficiency trends", url: "https://grid.example/blog/dc-efficiency" },
        ],
        total: 2,
      }),
      fetch_page: () => ({
        url: "https://energy.example/reports/datacentres-2024",
        text: "Data centres used about 415 TWh in 2024, roughly 1.5% of global electricity. Demand may double by 2030.",
        status: 200,
      }),
      extract_figures: () => ({ figures: [{ value: 415, unit: "TWh", year: 2024 }, { value: 1.5, unit: "%" }] }),
      summarize: () => ({ summary: "About 415 TWh (1.5% of world electricity) in 2024, possibly doubling by 2030." }),
      cite_sources: () => ({ citations: ["[1] Energy and AI: data centre demand, energy.example, 2024"] }),
    },
  },
];

// stepFor returns the scripted step for a conversation in which `toolResults`
// tool results have been seen so far.
export function stepFor(scenario, toolResults) {
  const i = Math.min(toolResults, scenario.steps.length - 1);
  return scenario.steps[i];
}

// makeToolRunner returns (toolName, args) => result for one run, counting the
// calls of each tool so that polled tools return moving results.
export function makeToolRunner(scenario) {
  const counts = {};
  return (toolName, args) => {
    const n = counts[toolName] ?? 0;
    counts[toolName] = n + 1;
    return scenario.results[toolName](args, n);
  };
}

// ---------------------------------------------------------------------------
// Outcome scenarios: how a run ended. Each is one run (one trace) of an outer
// loop that the capture program implements around the SDK's model call, the
// loop from the "every exit is an answer" design (see outerLoop in
// capture-lib.mjs):
//
//   for round in 1..8:
//     reply = model(messages)
//     cut at the output limit ('length') and not yet continued:
//       append CONTINUE_TEXT as user text, continue (once)
//     empty (no text, no tool call) and not yet nudged:
//       append NUDGE_TEXT as user text, continue (once)
//     run the reply's tool calls (a tool that throws: its error is the result)
//     stop when the reply has no tool calls
//
// A scenario has the fields of a seed scenario, plus:
//   - steps:  the scripted model: step i is what the model emits after it has
//             seen i tool results and control texts (CONTINUE_TEXT, NUDGE_TEXT)
//             in the conversation so far (see outcomeStepFor):
//               { tool, args }           a tool call (finish reason tool calls)
//               { text }                 a final answer (finish reason stop)
//               { text, cut: true }      text cut at the output limit (finish reason length)
//               { empty: true }          an empty reply: no text, no tool call (finish reason stop)
//   - expect: what the loop must count: { outcome, rounds, cut_offs,
//             continuations, empty_replies, tool_failures, run_budget }
//             (rounds = model calls; run_budget "" when none is configured)

export const CONTINUE_TEXT = "Continue exactly where it stopped, without repeating anything.";
export const NUDGE_TEXT = "Call a tool or give your final answer.";
export const MAX_ROUNDS = 8;

const INCIDENT = {
  id: "INC-4411",
  service: "checkout",
  status: "resolved",
  opened_at: "09:12",
  resolved_at: "09:41",
  events: ["09:12 502s from checkout", "09:20 deploy of build b_88231 identified", "09:30 rollback started", "09:41 error rate normal"],
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const outcomeScenarios = [
  {
    name: "cutoff-continued",
    agent: "cutoff-continued-agent",
    runId: "run-cutoff-continued-0001",
    system: "You are an incident reporter. Write a complete incident summary.",
    prompt: "Write the incident report for INC-4411.",
    tools: {
      get_incident: { description: "Get an incident record.", params: { incident_id: "string" } },
    },
    steps: [
      { tool: "get_incident", args: { incident_id: "INC-4411" } },
      { text: "INC-4411: checkout returned 502s from 09:12. The cause was the deploy of build b_88231; the rollback", cut: true },
      { text: " started at 09:30 and the error rate was normal again at 09:41." },
    ],
    results: { get_incident: () => ({ ...INCIDENT }) },
    expect: { outcome: "answered", rounds: 3, cut_offs: 1, continuations: 1, empty_replies: 0, tool_failures: 0, run_budget: "" },
  },
  {
    name: "cutoff-left",
    agent: "cutoff-left-agent",
    runId: "run-cutoff-left-0001",
    system: "You are an incident reporter. Write a complete incident summary.",
    prompt: "Write the full incident timeline for INC-4411.",
    tools: {
      get_incident: { description: "Get an incident record.", params: { incident_id: "string" } },
    },
    steps: [
      { tool: "get_incident", args: { incident_id: "INC-4411" } },
      { text: "INC-4411 timeline. 09:12: checkout starts returning 502s. 09:20: the deploy of build b_88231", cut: true },
      { text: " is identified as the cause. 09:30: the rollback starts. 09:41: the error rate", cut: true },
    ],
    results: { get_incident: () => ({ ...INCIDENT }) },
    expect: { outcome: "cut_off", rounds: 3, cut_offs: 2, continuations: 1, empty_replies: 0, tool_failures: 0, run_budget: "" },
  },
  {
    name: "empty-nudged",
    agent: "empty-nudged-agent",
    runId: "run-empty-nudged-0001",
    system: "You answer questions from the knowledge base.",
    prompt: "How do I rotate an API key?",
    tools: {
      search_kb: { description: "Search the knowledge base.", params: { query: "string" } },
    },
    steps: [
      { tool: "search_kb", args: { query: "rotate API key" } },
      { empty: true },
      { text: "Open Settings > API keys, create a new key, switch your clients to it, then revoke the old key." },
    ],
    results: {
      search_kb: () => ({ results: [{ title: "Rotating API keys", id: "kb_112" }], total: 1 }),
    },
    expect: { outcome: "answered", rounds: 3, cut_offs: 0, continuations: 0, empty_replies: 1, tool_failures: 0, run_budget: "" },
  },
  {
    name: "empty-left",
    agent: "empty-left-agent",
    runId: "run-empty-left-0001",
    system: "You answer questions from the knowledge base.",
    prompt: "What is the retention period for audit logs?",
    tools: {
      search_kb: { description: "Search the knowledge base.", params: { query: "string" } },
    },
    steps: [{ tool: "search_kb", args: { query: "audit log retention" } }, { empty: true }, { empty: true }],
    results: {
      search_kb: () => ({ results: [{ title: "Audit logs", id: "kb_207" }], total: 1 }),
    },
    expect: { outcome: "empty", rounds: 3, cut_offs: 0, continuations: 0, empty_replies: 2, tool_failures: 0, run_budget: "" },
  },
  {
    name: "tool-throws",
    agent: "tool-throws-agent",
    runId: "run-tool-throws-0001",
    system: "You are an order support agent.",
    prompt: "Where is order o_5521?",
    tools: {
      lookup_order: { description: "Look up an order in the order service.", params: { order_id: "string" } },
      lookup_order_cache: { description: "Look up an order in the read cache.", params: { order_id: "string" } },
    },
    steps: [
      { tool: "lookup_order", args: { order_id: "o_5521" } },
      { tool: "lookup_order_cache", args: { order_id: "o_5521" } },
      { text: "Order o_5521 shipped on 3 March and should arrive within two days." },
    ],
    results: {
      lookup_order: () => {
        throw new Error("upstream 503");
      },
      lookup_order_cache: () => ({ order_id: "o_5521", status: "shipped", shipped_on: "03-03", cached: true }),
    },
    expect: { outcome: "answered", rounds: 3, cut_offs: 0, continuations: 0, empty_replies: 0, tool_failures: 1, run_budget: "" },
  },
  {
    name: "over-budget",
    agent: "over-budget-agent",
    runId: "run-over-budget-0001",
    system: "You export reports.",
    prompt: "Export the Q1 sales report, all three parts.",
    tools: {
      export_report: { description: "Export one part of a report (slow).", params: { part: "number" } },
    },
    steps: [
      { tool: "export_report", args: { part: 1 } },
      { tool: "export_report", args: { part: 2 } },
      { tool: "export_report", args: { part: 3 } },
      { text: "The Q1 sales report is exported in three parts." },
    ],
    results: {
      // A real 1.5 s wait: the run (three calls) takes more than 4.5 s.
      export_report: async (args) => {
        await sleep(1500);
        return { part: args.part, rows: 1000 * args.part, ok: true };
      },
    },
    expect: { outcome: "over_budget", rounds: 4, cut_offs: 0, continuations: 0, empty_replies: 0, tool_failures: 0, run_budget: "2s" },
  },
];

// countControls counts the loop's control texts (continuations and nudges)
// in a conversation, in whatever message format the SDK uses.
export function countControls(messages) {
  const s = JSON.stringify(messages ?? []);
  return s.split(CONTINUE_TEXT).length - 1 + (s.split(NUDGE_TEXT).length - 1);
}

// outcomeStepFor returns the scripted step for a conversation in which
// `toolResults` tool results and `controls` control texts have been seen.
export function outcomeStepFor(scenario, toolResults, controls) {
  const i = Math.min(toolResults + controls, scenario.steps.length - 1);
  return scenario.steps[i];
}
