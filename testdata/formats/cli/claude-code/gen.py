#!/usr/bin/env python3
# Copyright The agentotel Authors
# SPDX-License-Identifier: Apache-2.0

"""Writes the OTLP JSON payloads of testdata/formats/cli/claude-code/ and their manifest.json.

Run: python3 testdata/formats/cli/claude-code/gen.py   (from anywhere; writes next to this file)

Claude Code is closed source. The shapes here follow its official monitoring documentation
(https://code.claude.com/docs/en/monitoring-usage, text as stored on or after 2026-07-21), its public
CHANGELOG.md (anthropics/claude-code @ 5cfc0a19), and verbatim live captures published by third parties
(t4avenger/AI-Engineering-productivity fixtures, Claude Code 2.1.283-2.1.287; a mitmproxy capture of the
Messages API requests in chief-builder/claude-code-analytics). README.md says per record and attribute
where it comes from and what was inferred.

Every payload is one OTLP JSON request per line (ExportTraceServiceRequest / ExportLogsServiceRequest as
pdata's JSONUnmarshalers read them). Records are split into export requests the way the SDK's batch
processors do by default (one export every 5 s: OTEL_LOGS_EXPORT_INTERVAL / OTEL_TRACES_EXPORT_INTERVAL
default 5000 ms), so a trace's root span arrives in a later request than its children. Ids and timestamps
are fixed, so the output is byte-identical on every run.
"""

import os
import sys

sys.dont_write_bytecode = True  # a run leaves nothing in testdata but the payloads
FORMATS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [FORMATS, os.path.join(FORMATS, "cli")]  # otlpgen, scenarios
import scenarios
from otlpgen import (Output, attributes, export_batches, hexid, iso_seconds, jcompact, logs_request,
                     nanos, sha256_hex, to_iso_string, traces_request, utf16_len, uuid4)

OUT = Output(__file__)

CC_VERSION = "2.1.287"
MODEL = "claude-sonnet-5"
DOCS = "https://code.claude.com/docs/en/monitoring-usage"
DOCS_REF = "copy as stored, newest version marker 2.1.217 (released 2026-07-21)"
CHANGELOG_REPO = "anthropics/claude-code"
CHANGELOG_REF = "5cfc0a1905ce0c0a9bd81d8a90fe6b62ff614357"
CAPTURES = "t4avenger/AI-Engineering-productivity"
CAP_TRACE_REF = "41d7cf058128ab8330c49bf1125b8d7756fb55b7"
CAP_LOGS_REF = "1d76b36c9578dbc04ce7b8399dec7626d87da156"
CAP_CONV_REF = "c237e8916ac1a8aa76cd88f2faf9161151d50247"
MITM_REPO = "chief-builder/claude-code-analytics"
MITM_REF = "264e329fc065fcb2daf9e61f2c690294a648783b"

LOG_SCOPE = {"name": "com.anthropic.claude_code.events", "version": CC_VERSION}
TRACE_SCOPE = {"name": "com.anthropic.claude_code.tracing", "version": "1.0.0"}

# Estimated cost (Claude Code prices the request itself; the rates are an assumption, see README).
PRICE_IN, PRICE_OUT, PRICE_CACHE_W, PRICE_CACHE_R = 3.0, 15.0, 3.75, 0.30  # USD per million tokens
SYSTEM_TOKENS = 21450  # the cached system prompt + tool definitions of the first request


# ---------------------------------------------------------------------------
# Deterministic ids (otlpgen's, and Anthropic's base62 ones). All times are milliseconds after otlpgen's T0
# (the process start of each run).

B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def b62(seed, n):
    v = int(sha256_hex(seed), 16)
    out = []
    for _ in range(n):
        v, r = divmod(v, 62)
        out.append(B62[r])
    return "".join(out)


