# Copyright The agentotel Authors
# SPDX-License-Identifier: Apache-2.0

"""The five runs every coding-agent CLI generator under testdata/formats/cli writes: the user's MCP servers
and their tools, and per run the prompt, the tool calls with what each returns, and the verdict agentguard
must reach. A call is (server, tool, arguments, result, execution ms).

Not a program: each cli/*/gen.py puts testdata/formats (otlpgen) and this directory on sys.path and imports
it. The CLIs differ in how they export a run, not in what the run does; where a generator's run differs
(Codex's prompts, its result texts), it says so itself.
"""

from collections import namedtuple

from otlpgen import FIND_ARGS, RECORD, SECRETS

# The user's MCP servers, in the order configured.
SERVERS = ["ci", "kb", "files", "crm", "web"]
TOOL_SCHEMAS = {
    ("ci", "get_build_status"): ("Get the status of a CI build", {"build_id": "string"}),
    ("ci", "merge_pr"): ("Merge a pull request once its build is green", {"pr": "integer", "build_id": "string"}),
    ("kb", "search_docs"): ("Search the internal documentation", {"query": "string"}),
    ("files", "edit_file"): ("Insert or delete lines in a file",
                             {"path": "string", "line": "integer", "insert": "string", "delete_lines": "integer"}),
    ("files", "run_tests"): ("Run the Go tests of a package pattern", {"pkg": "string"}),
    ("crm", "find_customer"): ("Find a customer by name, email or account", {"query": "string"}),
    ("crm", "issue_refund"): ("Refund an amount to a customer", {"customer_id": "string", "amount": "number"}),
    ("web", "web_search"): ("Search the web", {"q": "string"}),
    ("web", "fetch_url"): ("Fetch a web page and summarise it", {"url": "string"}),
}
REQUIRED = {
    ("files", "edit_file"): ["path", "line"],
    ("ci", "merge_pr"): ["pr", "build_id"],
    ("crm", "issue_refund"): ["customer_id", "amount"],
}



def input_schema(server, tool):
    """The JSON schema of a tool's arguments, as its MCP server lists it."""
    props = TOOL_SCHEMAS[(server, tool)][1]
    return {"type": "object", "properties": {k: {"type": t} for k, t in props.items()},
            "required": REQUIRED.get((server, tool), list(props))}


# gap_ms: how far apart the tool calls start. expect / reason: agentguard's verdict on the run.
Scenario = namedtuple("Scenario", "case prompt final calls gap_ms expect reason data_class_tools secrets",
                      defaults=({}, []))


def server_tools(calls):
    """The (server, tool) pairs a run calls, each once, in the order first called."""
    pairs = []
    for server, tool, *_ in calls:
        if (server, tool) not in pairs:
            pairs.append((server, tool))
    return pairs


BUILD_STATES = [("queued", "0/4"), ("running", "1/4"), ("running", "1/4"), ("running", "2/4"),
                ("running", "3/4"), ("success", "4/4")]
BUILD_POLL_GAP_MS, BUILD_STATUS_MS = 10000, 180


def build_poll(served_at, request_id, merge_sha):
    """get_build_status polled every 10 s until the build passes, then merge_pr. served_at(k) and
    request_id(k) are what the k-th poll's result carries, merge_sha the merge's commit."""
    calls = [("ci", "get_build_status", {"build_id": "b_88231"},
              {"build_id": "b_88231", "status": st, "jobs": jobs, "served_at": served_at(k),
               "request_id": request_id(k)}, BUILD_STATUS_MS)
             for k, (st, jobs) in enumerate(BUILD_STATES)]
    calls.append(("ci", "merge_pr", {"pr": 4412, "build_id": "b_88231"}, {"merged": True, "sha": merge_sha}, 1450))
    return Scenario("build-poll", "Wait for build b_88231 to go green, then merge PR 4412.",
                    "Build b_88231 passed (4/4 jobs) and PR 4412 is merged.", calls, BUILD_POLL_GAP_MS,
                    "healthy", "")


