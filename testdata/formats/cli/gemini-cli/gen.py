#!/usr/bin/env python3
# Copyright The agentotel Authors
# SPDX-License-Identifier: Apache-2.0

"""Writes the OTLP JSON payloads of testdata/formats/cli/gemini-cli/ and their manifest.json.

Run: python3 testdata/formats/cli/gemini-cli/gen.py   (from anywhere; writes next to this file)

Gemini CLI is open source. Every span, log record and attribute here follows its source at
google-gemini/gemini-cli @ 5411f113 (2026-08-21): packages/core/src/telemetry/{trace,types,semantic,
loggers,sdk,telemetryAttributes,constants}.ts, core/loggingContentGenerator.ts, core/geminiChat.ts,
core/turn.ts, scheduler/{scheduler,tool-executor,state-manager}.ts, tools/mcp-tool.ts and
utils/generateContentResponseUtilities.ts, and the OpenTelemetry JS SDK it pins (sdk-logs / otlp-transformer
0.218.0, sdk-trace-base / resources 2.7.1: attribute and resource encoding, undefined attributes kept as
empty values, span flags). README.md says per record and attribute where it comes from (file:line @ commit)
and what had to be chosen.

Every payload is one OTLP JSON request per line (ExportTraceServiceRequest / ExportLogsServiceRequest as
pdata's JSONUnmarshalers read them). Records are split into export requests the way the SDK's batch
processors do by default (BatchSpanProcessor and BatchLogRecordProcessor: one export every 5 s), so a round's
records can arrive in different requests. Ids and timestamps are fixed, so the output is byte-identical on
every run.
"""

import base64
import hashlib
import json
import os
import sys
import unicodedata

sys.dont_write_bytecode = True  # a run leaves nothing in testdata but the payloads
FORMATS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [FORMATS, os.path.join(FORMATS, "cli")]  # otlpgen, scenarios
import scenarios
from otlpgen import (T0_MS, Output, attributes, citing, export_batches, hexid, iso_seconds, jcompact,
                     logs_request, nanos, to_iso_string, traces_request, utf16_len, uuid4)

OUT = Output(__file__)

GEMINI = "google-gemini/gemini-cli"
GEMINI_REF = "5411f113cafae26161b4969b0237b8e1e024e2c2"
OTEL_JS = "open-telemetry/opentelemetry-js"
OTEL_JS_EXP_REF = "06ad0eaaecbd49f5ead871325f852cc2a3454079"  # tag experimental/v0.218.0
OTEL_JS_REF = "2400d8389a4469f7a81ccd3be2f0b2c2dd6faaf7"  # tag v2.7.1
GENAI_JS = "googleapis/js-genai"
GENAI_JS_REF = "38cac5bbf4941ec5fa760238bd423c0ecc2c6f04"  # tag v1.30.0

MODEL = "gemini-2.5-pro"
AUTH_TYPE = "gemini-api-key"  # AuthType.USE_GEMINI
SERVICE_NAME = "gemini-cli"
SERVICE_DESCRIPTION = ("Gemini CLI is an open-source AI agent that brings the power of Gemini directly into your "
                       "terminal. It is designed to be a terminal-first, extensible, and powerful tool for "
                       "developers, engineers, SREs, and beyond.")
TRACE_SCOPE = {"name": "gemini-cli", "version": "v1"}
LOG_SCOPE = {"name": "gemini-cli"}  # logs.getLogger(SERVICE_NAME): no version
TELEMETRY_MAX = 10000  # truncateForTelemetry's maxLength
TOOL_OUTPUT_THRESHOLD = 40000  # DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD
GLOBAL_TEXT_LIMIT = 160 * 1024  # semantic.ts limitTotalLength
SYNTHETIC_THOUGHT_SIGNATURE = "skip_thought_signature_validator"

# The machine (identical for every run; only session.id differs).
NODE_VERSION = "22.17.0"
HOME = "/home/dev"
PROJECT = HOME + "/shop"
PROJECT_TMP = HOME + "/.gemini/tmp/shop"  # Storage.getProjectTempDir(): ~/.gemini/tmp/<slug of the basename>
GEMINI_JS = "/usr/local/lib/node_modules/@google/gemini-cli/dist/index.js"
RESOURCE_HEAD = [  # hostDetector, processDetector (then the CLI's own attributes, then session.id)
    ("host.name", "dev-laptop"),
    ("host.arch", "amd64"),
    ("host.id", hexid("gemini-cli/host", 32)),
    ("process.pid", 48213),
    ("process.executable.name", "node"),
    ("process.executable.path", "/usr/local/bin/node"),
    ("process.command_args", ["/usr/local/bin/node", "--max-old-space-size=8192", GEMINI_JS]),
    ("process.runtime.version", NODE_VERSION),
    ("process.runtime.name", "nodejs"),
    ("process.runtime.description", "Node.js"),
    ("process.command", GEMINI_JS),
    ("process.owner", "dev"),
    ("service.name", SERVICE_NAME),
    ("service.version", "v" + NODE_VERSION),  # process.version
]

# The user's MCP servers (scenarios.SERVERS) are settings.json mcpServers, in that order, each trust: true.
WAIT_FOR_PREVIOUS = {
    "type": "boolean",
    "description": "Set to true to wait for all previously requested tools in this turn to complete before "
                   "starting. Set to false (or omit) to run in parallel. Use true when this tool depends on the "
                   "output of previous tools.",
}

# The first sentence of the legacy core system prompt (gemini-2.5 models use prompts/snippets.legacy.ts); the
# real value is the whole prompt, several thousand characters, left out here (see README).
SYSTEM_PROMPT = ("You are an interactive CLI agent specializing in software engineering tasks. Your primary goal "
                 "is to help users safely and efficiently, adhering strictly to the following instructions and "
                 "utilizing your available tools.")
SYSTEM_TOKENS = 13482  # assumed tokens of the system prompt + all tool declarations (see README)