RESOURCE = {
    "attributes": attributes([
        ("host.arch", "arm64"),
        ("os.type", "darwin"),
        ("os.version", "25.1.0"),
        ("service.name", "claude-code"),
        ("service.version", CC_VERSION),
    ]),
    "droppedAttributesCount": 0,
}


# ---------------------------------------------------------------------------
# One Claude Code session: an interactive `claude` run in which the user types one prompt.


class Session:
    def __init__(self, n, case):
        self.n = n
        self.case = case
        self.seq = 0
        self.session_id = uuid4("session/" + case)
        self.prompt_id = uuid4("prompt/" + case)
        self.trace_id = "%032x" % (0x3c1a0d00000000000000000000000000 + n)
        self.span_n = 0
        self.logs = []   # (time ms, record)
        self.spans = []  # (end ms, span)
        self.identity = [
            ("user.id", sha256_hex("user.id")),
            ("session.id", self.session_id),
            ("organization.id", uuid4("organization.id")),
            ("user.email", "dev@example-corp.test"),
            ("user.account_uuid", uuid4("user.account_uuid")),
            ("user.account_id", "user_01" + b62("user.account_id", 22)),
            ("terminal.type", "iTerm.app"),
        ]

    def span_id(self):
        self.span_n += 1
        return "%016x" % (0x5c00000000000000 + self.n * 0x10000 + self.span_n)

    def event(self, ms, name, specific, in_prompt=True, traced=True):
        self.seq += 1
        a = list(self.identity) + [
            ("event.name", name),
            ("event.timestamp", to_iso_string(ms)),
            ("event.sequence", self.seq),
        ]
        if in_prompt:
            a.append(("prompt.id", self.prompt_id))
        a += specific
        r = {
            "timeUnixNano": nanos(ms),
            "observedTimeUnixNano": nanos(ms),
            "body": {"stringValue": "claude_code." + name},
            "attributes": attributes(a),
            "droppedAttributesCount": 0,
            "flags": 1 if traced else 0,
        }
        if traced:
            r["traceId"] = self.trace_id
            r["spanId"] = self.interaction_span
        else:
            del r["flags"]
        self.logs.append((ms, r))

    def span(self, span_id, parent, name, start, end, specific, events=None, links=None):
        s = {"traceId": self.trace_id, "spanId": span_id}
        if parent:
            s["parentSpanId"] = parent
        s.update({
            "name": "claude_code." + name,
            "kind": 1,
            "startTimeUnixNano": nanos(start),
            "endTimeUnixNano": nanos(end),
            "attributes": attributes(list(self.identity) + [("span.type", name)] + specific),
            "droppedAttributesCount": 0,
            "events": events or [],
            "droppedEventsCount": 0,
            "status": {"code": 0},
            "links": links or [],
            "droppedLinksCount": 0,
            "flags": 257,
        })
        self.spans.append((end, s))


def span_event(name, ms, pairs):
    return {"attributes": attributes(pairs), "name": name, "timeUnixNano": nanos(ms), "droppedAttributesCount": 0}


def logs_requests(sess):
    return [logs_request(RESOURCE, [(LOG_SCOPE, b)]) for b in export_batches(sess.logs)]


def traces_requests(sess):
    return [traces_request(RESOURCE, [(TRACE_SCOPE, b)]) for b in export_batches(sess.spans)]


# ---------------------------------------------------------------------------
# The Anthropic Messages API request Claude Code sends (what OTEL_LOG_RAW_API_BODIES=1 exports).


def mcp_name(server, tool):
    return "mcp__%s__%s" % (server, tool)


def tool_definitions():
    out = []
    for (server, tool), (desc, _) in scenarios.TOOL_SCHEMAS.items():
        out.append({"name": mcp_name(server, tool), "description": desc,
                    "input_schema": scenarios.input_schema(server, tool)})
    return out


