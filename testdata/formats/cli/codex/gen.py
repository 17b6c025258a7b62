#!/usr/bin/env python3
# Copyright The agentotel Authors
# SPDX-License-Identifier: Apache-2.0

"""Writes the OTLP JSON payloads of testdata/formats/cli/codex/ and their manifest.json.

Run: python3 testdata/formats/cli/codex/gen.py   (from anywhere; writes next to this file)

Five `codex exec` runs (one user prompt each) with the user's MCP servers, exported the way the
Codex CLI (openai/codex, Rust, commit REF below) exports them when `[otel]` has both a log
exporter and a trace exporter. Every payload file holds one OTLP JSON request per line
(ExportLogsServiceRequest / ExportTraceServiceRequest as pdata's plog/ptrace JSONUnmarshaler read
them). Ids and timestamps are fixed, so the output is byte-identical on every run.

What Codex puts where (README.md cites file and line for each):
  * logs (scope `codex_otel.log_only`): one record per SessionTelemetry event, `event.name` attribute
    `codex.*`, OTLP eventName `event <file>:<line>` (tracing's callsite name), no body, no
    timeUnixNano (only observedTimeUnixNano). codex.tool_result carries tool_name (flattened
    `mcp__<server><tool>`), call_id, arguments (the model's JSON string), output (the MCP result as
    the model sees it: "Wall time: ...\\nOutput:\\n" + the content array as JSON, cut to a 2 KiB /
    64-line telemetry preview), mcp_server, mcp_server_origin.
  * traces (scope = the service name `codex_exec`): the tracing spans bridged by
    tracing-opentelemetry; the `codex_otel.trace_safe` copies of the events become span events
    with lengths and counts only (no prompt, no arguments, no output).
"""

import os
import sys

sys.dont_write_bytecode = True  # a run leaves nothing in testdata but the payloads
FORMATS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [FORMATS, os.path.join(FORMATS, "cli")]  # otlpgen, scenarios
import scenarios
from otlpgen import (KIND_CLIENT, KIND_INTERNAL, KIND_SERVER, T0, Output, attributes, citing, jcompact,
                     logs_request, traces_request)

OUT = Output(__file__)

# ---------------------------------------------------------------------------
# Sources.

CODEX = "openai/codex"
# Upstream openai/codex commit "[codex-analytics] emit goal lifecycle analytics (#27078)",
# 2026-06-09. The openai/codex snapshot is over the 500 MiB fetch limit here; the commit was read
# from the mirror mylinyuzhi/codex, whose history contains the upstream commits unchanged.
REF = "608b8b1cc6ce91064e1fd12e0810e1772b5e4710"
OTEL_RUST = "open-telemetry/opentelemetry-rust"
OTEL_RUST_REF = "v0.31.0"            # opentelemetry, opentelemetry_sdk, opentelemetry-proto 0.31.0 (Cargo.lock)
APPENDER_REF = "00f97c948"           # opentelemetry-appender-tracing 0.31.1 (bump commit, 2025-10-03)
TRACING_OTEL = "tokio-rs/tracing-opentelemetry"
TRACING_OTEL_REF = "0.32.1"          # version in Cargo.lock; file read from the index (see README)
RMCP = "modelcontextprotocol/rust-sdk"
RMCP_REF = "rmcp-v1.7.0"


src = citing(CODEX, REF)


