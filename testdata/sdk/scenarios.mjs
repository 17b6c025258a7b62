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