BILLING_HEADER = "x-anthropic-billing-header: cc_version=%s.fc6; cc_entrypoint=cli;" % CC_VERSION
IDENTITY_LINE = "You are Claude Code, Anthropic's official CLI for Claude."
SYSTEM_BLOCKS = [
    {"type": "text", "text": BILLING_HEADER},
    {"type": "text", "text": IDENTITY_LINE, "cache_control": {"type": "ephemeral"}},
]
SYSTEM_TEXT = BILLING_HEADER + "\n\n" + IDENTITY_LINE


def with_cache_breakpoints(messages):
    """Claude Code marks the last content block of the last two messages cache_control ephemeral (as in the
    mitmproxy capture); earlier messages are sent as they were."""
    out = []
    for i, m in enumerate(messages):
        content = [dict(b) for b in m["content"]]
        if i >= len(messages) - 2:
            content[-1]["cache_control"] = {"type": "ephemeral"}
        out.append({"role": m["role"], "content": content})
    return out


def request_body(messages):
    return jcompact({
        "model": MODEL,
        "messages": with_cache_breakpoints(messages),
        "system": SYSTEM_BLOCKS,
        "tools": tool_definitions(),
        "max_tokens": 32000,
        "stream": True,
    })


# ---------------------------------------------------------------------------
# A run: one prompt, one model call per round, one MCP tool call per round but the last.


FIRST_EXEC_MS = 6000  # when a run's first tool execution starts; the next ones follow gap_ms apart