# getEnvironmentContext(): the first user turn of every request.
FOLDER_STRUCTURE = (
    "Showing up to 200 items (files + folders). Folders or files indicated with ... contain more items not "
    "shown, were ignored, or the display limit (200 items) was reached.\n\n"
    + PROJECT + "/\n"
    "├───go.mod\n"
    "├───README.md\n"
    "├───.git/...\n"
    "└───src/\n"
    "    ├───pay_test.go\n"
    "    └───pay.go")
ENV_CONTEXT = (
    "<session_context>\n"
    "This is the Gemini CLI. We are setting up the context for our chat.\n"
    "Today's date is Thursday, January 1, 2026 (formatted according to the user's locale).\n"
    "My operating system is: linux\n"
    "The project's temporary directory is: " + PROJECT_TMP + "\n"
    "- **Workspace Directories:**\n  - " + PROJECT + "\n- **Directory Structure:**\n\n" + FOLDER_STRUCTURE + "\n"
    "\n"
    "\n"  # config.getSessionMemory() is empty: no GEMINI.md
    "</session_context>")

# ---------------------------------------------------------------------------
# Deterministic ids and time.


def response_id(seed):
    """A Gemini API responseId (23 base64url characters)."""
    return base64.urlsafe_b64encode(hashlib.sha256(seed.encode()).digest()).decode()[:23]


INSTALLATION_ID = uuid4("gemini-cli/installation")

# All times below are milliseconds after otlpgen's T0, the process start of each run.


def jpretty(v):
    """JSON.stringify(v, null, 2): safeJsonStringify(args, 2) of the tool_call record's function_args."""
    return json.dumps(v, indent=2, ensure_ascii=False)


LINE_TERMINATORS = {"\n", "\r", "\u2028", "\u2029"}


def truncate_string(s, max_len, suffix="...[TRUNCATED]"):
    """utils/textUtils.ts truncateString: whole grapheme clusters (/(?:surrogate pair|.)\\p{M}*/gu) up to
    max_len UTF-16 units, then the suffix. The regex's '.' does not match line terminators, so exec() skips
    them: a truncated value loses its raw newlines (JSON text has none)."""
    if utf16_len(s) <= max_len:
        return s
    out, n, i = [], 0, 0
    while i < len(s):
        c = s[i]
        if c in LINE_TERMINATORS:
            i += 1
            continue
        j = i + 1
        while j < len(s) and unicodedata.category(s[j]).startswith("M"):
            j += 1
        seg = s[i:j]
        if n + utf16_len(seg) > max_len:
            break
        out.append(seg)
        n += utf16_len(seg)
        i = j
        if n >= max_len:
            break
    return "".join(out) + suffix


def truncate_for_telemetry(value):
    """telemetry/trace.ts truncateForTelemetry(value, 10000)."""
    text = value if isinstance(value, str) else jcompact(value)
    return truncate_string(text, TELEMETRY_MAX, "...[TRUNCATED: original length %d]" % utf16_len(text))


# ---------------------------------------------------------------------------
# OTLP JSON helpers.


def span(trace_id, span_id, name, start, end, attrs, parent=None):
    s = {"traceId": trace_id, "spanId": span_id}
    if parent:
        s["parentSpanId"] = parent
    s.update({
        "flags": 257,  # SAMPLED | CONTEXT_HAS_IS_REMOTE (otlp-transformer buildSpanFlagsFrom)
        "name": name,
        "kind": 1,  # SPAN_KIND_INTERNAL: runInDevTraceSpan sets no kind
        "startTimeUnixNano": nanos(start),
        "endTimeUnixNano": nanos(end),
        "attributes": attributes(attrs),
        "status": {"code": 1},  # SpanStatusCode.OK, no message
    })
    return s


def log_record(at, body, attrs, ctx=None):
    r = {"timeUnixNano": nanos(at), "observedTimeUnixNano": nanos(at)}
    if ctx:
        r["flags"] = 1
        r["traceId"], r["spanId"] = ctx
    r["body"] = {"stringValue": body}
    r["attributes"] = attributes(attrs)
    return r


# ---------------------------------------------------------------------------
# Names and shapes.


def mcp_name(server, tool):
    """tools/mcp-tool.ts generateValidName(`${serverName}_${serverToolName}`): 'mcp_' prefix, invalid
    characters to '_', cut to 63 characters with '...' in the middle."""
    name = server + "_" + tool
    if not name.startswith("mcp_"):
        name = "mcp_" + name
    name = "".join(c if (c.isascii() and (c.isalnum() or c in "_-.:")) else "_" for c in name)
    if not (name[0].isascii() and (name[0].isalpha() or name[0] == "_")):
        name = "_" + name
    if len(name) > 63:
        name = name[:30] + "..." + name[-30:]
    return name


def display_name(server, tool):
    return "%s (%s MCP Server)" % (tool, server)


def tool_declarations():
    """[{functionDeclarations}] as GeminiClient sets them on the chat; the MCP part only (README)."""
    decls = []
    for (server, tool), (desc, _) in scenarios.TOOL_SCHEMAS.items():
        schema = scenarios.input_schema(server, tool)
        params = dict(schema)
        params["properties"] = dict(schema["properties"], wait_for_previous=WAIT_FOR_PREVIOUS)
        decls.append({"name": mcp_name(server, tool), "description": desc, "parametersJsonSchema": params})
    return [{"functionDeclarations": decls}]


TOOL_DEFINITIONS = jcompact(tool_declarations())


def tool_json(server, tool):
    """DeclarativeTool.toJSON()."""
    return {"name": mcp_name(server, tool), "displayName": display_name(server, tool),
            "description": scenarios.TOOL_SCHEMAS[(server, tool)][0], "kind": "other",
            "parameterSchema": scenarios.input_schema(server, tool)}


def wrap_untrusted(text):
    """utils/textUtils.ts wrapUntrusted: how an MCP text block reaches the model."""
    return "<untrusted_context>\n" + text.replace("</untrusted_context>", "&lt;/untrusted_context&gt;") \
        + "\n</untrusted_context>"


def fmt_int(n):
    return "{:,}".format(n)  # Number.prototype.toLocaleString() in an en-US locale