COMMON_SOURCES = [
    src("codex-rs/otel/src/events/session_telemetry.rs",
        "SessionTelemetry: every codex.* event (conversation_starts :439-475, api_request :511-571, sse_event :843-860 and "
        "sse_event_completed :917-939, user_prompt :941-982, tool_result_with_tags :1095-1141, record_turn_ttft :221-233, "
        "record_startup_phase :196-218, record_responses :401-436): field names, order, Display (%) vs typed values"),
    src("codex-rs/otel/src/events/shared.rs",
        "log_event!/trace_event! macros: targets codex_otel.log_only / codex_otel.trace_safe, the metadata fields appended to "
        "every event (event.timestamp RFC3339 millis UTC, conversation.id, app.version, auth_mode, originator, user.account_id "
        "and user.email on logs only, terminal.type, model, slug)"),
    src("codex-rs/otel/src/provider.rs",
        "OtelProvider: OpenTelemetryTracingBridge (logs) filtered to codex_otel.* minus trace_safe, tracing_opentelemetry "
        "layer (traces) taking every span plus trace_safe events, tracer named after service_name, resource service.name, "
        "service.version, env, host.name (logs only)"),
    src("codex-rs/otel/src/targets.rs", "codex_otel, codex_otel.log_only, codex_otel.trace_safe target prefixes"),
    src("codex-rs/core/src/otel_init.rs", "service_name = originator (codex_exec for `codex exec`), environment from [otel]"),
    src("codex-rs/config/src/types.rs", "OtelConfigToml: log_user_prompt, environment (default dev), exporter, trace_exporter, metrics_exporter"),
    src("codex-rs/core/src/config/otel.rs", "defaults: log_user_prompt false, exporter none, trace_exporter none, metrics_exporter statsig"),
    src("codex-rs/core/src/tools/registry.rs",
        "dispatch_any_with_terminal_outcome :407-571: tool_name = flat_tool_name, arguments = payload.log_payload(), "
        "mcp_server / mcp_server_origin split into extra_trace_fields, output = log_preview()"),
    src("codex-rs/core/src/tools/mod.rs",
        "flat_tool_name :36-46 (namespace + name, no separator); TELEMETRY_PREVIEW_MAX_BYTES 2 KiB, MAX_LINES 64, notice "
        "'[... telemetry preview truncated ...]' :28-31"),
    src("codex-rs/core/src/tools/context.rs",
        "McpToolOutput.log_preview :75-82 and response_payload :111-140 ('Wall time: {:.4} seconds\\nOutput:' header + "
        "newline + body); telemetry_preview :465-503"),
    src("codex-rs/protocol/src/models.rs",
        "CallToolResult.as_function_call_output_payload :1515-1556: structured_content as JSON text, else the content array as JSON text "
        "(content items only when an image is present); success = is_error != true"),
    src("codex-rs/codex-mcp/src/tools.rs",
        "ToolInfo.canonical_tool_name (callable_namespace, callable_name); callable_namespace_with_prefix adds 'mcp__' "
        "without a trailing '__' :147-272"),
    src("codex-rs/codex-mcp/src/rmcp_client.rs", "ToolInfo for a configured server: callable_namespace = server name, callable_name = MCP tool name"),
    src("codex-rs/codex-mcp/src/connection_manager.rs", "call_tool: rmcp content items serde_json::to_value'd into CallToolResult.content"),
    src("codex-rs/codex-mcp/src/server.rs", "McpServerOrigin: 'stdio' for stdio servers, the URL origin for streamable HTTP"),
    src("codex-rs/core/src/tools/handlers/mcp.rs", "telemetry_tags: mcp_server = server name, mcp_server_origin; wall_time measured around handle_mcp_tool_call"),
    src("codex-rs/core/src/mcp_tool_call.rs", "mcp.tools.call CLIENT span :453-481 (rpc.*, mcp.*, tool.name raw, tool.call_id, conversation.id, session.id, turn.id); MCP approval"),
    src("codex-rs/core/src/tools/parallel.rs", "dispatch_tool_call_with_code_mode_result span :104-110 (otel.name = ToolName Display)"),
    src("codex-rs/core/src/session/turn.rs", "run_sampling_request / try_run_sampling_request / stream_request / receiving_stream / handle_responses spans"),
    src("codex-rs/core/src/tasks/mod.rs", "turn span 'session_task.turn' :378-391 and its token usage :661-686"),
    src("codex-rs/core/src/client.rs", "HTTP Responses path: model_client.stream_responses_api span, ApiTelemetry.on_request -> codex.api_request, on_sse_poll -> codex.sse_event, map_response_events -> sse_event_completed (tool_token_count = total_tokens)"),
    src("codex-rs/codex-api/src/sse/responses.rs", "process_sse: on_sse_poll for every SSE event, in a spawned task without span"),
    src("codex-rs/exec/src/lib.rs", "codex.exec root span :218-225; originator codex_exec :241; thread/start request id 1, turn/start 2"),
    src("codex-rs/app-server/src/app_server_tracing.rs", "app_server.request SERVER span :97-115"),
    src("codex-rs/codex-mcp/src/mcp/mod.rs", "mcp_permission_prompt_is_auto_approved: default_tools_approval_mode = approve skips MCP approval"),
    src("opentelemetry-appender-tracing/src/layer.rs",
        "OpenTelemetryTracingBridge::on_event: logger scope '', target and event name from tracing metadata, severity from "
        "level, fields as attributes (str/Display -> string, bool, i64/u64 -> int), no body without a message field",
        repo=OTEL_RUST, ref=APPENDER_REF),
    src("opentelemetry-proto/src/transform/logs.rs",
        "scope name = log record target; time_unix_nano 0 when unset; event_name exported", repo=OTEL_RUST, ref=OTEL_RUST_REF),
    src("opentelemetry-sdk/src/logs/logger.rs", "emit: trace context from the current OTel context; observed timestamp = now", repo=OTEL_RUST, ref=OTEL_RUST_REF),
    src("opentelemetry-proto/src/transform/trace.rs", "span flags 0x100 (+0x200 remote parent) | trace flags", repo=OTEL_RUST, ref=OTEL_RUST_REF),
    src("src/layer.rs",
        "OpenTelemetryLayer defaults (location, threads, target, tracked inactivity, context activation): code.file.path, "
        "code.module.name, code.line.number, thread.id, thread.name, target, fields, busy_ns/idle_ns; events named by the "
        "callsite with level and target attributes; u64 fields recorded as strings", repo=TRACING_OTEL, ref=TRACING_OTEL_REF),
    src("crates/rmcp/src/model/content.rs", "RawContent tagged by 'type' (text first), RawTextContent {text}", repo=RMCP, ref=RMCP_REF),
]

# ---------------------------------------------------------------------------
# Environment of the runs (README: "Run environment").

SERVICE = "codex_exec"               # originator of `codex exec` = service.name = tracer name
APP_VERSION = "0.0.0"                # CARGO_PKG_VERSION of the workspace at REF (release builds stamp their version)
ENVIRONMENT = "dev"                  # [otel].environment default
HOST = "devbox-01"
MODEL = "gpt-5.5"
PROVIDER = "openai-http"             # [model_providers.openai-http], wire_api responses, no websockets
ACCOUNT_ID = "3f6a2c1e-8b4d-4e7a-9c2f-5d1b0a7e6c43"   # ChatGPT account id of the developer
ACCOUNT_EMAIL = "dev@example-corp.test"                 # the developer's login, not customer data
TERMINAL = "xterm-256color"
AUTH_MODE = "Chatgpt"
CWD = "/home/dev/shop"
MCP_SERVERS = ["crm", "ci", "web", "codex_apps", "files", "kb"]  # HashMap key order (not sorted); codex_apps is added
                                                                 # by Codex for ChatGPT logins ([features] apps, default on)
SDK_VERSION = "0.31.0"

SESSION_TELEMETRY_RS = "otel/src/events/session_telemetry.rs"   # file!() as cargo passes it (workspace-relative)
OTEL_MODULE = "codex_otel::events::session_telemetry"

# Lines of the event macro invocations in session_telemetry.rs at REF: tracing's callsite name is
# "event <file>:<line>" of the outermost macro invocation.
L_STARTUP_PHASE = 207
L_TURN_TTFT = 223
L_CONVERSATION_STARTS = 450
L_API_REQUEST = 543
L_SSE_EVENT = 854
L_SSE_COMPLETED = 925
L_USER_PROMPT_LOG = 968
L_USER_PROMPT_TRACE = 974
L_TOOL_RESULT_LOG = 1116
L_TOOL_RESULT_TRACE = 1128

TELEMETRY_PREVIEW_MAX_BYTES = 2 * 1024
TELEMETRY_PREVIEW_MAX_LINES = 64
TELEMETRY_PREVIEW_TRUNCATION_NOTICE = "[... telemetry preview truncated ...]"


# ---------------------------------------------------------------------------
# Codex's own formatting, reimplemented.


def rust_lines(s):
    """str::lines(): split on \\n, drop a trailing \\r, no final empty line."""
    if s == "":
        return []
    parts = s.split("\n")
    if parts[-1] == "":
        parts = parts[:-1]
    return [p[:-1] if p.endswith("\r") else p for p in parts]