def run_session(n, case, prompt, final_text, calls, gap_ms, detailed=False):
    """calls: list of (server, tool, args, result, exec_ms). Tool executions start gap_ms apart."""
    s = Session(n, case)
    interaction = s.span_id()
    s.interaction_span = interaction

    # Start-up: one mcp_server_connection event per configured server, before any prompt (no prompt.id,
    # no trace context: no interaction span is active yet). The servers are configured in the project's
    # .mcp.json, so their server_scope is "project".
    t = 180
    for server in scenarios.SERVERS:
        dur = 240 + 37 * scenarios.SERVERS.index(server)
        s.event(t + dur, "mcp_server_connection", [
            ("status", "connected"), ("transport_type", "stdio"), ("server_scope", "project"),
            ("duration_ms", dur), ("is_plugin", False), ("server_name", server),
        ], in_prompt=False, traced=False)
        t += 25

    start = 3000
    s.event(start + 30, "user_prompt", [
        ("prompt_length", str(len(prompt))), ("prompt", prompt),
        ("message.uuid", uuid4(case + "/message/user")),
    ])

    messages = [{"role": "user", "content": [{"type": "text", "text": prompt}]}]
    llm_start = start + 60
    cache_read, cache_write_prev = 0, SYSTEM_TOKENS
    prev_mcp = None
    prev_result_text = None
    tool_defs_json = jcompact(tool_definitions())
    for r in range(len(calls) + 1):
        last = r == len(calls)
        if not last:
            server, tool, args, result, exec_ms = calls[r]
            exec_start = FIRST_EXEC_MS + r * gap_ms
            llm_end = exec_start - 14
        else:
            llm_end = llm_start + 2480
        dur = llm_end - llm_start
        tag = "%s/%d" % (case, r)
        req_id = "req_011C" + b62(tag + "/request_id", 19)
        client_req = uuid4(tag + "/client_request_id")
        msg_id = "msg_01" + b62(tag + "/msg", 22)

        # Tokens: the system prompt and tools are cached on the first call; each later call reads the
        # cache and writes what the previous round added.
        if r == 0:
            cache_read, cache_write = 0, SYSTEM_TOKENS
        else:
            cache_read = cache_read + cache_write_prev
            cache_write = 48 + len(prev_result_text) // 3
        cache_write_prev = cache_write
        in_tok = 3
        if last:
            out_tok = 18 + len(final_text) // 4
        else:
            out_tok = 52 + len(jcompact(args)) // 4
        cost = (in_tok * PRICE_IN + out_tok * PRICE_OUT + cache_write * PRICE_CACHE_W
                + cache_read * PRICE_CACHE_R) / 1e6
        cost = round(cost, 6)
        ttft = dur - (640 if last else 330)

        # Request body, response body.
        body = request_body(messages)
        s.event(llm_start + 2, "api_request_body", [
            ("body", body), ("body_length", utf16_len(body)),
            ("model", MODEL), ("query_source", "repl_main_thread"),
        ])
        if last:
            content = [{"type": "text", "text": final_text}]
            stop = "end_turn"
        else:
            tool_use_id = "toolu_01" + b62(tag + "/tool_use_id", 22)
            content = [{"type": "tool_use", "id": tool_use_id, "name": mcp_name(server, tool), "input": args}]
            stop = "tool_use"
        response = jcompact({
            "id": msg_id, "type": "message", "role": "assistant", "model": MODEL, "content": content,
            "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": in_tok, "cache_creation_input_tokens": cache_write,
                      "cache_read_input_tokens": cache_read, "output_tokens": out_tok},
        })
        api_request = [
            ("model", MODEL), ("cost_usd", cost), ("cost_usd_micros", int(round(cost * 1e6))),
            ("duration_ms", dur), ("input_tokens", in_tok), ("output_tokens", out_tok),
            ("cache_read_tokens", cache_read), ("cache_creation_tokens", cache_write),
            ("request_id", req_id), ("client_request_id", client_req), ("speed", "normal"),
            ("query_source", "repl_main_thread"), ("effort", "high"),
        ]
        if prev_mcp:
            # User-configured MCP server and tool names are replaced with "custom".
            api_request += [("mcp_server.name", "custom"), ("mcp_tool.name", "custom")]
        s.event(llm_end - 3, "api_request", api_request)
        s.event(llm_end - 2, "api_response_body", [
            ("body", response), ("body_length", utf16_len(response)),
            ("model", MODEL), ("query_source", "repl_main_thread"), ("request_id", req_id),
        ])
        if last:
            s.event(llm_end - 1, "assistant_response", [
                ("response_length", str(len(final_text))), ("response", final_text), ("request_id", req_id),
                ("message.uuid", uuid4(case + "/message/final")), ("model", MODEL),
                ("query_source", "repl_main_thread"),
            ])

        # The llm_request span.
        llm = s.span_id()
        la = [
            ("model", MODEL), ("gen_ai.system", "anthropic"), ("gen_ai.request.model", MODEL),
            ("llm_request.context", "interaction"), ("speed", "normal"),
            ("query_source", "repl_main_thread"), ("query_source_safe", "repl_main_thread"),
        ]
        if detailed:
            if r == 0:
                new_context = "[USER]\n" + prompt
            else:
                new_context = "[TOOL RESULT: %s]\n%s" % (prev_tool_use_id, prev_result_text)
            la += [
                ("system_prompt_hash", "sp_" + hexid(SYSTEM_TEXT, 12)),
                ("system_prompt_preview", SYSTEM_TEXT),
                ("system_prompt_length", len(SYSTEM_TEXT)),
                ("tools", jcompact([{"name": d["name"], "hash": hexid(jcompact(d), 12)}
                                    for d in tool_definitions()])),
                ("tools_count", len(scenarios.TOOL_SCHEMAS)),
                ("new_context_message_count", 1),
                ("new_context", new_context),
            ]
        la += [
            ("duration_ms", dur), ("input_tokens", in_tok), ("output_tokens", out_tok),
            ("cache_read_tokens", cache_read), ("cache_creation_tokens", cache_write),
            ("success", True), ("attempt", 1), ("response.has_tool_call", not last),
            ("request_id", req_id), ("gen_ai.response.id", req_id), ("client_request_id", client_req),
            ("ttft_ms", ttft), ("first_content_ms", ttft + 1), ("effort", "high"),
        ]
        if detailed and last:
            la.append(("response.model_output", final_text))
        la += [("stop_reason", stop), ("gen_ai.response.finish_reasons", [stop])]
        link = {"attributes": attributes([("link.type", "parent_of")]),
                "spanId": hexid(tag + "/server-span", 16), "traceId": hexid(tag + "/server-trace", 32),
                "droppedAttributesCount": 0, "flags": 769}
        s.span(llm, interaction, "llm_request", llm_start, llm_end, la,
               events=[span_event("gen_ai.request.attempt", llm_start + 11,
                                  [("attempt", 1), ("client_request_id", client_req)])],
               links=[link])

        if last:
            end = llm_end + 6
            break

        # The tool call: claude_code.tool > blocked_on_user (allowed by a settings rule) > execution.
        name = mcp_name(server, tool)
        args_json = jcompact(args)
        result_text = jcompact(result)
        mcp_content = [{"type": "text", "text": result_text}]
        tool_span, blocked, execution = s.span_id(), s.span_id(), s.span_id()
        t_start = exec_start - 4
        exec_end = exec_start + exec_ms
        t_end = exec_end + 1
        params = jcompact({"mcp_server_name": server, "mcp_tool_name": tool})
        s.event(exec_start - 1, "tool_decision", [
            ("decision", "accept"), ("source", "config"), ("tool_name", "mcp_tool"),
            ("tool_use_id", tool_use_id), ("tool_source", "mcp"), ("tool_parameters", params),
        ])
        s.span(blocked, tool_span, "tool.blocked_on_user", t_start + 1, exec_start - 1,
               [("duration_ms", 2), ("decision", "accept"), ("source", "config")])
        s.span(execution, tool_span, "tool.execution", exec_start, exec_end, [
            ("tool_use_id", tool_use_id), ("gen_ai.tool.call.id", tool_use_id),
            ("duration_ms", exec_ms), ("success", True),
        ])
        ta = [("tool_name", name), ("tool_name_safe", "mcp_tool"),
              ("tool_use_id", tool_use_id), ("gen_ai.tool.call.id", tool_use_id)]
        if detailed:
            ta.append(("tool_input", "[TOOL INPUT: %s]\n%s" % (name, args_json)))
        ta.append(("duration_ms", t_end - t_start))
        if detailed:
            ta.append(("new_context", "[TOOL RESULT: %s]\n%s" % (name, jcompact(mcp_content))))
        s.span(tool_span, interaction, "tool", t_start, t_end, ta,
               events=[span_event("tool.output", exec_end, [("output", result_text)])])
        s.event(exec_end + 2, "tool_result", [
            ("tool_name", "mcp_tool"), ("tool_use_id", tool_use_id), ("success", "true"),
            ("duration_ms", str(exec_ms)), ("decision_type", "accept"), ("decision_source", "config"),
            ("tool_parameters", params), ("tool_input", args_json),
            ("tool_input_size_bytes", str(len(args_json.encode()))),
            ("tool_result_size_bytes", str(len(result_text.encode()))),
            ("mcp_server_scope", "project"),
        ])

        # The conversation the next request resends.
        messages.append({"role": "assistant", "content": content})
        messages.append({"role": "user", "content": [
            {"tool_use_id": tool_use_id, "type": "tool_result", "content": mcp_content}]})
        prev_mcp = (server, tool)
        prev_result_text = result_text
        prev_tool_use_id = tool_use_id
        llm_start = t_end + 15

    ia = [("user_prompt", prompt), ("user_prompt_length", len(prompt)), ("interaction.sequence", 1),
          ("parent.source", "none"), ("queued_sends", 0)]
    if detailed:
        ia.append(("new_context", "[USER PROMPT]\n" + prompt))
    ia.append(("interaction.duration_ms", end - start))
    s.span(interaction, None, "interaction", start, end, ia)
    return s