def format_truncated_tool_output(content, output_file, max_chars):
    """utils/fileUtils.ts formatTruncatedToolOutput."""
    head_chars = max_chars * 2 // 10
    tail_chars = max_chars - head_chars
    omitted = len(content) - head_chars - tail_chars
    return ("Output too large. Showing first %s and last %s characters. For full output see: %s\n%s\n\n"
            "... [%s characters omitted] ...\n\n%s" % (fmt_int(head_chars), fmt_int(tail_chars), output_file,
                                                       content[:head_chars], fmt_int(omitted),
                                                       content[-tail_chars:]))


# semantic.ts: Gemini Content -> OpenTelemetry GenAI messages (gen_ai.input.messages / output.messages).

def otel_role(role):
    return {"user": "user", "assistant": "assistant", "tool": "tool"}.get((role or "").lower(), "system")


def otel_part(part):
    if part.get("thought"):
        return {"type": "reasoning", "content": part.get("text") or ""}
    if part.get("text"):
        return {"type": "text", "content": part["text"]}
    if "functionCall" in part:
        fc = part["functionCall"]
        p = {"type": "tool_call", "name": fc.get("name"), "id": fc.get("id"), "arguments": jcompact(fc.get("args"))}
        return {k: v for k, v in p.items() if v is not None}
    if "functionResponse" in part:
        fr = part["functionResponse"]
        p = {"type": "tool_call_response", "response": jcompact(fr.get("response")), "id": fr.get("id")}
        return {k: v for k, v in p.items() if v is not None}
    raise ValueError(part)