def take_bytes_at_char_boundary(s, maxb):
    b = s.encode("utf-8")
    if len(b) <= maxb:
        return s
    out, n = [], 0
    for ch in s:
        w = len(ch.encode("utf-8"))
        if n + w > maxb:
            break
        out.append(ch)
        n += w
    return "".join(out)


def telemetry_preview(content):
    """core/src/tools/context.rs telemetry_preview."""
    truncated_slice = take_bytes_at_char_boundary(content, TELEMETRY_PREVIEW_MAX_BYTES)
    truncated_by_bytes = len(truncated_slice.encode()) < len(content.encode())
    lines = rust_lines(truncated_slice)
    preview = "\n".join(lines[:TELEMETRY_PREVIEW_MAX_LINES])
    truncated_by_lines = len(lines) > TELEMETRY_PREVIEW_MAX_LINES
    if not truncated_by_bytes and not truncated_by_lines:
        return content
    pb, sb = preview.encode(), truncated_slice.encode()
    if len(pb) < len(sb) and sb[len(pb):len(pb) + 1] == b"\n":
        preview += "\n"
    if preview and not preview.endswith("\n"):
        preview += "\n"
    return preview + TELEMETRY_PREVIEW_TRUNCATION_NOTICE


def mcp_text_content(result_text):
    """CallToolResult.content for a text-only MCP result, as serde_json::to_string writes it
    (rmcp RawContent: 'type' first, then 'text')."""
    return jcompact([{"type": "text", "text": result_text}])


def mcp_output(result_text, wall_us):
    """McpToolOutput.log_preview(): the model-visible text (header + content array), previewed."""
    header = "Wall time: %.4f seconds\nOutput:" % (wall_us / 1e6)
    return telemetry_preview(header + "\n" + mcp_text_content(result_text))


def flat_name(server, tool):
    """ToolName{namespace: 'mcp__' + server, name: tool} flattened by flat_tool_name."""
    return "mcp__" + server + tool


def rfc3339_ms(us):
    """chrono to_rfc3339_opts(SecondsFormat::Millis, true) of T0 + us (truncating)."""
    total_ms = us // 1000
    s, msec = divmod(total_ms, 1000)
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return "2026-01-01T%02d:%02d:%02d.%03dZ" % (h, m, sec, msec)


def rfc3339_s(us):
    s = us // 1_000_000
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return "2026-01-01T%02d:%02d:%02dZ" % (h, m, sec)


def uuid7(ms_offset, tail):
    """A UUIDv7 (Uuid::now_v7) with the timestamp of T0 + ms_offset and fixed random bits."""
    ts = T0 // 1_000_000 + ms_offset
    h = "%012x" % ts
    return "%s-%s-7%s-%s-%s" % (h[:8], h[8:12], tail[:3], "8" + tail[3:6], tail[6:18])


def ns(us):
    return str(T0 + us * 1000)


# ---------------------------------------------------------------------------
# OTLP JSON helpers.


def field_attrs(pairs):
    """The OTLP attributes of tracing fields: a field whose value is None (an unset Option) is not recorded."""
    return attributes(pairs, drop_none=True)


def resource(logs):
    # Resource attributes are a HashMap in opentelemetry_sdk 0.31: their order on the wire is not
    # fixed. This order is a choice.
    pairs = [("service.name", SERVICE), ("service.version", APP_VERSION), ("env", ENVIRONMENT)]
    if logs:
        pairs.append(("host.name", HOST))
    pairs += [("telemetry.sdk.language", "rust"), ("telemetry.sdk.name", "opentelemetry"),
              ("telemetry.sdk.version", SDK_VERSION)]
    return {"attributes": field_attrs(pairs)}


def codex_logs(records):
    return logs_request(resource(True), [({"name": "codex_otel.log_only"}, records)])


def codex_traces(spans):
    return traces_request(resource(False), [({"name": SERVICE}, spans)])


# ---------------------------------------------------------------------------
# The event metadata of shared.rs.


def event_meta(sess, us, logs):
    """The fields shared.rs appends to every event; user.account_id and user.email on log records only."""
    pairs = [
        ("event.timestamp", rfc3339_ms(us)),
        ("conversation.id", sess["thread_id"]),
        ("app.version", APP_VERSION),
        ("auth_mode", AUTH_MODE),
        ("originator", SERVICE),
    ]
    if logs:
        pairs += [("user.account_id", ACCOUNT_ID), ("user.email", ACCOUNT_EMAIL)]
    return pairs + [("terminal.type", TERMINAL), ("model", MODEL), ("slug", MODEL)]


def log_record(sess, us, line, specific, span=None):
    r = {"observedTimeUnixNano": ns(us), "severityNumber": 9, "severityText": "INFO",
         "attributes": field_attrs(specific + event_meta(sess, us, True)),
         "eventName": "event %s:%d" % (SESSION_TELEMETRY_RS, line)}
    if span is not None:
        r["flags"] = 1
        r["traceId"] = span["traceId"]
        r["spanId"] = span["spanId"]
    return r


def span_event(sess, us, line, specific):
    pairs = [("level", "INFO"), ("target", "codex_otel.trace_safe")] + specific + event_meta(sess, us, False) + [
        ("code.file.path", SESSION_TELEMETRY_RS), ("code.module.name", OTEL_MODULE), ("code.line.number", line)]
    return {"timeUnixNano": ns(us), "name": "event %s:%d" % (SESSION_TELEMETRY_RS, line), "attributes": field_attrs(pairs)}


AUTH_ENV = [
    ("auth.env_openai_api_key_present", False),
    ("auth.env_codex_api_key_present", False),
    ("auth.env_codex_api_key_enabled", True),
    # auth.env_provider_key_name / _present: None (the provider has no env_key) -> not recorded
    ("auth.env_refresh_token_url_override_present", False),
]


# ---------------------------------------------------------------------------
# Spans.

WORKER = "tokio-runtime-worker"