# ---------------------------------------------------------------------------
# Manifest.

def telemetry_names(pairs):
    out = {}
    for server, tool in pairs:
        out[tool] = {
            "span_tool_name": mcp_name(server, tool),
            "span_tool_name_safe": "mcp_tool",
            "log_tool_name": "mcp_tool",
            "log_tool_parameters": {"mcp_server_name": server, "mcp_tool_name": tool},
            "request_body_tool_name": mcp_name(server, tool),
        }
    return out


SWITCHES_BASE = {
    "telemetry": ["CLAUDE_CODE_ENABLE_TELEMETRY=1"],
    "logs": ["OTEL_LOGS_EXPORTER=otlp", "OTEL_EXPORTER_OTLP_PROTOCOL=http/json (or grpc, http/protobuf)"],
    "traces": ["CLAUDE_CODE_ENHANCED_TELEMETRY_BETA=1 (or ENABLE_ENHANCED_TELEMETRY_BETA=1)", "OTEL_TRACES_EXPORTER=otlp"],
    "prompt_content": ["OTEL_LOG_USER_PROMPTS=1 (user_prompt.prompt, claude_code.interaction user_prompt)"],
    "assistant_response": ["OTEL_LOG_ASSISTANT_RESPONSES=1, or unset with OTEL_LOG_USER_PROMPTS=1 (assistant_response.response)"],
    "tool_arguments": ["OTEL_LOG_TOOL_DETAILS=1 (tool_result.tool_input, tool_parameters with mcp_server_name/mcp_tool_name, MCP names on claude_code.tool, mcp_server_connection.server_name)"],
    "tool_output": ["OTEL_LOG_TOOL_CONTENT=1 with traces on (tool.output span event on claude_code.tool)"],
    "request_transcript": ["OTEL_LOG_RAW_API_BODIES=1 (api_request_body / api_response_body log events with inline body)"],
}
SWITCHES_DETAILED = dict(SWITCHES_BASE)
SWITCHES_DETAILED["detailed_beta_tracing"] = [
    "ENABLE_BETA_TRACING_DETAILED=1", "BETA_TRACING_ENDPOINT=<url>",
    "interactive CLI: the organization must be allowlisted (not gated in -p and Agent SDK sessions)",
    "content attributes additionally honour OTEL_LOG_USER_PROMPTS / OTEL_LOG_TOOL_DETAILS / OTEL_LOG_TOOL_CONTENT"]