DOCS_QUERIES = ["refund policy", "refund policy annual plans", "annual plan refund rules",
                "what is the refund policy for annual subscriptions", "cancel annual plan money back"]
DOCS_SEARCH = Scenario(
    "docs-search", "What is our refund policy for annual plans? Check the docs.",
    "I could not find any documentation on refund policy.",
    [("kb", "search_docs", {"query": q}, {"results": [], "total": 0}, 420) for q in DOCS_QUERIES], 5000,
    "stuck", "no_progress")


def edit_revert(sha_a, sha_b):
    """Three cycles of inserting a guard (the file's sha becomes sha_a), running the tests, deleting it again
    (sha_b) and running them again, with the same failure every time."""
    insert = {"path": "src/pay.go", "line": 40, "insert": "if r.Customer == nil {\n\treturn ErrNoCustomer\n}"}
    delete = {"path": "src/pay.go", "line": 40, "delete_lines": 3}
    tests = {"passed": 41, "failed": 1, "failures": ["TestRefund"]}
    cycle = [("files", "edit_file", insert, {"path": "src/pay.go", "sha": sha_a, "ok": True}, 240),
             ("files", "run_tests", {"pkg": "./..."}, tests, 2600),
             ("files", "edit_file", delete, {"path": "src/pay.go", "sha": sha_b, "ok": True}, 230),
             ("files", "run_tests", {"pkg": "./..."}, tests, 2600)]
    return Scenario("edit-revert", "TestRefund fails; guard against a nil customer in src/pay.go and get the tests green.",
                    "I could not get TestRefund to pass: adding the nil-customer guard to src/pay.go did not fix it.",
                    cycle * 3, 6000, "stuck", "no_progress")


# find_customer returns the customer record; issue_refund's arguments carry a value taken from it.
SUPPORT = Scenario(
    "support", "Find the Roe-Whitfield account and refund the last order.",
    "Refunded 129.50; refund re_5521 succeeded.",
    [("crm", "find_customer", FIND_ARGS, RECORD, 610),
     ("crm", "issue_refund", {"customer_id": "cus_88421907", "amount": 129.5},
      {"refund_id": "re_5521", "status": "succeeded"}, 880)],
    4000, "healthy", "", {"find_customer": "customer"}, SECRETS)


def research(last_page):
    """Two searches and three page fetches, each with its own result, then the answer; last_page is what the
    last fetch returns besides the page's status and title."""
    hits1 = [{"title": "Heat pump efficiency explained", "url": "https://energy.example.org/heat-pumps/efficiency"},
             {"title": "COP and SCOP: measuring heat pump performance", "url": "https://hvac.example.com/guides/cop-scop"},
             {"title": "Field trial: heat pumps in older homes", "url": "https://research.example.net/trials/older-homes"}]
    hits2 = [{"title": "Cold-climate heat pumps at -20 C", "url": "https://energy.example.org/heat-pumps/cold-climate"},
             {"title": "Defrost cycles and winter COP", "url": "https://hvac.example.com/guides/defrost"},
             {"title": "Nordic field data on air-source heat pumps", "url": "https://research.example.net/nordic-ashp"}]
    calls = [
        ("web", "web_search", {"q": "heat pump efficiency"}, {"hits": hits1}, 900),
        ("web", "fetch_url", {"url": hits1[0]["url"]}, {"status": 200, "title": hits1[0]["title"], "words": 1840}, 1300),
        ("web", "fetch_url", {"url": hits1[1]["url"]}, {"status": 200, "title": hits1[1]["title"], "words": 2315}, 1150),
        ("web", "web_search", {"q": "heat pump cold climate performance"}, {"hits": hits2}, 870),
        ("web", "fetch_url", {"url": hits2[0]["url"]}, {"status": 200, "title": hits2[0]["title"], **last_page}, 1240),
    ]
    return Scenario("research", "Research how efficient heat pumps are, including in cold climates.",
                    "Air-source heat pumps typically deliver 3-4 units of heat per unit of electricity and stay "
                    "above 2 in cold climates.", calls, 4500, "healthy", "")