class Trace:
    def __init__(self, scn, k):
        self.trace_id = "%032x" % ((0xc0de << 112) | (scn << 96) | (k << 80) | 0x1)
        self.scn, self.k, self.n = scn, k, 0

    def span(self, name, start, end, file, module, line, fields=(), recorded=(), parent=None, remote_parent=False,
             kind=KIND_INTERNAL, thread=(7, WORKER), target=None, entered=True, events=None):
        self.n += 1
        sid = "%016x" % ((0xc0de << 48) | (self.scn << 40) | (self.k << 32) | self.n)
        busy = (end - start) * 1000 // 10 if entered else 0
        idle = (end - start) * 1000 - busy if entered else 0
        pairs = [("code.file.path", file), ("code.module.name", module), ("code.line.number", line),
                 ("thread.id", thread[0]), ("thread.name", thread[1]), ("target", target or module)]
        pairs += list(fields) + list(recorded) + [("busy_ns", busy), ("idle_ns", idle)]
        s = {"traceId": self.trace_id, "spanId": sid}
        if parent is not None:
            s["parentSpanId"] = parent["spanId"]
        s.update({"flags": 0x301 if remote_parent else 0x101, "name": name, "kind": kind,
                  "startTimeUnixNano": ns(start), "endTimeUnixNano": ns(end), "attributes": field_attrs(pairs)})
        if events:
            s["events"] = events
        s["status"] = {}
        return s


# ---------------------------------------------------------------------------
# SSE event sequences of the Responses API for one model response (README: "SSE events").

SSE_TOOL_CALL = ["response.created", "response.in_progress", "response.output_item.added", "response.output_item.done",
                 "response.output_item.added", "response.function_call_arguments.delta",
                 "response.function_call_arguments.done", "response.output_item.done"]
SSE_TEXT = ["response.created", "response.in_progress", "response.output_item.added", "response.output_item.done",
            "response.output_item.added", "response.content_part.added", "response.output_text.delta",
            "response.output_text.delta", "response.output_text.delta", "response.output_text.done",
            "response.content_part.done", "response.output_item.done"]