SOURCES_COMMON = [
    {"repo": DOCS, "path": "#events, #traces-beta, #standard-attributes, #service-information", "ref": DOCS_REF,
     "what": "event names and attributes (user_prompt, api_request, api_request_body, api_response_body, assistant_response, tool_decision, tool_result, mcp_server_connection), span hierarchy and attributes (interaction, llm_request, tool, tool.blocked_on_user, tool.execution, tool.output span event), standard and resource attributes, content switches, 60 KB content limit, MCP tool_name 'mcp_tool' redaction"},
    {"repo": CHANGELOG_REPO, "path": "CHANGELOG.md", "ref": CHANGELOG_REF,
     "what": "version history of the attributes: tool_use_id (2.1.119), numeric api_request attributes (2.1.122), OTEL_LOG_RAW_API_BODIES (2.1.111), tool_parameters gated (2.1.85), message.uuid / client_request_id / tool_source and CLAUDE_CODE_OTEL_CONTENT_MAX_LENGTH (2.1.214), logs carry the interaction span's trace context (2.1.214)"},
    {"repo": CAPTURES, "path": "fixtures/claude/observed-sanitised/claude-code-2.1.287-tool-content-spans-otlp.json", "ref": CAP_TRACE_REF,
     "what": "live trace export (verbatim field names, values synthetic): resource attributes, scope com.anthropic.claude_code.tracing 1.0.0, INTERNAL spans, span attribute order and types, tool_name_safe, query_source_safe, first_content_ms, tool.output event {bash_command, output}, gen_ai.request.attempt event, span link parent_of, span flags 257"},
    {"repo": CAPTURES, "path": "fixtures/claude/observed-sanitised/claude-code-2.1.286-tool-params-pr-link-otlp.json", "ref": CAP_LOGS_REF,
     "what": "live log export: scope com.anthropic.claude_code.events <version>, body 'claude_code.<event>', no eventName, attribute order, tool_result numbers as strings, event.sequence int, tool_input_size_bytes = bytes of the compact JSON input, flags 1 + interaction traceId/spanId"},
    {"repo": CAPTURES, "path": "fixtures/claude/observed-sanitised/claude-code-2.1.283-log-conversation-otlp.json", "ref": CAP_CONV_REF,
     "what": "live user_prompt / assistant_response records: prompt_length and response_length as strings, message.uuid, request_id, query_source"},
    {"repo": "(repository not named by the search index; file id 71401950131)", "path": "observed-telemetry.md - claude-code", "ref": "live-captured 2026-10-04, Claude Code 2.1.289",
     "what": "log body 'claude_code.<event>', event.name without prefix, severity unset; every span INTERNAL; tool_result / user_prompt numbers as strings; claude_code.tool attributes without tool_input or result_tokens when detailed tracing is off; no gen_ai.tool.name / gen_ai.operation.name"},
    {"repo": CHANGELOG_REPO, "path": "issues/17046, issues/22308, issues/52783, issues/69690", "ref": "2026-01-09, 2026-02-01, 2026-04-24, 2026-06-20",
     "what": "MCP tools logged as tool_name 'mcp_tool' since 2.1.2 (was mcp__<server>__<tool>); mcp_server_name/mcp_tool_name only with OTEL_LOG_TOOL_DETAILS=1; tool_name carries mcp__<server>__<tool> where not redacted"},
    {"repo": MITM_REPO, "path": "docs/session-layout-optimization_full_details_with_mitm_detailed.md", "ref": MITM_REF,
     "what": "mitmproxy capture of Claude Code's Messages API requests (claude-cli 2.1.12): body keys model/messages/system/tools/max_tokens/stream, user text block, assistant tool_use named mcp__<server>__<tool>, user tool_result {tool_use_id, type, content:[{type:text,text}]}, cache_control on the last blocks"},
]
SOURCES_DETAILED = SOURCES_COMMON + [
    {"repo": DOCS, "path": "#span-attributes (claude_code.hook and the Note after it)", "ref": DOCS_REF,
     "what": "new_context, system_prompt_preview, tool_input, response.model_output only with detailed beta tracing (ENABLE_BETA_TRACING_DETAILED=1 + BETA_TRACING_ENDPOINT)"},
]