def limit_total_length(parts):
    keys = {"text": "content", "reasoning": "content", "tool_call": "arguments", "tool_call_response": "response"}
    refs = [(p, keys[p["type"]]) for p in parts if keys.get(p["type"]) in p]
    total = sum(utf16_len(p[k]) for p, k in refs)
    if total <= GLOBAL_TEXT_LIMIT:
        return
    average = GLOBAL_TEXT_LIMIT / len(refs)
    large = [(p, k) for p, k in refs if utf16_len(p[k]) > average]
    small = sum(utf16_len(p[k]) for p, k in refs if utf16_len(p[k]) <= average)
    budget = max(1, (GLOBAL_TEXT_LIMIT - small) // len(large))
    for p, k in large:
        p[k] = truncate_string(p[k], budget)


def input_messages(contents):
    msgs = [{"role": otel_role(c.get("role")), "parts": [otel_part(p) for p in c["parts"]]} for c in contents]
    limit_total_length([p for m in msgs for p in m["parts"]])
    return msgs


FINISH = {"STOP": "stop", "MAX_TOKENS": "length", "SAFETY": "content_filter", "MALFORMED_FUNCTION_CALL": "error"}


def output_messages(candidates):
    msgs = [{"finish_reason": FINISH.get(c.get("finishReason"), "stop"), "role": otel_role(c["content"].get("role")),
             "parts": [otel_part(p) for p in c["content"]["parts"]]} for c in candidates]
    limit_total_length([p for m in msgs for p in m["parts"]])
    return msgs


def system_instructions_log():
    """toGenerateContentConfigAttributes: JSON.stringify(toSystemInstruction(systemInstruction))."""
    return jcompact([{"type": "text", "content": SYSTEM_PROMPT}])


# ---------------------------------------------------------------------------
# One session.


class Session:
    def __init__(self, case):
        self.case = case
        self.sid = uuid4("gemini-cli/%s/session" % case)
        self.prompt_id = self.sid + "########0"
        self.spans = []
        self.logs = []
        self.resource = {"attributes": attributes(RESOURCE_HEAD + [("session.id", self.sid)])}

    def common(self):
        """telemetryAttributes.ts getCommonAttributes (no user.email with an API key, no experiments)."""
        return {"session.id": self.sid, "installation.id": INSTALLATION_ID, "interactive": True,
                "auth_type": AUTH_TYPE}

    def ids(self, kind, n):
        return hexid("%s/%s/%d/trace" % (self.case, kind, n), 32), hexid("%s/%s/%d/span" % (self.case, kind, n), 16)

    def log(self, at, body, attributes, ctx=None):
        self.logs.append((at, log_record(at, body, attributes, ctx)))

    def gen_config_attrs(self):
        """toGenerateContentConfigAttributes(chat-base-2.5 config): temperature 1, topP 0.95, topK 64."""
        return {"gen_ai.request.temperature": 1, "gen_ai.request.top_p": 0.95, "gen_ai.request.top_k": 64,
                "gen_ai.request.choice.count": None, "gen_ai.request.seed": None,
                "gen_ai.request.frequency_penalty": None, "gen_ai.request.presence_penalty": None,
                "gen_ai.request.max_tokens": None, "gen_ai.output.type": None,
                "gen_ai.request.stop_sequences": None, "gen_ai.system_instructions": system_instructions_log()}

    def requests(self):
        return ([logs_request(self.resource, [(LOG_SCOPE, b)]) for b in export_batches(self.logs)],
                [traces_request(self.resource, [(TRACE_SCOPE, b)]) for b in export_batches(self.spans)])


FIRST_TOOL_MS = 4000  # when a run's first tool call starts; the next ones follow gap_ms apart


def run_session(case, prompt, final_text, calls, gap_ms, final_ms=2400):
    """calls: [(server, tool, args, result, exec_ms)]; gap_ms: time between tool starts. Returns the Session
    and facts for the manifest."""
    s = Session(case)
    c = s.common()
    facts = {"call_ids": [], "truncated": []}

    # Start-up: gemini_cli.config (types.ts StartSessionEvent), built before the tool registry exists.
    cfg = dict(c)
    cfg.update({
        "event.name": "gemini_cli.config", "event.timestamp": to_iso_string(300), "model": MODEL,
        "embedding_model": "gemini-embedding-001", "sandbox_enabled": False, "core_tools_enabled": "",
        "approval_mode": "default", "api_key_enabled": True, "vertex_ai_enabled": False,
        "log_user_prompts_enabled": True, "file_filtering_respect_git_ignore": True, "debug_mode": False,
        "mcp_servers": ",".join(scenarios.SERVERS), "mcp_servers_count": len(scenarios.SERVERS), "mcp_tools": None,
        "mcp_tools_count": None, "output_format": "text", "extensions": "", "extensions_count": 0,
        "extension_ids": "", "auth_type": AUTH_TYPE, "worktree_active": False})
    s.log(305, "CLI configuration loaded.", cfg)

    t_prompt = 1500
    up = dict(c)
    up.update({"event.name": "gemini_cli.user_prompt", "event.timestamp": to_iso_string(t_prompt),
               "prompt_length": utf16_len(prompt), "prompt_id": s.prompt_id, "auth_type": AUTH_TYPE,
               "prompt": prompt})
    s.log(t_prompt, "User prompt. Length: %d." % utf16_len(prompt), up)

    t_route = t_prompt + 25
    mr = dict(c)
    mr.update({"event.name": "gemini_cli.model_routing", "event.timestamp": to_iso_string(t_route),
               "decision_model": MODEL, "decision_source": "agent-router/override", "routing_latency_ms": 0,
               "failed": False, "approval_mode": "default",
               "reasoning": "Routing bypassed by forced model directive. Using: " + MODEL,
               "enable_numerical_routing": True, "classifier_threshold": "90"})
    s.log(t_route, "Model routing decision. Model: %s, Source: agent-router/override" % MODEL, mr)

    first_user = {"role": "user", "parts": [{"text": ENV_CONTEXT}, {"text": prompt}]}
    history = [first_user]  # the contents as sent (ids stripped, thought signatures added)
    n = len(calls)
    start = t_prompt + 30
    for r in range(n + 1):
        is_tool = r < n
        p_r = FIRST_TOOL_MS + r * gap_ms
        end = p_r - 31 if is_tool else start + final_ms
        assert end - start > 400, (case, r)
        llm_trace, llm_span = s.ids("llm", r)
        ctx = (llm_trace, llm_span)
        rid = response_id("%s/response/%d" % (case, r))
        contents = [dict(x) for x in history]
        request_text = jcompact(contents)

        # The model's answer (one streamed chunk).
        if is_tool:
            server, tool, args, result, exec_ms = calls[r]
            name = mcp_name(server, tool)
            call_ms = T0_MS + end - 3  # Turn.handlePendingFunctionCall: `${name}_${Date.now()}_${callCounter++}`
            raw_id = "%s_%d_0" % (name, call_ms)
            call_id = "%s__%s" % (name, raw_id)  # prefixed with `${name}__`
            facts["call_ids"].append({"tool": tool, "call_id": call_id, "transcript_id": raw_id})
            # fnCall.id is set on the SDK's own object, so the response as logged/spanned carries the prefixed id.
            parts = [{"functionCall": {"name": name, "args": args, "id": call_id}}]
            cand_tokens = 12 + len(jcompact(args)) // 4
        else:
            parts = [{"text": final_text}]
            cand_tokens = len(final_text) // 4 + 1
        content = {"parts": parts, "role": "model"}
        candidate = {"content": content, "finishReason": "STOP", "index": 0}
        prompt_tokens = SYSTEM_TOKENS + len(request_text) // 4
        thoughts = 64 + (r * 37) % 200
        usage = {"promptTokenCount": prompt_tokens, "candidatesTokenCount": cand_tokens,
                 "totalTokenCount": prompt_tokens + cand_tokens + thoughts,
                 "promptTokensDetails": [{"modality": "TEXT", "tokenCount": prompt_tokens}],
                 "thoughtsTokenCount": thoughts}
        response_text = jcompact([{"candidates": [candidate], "usageMetadata": usage, "responseId": rid,
                                   "modelVersion": MODEL}])
        duration = end - (start + 1)  # startTime is taken just before logApiRequest

        # gemini_cli.api_request + its semantic twin, inside the llm_call span.
        t_req = start + 1
        ar = dict(c)
        ar.update({"event.name": "gemini_cli.api_request", "event.timestamp": to_iso_string(t_req), "model": MODEL,
                   "prompt_id": s.prompt_id, "request_text": request_text, "role": "main"})
        s.log(t_req, "API request to %s." % MODEL, ar, ctx)
        sr = dict(c)
        sr.update({"event.name": "gen_ai.client.inference.operation.details", "event.timestamp": to_iso_string(t_req)})
        sr.update(s.gen_config_attrs())
        sr.update({"gen_ai.operation.name": "generate_content", "gen_ai.provider.name": "gcp.gen_ai",
                   "gen_ai.request.model": MODEL, "server.address": "generativelanguage.googleapis.com",
                   "server.port": 443, "gen_ai.input.messages": jcompact(input_messages(contents))})
        s.log(t_req, "GenAI operation request details from %s." % MODEL, sr, ctx)

        # gemini_cli.api_response + its semantic twin, after the stream ends (no active span).
        rs = dict(c)
        rs.update({"event.name": "gemini_cli.api_response", "event.timestamp": to_iso_string(end), "model": MODEL,
                   "duration_ms": duration, "input_token_count": prompt_tokens, "output_token_count": cand_tokens,
                   "cached_content_token_count": 0, "thoughts_token_count": thoughts, "tool_token_count": 0,
                   "total_token_count": usage["totalTokenCount"], "prompt_id": s.prompt_id,
                   "auth_type": AUTH_TYPE, "status_code": 200, "finish_reasons": ["stop"], "role": "main",
                   "response_text": response_text, "http.status_code": 200})
        s.log(end, "API response from %s. Status: 200. Duration: %dms." % (MODEL, duration), rs)
        sd = dict(c)
        sd.update({"event.name": "gen_ai.client.inference.operation.details", "event.timestamp": to_iso_string(end),
                   "gen_ai.response.id": rid, "gen_ai.response.finish_reasons": ["stop"],
                   "gen_ai.output.messages": jcompact(output_messages([candidate]))})
        sd.update(s.gen_config_attrs())
        sd.update({"gen_ai.operation.name": "generate_content", "gen_ai.provider.name": "gcp.gen_ai",
                   "gen_ai.request.model": MODEL, "gen_ai.response.model": MODEL,
                   "server.address": "generativelanguage.googleapis.com", "server.port": 443,
                   "gen_ai.input.messages": jcompact(input_messages(contents)),
                   "gen_ai.usage.input_tokens": prompt_tokens, "gen_ai.usage.output_tokens": cand_tokens})
        s.log(end, "GenAI operation details from %s. Status: 200. Duration: %dms." % (MODEL, duration), sd)

        # The llm_call span (loggingContentGenerator.generateContentStream).
        llm_attrs = {
            "gen_ai.request.model": MODEL, "gen_ai.prompt.name": s.prompt_id,
            "gen_ai.system_instructions": jcompact(SYSTEM_PROMPT), "gen_ai.tool.definitions": TOOL_DEFINITIONS,
            "gen_ai.conversation.id": s.sid,
            "gen_ai.input.messages": truncate_for_telemetry(contents),
            "gen_ai.output.messages": truncate_for_telemetry([content]),
            "gen_ai.operation.name": "llm_call", "gen_ai.agent.name": SERVICE_NAME,
            "gen_ai.agent.description": SERVICE_DESCRIPTION,
            "gen_ai.usage.input_tokens": prompt_tokens, "gen_ai.usage.output_tokens": cand_tokens}
        if utf16_len(request_text) > TELEMETRY_MAX:
            facts["truncated"].append("llm_call %d gen_ai.input.messages" % r)
        s.spans.append((end + 1, span(llm_trace, llm_span, "llm_call", start, end + 1, llm_attrs)))

        if not is_tool:
            break

        # The tool batch: schedule_tool_calls > tool_call, a new trace.
        text = jcompact(result)
        wrapped = wrap_untrusted(text)
        sched_trace, sched_span = s.ids("schedule", r)
        tool_span = s.ids("tool", r)[1]
        t_sched, t_valid, t_tool, t_done = p_r - 6, p_r - 4, p_r, p_r + exec_ms
        output = wrapped
        if utf16_len(wrapped) > TOOL_OUTPUT_THRESHOLD:
            out_file = "%s/tool-outputs/session-%s/%s.txt" % (PROJECT_TMP, s.sid, call_id.lower())
            output = format_truncated_tool_output(wrapped, out_file, TOOL_OUTPUT_THRESHOLD)
            tt = dict(c)
            tt.update({"event.name": "gemini_cli.tool_output_truncated", "eventName": "tool_output_truncated",
                       "event.timestamp": to_iso_string(t_done), "tool_name": name,
                       "original_content_length": utf16_len(wrapped), "truncated_content_length": utf16_len(output),
                       "threshold": TOOL_OUTPUT_THRESHOLD, "prompt_id": s.prompt_id})
            s.log(t_done, "Tool output truncated for %s." % name, tt, (sched_trace, tool_span))
            facts["truncated"].append("%s output (tool output threshold)" % tool)
        response_part = {"functionResponse": {"id": call_id, "name": name, "response": {"output": output}}}
        display = {"name": display_name(server, tool), "description": jcompact(args)}
        request = {"callId": call_id, "name": name, "args": args, "display": display, "isClientInitiated": False,
                   "prompt_id": s.prompt_id, "traceId": rid}
        enriched = dict(request, schedulerId="root")
        resp_info = {"callId": call_id, "responseParts": [response_part], "resultDisplay": text}
        executor_result = {"status": "success", "request": enriched, "tool": tool_json(server, tool),
                           "response": resp_info, "invocation": {"params": "[Circular]"},
                           "durationMs": t_done - t_valid, "startTime": T0_MS + t_valid, "endTime": T0_MS + t_done,
                           "outcome": "proceed_once"}
        state_call = {"request": enriched, "tool": tool_json(server, tool), "invocation": {"params": "[Circular]"},
                      "status": "success", "response": resp_info, "durationMs": t_done + 1 - t_valid,
                      "outcome": "proceed_once", "schedulerId": "root", "approvalMode": "default"}
        tool_attrs = {
            "gen_ai.tool.name": name, "gen_ai.tool.call_id": call_id,
            "gen_ai.tool.description": scenarios.TOOL_SCHEMAS[(server, tool)][0], "gen_ai.conversation.id": s.sid,
            "gen_ai.input.messages": truncate_for_telemetry(enriched),
            "gen_ai.output.messages": truncate_for_telemetry(executor_result),
            "gen_ai.operation.name": "tool_call", "gen_ai.agent.name": SERVICE_NAME,
            "gen_ai.agent.description": SERVICE_DESCRIPTION}
        if utf16_len(jcompact(executor_result)) > TELEMETRY_MAX:
            facts["truncated"].append("%s tool_call gen_ai.output.messages" % tool)
        s.spans.append((t_done, span(sched_trace, tool_span, "tool_call", t_tool, t_done, tool_attrs,
                                     parent=sched_span)))
        tc = dict(c)
        tc.update({"event.name": "gemini_cli.tool_call", "event.timestamp": to_iso_string(t_done + 2),
                   "function_name": name, "duration_ms": t_done + 1 - t_valid, "success": True,
                   "decision": "accept", "prompt_id": s.prompt_id, "tool_type": "mcp", "content_length": None,
                   "mcp_server_name": server, "extension_name": None, "extension_id": None, "start_time": None,
                   "end_time": None, "function_args": jpretty(args)})
        s.log(t_done + 2, "Tool call: %s. Decision: accept. Success: true. Duration: %dms." % (
            name, t_done + 1 - t_valid), tc, (sched_trace, sched_span))
        sched_attrs = {
            "gen_ai.conversation.id": s.sid,
            "gen_ai.input.messages": truncate_for_telemetry([request]),
            "gen_ai.output.messages": truncate_for_telemetry([state_call]),
            "gen_ai.operation.name": "schedule_tool_calls", "gen_ai.agent.name": SERVICE_NAME,
            "gen_ai.agent.description": SERVICE_DESCRIPTION}
        if utf16_len(jcompact([state_call])) > TELEMETRY_MAX:
            facts["truncated"].append("%s schedule_tool_calls gen_ai.output.messages" % tool)
        s.spans.append((t_done + 3, span(sched_trace, sched_span, "schedule_tool_calls", t_sched, t_done + 3,
                                         sched_attrs)))

        # What the next request carries: the model turn and the tool response, as sent.
        history.append({"role": "model", "parts": [
            {"functionCall": {"name": name, "args": args, "id": raw_id},
             "thoughtSignature": SYNTHETIC_THOUGHT_SIGNATURE}]})
        history.append({"role": "user", "parts": [
            {"functionResponse": {"name": name, "response": {"output": output}, "id": raw_id}}]})
        start = t_done + 3 + 30
    return s, facts


# ---------------------------------------------------------------------------
# Manifest.

src = citing(GEMINI, GEMINI_REF)


SOURCES = [
    src("packages/core/src/telemetry/trace.ts",
        "runInDevTraceSpan: tracer gemini-cli v1, span named after the operation (llm_call, tool_call, "
        "schedule_tool_calls), INTERNAL, status OK; gen_ai.conversation.id at start; at end, when traces are on "
        "and logPrompts is not false, gen_ai.input.messages / gen_ai.output.messages = truncateForTelemetry of the "
        "input/output (JSON text cut at 10,000 characters + '...[TRUNCATED: original length N]'), then "
        "gen_ai.operation.name, gen_ai.agent.name, gen_ai.agent.description"),
    src("packages/core/src/telemetry/constants.ts", "SERVICE_NAME gemini-cli, SERVICE_DESCRIPTION, gen_ai.* keys "
        "(gen_ai.tool.call_id, gen_ai.prompt.name, gen_ai.tool.definitions ...), GeminiCliOperation values"),
    src("packages/core/src/core/loggingContentGenerator.ts",
        "llm_call span attributes (gen_ai.request.model, gen_ai.prompt.name, gen_ai.system_instructions, "
        "gen_ai.tool.definitions at start; input = req.contents, output = each chunk's candidates[0].content, "
        "usage tokens); api_request request_text = JSON.stringify(contents); api_response response_text = "
        "JSON.stringify of the chunks {candidates, usageMetadata, responseId, modelVersion, promptFeedback}"),
    src("packages/core/src/telemetry/types.ts",
        "gemini_cli.config / user_prompt / tool_call / api_request / api_response / model_routing / "
        "tool_output_truncated attributes and bodies; gen_ai.client.inference.operation.details records "
        "(toSemanticLogRecord: gen_ai.input.messages / output.messages only when traces AND logPrompts)"),
    src("packages/core/src/telemetry/semantic.ts",
        "toInputMessages / toOutputMessages: role model -> 'system', functionCall -> {type tool_call, name, id, "
        "arguments: JSON string}, functionResponse -> {type tool_call_response, response: JSON string, id}, "
        "finish reasons STOP -> stop; 160 KB text budget"),
    src("packages/core/src/telemetry/loggers.ts", "logger 'gemini-cli' (no version), LogRecord {body, attributes} "
        "(no eventName, no severity); api_request and api_response emit two records each"),
    src("packages/core/src/telemetry/telemetryAttributes.ts",
        "common attributes: session.id, installation.id, interactive, user.email (Google login only), auth_type, "
        "experiments.ids"),
    src("packages/core/src/telemetry/sdk.ts", "resource service.name gemini-cli, service.version = process.version, "
        "session.id; NodeSDK with BatchSpanProcessor / BatchLogRecordProcessor; OTLP gRPC (default) or HTTP"),
    src("packages/core/src/telemetry/config.ts", "settings/env resolution: GEMINI_TELEMETRY_ENABLED, "
        "GEMINI_TELEMETRY_TRACES_ENABLED, GEMINI_TELEMETRY_TARGET, GEMINI_TELEMETRY_OTLP_ENDPOINT / "
        "OTEL_EXPORTER_OTLP_ENDPOINT, GEMINI_TELEMETRY_OTLP_PROTOCOL, GEMINI_TELEMETRY_LOG_PROMPTS, "
        "GEMINI_TELEMETRY_OUTFILE"),
    src("packages/core/src/config/config.ts", "defaults: telemetry disabled, traces false, logPrompts true, "
        "target local, otlpEndpoint http://localhost:4317, protocol grpc; truncateToolOutputThreshold 40,000"),
    src("packages/core/src/tools/mcp-tool.ts",
        "MCP tool name generateValidName(`${server}_${tool}`) -> mcp_<server>_<tool>; displayName "
        "'<tool> (<server> MCP Server)'; MCP text blocks wrapped in <untrusted_context> for the model"),
    src("packages/core/src/utils/generateContentResponseUtilities.ts",
        "convertToFunctionResponse: {functionResponse: {id, name, response: {output: <texts joined by newline>}}}"),
    src("packages/core/src/core/turn.ts", "call id `${name}__${name}_${Date.now()}_${n}` when the API gives none, "
        "set on the response's functionCall; ToolCallRequestInfo {callId, name, args, display, isClientInitiated, "
        "prompt_id, traceId = responseId}"),
    src("packages/core/src/core/geminiChat.ts",
        "request contents: env context + prompt coalesced into one user turn, the synthetic thoughtSignature on "
        "each model turn's first functionCall, stripToolCallIdPrefixes (ids sent without the `${name}__` "
        "prefix, parts rebuilt {name, args, id} / {name, response, id})"),
    src("packages/core/src/scheduler/tool-executor.ts",
        "tool_call span (gen_ai.tool.name, gen_ai.tool.call_id, gen_ai.tool.description; input = the request, "
        "output = the CompletedToolCall); MCP single-text output over the threshold truncated + "
        "gemini_cli.tool_output_truncated"),
    src("packages/core/src/scheduler/scheduler.ts", "schedule_tool_calls span around the batch; tool_call log on "
        "finalize (inside that span); outcome ProceedOnce when no confirmation is asked"),
    src("packages/core/src/tools/tools.ts", "DeclarativeTool.toJSON {name, displayName, description, kind, "
        "parameterSchema}; BaseToolInvocation.toJSON {params}; wait_for_previous added to every declaration"),
    src("packages/core/src/utils/environmentContext.ts", "the <session_context> first user turn"),
    src("experimental/packages/otlp-transformer/src/common/internal.ts",
        "toAnyValue: integers intValue, other numbers doubleValue, undefined -> empty AnyValue (key kept); "
        "log records carry no eventName/severity when unset", OTEL_JS, OTEL_JS_EXP_REF),
    src("experimental/packages/sdk-logs/src/Logger.ts", "log records take the active span's trace/span id",
        OTEL_JS, OTEL_JS_EXP_REF),
    src("experimental/packages/otlp-transformer/src/trace/internal.ts", "span flags 257, kind = API kind + 1",
        OTEL_JS, OTEL_JS_EXP_REF),
    src("experimental/packages/opentelemetry-sdk-node/src/sdk.ts", "default resource detectors env, process, host "
        "merged with the CLI's resource", OTEL_JS, OTEL_JS_EXP_REF),
    src("packages/opentelemetry-resources/src/detectors/platform/node/ProcessDetector.ts",
        "process.* resource attributes", OTEL_JS, OTEL_JS_REF),
    src("src/converters/_models_converters.ts", "response content passed through as the API sends it "
        "({parts, role}); candidate key order", GENAI_JS, GENAI_JS_REF),
]

SWITCHES = {
    "telemetry": ["telemetry.enabled=true in settings.json (or GEMINI_TELEMETRY_ENABLED=true|1); default off"],
    "export": ["telemetry.target=local (default; 'gcp' without useCollector exports straight to Google Cloud "
               "instead of OTLP)",
               "telemetry.otlpEndpoint=<collector> (or GEMINI_TELEMETRY_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT; "
               "default http://localhost:4317)",
               "telemetry.otlpProtocol=grpc (default) or http (GEMINI_TELEMETRY_OTLP_PROTOCOL)",
               "no telemetry.outfile (GEMINI_TELEMETRY_OUTFILE), which replaces the OTLP exporters with a file"],
    "logs": ["on with telemetry: every gemini_cli.* and gen_ai.client.inference.operation.details record"],
    "traces": ["spans are exported whenever telemetry is on, but then carry only names and ids "
               "(gen_ai.operation.name/agent.*/conversation.id, llm_call's request.model, prompt.name, "
               "system_instructions, tool.definitions; tool_call's tool.name, call_id, description)",
               "telemetry.traces=true (GEMINI_TELEMETRY_TRACES_ENABLED=true) for gen_ai.input.messages / "
               "gen_ai.output.messages and usage on the spans"],
    "prompt_content": ["telemetry.logPrompts (default true; GEMINI_TELEMETRY_LOG_PROMPTS=false turns it off): "
                       "gemini_cli.user_prompt prompt"],
    "tool_arguments": ["telemetry.logPrompts: gemini_cli.tool_call function_args",
                       "telemetry.traces=true and logPrompts not false: tool_call and schedule_tool_calls span "
                       "gen_ai.input.messages (the request, args included)"],
    "tool_output": ["telemetry.traces=true and logPrompts not false: tool_call span gen_ai.output.messages "
                    "(CompletedToolCall JSON: responseParts output and resultDisplay) and schedule_tool_calls "
                    "gen_ai.output.messages, each cut at 10,000 characters",
                    "gemini_cli.tool_call never carries the result"],
    "request_transcript": ["telemetry.logPrompts: gemini_cli.api_request request_text (Gemini Content[], every "
                           "earlier tool result as a functionResponse part) and gemini_cli.api_response "
                           "response_text",
                           "telemetry.traces=true AND logPrompts: gen_ai.client.inference.operation.details "
                           "gen_ai.input.messages / gen_ai.output.messages, and llm_call span gen_ai.input.messages "
                           "(cut at 10,000 characters)"],
    "run_settings": ["model.name=gemini-2.5-pro (routing: agent-router/override)",
                     "model.disableLoopDetection=true (else the 5th identical get_build_status call trips the "
                     "CLI's own loop detector; see README)",
                     "mcpServers.<server>.trust=true (no confirmation; outcome proceed_once, decision accept)",
                     "security.auth.selectedType=gemini-api-key"],
}


def telemetry_names(calls):
    out = {}
    for server, tool in scenarios.server_tools(calls):
        name = mcp_name(server, tool)
        out[tool] = {"span_tool_name": name, "log_function_name": name, "log_mcp_server_name": server,
                     "transcript_function_name": name, "display_name": display_name(server, tool)}
    return out


def emit(run, notes):
    """Writes the scenario run as Gemini CLI exports it, and its manifest entry."""
    s, facts = run_session(run.case, run.prompt, run.final, run.calls, run.gap_ms)
    logs, traces = s.requests()
    files = [OUT.write("gemini-cli-%s.logs.json" % run.case, logs),
             OUT.write("gemini-cli-%s.traces.json" % run.case, traces)]
    OUT.manifest.append({
        "case": run.case, "files": files, "sources": SOURCES,
        "data_class_tools": run.data_class_tools, "secrets": run.secrets,
        "expect": run.expect, "reason": run.reason, "tools": [t for _, t in scenarios.server_tools(run.calls)],
        "telemetry_names": telemetry_names(run.calls), "switches": SWITCHES,
        "session_id": s.sid, "prompt_id": s.prompt_id, "call_ids": facts["call_ids"],
        "truncated": facts["truncated"],
        "notes": notes})


COMMON_NOTE = (
    "Logs: gemini_cli.config (mcp_servers listed, mcp_tools empty: it is built before MCP discovery), "
    "gemini_cli.user_prompt, gemini_cli.model_routing, then per model call gemini_cli.api_request "
    "(request_text = the whole Content[] so far) + gen_ai.client.inference.operation.details (request), "
    "gemini_cli.api_response (response_text) + gen_ai.client.inference.operation.details (response), per tool "
    "call gemini_cli.tool_call (function_name mcp_<server>_<tool>, mcp_server_name, function_args; no result). "
    "Traces: every llm_call is its own trace; every tool batch is a trace schedule_tool_calls > tool_call. "
    "They join by gen_ai.conversation.id (= session.id) and, on logs, prompt_id; a tool span joins its model "
    "call through the traceId (= responseId) inside its gen_ai.input.messages and through the call id "
    "(gen_ai.tool.call_id = '<name>__' + the id the transcript carries). Each result reappears in every later "
    "request as functionResponse.response.output '<untrusted_context>\\n<MCP text>\\n</untrusted_context>'.")


def case_build_poll():
    def served_at(k):  # halfway through the k-th poll's execution
        return iso_seconds(FIRST_TOOL_MS + k * scenarios.BUILD_POLL_GAP_MS + scenarios.BUILD_STATUS_MS // 2)

    emit(scenarios.build_poll(served_at, lambda k: "req_" + hexid("build-poll/%d" % k, 12),
                              hexid("build-poll/merge", 40)),
         "One interactive session, one prompt: get_build_status polled 6 times 10 s apart (queued 0/4 .. success "
         "4/4, each result with its own served_at and request_id), then merge_pr, then the answer: 8 llm_call "
         "traces, 7 tool traces. model.disableLoopDetection is on: with the default, Gemini CLI's own loop "
         "detector stops the 5th identical call (README). " + COMMON_NOTE)


def case_docs_search():
    emit(scenarios.DOCS_SEARCH,
         "search_docs five times, 5 s apart, with five different queries, each returning {\"results\":[],"
         "\"total\":0} (the same MCP text each time), then the answer. " + COMMON_NOTE)


def case_edit_revert():
    emit(scenarios.edit_revert(hexid("edit-revert/A", 40), hexid("edit-revert/B", 40)),
         "Three cycles of edit_file (insert the guard -> sha A), run_tests (41 passed, 1 failed), edit_file "
         "(delete it -> sha B), run_tests (same result), 6 s apart: the file's sha alternates A, B, A, B. "
         "function_args is JSON.stringify(args, null, 2) (the insert's newline and tab escaped). The repeating "
         "4-call cycle does not trip the CLI's loop detector (it needs 5 repetitions of a cycle of at most 5 "
         "calls). The last request's transcript is about 6,600 characters, under the spans' 10,000-character cut. "
         + COMMON_NOTE)


def case_support():
    emit(scenarios.SUPPORT,
         "find_customer returns the customer record (compact JSON text in an MCP text block), issue_refund "
         "refunds 129.5. The record appears in: the find_customer tool_call span's gen_ai.output.messages (twice: "
         "responseParts[0].functionResponse.response.output inside <untrusted_context> and resultDisplay), the "
         "schedule_tool_calls span's gen_ai.output.messages (same two places), and in the 2nd and 3rd model "
         "calls: gemini_cli.api_request request_text, the llm_call span's gen_ai.input.messages (functionResponse "
         "output, JSON inside a JSON string) and both inference-details records' gen_ai.input.messages "
         "(tool_call_response.response, JSON inside a JSON string inside a JSON string). It is NOT in any "
         "gemini_cli.tool_call record. issue_refund's arguments carry cus_88421907 (a value the model took from "
         "the record; issue_refund is not a data-class tool): in its tool_call record's function_args, its "
         "tool/schedule span input and output, the 2nd api_response response_text and inference-details "
         "output, the 2nd llm_call output and the 3rd request's transcript. The prompt and the answer carry no "
         "secret. " + COMMON_NOTE)


ARTICLE_SENTENCES = [
    "Cold-climate air-source heat pumps keep a coefficient of performance above two well below freezing.",
    "Defrost cycles reverse the refrigerant flow for a few minutes and cost a measurable share of winter output.",
    "Field data from the Nordic trial show seasonal performance factors between 2.6 and 3.1 in detached homes.",
    "Variable-speed compressors run longer at low power and avoid the losses of frequent start and stop cycles.",
    "Sizing the unit to the design temperature matters more than the nameplate efficiency at mild conditions.",
    "Backup resistance heat was needed for fewer than forty hours in the coldest season of the study.",
    "Low-temperature radiators or underfloor loops let the heat pump run at a lower supply temperature.",
    "Households that kept a steady setpoint used less electricity than those that used deep night setbacks.",
]


def long_article():
    """The text of a long page (about 42,000 characters), deterministic."""
    paras, n = [], 0
    while sum(len(p) + 2 for p in paras) < 42000:
        sents = [ARTICLE_SENTENCES[(n + i) % len(ARTICLE_SENTENCES)] for i in range(5)]
        paras.append("Section %d. %s" % (n + 1, " ".join(sents)))
        n += 1
    return "\n\n".join(paras)


def case_research():
    article = long_article()
    emit(scenarios.research({"words": len(article.split()), "text": article}),
         "web_search, fetch_url, fetch_url, web_search (a second query), fetch_url: five different calls with "
         "five different results, then the answer. The last fetch_url returns the page text too (about 42,000 "
         "characters): over the CLI's 40,000-character tool-output threshold, so the model gets 'Output too "
         "large. Showing first 8,000 and last 32,000 characters. For full output see: <file>' + head + '... [N "
         "characters omitted] ...' + tail (the full text saved to that file), a gemini_cli.tool_output_truncated "
         "record is logged inside the tool_call span, and its tool/schedule span outputs and the final llm_call "
         "span input are cut at 10,000 characters with '...[TRUNCATED: original length N]'. resultDisplay keeps "
         "the untruncated text but lies past the 10,000-character cut. " + COMMON_NOTE)


CASES = [case_build_poll, case_docs_search, case_edit_revert, case_support, case_research]


if __name__ == "__main__":
    OUT.run(CASES)