def run_codex(scn, prompt, steps, final_gap_us, tokens_base):
    """One `codex exec` run. steps: list of dicts {server, tool, args (JSON text), result (JSON text),
    at (µs of the model's function_call item), wall (µs)}. Returns (logs requests, traces requests, rows)."""
    sess = {"thread_id": uuid7(10, "3a1%02d0c2e55f0a9b3d" % scn)}
    turn_id = uuid7(400, "5b2%02d1d3f66e1b0c4e" % scn)
    tr_exec, tr_start, tr_turn = Trace(scn, 1), Trace(scn, 2), Trace(scn, 3)

    log_batches, trace_batches = [], []

    # --- startup: thread/start (trace 2) ------------------------------------------------
    req1 = tr_start.span("thread/start", 10_000, 352_000, "app-server/src/app_server_tracing.rs",
                         "codex_app_server::app_server_tracing", 100,
                         fields=[("rpc.system", "jsonrpc"), ("rpc.method", "thread/start"), ("rpc.transport", "in-process"),
                                 ("rpc.request_id", "1"), ("app_server.connection_id", "0"), ("app_server.api_version", "v2")],
                         recorded=[("app_server.client_name", SERVICE), ("app_server.client_version", APP_VERSION)],
                         kind=KIND_SERVER, thread=(4, WORKER))
    create = tr_start.span("app_server.thread_start.create_thread", 14_000, 305_000,
                           "app-server/src/request_processors/thread_processor.rs",
                           "codex_app_server::request_processors::thread_processor", 1097,
                           fields=[("thread_start.dynamic_tool_count", "0")], parent=req1, thread=(4, WORKER))
    spawn = tr_start.span("thread_spawn", 16_000, 300_000, "core/src/session/mod.rs", "codex_core::session", 465,
                          parent=req1, remote_parent=True, thread=(4, WORKER))
    t_conv = 121_000
    conv_fields = [("event.name", "codex.conversation_starts"), ("provider_name", PROVIDER)] + AUTH_ENV + [
        ("reasoning_effort", "medium"), ("reasoning_summary", "auto"),
        # context_window / auto_compact_token_limit: None (not set in config.toml) -> not recorded
        ("approval_policy", "never"), ("sandbox_policy", "read-only")]
    init = tr_start.span("session_init", 18_000, 292_000, "core/src/session/session.rs", "codex_core::session::session", 470,
                         parent=spawn, thread=(4, WORKER),
                         events=[span_event(sess, t_conv, L_CONVERSATION_STARTS,
                                            conv_fields + [("mcp_server_count", len(MCP_SERVERS))])])
    t_phase1, t_phase2 = 306_000, 345_000
    phase1 = [("event.name", "codex.startup_phase"), ("startup.phase", "thread_start_create_thread"),
              ("startup.status", "ready"), ("duration_ms", "291")]
    phase2 = [("event.name", "codex.startup_phase"), ("startup.phase", "thread_start_total"),
              ("startup.status", "ready"), ("duration_ms", "335")]
    req1["events"] = [span_event(sess, t_phase1, L_STARTUP_PHASE, phase1), span_event(sess, t_phase2, L_STARTUP_PHASE, phase2)]
    req1["status"] = req1.pop("status")  # keep the key order attributes, events, status
    log_batches.append([
        log_record(sess, t_conv, L_CONVERSATION_STARTS, conv_fields + [("mcp_servers", ", ".join(MCP_SERVERS))], init),
        log_record(sess, t_phase1, L_STARTUP_PHASE, phase1, req1),
        log_record(sess, t_phase2, L_STARTUP_PHASE, phase2, req1),
    ])

    # --- turn/start (trace 3) -----------------------------------------------------------
    req2 = tr_turn.span("turn/start", 400_000, 431_000, "app-server/src/app_server_tracing.rs",
                        "codex_app_server::app_server_tracing", 100,
                        fields=[("rpc.system", "jsonrpc"), ("rpc.method", "turn/start"), ("rpc.transport", "in-process"),
                                ("rpc.request_id", "2"), ("app_server.connection_id", "0"), ("app_server.api_version", "v2")],
                        recorded=[("app_server.client_name", SERVICE), ("app_server.client_version", APP_VERSION),
                                  ("turn.id", turn_id)],
                        kind=KIND_SERVER, thread=(4, WORKER))
    t_prompt = 409_000
    dispatch = tr_turn.span("op.dispatch.user_input", 405_000, 418_000, "core/src/session/handlers.rs",
                            "codex_core::session::handlers", 897,
                            fields=[("submission.id", turn_id), ("codex.op", "user_input")],
                            parent=req2, remote_parent=True, thread=(6, WORKER),
                            events=[span_event(sess, t_prompt, L_USER_PROMPT_TRACE, [
                                ("event.name", "codex.user_prompt"), ("prompt_length", str(len(prompt))),
                                ("text_input_count", 1), ("image_input_count", 0), ("local_image_input_count", 0)])])
    log_batches.append([log_record(sess, t_prompt, L_USER_PROMPT_LOG, [
        ("event.name", "codex.user_prompt"), ("prompt_length", str(len(prompt))), ("prompt", prompt)], dispatch)])

    turn_start = 412_000
    rows = []
    calls = []   # per model call: (start, steps-or-None)
    # Model call i starts after the previous tool result; its function_call item is at steps[i]["at"].
    t = 421_000
    usage_total = {"in": 0, "cached": 0, "out": 0, "reasoning": 0, "total": 0}
    model_calls = steps + [None]
    for i, step in enumerate(model_calls):
        s_i = t
        h_i = s_i + 347_000                          # response headers (codex.api_request)
        if step is not None:
            f_i = step["at"]                         # function_call output_item.done
            kinds = SSE_TOOL_CALL
        else:
            f_i = s_i + final_gap_us
            kinds = SSE_TEXT
        c_i = f_i + 48_000                           # response.completed
        # SSE events spread between the headers and the last item.
        n = len(kinds)
        sse_times = [h_i + 9_000 + (f_i - h_i - 9_000) * j // (n - 1) for j in range(n)]
        sse_times.append(c_i)
        kinds = kinds + ["response.completed"]
        inp = tokens_base + 310 * i + sum(len(x["result"]) // 4 for x in steps[:i])
        cached = 0 if i == 0 else (tokens_base + 310 * (i - 1)) // 128 * 128
        out = 46 if step is not None else 38
        reasoning = 18 if step is not None else 12
        total = inp + out
        for key, v in (("in", inp), ("cached", cached), ("out", out), ("reasoning", reasoning), ("total", total)):
            usage_total[key] += v
        calls.append(dict(s=s_i, h=h_i, f=f_i, c=c_i, kinds=kinds, times=sse_times, step=step,
                          usage=(inp, cached, out, reasoning, total)))
        if step is not None:
            tool_end = f_i + 1_000 + step["duration_ms"] * 1000
            e_i = max(tool_end, c_i) + 1_000
        else:
            e_i = c_i + 1_000
        calls[-1]["e"] = e_i
        t = e_i + 2_000
    turn_end = calls[-1]["e"] + 2_500

    turn_span = tr_turn.span("session_task.turn", turn_start, turn_end, "core/src/tasks/mod.rs", "codex_core::tasks", 378,
                             fields=[("thread.id", sess["thread_id"]), ("turn.id", turn_id), ("model", MODEL),
                                     ("codex.turn.reasoning_effort", "medium")],
                             recorded=[("codex.turn.token_usage.input_tokens", usage_total["in"]),
                                       ("codex.turn.token_usage.cached_input_tokens", usage_total["cached"]),
                                       ("codex.turn.token_usage.non_cached_input_tokens", usage_total["in"] - usage_total["cached"]),
                                       ("codex.turn.token_usage.output_tokens", usage_total["out"]),
                                       ("codex.turn.token_usage.reasoning_output_tokens", usage_total["reasoning"]),
                                       ("codex.turn.token_usage.total_tokens", usage_total["total"])],
                             parent=dispatch, thread=(6, WORKER))
    run_turn = tr_turn.span("run_turn", turn_start + 1_000, turn_end - 1_000, "core/src/tasks/regular.rs",
                            "codex_core::tasks::regular", 45, parent=turn_span, thread=(6, WORKER))
    turn_spans = [req2, dispatch, turn_span, run_turn]

    for i, c in enumerate(calls):
        step = c["step"]
        thr = (5 + i % 3, WORKER)
        rsr = tr_turn.span("run_sampling_request", c["s"], c["e"], "core/src/session/turn.rs", "codex_core::session::turn", 966,
                           fields=[("turn_id", turn_id), ("model", MODEL), ("cwd", CWD)], parent=run_turn, thread=thr)
        trsr = tr_turn.span("try_run_sampling_request", c["s"] + 1_000, c["e"] - 500, "core/src/session/turn.rs",
                            "codex_core::session::turn", 1744, fields=[("turn_id", turn_id), ("model", MODEL)],
                            parent=rsr, thread=thr)
        sreq = tr_turn.span("stream_request", c["s"] + 2_000, c["h"] + 1_000, "core/src/session/turn.rs",
                            "codex_core::session::turn", 1787, parent=trsr, thread=thr)
        mcs = tr_turn.span("model_client.stream_responses_api", c["s"] + 2_200, c["h"] + 800, "core/src/client.rs",
                           "codex_core::client", 1245,
                           fields=[("model", MODEL), ("wire_api", "responses"), ("transport", "responses_http"),
                                   ("http.method", "POST"), ("api.path", "responses"), ("turn.has_metadata_header", True)],
                           parent=sreq, thread=thr)
        rsq = tr_turn.span("responses.stream_request", c["s"] + 2_600, c["h"] + 600, "codex-api/src/endpoint/responses.rs",
                           "codex_api::endpoint::responses", 60,
                           fields=[("transport", "responses_http"), ("http.method", "POST"), ("api.path", "responses")],
                           parent=mcs, thread=thr)
        rst = tr_turn.span("responses.stream", c["s"] + 2_800, c["h"] + 500, "codex-api/src/endpoint/responses.rs",
                           "codex_api::endpoint::responses", 106,
                           fields=[("transport", "responses_http"), ("http.method", "POST"), ("api.path", "responses"),
                                   ("turn.has_state", True)], parent=rsq, thread=thr)
        dur_api = (c["h"] - (c["s"] + 3_000)) // 1000
        api_common = [("event.name", "codex.api_request"), ("duration_ms", str(dur_api))]
        api_rest = [("error.message", None), ("auth.header_attached", True), ("auth.header_name", "authorization"),
                    ("auth.retry_after_unauthorized", False), ("endpoint", "/responses")] + AUTH_ENV
        ess = tr_turn.span("endpoint_session.stream_with", c["s"] + 3_000, c["h"] + 400, "codex-api/src/endpoint/session.rs",
                           "codex_api::endpoint::session", 114, fields=[("http.method", "POST"), ("api.path", "responses")],
                           parent=rst, thread=thr,
                           events=[span_event(sess, c["h"], L_API_REQUEST, api_common + [
                               ("http.response.status_code", "200"), ("attempt", "0")] + api_rest)])
        rstream_end = c["e"] - 700
        rs = tr_turn.span("receiving_stream", c["h"] + 2_000, rstream_end, "core/src/session/turn.rs",
                          "codex_core::session::turn", 1808, parent=trsr, thread=thr, entered=False)
        spans = [rsr, trsr, sreq, mcs, rsq, rst, ess, rs]
        recs = [log_record(sess, c["h"], L_API_REQUEST, api_common + [
            ("http.response.status_code", 200), ("attempt", 0)] + api_rest, ess)]
        prev = c["h"]
        ttft_at = None
        for kind, at in zip(c["kinds"], c["times"]):
            recs.append(log_record(sess, at, L_SSE_EVENT, [
                ("event.name", "codex.sse_event"), ("event.kind", kind), ("duration_ms", str((at - prev) // 1000))]))
            if kind == "response.output_text.delta" and ttft_at is None:
                ttft_at = at + 300
            prev = at
        inp, cached, out, reasoning, total = c["usage"]
        recs.append(log_record(sess, c["c"] + 200, L_SSE_COMPLETED, [
            ("event.name", "codex.sse_event"), ("event.kind", "response.completed"),
            ("input_token_count", str(inp)), ("output_token_count", str(out)), ("cached_token_count", cached),
            ("reasoning_token_count", reasoning), ("tool_token_count", str(total))]))
        if ttft_at is not None:
            ttft = [("event.name", "codex.turn_ttft"), ("duration_ms", str((ttft_at - turn_start) // 1000))]
            recs.append(log_record(sess, ttft_at, L_TURN_TTFT, ttft, trsr))
            trsr["events"] = [span_event(sess, ttft_at, L_TURN_TTFT, ttft)]
            trsr["status"] = trsr.pop("status")  # keep the key order attributes, events, status
        if step is not None:
            f = c["f"]
            raw = step["tool"]
            flat = flat_name(step["server"], raw)
            hr = tr_turn.span("function_call", f, f + 2_000, "core/src/session/turn.rs", "codex_core::session::turn", 1810,
                              fields=[("codex.request.reasoning_effort", "medium")],
                              recorded=[("from", "output_item_done"), ("tool_name", raw)], parent=rs, thread=thr)
            hoid = tr_turn.span("handle_output_item_done", f + 200, f + 1_800, "core/src/stream_events_utils.rs",
                                "codex_core::stream_events_utils", 404, parent=hr, thread=thr)
            tool_end = f + 1_000 + step["duration_ms"] * 1000
            htc = tr_turn.span("handle_tool_call", f + 500, tool_end + 300, "core/src/tools/parallel.rs",
                               "codex_core::tools::parallel", 62, parent=hoid, thread=thr)
            htcs = tr_turn.span("handle_tool_call_with_source", f + 600, tool_end + 250, "core/src/tools/parallel.rs",
                                "codex_core::tools::parallel", 81, parent=htc, thread=thr)
            dsp = tr_turn.span(flat, f + 800, tool_end + 200, "core/src/tools/parallel.rs", "codex_core::tools::parallel", 104,
                               fields=[("tool_name", flat), ("call_id", step["call_id"]), ("aborted", False)],
                               parent=htcs, thread=(8, WORKER))
            output = mcp_output(step["result"], step["wall"])
            t_res = tool_end - 100
            res_trace = [("event.name", "codex.tool_result"), ("tool_name", flat), ("call_id", step["call_id"]),
                         ("duration_ms", str(step["duration_ms"])), ("success", "true"),
                         ("arguments_length", len(step["args"].encode())), ("output_length", len(output.encode())),
                         ("output_line_count", len(rust_lines(output))), ("tool_origin", "mcp"), ("mcp_tool", True)]
            dto = tr_turn.span("dispatch_tool_call_with_terminal_outcome", f + 1_000, tool_end, "core/src/tools/router.rs",
                               "codex_core::tools::router", 168, parent=dsp, thread=(8, WORKER),
                               events=[span_event(sess, t_res, L_TOOL_RESULT_TRACE, res_trace)])
            mcp = tr_turn.span("mcp.tools.call", f + 1_500, f + 1_500 + step["wall"], "core/src/mcp_tool_call.rs",
                               "codex_core::mcp_tool_call", 459,
                               fields=[("rpc.system", "jsonrpc"), ("rpc.method", "tools/call"),
                                       ("mcp.server.name", step["server"]), ("mcp.server.origin", "stdio"),
                                       ("mcp.transport", "stdio"), ("mcp.connector.id", ""), ("mcp.connector.name", ""),
                                       ("tool.name", raw), ("tool.call_id", step["call_id"]),
                                       ("conversation.id", sess["thread_id"]), ("session.id", sess["thread_id"]),
                                       ("turn.id", turn_id)],
                               parent=dto, kind=KIND_CLIENT, thread=(8, WORKER))
            spans += [hr, hoid, htc, htcs, dsp, dto, mcp]
            tool_log = log_record(sess, t_res, L_TOOL_RESULT_LOG, [
                ("event.name", "codex.tool_result"), ("tool_name", flat), ("call_id", step["call_id"]),
                ("arguments", step["args"]), ("duration_ms", str(step["duration_ms"])), ("success", "true"),
                ("output", output), ("mcp_server", step["server"]), ("mcp_server_origin", "stdio")], dto)
            rows.append(dict(tool=raw, flat=flat, output=output))
        hc = tr_turn.span("completed", c["c"], c["c"] + 500, "core/src/session/turn.rs", "codex_core::session::turn", 1810,
                          fields=[("codex.request.reasoning_effort", "medium")],
                          recorded=[("gen_ai.usage.input_tokens", inp), ("gen_ai.usage.cache_read.input_tokens", cached),
                                    ("gen_ai.usage.output_tokens", out), ("codex.usage.reasoning_output_tokens", reasoning),
                                    ("codex.usage.total_tokens", total)], parent=rs, thread=thr)
        spans.append(hc)
        # Log records of the round in time order.
        recs.sort(key=lambda r: int(r["observedTimeUnixNano"]))
        if step is not None:
            recs.append(tool_log)
        log_batches.append(recs)
        turn_spans += spans

    # --- shutdown -------------------------------------------------------------------------
    end = turn_end + 48_000
    loop = tr_start.span("session_loop", 296_000, end - 5_000, "core/src/session/mod.rs", "codex_core::session", 667,
                         fields=[("thread_id", sess["thread_id"])], parent=spawn, thread=(6, WORKER))
    exec_span = tr_exec.span("codex.exec", 2_000, end, "exec/src/lib.rs", "codex_exec", 219,
                             recorded=[("thread.id", sess["thread_id"]), ("turn.id", turn_id)], thread=(1, "main"))
    trace_batches.append(codex_traces([req1, create, spawn, init]))
    trace_batches.append(codex_traces(turn_spans))
    trace_batches.append(codex_traces([loop, exec_span]))
    return [codex_logs(b) for b in log_batches], trace_batches, rows, sess, turn_id


# ---------------------------------------------------------------------------
# The five scenarios.

SWITCHES = {
    "logs": ["[otel] exporter = { otlp-http = { endpoint = \"<collector>/v1/logs\", protocol = \"binary\" } } "
             "(or \"json\", or otlp-grpc = { endpoint = ... }); default \"none\""],
    "traces": ["[otel] trace_exporter = { otlp-http = { endpoint = \"<collector>/v1/traces\", protocol = \"binary\" } } "
               "(or otlp-grpc); default \"none\""],
    "prompt_content": ["[otel] log_user_prompt = true (default false: the codex.user_prompt log record carries "
                       "prompt = \"[REDACTED]\"; spans never carry the prompt)"],
    "tool_arguments": ["none beyond the log exporter: codex.tool_result log records always carry arguments; spans carry "
                       "only arguments_length"],
    "tool_output": ["none beyond the log exporter: codex.tool_result log records always carry output (a 2 KiB / 64-line "
                    "preview); spans carry only output_length and output_line_count"],
    "request_transcript": ["not exported by any setting: no model request or response body reaches OTLP"],
    "trace_ids_on_logs": ["both exporters set: a log record emitted inside a span carries its traceId/spanId "
                          "(tracing-opentelemetry 0.32 context activation); the log exporter alone gives none"],
    "environment": ["[otel] environment = \"<name>\" (resource attribute env; default \"dev\")"],
    "mcp_without_approval": ["[mcp_servers.<name>] default_tools_approval_mode = \"approve\" (codex exec runs with "
                             "approval_policy never, which otherwise declines MCP tools without read-only annotations)"],
    "http_transport": ["a model provider with supports_websockets = false (here [model_providers.openai-http]); the built-in "
                       "openai provider streams over the Responses WebSocket and emits codex.websocket_connect / "
                       "codex.websocket_request / codex.websocket_event instead of codex.api_request and per-event "
                       "codex.sse_event"],
}


def steps_from(calls, scn, t_first_us, gaps_us, wall_us=250_300):
    """calls: a scenario's (server, tool, arguments, result, ...); Codex times the calls itself: the first
    function_call item at t_first_us, the next ones gaps_us apart, each MCP call wall_us and a little more."""
    out, at = [], t_first_us
    for i, (server, tool, args, result, *_) in enumerate(calls):
        wall = wall_us + 1_100 * (i % 5)
        out.append({"server": server, "tool": tool, "args": jcompact(args), "result": jcompact(result),
                    "at": at, "wall": wall, "duration_ms": wall // 1000 + 1,
                    "call_id": "call_%02d%02d%s" % (scn, i + 1, "Xq7VnR2pLk9sTzW4aB1cD3")})
        if i < len(gaps_us):
            at += gaps_us[i]
    return out


def telemetry_names(server, tool):
    flat = flat_name(server, tool)
    return {
        "log_tool_name": flat,                      # codex.tool_result tool_name (logs and span events)
        "log_mcp_server": server,                   # codex.tool_result mcp_server (logs only)
        "span_dispatch_name": flat,                 # dispatch_tool_call_with_code_mode_result span name and tool_name
        "span_handle_responses_tool_name": tool,    # handle_responses span tool_name (the model's function_call name)
        "span_mcp_tool_name": tool,                 # mcp.tools.call tool.name
        "span_mcp_server_name": server,             # mcp.tools.call mcp.server.name
        "model_function_call": {"namespace": "mcp__" + server, "name": tool},   # not exported
    }


def add_case(run, scn, t_first_us, gaps_us, final_gap_us, tokens_base, notes):
    """Writes the scenario run as the scn-th `codex exec` run and its manifest entry."""
    steps = steps_from(run.calls, scn, t_first_us, gaps_us)
    logs_reqs, trace_reqs, rows, sess, turn_id = run_codex(scn, run.prompt, steps, final_gap_us, tokens_base)
    files = [OUT.write("codex-%s.logs.json" % run.case, logs_reqs),
             OUT.write("codex-%s.traces.json" % run.case, trace_reqs)]
    pairs = scenarios.server_tools(run.calls)
    OUT.manifest.append({
        "case": run.case,
        "files": files,
        "sources": COMMON_SOURCES,
        "data_class_tools": run.data_class_tools,
        "secrets": run.secrets,
        "expect": run.expect,
        "reason": run.reason,
        "tools": [t for _, t in pairs],
        "telemetry_names": {t: telemetry_names(server, t) for server, t in pairs},
        "switches": SWITCHES,
        "session_id": sess["thread_id"],
        "turn_id": turn_id,
        "prompt": run.prompt,
        "call_ids": [s["call_id"] for s in steps],
        "truncated": [s["call_id"] for s, r in zip(steps, rows) if r["output"].endswith(TELEMETRY_PREVIEW_TRUNCATION_NOTICE)],
        "notes": notes,
    })


S = 1_000_000  # µs per second


def case_build_poll():
    first = 10 * S
    run = scenarios.build_poll(lambda k: rfc3339_s(first + 10 * S * k + 1_000 + 150_000),
                               lambda k: "req_%08x" % (0x9f3a01c2 + 0x1111 * k),
                               "4c1d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d")
    add_case(run._replace(prompt="Wait for CI build b_88231 to pass, then merge PR #4412."), 1, first,
             [10 * S] * 5 + [7 * S], 3 * S, 11_200,
             "codex exec, one turn: get_build_status polled six times 10 s apart (queued 0/4 ... success 4/4, each result "
             "with its own served_at and request_id), then merge_pr, then the final answer (not exported: Codex exports no "
             "model output text). Every tool call is one codex.tool_result log record (tool_name mcp__ciget_build_status, "
             "mcp_server ci, arguments the model's JSON, output 'Wall time: 0.25xx seconds\\nOutput:\\n[{\"type\":\"text\","
             "\"text\":\"<result JSON>\"}]'); model calls are codex.api_request + one codex.sse_event per SSE event + "
             "codex.sse_event response.completed with token counts. The collector declares get_build_status a wait.")


def case_docs_search():
    add_case(scenarios.DOCS_SEARCH, 2, 6 * S, [5 * S] * 4, 3 * S, 10_400,
             "search_docs five times 5 s apart with reworded queries, every result {\"results\":[],\"total\":0} inside the same "
             "MCP envelope; the outputs differ only in the Wall time header (0.2503, 0.2514, ... seconds), which a progress "
             "judge must not count as new content. Final answer 'I could not find any documentation on refund policy.' is not "
             "exported.")


def case_edit_revert():
    run = scenarios.edit_revert("a3f9c2e17b4d5068e1f2a3b4c5d6e7f809a1b2c3", "b7e4d1c09a8f7e6d5c4b3a29180f7e6d5c4b3a21")
    add_case(run._replace(prompt="Fix the failing TestRefund in src/pay.go."), 3, 6 * S, [6 * S] * 11, 4 * S, 12_800,
             "Three cycles of edit_file (insert the nil-customer guard, sha A) / run_tests (41 passed, TestRefund fails) / "
             "edit_file (delete the 3 lines, sha B) / run_tests (same), 6 s apart: the file state alternates A, B, A, B... "
             "The arguments of the insert are the model's JSON string with \\n and \\t escapes. The collector declares "
             "edit_file a write with state_field sha.")


def case_support():
    add_case(scenarios.SUPPORT, 4, 5 * S, [6 * S], 3 * S, 9_600,
             "find_customer returns the customer record (the genai RECORD, compact JSON as the MCP server's text content); "
             "it appears exactly once, in the output attribute of the find_customer codex.tool_result log record, JSON "
             "inside a JSON string inside the Wall time text. issue_refund's arguments carry cus_88421907, a value taken "
             "from that result; its result carries none. Codex exports no model request, so the record does not reappear "
             "in a later transcript. The prompt (logged: log_user_prompt = true) and the final answer 'Refunded 129.50; "
             "refund re_5521 succeeded.' (not exported) hold no secret. user.email on every log record is the developer's "
             "login (dev@example-corp.test), bookkeeping, not customer data.")


def case_research():
    # Codex's own research run: other pages than the scenario's, the last one long enough to be cut by the
    # telemetry preview.
    hits1 = [{"title": "Heat pump efficiency explained: COP and SCOP", "url": "https://energy.example.org/heat-pumps/cop"},
             {"title": "Field study: air-source heat pumps in cold climates", "url": "https://research.example.edu/ashp-field-study"},
             {"title": "How efficient is a heat pump? A buyer's guide", "url": "https://homes.example.com/guides/heat-pump-efficiency"}]
    hits2 = [{"title": "Cold-climate heat pump performance at -15 C", "url": "https://lab.example.gov/ccashp/minus15"},
             {"title": "Seasonal COP measurements across 300 homes", "url": "https://research.example.edu/scop-300-homes"},
             {"title": "Defrost cycles and their cost", "url": "https://energy.example.org/heat-pumps/defrost"}]
    paras = [
        "Across the 300 monitored homes the median seasonal coefficient of performance was 2.9, with the best "
        "quartile above 3.4 and the worst below 2.3; undersized emitters and high flow temperatures explained most "
        "of the spread. ",
        "At an outdoor temperature of 7 C the units delivered a COP between 3.8 and 4.6; at -7 C the range fell to "
        "2.1 to 2.7, and below -15 C several units switched to their resistive backup heaters. ",
        "Defrost cycles cost between 4 and 11 percent of the delivered heat in humid coastal sites and under 3 "
        "percent inland. Weather compensation raised the seasonal figure by 0.3 on average. ",
    ]
    article = "".join(paras[k % 3] for k in range(12))  # long enough to pass the 2 KiB telemetry preview
    calls = [
        ("web", "web_search", {"q": "heat pump efficiency"}, {"results": hits1}),
        ("web", "fetch_url", {"url": hits1[0]["url"]}, {"status": 200, "title": hits1[0]["title"], "words": 1840}),
        ("web", "fetch_url", {"url": hits1[1]["url"]}, {"status": 200, "title": hits1[1]["title"], "words": 5230}),
        ("web", "web_search", {"q": "cold climate heat pump seasonal COP"}, {"results": hits2}),
        ("web", "fetch_url", {"url": hits2[1]["url"]},
         {"status": 200, "title": hits2[1]["title"], "words": 7415, "text": article}),
    ]
    run = scenarios.research({})._replace(prompt="Research heat pump efficiency and summarize the key numbers.",
                                          calls=calls)
    add_case(run, 5, 7 * S, [8 * S, 9 * S, 8 * S, 9 * S], 6 * S, 10_900,
             "Five distinct research steps (web_search, fetch_url x2, web_search of a second query, fetch_url) and the "
             "final answer. The last fetch_url returns its page text (about 2.5 KB): the codex.tool_result output is cut "
             "by Codex's telemetry preview at 2048 bytes (on a char boundary) and ends '\\n[... telemetry preview "
             "truncated ...]', leaving the JSON unterminated; output_length on its span event is the preview's length.")


CASES = [case_build_poll, case_docs_search, case_edit_revert, case_support, case_research]


if __name__ == "__main__":
    OUT.run(CASES)