def emit(n, run, notes, detailed=False, sources=SOURCES_COMMON, switches=SWITCHES_BASE):
    """Writes the n-th session, the scenario run as Claude Code exports it, and its manifest entry."""
    s = run_session(n, run.case, run.prompt, run.final, run.calls, run.gap_ms, detailed=detailed)
    pairs = scenarios.server_tools(run.calls)
    OUT.manifest.append({
        "case": run.case,
        "files": [OUT.write("claude-code-%s.logs.json" % run.case, logs_requests(s)),
                  OUT.write("claude-code-%s.traces.json" % run.case, traces_requests(s))],
        "sources": sources,
        "data_class_tools": run.data_class_tools,
        "secrets": run.secrets,
        "expect": run.expect,
        "reason": run.reason,
        "tools": [t for _, t in pairs],
        "telemetry_names": telemetry_names(pairs),
        "switches": switches,
        "notes": notes,
    })


# ---------------------------------------------------------------------------
# The five runs.


def case_build_poll():
    def served_at(k):  # as the k-th poll's execution ends
        return iso_seconds(FIRST_EXEC_MS + k * scenarios.BUILD_POLL_GAP_MS + scenarios.BUILD_STATUS_MS)

    emit(1, scenarios.build_poll(served_at, lambda k: "req_" + hexid("build-poll/%d" % k, 12),
                                 hexid("build-poll/merge", 40)),
         "One interactive session, one prompt: get_build_status polled 6 times 10 s apart (queued 0/4 .. success "
         "4/4, each result with its own served_at and request_id), then merge_pr, then the answer. Logs: 5 "
         "mcp_server_connection start-up events, user_prompt, per model call api_request_body (the whole "
         "conversation so far, Anthropic Messages format), api_request, api_response_body, per tool call "
         "tool_decision and tool_result (tool_name 'mcp_tool', server/tool in tool_parameters, arguments in "
         "tool_input), assistant_response. Trace: claude_code.interaction > 8 claude_code.llm_request and 7 "
         "claude_code.tool (tool_name mcp__ci__get_build_status / mcp__ci__merge_pr, result in the tool.output "
         "span event) > tool.blocked_on_user + tool.execution. Each result reappears in every later "
         "api_request_body as a tool_result block's text.")


def case_docs_search():
    emit(2, scenarios.DOCS_SEARCH,
         "search_docs five times, 5 s apart, with five different queries, each returning {\"results\":[],"
         "\"total\":0} (the same MCP text each time), then the answer. Same record kinds as build-poll.")


def case_edit_revert():
    emit(3, scenarios.edit_revert(hexid("edit-revert/A", 40), hexid("edit-revert/B", 40)),
         "Three cycles of edit_file (insert the guard -> sha A), run_tests (41 passed, 1 failed), edit_file "
         "(delete it -> sha B), run_tests (same result), 6 s apart: the file's sha alternates A, B, A, B. "
         "edit_file's arguments carry a newline-bearing insert; tool_input is the compact JSON of the "
         "arguments (newlines as \\n), under the 512-character per-value cut.")


def case_support():
    common = ("find_customer returns the customer record (compact JSON text in an MCP text block), issue_refund "
              "refunds 129.5. The record appears in: the find_customer claude_code.tool span's tool.output "
              "event (output), the 2nd and 3rd api_request_body bodies (the tool_result block's text, JSON "
              "inside a JSON string). It is NOT in any tool_result / tool_decision log event (they carry only "
              "sizes and the arguments). issue_refund's arguments carry cus_88421907 (a value the model took "
              "from the record; issue_refund is not a data-class tool): in its tool_result.tool_input, the 2nd "
              "api_response_body and the 3rd api_request_body. The prompt and the answer carry no secret.")
    emit(4, scenarios.SUPPORT, common)
    emit(6, scenarios.SUPPORT._replace(case="support-detailed"),
         "The same run with detailed beta tracing also on (ENABLE_BETA_TRACING_DETAILED=1 + "
         "BETA_TRACING_ENDPOINT): logs identical in shape; spans additionally carry new_context (interaction: "
         "'[USER PROMPT]\\n<prompt>'; each llm_request: what is new since the previous request, '[USER]\\n<prompt>' "
         "then '[TOOL RESULT: <tool_use_id>]\\n<result text>'; claude_code.tool: '[TOOL RESULT: <tool_name>]\\n"
         "<tool output JSON>'), tool_input ('[TOOL INPUT: <tool_name>]\\n<arguments JSON>'), "
         "system_prompt_preview/hash/length, tools/tools_count, and response.model_output on the last "
         "llm_request. The record additionally appears in the 2nd llm_request's new_context and in the "
         "find_customer tool span's new_context. " + common,
         detailed=True, sources=SOURCES_DETAILED, switches=SWITCHES_DETAILED)


def case_research():
    emit(5, scenarios.research({"words": 1290}),
         "web_search, fetch_url, fetch_url, web_search (a second query), fetch_url: five different calls with "
         "five different results, then the answer. No result reaches Claude Code's truncation limits (60 KB "
         "per content attribute, 512 characters per tool_input value); see README for why none is triggered.")


CASES = [case_build_poll, case_docs_search, case_edit_revert, case_support, case_research]


if __name__ == "__main__":
    OUT.run(CASES)
