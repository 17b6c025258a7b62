#!/usr/bin/env python3
# Copyright The agentotel Authors
# SPDX-License-Identifier: Apache-2.0

"""Generates the provider-format payloads in this directory (OTLP JSON) and manifest.json.

Every case is one agent run in one trace: the model is asked to look up a customer and the weather,
calls `find_customer` and `get_weather`, and answers after seeing both results. The attribute names
and value encodings follow the instrumentations' own source (see README.md and manifest.json
"sources"); only the conversation content is scripted.

Run: python3 gen.py   (rewrites every *.json here; output is deterministic)
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # a run leaves nothing in testdata but the payloads
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # testdata/formats: otlpgen
from otlpgen import (FIND_ARGS, KIND_CLIENT, KIND_INTERNAL, RECORD, SECRETS, USER_TEXT, WEATHER, WEATHER_ARGS, Output,
                     attributes, converse_parts, event, hexid, jcompact, jdump, service_resource, span, traces_request)

OUT = Output(__file__)

# ---------------------------------------------------------------- the scripted conversation (besides otlpgen's)

PLAN_TEXT = "I'll look up the account and check the weather."
FINAL_TEXT = "The account is active with one order on file. Oslo is at 3 C with overcast skies today."


# ---------------------------------------------------------------- OTLP JSON helpers

BASE_NS = 1767261600000000000  # 2026-01-01T10:00:00Z


class Trace:
    """Spans of one trace, grouped by instrumentation scope in insertion order. Ids are hashes of the case
    and a label; an attribute whose value is None is left out (the instrumentations skip unset values)."""

    def __init__(self, case, service):
        self.case = case
        self.service = service
        self.trace_id = hexid(f"{case}/trace", 32)
        self.scopes = {}  # (name, version) -> [span]

    def span(self, label, scope, name, kind, start_ms, end_ms, attrs, parent=None, events=None, status=None):
        sid = hexid(f"{self.case}/{label}", 16)
        if events:
            events = [event(n, t, a, BASE_NS, drop_none=True) for (n, t, a) in events]
        self.scopes.setdefault(scope, []).append(span(self.trace_id, sid, name, start_ms, end_ms, attrs, parent,
                                                      kind, events, status, BASE_NS, drop_none=True))
        return sid

    def doc(self):
        return traces_request(service_resource(self.service),
                              [({"name": n, "version": v}, spans) for (n, v), spans in self.scopes.items()])


def emit(case, files, sources, notes):
    out = []
    for fname, signal, doc in files:
        with open(os.path.join(OUT.dir, fname), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        out.append({"path": fname, "signal": signal})
    OUT.manifest.append({
        "case": case,
        "files": out,
        "sources": sources,
        "data_class_tools": {"find_customer": "customer"},
        "secrets": SECRETS,
        "notes": notes,
    })


# ---------------------------------------------------------------- 1. anthropic-openllmetry

OLL_REPO = "traceloop/openllmetry"
OLL_REF = "v0.53.4"


def traceloop_trace(label, tools, end, sdk_version="0.53.4"):
    """A trace (ids from label) of traceloop-sdk's @workflow 'support' (0 to end ms) and one @tool span per
    (name, args, result, start, end) in tools (packages/traceloop-sdk/traceloop/sdk/decorators/base.py):
    name "<entity>.<kind>", scope traceloop.tracer, traceloop.entity.input = json.dumps({"args","kwargs"}),
    traceloop.entity.output = json.dumps(result); every span started in the workflow's context also gets
    traceloop.workflow.name (tracing.py default_span_processor_on_start). Returns the trace and the workflow
    span's id."""
    t = Trace(label, "svc")
    scope = ("traceloop.tracer", sdk_version)
    workflow = "support"
    root = t.span("workflow", scope, f"{workflow}.workflow", KIND_INTERNAL, 0, end, {
        "traceloop.workflow.name": workflow,
        "traceloop.span.kind": "workflow",
        "traceloop.entity.name": workflow,
        "traceloop.entity.input": jdump({"args": [USER_TEXT], "kwargs": {}}),
        "traceloop.entity.output": jdump(FINAL_TEXT),
    })
    for (name, args, result, start, end) in tools:
        t.span(f"tool/{name}", scope, f"{name}.tool", KIND_INTERNAL, start, end, {
            "traceloop.workflow.name": workflow,
            "traceloop.span.kind": "tool",
            "traceloop.entity.name": name,
            # traceloop-sdk >= 0.57 also sets gen_ai.tool.name on @tool spans
            "gen_ai.tool.name": name if sdk_version != "0.53.4" else None,
            "traceloop.entity.input": jdump({"args": [], "kwargs": args}),
            "traceloop.entity.output": jdump(result),
        }, parent=root)
    return t, root


def case_anthropic_openllmetry():
    case = "anthropic-openllmetry"
    tools = [("find_customer", FIND_ARGS, RECORD, 1210, 1260), ("get_weather", WEATHER_ARGS, WEATHER, 1270, 1300)]
    t, root = traceloop_trace(case, tools, 2600)
    scope = ("opentelemetry.instrumentation.anthropic", "0.53.4")
    cid, wid = "toolu_01A9cX3pQ7hR2mKd8vLwT5nB", "toolu_01F4eY6sJ2kP9qWz3xCvN8gH"
    common = {
        "traceloop.workflow.name": "support",
        "gen_ai.system": "Anthropic",
        "llm.request.type": "completion",
        "gen_ai.request.model": "claude-sonnet-4-5",
    }
    # request 1: the user's question; the reply has a text block and two tool_use blocks
    a1 = dict(common)
    a1.update({
        "gen_ai.prompt.0.content": USER_TEXT,
        "gen_ai.prompt.0.role": "user",
        "llm.request.functions.0.name": "find_customer",
        "llm.request.functions.0.description": "Find a customer by free-text query",
        "llm.request.functions.0.input_schema": jdump({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
        "llm.request.functions.1.name": "get_weather",
        "llm.request.functions.1.description": "Current weather for a city",
        "llm.request.functions.1.input_schema": jdump({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
        "gen_ai.response.model": "claude-sonnet-4-5-20250929",
        "gen_ai.response.id": "msg_01XbQ2m7Rk4s9TtVw3yZp6Ld",
        "gen_ai.usage.input_tokens": 512,
        "gen_ai.usage.output_tokens": 96,
        "llm.usage.total_tokens": 608,
        "gen_ai.completion.0.finish_reason": "tool_use",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.tool_calls.0.id": cid,
        "gen_ai.completion.0.tool_calls.0.name": "find_customer",
        "gen_ai.completion.0.tool_calls.0.arguments": jdump(FIND_ARGS),
        "gen_ai.completion.0.tool_calls.1.id": wid,
        "gen_ai.completion.0.tool_calls.1.name": "get_weather",
        "gen_ai.completion.0.tool_calls.1.arguments": jdump(WEATHER_ARGS),
        "gen_ai.completion.0.content": PLAN_TEXT,
    })
    t.span("chat1", scope, "anthropic.chat", KIND_CLIENT, 20, 1200, a1, parent=root)
    # request 2: the assistant turn is response.content (pydantic blocks -> model_dump()), the tool
    # results are the user's tool_result dicts with the result JSON-encoded as a string
    assistant_blocks = [
        {"citations": None, "text": PLAN_TEXT, "type": "text"},
        {"id": cid, "input": FIND_ARGS, "name": "find_customer", "type": "tool_use"},
        {"id": wid, "input": WEATHER_ARGS, "name": "get_weather", "type": "tool_use"},
    ]
    result_blocks = [
        {"type": "tool_result", "tool_use_id": cid, "content": jdump(RECORD)},
        {"type": "tool_result", "tool_use_id": wid, "content": jdump(WEATHER)},
    ]
    a2 = dict(common)
    a2.update({
        "gen_ai.prompt.0.content": USER_TEXT,
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.1.content": jdump(assistant_blocks),
        "gen_ai.prompt.1.role": "assistant",
        "gen_ai.prompt.1.tool_calls.0.id": cid,
        "gen_ai.prompt.1.tool_calls.0.name": "find_customer",
        "gen_ai.prompt.1.tool_calls.0.arguments": jdump(FIND_ARGS),
        "gen_ai.prompt.1.tool_calls.1.id": wid,
        "gen_ai.prompt.1.tool_calls.1.name": "get_weather",
        "gen_ai.prompt.1.tool_calls.1.arguments": jdump(WEATHER_ARGS),
        "gen_ai.prompt.2.content": jdump(result_blocks),
        "gen_ai.prompt.2.role": "user",
        "gen_ai.response.model": "claude-sonnet-4-5-20250929",
        "gen_ai.response.id": "msg_01Hc5Vn8Wq2r7UuBx4zAp9Me",
        "gen_ai.usage.input_tokens": 790,
        "gen_ai.usage.output_tokens": 31,
        "llm.usage.total_tokens": 821,
        "gen_ai.completion.0.finish_reason": "end_turn",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.content": FINAL_TEXT,
    })
    # tool spans are written first by the tracer, so keep the model span order by time within the scope
    t.span("chat2", scope, "anthropic.chat", KIND_CLIENT, 1310, 2590, a2, parent=root)
    files = [(f"{case}.traces.json", "traces", t.doc())]

    # the same run through opentelemetry-instrumentation-anthropic 0.62.1 (GenAI semconv since 0.54.0)
    t, root = traceloop_trace(case + "/semconv", tools, 2600, sdk_version="0.62.1")
    scope = ("opentelemetry.instrumentation.anthropic", "0.62.1")

    def parts(content):
        if isinstance(content, str):
            return [{"type": "text", "content": content}]
        out = []
        for b in content:
            if b["type"] == "tool_use":
                out.append({"type": "tool_call", "id": b["id"], "name": b["name"], "arguments": b["input"]})
            elif b["type"] == "text":
                out.append({"type": "text", "content": b["text"]})
            elif b["type"] == "tool_result":
                out.append({"type": "tool_call_response", "id": b["tool_use_id"], "response": b["content"]})
        return out

    tool_defs = jdump([
        {"name": "find_customer", "description": "Find a customer by free-text query",
         "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}},
        {"name": "get_weather", "description": "Current weather for a city",
         "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}])
    msgs1 = [{"role": "user", "content": USER_TEXT}]
    msgs2 = msgs1 + [{"role": "assistant", "content": assistant_blocks}, {"role": "user", "content": result_blocks}]
    for (label, s, e, msgs, out_parts, stop, rid, tin, tout) in (
            ("chat1", 20, 1200, msgs1, parts(assistant_blocks), "tool_call", "msg_01XbQ2m7Rk4s9TtVw3yZp6Ld", 512, 96),
            ("chat2", 1310, 2590, msgs2, [{"type": "text", "content": FINAL_TEXT}], "stop",
             "msg_01Hc5Vn8Wq2r7UuBx4zAp9Me", 790, 31)):
        a = {"traceloop.workflow.name": "support", "gen_ai.provider.name": "anthropic", "gen_ai.operation.name": "chat",
             "gen_ai.request.model": "claude-sonnet-4-5", "gen_ai.request.max_tokens": 1024,
             "gen_ai.input.messages": jdump([{"role": m["role"], "parts": parts(m["content"])} for m in msgs]),
             "gen_ai.tool.definitions": tool_defs,
             "gen_ai.response.model": "claude-sonnet-4-5-20250929", "gen_ai.response.id": rid,
             "gen_ai.usage.input_tokens": tin, "gen_ai.usage.output_tokens": tout,
             "gen_ai.usage.total_tokens": tin + tout, "gen_ai.response.finish_reasons": [stop],
             "gen_ai.output.messages": jdump([{"role": "assistant", "parts": out_parts, "finish_reason": stop}])}
        t.span(label, scope, "anthropic.chat", KIND_CLIENT, s, e, a, parent=root)
    files.append((f"{case}.semconv.traces.json", "traces", t.doc()))
    emit(case, files, [
        {"repo": OLL_REPO, "ref": OLL_REF,
         "path": "packages/opentelemetry-instrumentation-anthropic/opentelemetry/instrumentation/anthropic/span_utils.py",
         "what": "aset_input_attributes: gen_ai.prompt.{i}.content = _dump_content(message['content']) "
                 "(json.dumps of the model_as_dict'ed block list unless every block is text), "
                 "gen_ai.prompt.{i}.tool_calls.{j}.id/name/arguments for tool_use blocks; "
                 "_set_span_completions: gen_ai.completion.0.finish_reason/role/content/tool_calls.{j}.*"},
        {"repo": OLL_REPO, "ref": OLL_REF,
         "path": "packages/opentelemetry-instrumentation-anthropic/opentelemetry/instrumentation/anthropic/__init__.py",
         "what": "span 'anthropic.chat', SpanKind.CLIENT, gen_ai.system='Anthropic', llm.request.type='completion'; "
                 "tracer get_tracer(__name__, __version__)"},
        {"repo": OLL_REPO, "ref": OLL_REF,
         "path": "packages/traceloop-sdk/traceloop/sdk/decorators/base.py",
         "what": "@workflow/@tool spans '<name>.<kind>', traceloop.entity.input/output as json.dumps"},
        {"repo": OLL_REPO, "ref": "93429cfb9767e6b51db6cb35f6b70f758117669a (0.62.1)",
         "path": "packages/opentelemetry-instrumentation-anthropic/opentelemetry/instrumentation/anthropic/span_utils.py",
         "what": "(semconv file) _content_to_parts: tool_use -> {type: tool_call, id, name, arguments}, tool_result -> "
                 "{type: tool_call_response, id: tool_use_id, response: the block's content as given}; "
                 "gen_ai.input.messages / gen_ai.output.messages (json.dumps), finish reasons mapped (tool_use -> "
                 "tool_call, end_turn -> stop)"},
    ], "Two files. anthropic-openllmetry.traces.json: OpenLLMetry Python <= 0.53.4 (from 0.54.0 the instrumentation writes gen_ai.input.messages "
       "instead). The record is in the find_customer tool span's traceloop.entity.output and, as the "
       "JSON-encoded string 'content' of a tool_result block, inside gen_ai.prompt.2.content (a JSON array "
       "string) of the second anthropic.chat span. tool_result blocks carry only tool_use_id: the name comes "
       "from gen_ai.prompt.1.tool_calls.N (same id) or the tool_use block in gen_ai.prompt.1.content. "
       "anthropic-openllmetry.semconv.traces.json: the same run through 0.62.1; the record is the string "
       "'response' of a tool_call_response part in gen_ai.input.messages (the tool_result's content is passed "
       "through unchanged, so a JSON string stays a string).")


# ---------------------------------------------------------------- 2. anthropic-openinference

OI_REPO = "Arize-ai/openinference"
OI_REF = "1fe497f1d9f45a07eee55d97fe185e020560f9c7"

CUST_TOOL_DEF = {"name": "find_customer", "description": "Find a customer by free-text query",
                 "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}
WEATHER_TOOL_DEF = {"name": "get_weather", "description": "Current weather for a city",
                    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}


def oijson(v):
    """openinference.instrumentation.safe_json_dumps: json.dumps(default=str, ensure_ascii=False)."""
    return json.dumps(v, default=str, ensure_ascii=False)


class PyObj:
    """A pydantic object of a Stainless SDK, which json.dumps(default=str) writes as str(obj) =
    'ClassName(field=repr, ...)' (the SDKs' BaseModel.__str__)."""

    def __init__(self, cls, **fields):
        self.cls, self.fields = cls, fields

    def __str__(self):
        return f"{self.cls}(" + ", ".join(f"{k}={v!r}" for k, v in self.fields.items()) + ")"


OI_APP = ("__main__", "")  # the scope of the application's own OITracer spans


def oi_agent_trace(label):
    """A trace (ids from label) whose root is openinference-instrumentation's OITracer @tracer.agent span of
    support_agent(USER_TEXT) returning FINAL_TEXT, 0 to 3010 ms: span named after the function, AGENT kind,
    a single argument recorded as input.value (str -> text/plain). Returns the trace and the root's id."""
    t = Trace(label, "svc")
    return t, t.span("agent", OI_APP, "support_agent", KIND_INTERNAL, 0, 3010, {
        "input.value": USER_TEXT,
        "input.mime_type": "text/plain",
        "openinference.span.kind": "AGENT",
        "output.value": FINAL_TEXT,
        "output.mime_type": "text/plain",
    }, status={"code": 1})


def oi_decorated_tool(t, parent, name, description, args, result, start, end):
    """OITracer @tracer.tool (_tracers.py _tool_context): span named after the function, input.value =
    JSON of the bound arguments, tool.name / tool.description / tool.parameters (inferred JSON schema),
    output.value = JSON of the return value (_attributes.py _json_serialize: json.dumps, ensure_ascii=False)."""
    params = {"type": "object", "title": name, "description": description,
              "properties": {k: {"type": "string"} for k in args}, "required": list(args)}
    return t.span(f"tool/{name}", OI_APP, name, KIND_INTERNAL, start, end, {
        "input.value": oijson(args),
        "input.mime_type": "application/json",
        "tool.name": name,
        "tool.parameters": oijson(params),
        "tool.description": description,
        "openinference.span.kind": "TOOL",
        "output.value": oijson(result),
        "output.mime_type": "application/json",
    }, parent=parent, status={"code": 1})


def case_anthropic_openinference():
    case = "anthropic-openinference"
    t, root = oi_agent_trace(case)
    scope = ("openinference.instrumentation.anthropic", "1.1.2")
    cid, wid = "toolu_01A9cX3pQ7hR2mKd8vLwT5nB", "toolu_01F4eY6sJ2kP9qWz3xCvN8gH"
    first_text = "I'll look up the account first."
    # the three replies (what the SDK returns; the app appends resp.content as the assistant turn)
    r1 = [PyObj("TextBlock", citations=None, text=first_text, type="text"),
          PyObj("ToolUseBlock", id=cid, input=FIND_ARGS, name="find_customer", type="tool_use")]
    r2 = [PyObj("ToolUseBlock", id=wid, input=WEATHER_ARGS, name="get_weather", type="tool_use")]
    msgs = [{"role": "user", "content": USER_TEXT}]
    tools = [CUST_TOOL_DEF, WEATHER_TOOL_DEF]

    def message_json(mid, blocks, stop, tin, tout):
        content = []
        for b in blocks:
            content.append(dict(b.fields))
        return jcompact({"id": mid, "content": content, "model": "claude-sonnet-4-5-20250929", "role": "assistant",
                       "stop_reason": stop, "stop_sequence": None, "type": "message",
                       "usage": {"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                                 "input_tokens": tin, "output_tokens": tout, "server_tool_use": None,
                                 "service_tier": "standard"}})

    def content_attrs(p, blocks):
        """A message's content blocks under prefix p: a TextBlock as message.contents.{j} text, a ToolUseBlock as
        message.tool_calls.{k}.tool_call.* and message.contents.{j} tool_use, a tool_result dict as the message's
        tool_call_id and content."""
        a = {}
        tool_index = 0
        for j, b in enumerate(blocks):
            if isinstance(b, dict) and b["type"] == "tool_result":
                a[f"{p}.message.tool_call_id"] = b["tool_use_id"]
                a[f"{p}.message.content"] = b["content"] if isinstance(b["content"], str) else oijson(b["content"])
            elif b.cls == "TextBlock":
                a[f"{p}.message.contents.{j}.message_content.type"] = "text"
                a[f"{p}.message.contents.{j}.message_content.text"] = b.fields["text"]
            elif b.cls == "ToolUseBlock":
                a[f"{p}.message.tool_calls.{tool_index}.tool_call.id"] = b.fields["id"]
                a[f"{p}.message.tool_calls.{tool_index}.tool_call.function.name"] = b.fields["name"]
                a[f"{p}.message.tool_calls.{tool_index}.tool_call.function.arguments"] = oijson(b.fields["input"])
                a[f"{p}.message.contents.{j}.message_content.type"] = "tool_use"
                a[f"{p}.message.contents.{j}.tool_call.id"] = b.fields["id"]
                a[f"{p}.message.contents.{j}.tool_call.function.name"] = b.fields["name"]
                a[f"{p}.message.contents.{j}.tool_call.function.arguments"] = oijson(b.fields["input"])
                tool_index += 1
        return a

    def input_attrs(messages):
        a = {}
        for i, m in enumerate(messages):
            p = f"llm.input_messages.{i}"
            a[f"{p}.message.role"] = m["role"]
            if isinstance(m["content"], str):
                a[f"{p}.message.content"] = m["content"]
            else:
                a.update(content_attrs(p, m["content"]))
        return a

    def output_attrs(blocks, stop):
        a = {"llm.output_messages.0.message.role": "assistant", "llm.finish_reason": stop}
        a.update(content_attrs("llm.output_messages.0", blocks))
        return a

    def llm_span(label, start, end, messages, reply, stop, mid, tin, tout):
        kwargs = {"model": "claude-sonnet-4-5", "max_tokens": 1024, "tools": tools, "messages": messages}
        a = {
            "llm.provider": "anthropic",
            "llm.system": "anthropic",
            "openinference.span.kind": "LLM",
            "input.value": oijson(kwargs),
            "input.mime_type": "application/json",
            "llm.model_name": "claude-sonnet-4-5",
        }
        a.update(input_attrs(messages))
        for k, td in enumerate(tools):
            a[f"llm.tools.{k}.tool.json_schema"] = oijson(td)
        a["llm.invocation_parameters"] = oijson({"max_tokens": 1024})
        a["llm.model_name"] = "claude-sonnet-4-5-20250929"
        a.update(output_attrs(reply, stop))
        a["llm.token_count.prompt"] = tin
        a["llm.token_count.completion"] = tout
        a["output.value"] = message_json(mid, reply, stop, tin, tout)
        a["output.mime_type"] = "application/json"
        t.span(label, scope, "messages.create", KIND_INTERNAL, start, end, a, parent=root, status={"code": 1})

    # the kwargs dict holds the live list, but the attributes are taken at call time: copy per call
    llm_span("llm1", 20, 1000, list(msgs), r1, "tool_use", "msg_01XbQ2m7Rk4s9TtVw3yZp6Ld", 512, 64)
    oi_decorated_tool(t, root, "find_customer", "Find a customer by free-text query", FIND_ARGS, RECORD, 1010, 1060)
    msgs += [{"role": "assistant", "content": r1},
             {"role": "user", "content": [{"type": "tool_result", "tool_use_id": cid, "content": jdump(RECORD)}]}]
    llm_span("llm2", 1070, 2000, list(msgs), r2, "tool_use", "msg_01Hc5Vn8Wq2r7UuBx4zAp9Me", 700, 40)
    oi_decorated_tool(t, root, "get_weather", "Current weather for a city", WEATHER_ARGS, WEATHER, 2010, 2040)
    msgs += [{"role": "assistant", "content": r2},
             {"role": "user", "content": [{"type": "tool_result", "tool_use_id": wid, "content": jdump(WEATHER)}]}]
    final = [PyObj("TextBlock", citations=None, text=FINAL_TEXT, type="text")]
    llm_span("llm3", 2050, 3000, list(msgs), final, "end_turn", "msg_01Tn4Qe2Yc8v5WxKr7zBp3Uf", 790, 31)
    P = "python/instrumentation/openinference-instrumentation-anthropic/src/openinference/instrumentation/anthropic"
    emit(case, [(f"{case}.traces.json", "traces", t.doc())], [
        {"repo": OI_REPO, "ref": OI_REF, "path": f"{P}/_wrappers.py",
         "what": "_get_llm_input_messages: tool_result block -> llm.input_messages.{i}.message.tool_call_id = "
                 "tool_use_id and .message.content = the block's content (string as is, else safe_json_dumps); "
                 "tool_use blocks -> .message.tool_calls.{k}.tool_call.id/function.name/function.arguments and "
                 ".message.contents.{j}.message_content.type='tool_use' + tool_call.*; _get_inputs: input.value = "
                 "safe_json_dumps(kwargs); _get_outputs: output.value = response.model_dump_json(); "
                 "_get_output_messages: llm.output_messages.0.*, llm.finish_reason"},
        {"repo": OI_REPO, "ref": OI_REF, "path": f"{P}/__init__.py",
         "what": "span name 'messages.create', tracer get_tracer(__name__, __version__) = "
                 "openinference.instrumentation.anthropic 1.1.2"},
        {"repo": OI_REPO, "ref": OI_REF,
         "path": "python/openinference-instrumentation/src/openinference/instrumentation/_tracers.py",
         "what": "@tracer.agent / @tracer.tool spans (AGENT root, TOOL spans with tool.name, input.value, output.value)"},
        {"repo": OI_REPO, "ref": OI_REF,
         "path": "python/openinference-instrumentation/src/openinference/instrumentation/helpers.py",
         "what": "safe_json_dumps = json.dumps(default=str, ensure_ascii=False): pydantic blocks in input.value "
                 "become str(block), e.g. \"ToolUseBlock(id='toolu_..', input={'query': ..}, ...)\""},
    ], "Sequential calls (find_customer, then get_weather), one tool_result per user message. The record is in "
       "the find_customer TOOL span's output.value, and in the later messages.create spans both as "
       "llm.input_messages.2.message.content (role 'user', with .message.tool_call_id; no tool name: it comes "
       "from llm.input_messages.1.message.tool_calls.0 with the same id) and inside input.value (the JSON "
       "request; the tool_result dict's 'content' is the record as a JSON string). If one user message held "
       "several tool_result blocks, the instrumentation writes them all to the same two keys and only the "
       "last survives; input.value still has all of them.")


# ---------------------------------------------------------------- 3. bedrock-converse

def converse_flow(cust_result_content, weather_result_content):
    """The Converse conversation (boto3 bedrock-runtime converse): request message lists per call and
    the three response messages. Returns [(messages_sent, response_message, stopReason, usage)]."""
    cid, wid = "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "tooluse_9bXr2TqWSe-4nVd1Lh0ykA"
    first_text = "I'll look up the account first."
    msgs = [{"role": "user", "content": [{"text": USER_TEXT}]}]
    r1 = {"role": "assistant", "content": [{"text": first_text},
                                           {"toolUse": {"toolUseId": cid, "name": "find_customer", "input": FIND_ARGS}}]}
    r2 = {"role": "assistant", "content": [{"toolUse": {"toolUseId": wid, "name": "get_weather", "input": WEATHER_ARGS}}]}
    r3 = {"role": "assistant", "content": [{"text": FINAL_TEXT}]}
    calls = [(list(msgs), r1, "tool_use", (512, 64))]
    msgs += [r1, {"role": "user", "content": [{"toolResult": {"toolUseId": cid, "content": cust_result_content}}]}]
    calls.append((list(msgs), r2, "tool_use", (700, 40)))
    msgs += [r2, {"role": "user", "content": [{"toolResult": {"toolUseId": wid, "content": weather_result_content}}]}]
    calls.append((list(msgs), r3, "end_turn", (790, 31)))
    return calls


CONVERSE_TOOLS = {"tools": [
    {"toolSpec": {"name": "find_customer", "description": "Find a customer by free-text query",
                  "inputSchema": {"json": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}}},
    {"toolSpec": {"name": "get_weather", "description": "Current weather for a city",
                  "inputSchema": {"json": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}},
]}
BEDROCK_MODEL_ID = "anthropic.claude-3-5-sonnet-20240620-v1:0"
TIMES3 = [(20, 1000), (1070, 2000), (2050, 3000)]
TOOL_TIMES3 = [(1010, 1060), (2010, 2040)]


def case_bedrock_converse():
    case = "bedrock-converse"
    files = []
    P_OLL = "packages/opentelemetry-instrumentation-bedrock/opentelemetry/instrumentation/bedrock"

    # (a) OpenLLMetry <= 0.53.4: gen_ai.prompt.{i}.content = json.dumps(message["content"], default=str)
    tools = [("find_customer", FIND_ARGS, RECORD) + TOOL_TIMES3[0], ("get_weather", WEATHER_ARGS, WEATHER) + TOOL_TIMES3[1]]
    t, root = traceloop_trace(case + "/openllmetry", tools, 3010)
    scope = ("opentelemetry.instrumentation.bedrock", "0.53.4")
    calls = converse_flow([{"json": RECORD}], [{"json": WEATHER}])
    for n, ((sent, reply, stop, (tin, tout)), (s, e)) in enumerate(zip(calls, TIMES3)):
        a = {"traceloop.workflow.name": "support",
             "gen_ai.system": "AWS", "gen_ai.request.model": "claude-3-5-sonnet-20240620-v1:0",
             "llm.request.type": "chat", "gen_ai.request.max_tokens": 1024,
             "gen_ai.usage.input_tokens": tin, "gen_ai.usage.output_tokens": tout,
             "llm.usage.total_tokens": tin + tout}
        for i, m in enumerate(sent):
            a[f"gen_ai.prompt.{i}.role"] = m["role"]
            a[f"gen_ai.prompt.{i}.content"] = json.dumps(m["content"], default=str)
        a["gen_ai.completion.0.role"] = "assistant"
        # one gen_ai.completion.{idx}.content per content block that has "text" (toolUse blocks are not written)
        for idx, c in enumerate(reply["content"]):
            if c.get("text"):
                a[f"gen_ai.completion.{idx}.content"] = c["text"]
        t.span(f"converse{n}", scope, "bedrock.converse", KIND_CLIENT, s, e, a, parent=root)
    files.append((f"{case}.openllmetry.traces.json", "traces", t.doc()))

    # (b) OpenLLMetry >= 0.57 (GenAI semconv): gen_ai.input.messages with tool_call / tool_call_response parts;
    # a toolResult's response is the joined text items, else json.dumps(content list) (so {"json": ..} wrappers stay)
    t, root = traceloop_trace(case + "/openllmetry-semconv", tools, 3010, sdk_version="0.62.1")
    scope = ("opentelemetry.instrumentation.bedrock", "0.62.1")
    fr_map = {"tool_use": "tool_call", "end_turn": "stop"}

    def tool_result_response(tr):
        texts = [x["text"] for x in tr["content"] if "text" in x]
        return " ".join(texts) if texts else json.dumps(tr["content"], default=str)

    def parts(blocks):
        return converse_parts(blocks, tool_result_response)

    tool_defs = [{"name": x["toolSpec"]["name"], "description": x["toolSpec"]["description"],
                  "parameters": x["toolSpec"]["inputSchema"]["json"]} for x in CONVERSE_TOOLS["tools"]]
    for n, ((sent, reply, stop, (tin, tout)), (s, e)) in enumerate(zip(calls, TIMES3)):
        fr = fr_map[stop]
        a = {"traceloop.workflow.name": "support",
             "gen_ai.provider.name": "aws.bedrock", "gen_ai.request.model": "claude-3-5-sonnet-20240620-v1:0",
             "gen_ai.operation.name": "chat", "gen_ai.request.max_tokens": 1024,
             "gen_ai.tool.definitions": jdump(tool_defs),
             "gen_ai.usage.input_tokens": tin, "gen_ai.usage.output_tokens": tout,
             "gen_ai.usage.total_tokens": tin + tout,
             "gen_ai.input.messages": jdump([{"role": m["role"], "parts": parts(m["content"])} for m in sent]),
             "gen_ai.response.finish_reasons": [fr],
             "gen_ai.output.messages": jdump([{"role": "assistant", "parts": parts(reply["content"]), "finish_reason": fr}])}
        t.span(f"converse{n}", scope, "bedrock.converse", KIND_CLIENT, s, e, a, parent=root)
    files.append((f"{case}.openllmetry-semconv.traces.json", "traces", t.doc()))

    # (c) OpenInference bedrock 0.1.45: llm.input_messages.* (toolResult -> message.tool_call_id + message.content)
    # and input.value = JSON of the Converse messages list; here the find_customer result is a {"text": ..} item
    t, root = oi_agent_trace(case + "/openinference")
    scope = ("openinference.instrumentation.bedrock", "0.1.45")
    calls = converse_flow([{"text": jdump(RECORD)}], [{"json": WEATHER}])

    def oi_msgs(prefix, messages):
        a = {}
        for i, m in enumerate(messages):
            p = f"{prefix}.{i}"
            a[f"{p}.message.role"] = m["role"]
            content, contents, tcid, tcs = None, [], None, []
            for b in m["content"]:
                if "text" in b:
                    contents.append(b["text"])
                if "toolUse" in b:
                    tcs.append(b["toolUse"])
                if "toolResult" in b:
                    tcid = b["toolResult"]["toolUseId"]
                    for x in b["toolResult"]["content"]:
                        if "text" in x:
                            content = x["text"]
                        if "json" in x:
                            content = oijson(x["json"])
            if content is not None:
                a[f"{p}.message.content"] = content
            for j, txt in enumerate(contents):
                a[f"{p}.message.contents.{j}.message_content.type"] = "text"
                a[f"{p}.message.contents.{j}.message_content.text"] = txt
            if tcid is not None:
                a[f"{p}.message.tool_call_id"] = tcid
            for k, tu in enumerate(tcs):
                a[f"{p}.message.tool_calls.{k}.tool_call.id"] = tu["toolUseId"]
                a[f"{p}.message.tool_calls.{k}.tool_call.function.name"] = tu["name"]
                a[f"{p}.message.tool_calls.{k}.tool_call.function.arguments"] = oijson(tu["input"])
        return a

    for n, ((sent, reply, stop, (tin, tout)), (s, e)) in enumerate(zip(calls, TIMES3)):
        a = {"llm.provider": "aws", "llm.model_name": BEDROCK_MODEL_ID,
             "llm.invocation_parameters": oijson({"maxTokens": 1024})}
        a.update(oi_msgs("llm.input_messages", sent))
        for k, tool in enumerate(CONVERSE_TOOLS["tools"]):
            a[f"llm.tools.{k}.tool.json_schema"] = oijson(tool)
        a.update({"openinference.span.kind": "LLM", "input.value": oijson(sent), "input.mime_type": "application/json"})
        # response attributes (set after the call): invocation parameters again, now with stop_reason
        a["llm.invocation_parameters"] = oijson({"maxTokens": 1024, "stop_reason": stop})
        a.update(oi_msgs("llm.output_messages", [reply]))
        a.update({"llm.token_count.prompt": tin, "llm.token_count.completion": tout, "llm.token_count.total": tin + tout,
                  "output.value": oijson(reply), "output.mime_type": "application/json"})
        t.span(f"converse{n}", scope, "bedrock.converse", KIND_INTERNAL, s, e, a, parent=root, status={"code": 1})
        if n < 2:
            name, args, result = [("find_customer", FIND_ARGS, RECORD), ("get_weather", WEATHER_ARGS, WEATHER)][n]
            desc = {"find_customer": "Find a customer by free-text query", "get_weather": "Current weather for a city"}[name]
            oi_decorated_tool(t, root, name, desc, args, result, *TOOL_TIMES3[n])
    files.append((f"{case}.openinference.traces.json", "traces", t.doc()))

    P_OI = "python/instrumentation/openinference-instrumentation-bedrock/src/openinference/instrumentation/bedrock"
    emit(case, files, [
        {"repo": OLL_REPO, "ref": OLL_REF, "path": f"{P_OLL}/span_utils.py",
         "what": "(openllmetry file) set_converse_input_prompt_span_attributes: gen_ai.prompt.{i}.role and "
                 "gen_ai.prompt.{i}.content = json.dumps(message['content'], default=str); "
                 "set_converse_response_span_attributes: gen_ai.completion.0.role and gen_ai.completion.{idx}.content "
                 "= block['text'] only (toolUse replies are not recorded)"},
        {"repo": OLL_REPO, "ref": OLL_REF, "path": f"{P_OLL}/__init__.py",
         "what": "span 'bedrock.converse' CLIENT; _get_vendor_model: gen_ai.system 'AWS', model without vendor prefix"},
        {"repo": OLL_REPO, "ref": "93429cfb9767e6b51db6cb35f6b70f758117669a (0.62.1)", "path": f"{P_OLL}/span_utils.py",
         "what": "(openllmetry-semconv file) _converse_content_to_parts: toolUse -> tool_call {name,id,arguments}; "
                 "toolResult -> tool_call_response {id, response: ' '.join(text items) or json.dumps(content list)}; "
                 "gen_ai.input.messages / gen_ai.output.messages (changed in 194b0a7e6, first released in 0.57.0)"},
        {"repo": OI_REPO, "ref": OI_REF, "path": f"{P_OI}/_converse_attributes.py",
         "what": "(openinference file) get_message_objects: toolResult -> message tool_call_id = toolUseId, content = "
                 "text item or safe_json_dumps(json item); toolUse -> tool_calls; input.value = JSON of the messages list; "
                 "output.value = JSON of the output message"},
        {"repo": OI_REPO, "ref": OI_REF, "path": f"{P_OI}/__init__.py",
         "what": "span 'bedrock.converse' via tracer.start_as_current_span, scope openinference.instrumentation.bedrock"},
    ], "Three files, same conversation (sequential calls). openllmetry: OpenLLMetry Python <= 0.53.4; the record "
       "is a JSON object inside gen_ai.prompt.2.content (a JSON array string: "
       "[{\"toolResult\": {\"toolUseId\": .., \"content\": [{\"json\": {record}}]}}]), id only, no name; "
       "assistant toolUse blocks are visible only in the next request's gen_ai.prompt.{i}.content. "
       "openllmetry-semconv: OpenLLMetry >= 0.57 (0.62.1); the record is the string 'response' of a "
       "tool_call_response part and, because the content is [{\"json\":..}], that string is "
       "'[{\"json\": {record}}]'. openinference: OpenInference bedrock 0.1.45; the find_customer result is sent as "
       "[{\"text\": \"<record JSON>\"}] (get_weather as [{\"json\":..}]), so llm.input_messages.2.message.content is "
       "the record JSON and input.value holds it as a JSON string inside the toolResult. In every file the record "
       "is also a tool span's output.")


# ---------------------------------------------------------------- 4. gemini-function-response

def case_gemini_function_response():
    case = "gemini-function-response"
    t, root = oi_agent_trace(case)
    scope = ("openinference.instrumentation.google_genai", "1.4.1")
    model = "gemini-2.0-flash"
    # the app keeps a list of types.Content; the model turns are response.candidates[0].content;
    # tool results are types.Part.from_function_response(name=..., response={"result": ...}) in a user turn
    user = {"parts": [{"text": USER_TEXT}], "role": "user"}
    r1 = {"parts": [{"function_call": {"args": FIND_ARGS, "name": "find_customer"}}], "role": "model"}
    fr1 = {"parts": [{"function_response": {"name": "find_customer", "response": {"result": RECORD}}}], "role": "user"}
    r2 = {"parts": [{"function_call": {"args": WEATHER_ARGS, "name": "get_weather"}}], "role": "model"}
    fr2 = {"parts": [{"function_response": {"name": "get_weather", "response": {"result": WEATHER}}}], "role": "user"}
    r3 = {"parts": [{"text": FINAL_TEXT}], "role": "model"}
    decls = [
        {"description": "Find a customer by free-text query", "name": "find_customer",
         "parameters": {"properties": {"query": {"type": "STRING"}}, "required": ["query"], "type": "OBJECT"}},
        {"description": "Current weather for a city", "name": "get_weather",
         "parameters": {"properties": {"city": {"type": "STRING"}}, "required": ["city"], "type": "OBJECT"}},
    ]

    def in_msgs(contents):
        a = {}
        for i, c in enumerate(contents):
            p = f"llm.input_messages.{i}"
            a[f"{p}.message.role"] = c["role"]
            single = len(c["parts"]) == 1
            k = 0
            for part in c["parts"]:
                if "text" in part:
                    a[f"{p}.message.content"] = part["text"]  # single text part
                elif "function_call" in part:
                    fc = part["function_call"]
                    a[f"{p}.message.tool_calls.{k}.tool_call.function.name"] = fc["name"]
                    a[f"{p}.message.tool_calls.{k}.tool_call.function.arguments"] = oijson(fc["args"])
                    k += 1
                elif "function_response" in part:
                    assert single
                    a[f"{p}.message.content"] = oijson(part["function_response"]["response"])
        return a

    def out_msgs(content, finish):
        a = {}
        k = 0
        for part in content["parts"]:
            if "text" in part:
                a["llm.output_messages.0.message.content"] = part["text"]
            else:
                fc = part["function_call"]
                a[f"llm.output_messages.0.message.tool_calls.{k}.tool_call.function.name"] = fc["name"]
                a[f"llm.output_messages.0.message.tool_calls.{k}.tool_call.function.arguments"] = oijson(fc["args"])
                k += 1
        a["llm.output_messages.0.message.role"] = "model"
        a["llm.finish_reason"] = finish
        return a

    def span(label, s, e, contents, reply, tin, tout, rid):
        a = {"openinference.span.kind": "LLM", "llm.provider": "google", "llm.model_name": model}
        a.update(in_msgs(contents))
        # captured request (BaseApiClient.request's request_dict, '_url' dropped, keys camel->snake)
        captured = {"contents": contents, "tools": [{"function_declarations": decls}], "generation_config": {}}
        a["input.value"] = oijson(captured)
        a["input.mime_type"] = "application/json"
        for k, d in enumerate(decls):
            a[f"llm.tools.{k}.tool.json_schema"] = oijson(d)
        resp = {"candidates": [{"content": reply, "finish_reason": "STOP", "avg_logprobs": -0.0123}],
                "model_version": "gemini-2.0-flash-001", "response_id": rid,
                "usage_metadata": {"candidates_token_count": tout, "prompt_token_count": tin,
                                   "total_token_count": tin + tout}}
        a["output.value"] = jcompact(resp)
        a["output.mime_type"] = "application/json"
        a["llm.model_name"] = "gemini-2.0-flash-001"
        a["llm.token_count.prompt"] = tin
        a["llm.token_count.completion"] = tout
        a["llm.token_count.total"] = tin + tout
        a.update(out_msgs(reply, "STOP"))
        t.span(label, scope, "GenerateContent", KIND_INTERNAL, s, e, a, parent=root, status={"code": 1})

    span("gen1", 20, 1000, [user], r1, 120, 8, "kR9mZ_2fH8yQ1MIPp7Ck2Aw")
    oi_decorated_tool(t, root, "find_customer", "Find a customer by free-text query", FIND_ARGS, RECORD, 1010, 1060)
    span("gen2", 1070, 2000, [user, r1, fr1], r2, 230, 7, "mT4nB_6xK2pL9QIPs3Dh5Ev")
    oi_decorated_tool(t, root, "get_weather", "Current weather for a city", WEATHER_ARGS, WEATHER, 2010, 2040)
    span("gen3", 2050, 3000, [user, r1, fr1, r2, fr2], r3, 280, 24, "pW8cF_1rJ7tN3YIPv6Gk0Hx")
    P = "python/instrumentation/openinference-instrumentation-google-genai/src/openinference/instrumentation/google_genai"
    emit(case, [(f"{case}.traces.json", "traces", t.doc())], [
        {"repo": OI_REPO, "ref": OI_REF, "path": f"{P}/_request_attributes_extractor.py",
         "what": "_flatten_parts: function_call -> message.tool_calls.{k}.tool_call.function.name / .function.arguments "
                 "(safe_json_dumps(args)) / .id only if set; function_response -> message.content = "
                 "safe_json_dumps(response) when it is the only part (else message.contents.{j} type text), "
                 "message.tool_call_id only if the response has an id; the function_response NAME is not recorded; "
                 "role is the Content's role ('user' for function responses, 'model' for calls)"},
        {"repo": OI_REPO, "ref": OI_REF, "path": f"{P}/_context.py",
         "what": "input.value = safe_json_dumps of the request_dict captured at BaseApiClient.request, '_'-keys "
                 "dropped and every key converted camelCase -> snake_case (also inside function args/responses): "
                 "contents[].parts[].function_call {args,name} / function_response {name,response}"},
        {"repo": OI_REPO, "ref": OI_REF, "path": f"{P}/_response_attributes_extractor.py",
         "what": "output.value = response.model_dump_json(exclude_unset=True); llm.output_messages.0.*; "
                 "llm.finish_reason"},
        {"repo": OI_REPO, "ref": OI_REF, "path": f"{P}/_wrappers.py", "what": "span name 'GenerateContent'"},
        {"repo": "googleapis/python-genai", "ref": "66807187f2123c6676175ac991f4e34eb09200d1",
         "path": "google/genai/models.py",
         "what": "_GenerateContentParameters_to_mldev / _Content_to_mldev / _Part_to_mldev / _FunctionCall_to_mldev: "
                 "request key order (contents, tools, generationConfig; parts then role; id, args, name); "
                 "functionResponse passed through and dumped with exclude_none (id, name, response)"},
    ], "Manual function calling with the google-genai SDK (Gemini API), no call ids. The record is in the "
       "find_customer TOOL span's output.value, in the later GenerateContent spans as "
       "llm.input_messages.2.message.content = '{\"result\": {record}}' (role 'user', no name, no id: it answers the "
       "calls of the 'model' message before it), and inside input.value as contents[2].parts[0].function_response "
       "{\"name\": \"find_customer\", \"response\": {\"result\": {record}}}. Key order of the tools / "
       "generation_config / output.value objects follows the SDK's pydantic models only approximately. Not covered: "
       "automatic function calling, where the SDK runs the tools inside one generate_content call and the "
       "function responses appear in output.value's automatic_function_calling_history.")


# ---------------------------------------------------------------- 5. ollama

def case_ollama():
    case = "ollama"
    tools = [("find_customer", FIND_ARGS, RECORD, 1010, 1060), ("get_weather", WEATHER_ARGS, WEATHER, 1070, 1100)]
    t, root = traceloop_trace(case, tools, 2300)
    scope = ("opentelemetry.instrumentation.ollama", "0.53.4")
    # the request body the ollama client hands to Client._request (ChatRequest(...).model_dump(exclude_none=True);
    # _copy_messages drops falsy fields, so the assistant's empty content is gone)
    user = {"role": "user", "content": USER_TEXT}
    assistant = {"role": "assistant", "tool_calls": [
        {"function": {"name": "find_customer", "arguments": FIND_ARGS}},
        {"function": {"name": "get_weather", "arguments": WEATHER_ARGS}}]}
    tool_msgs = [{"role": "tool", "content": jdump(RECORD), "tool_name": "find_customer"},
                 {"role": "tool", "content": jdump(WEATHER), "tool_name": "get_weather"}]
    functions = [
        ("find_customer", "Find a customer by free-text query",
         {"type": "object", "required": ["query"], "properties": {"query": {"type": "string"}}}),
        ("get_weather", "Current weather for a city",
         {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}}),
    ]

    def chat_attrs(messages, reply_content, tin, tout):
        a = {"traceloop.workflow.name": "support", "gen_ai.system": "Ollama", "llm.request.type": "chat",
             "gen_ai.request.model": "llama3.1", "llm.is_streaming": False,
             "gen_ai.prompt.0.role": "user"}
        # set_input_attributes: content/role per message (content None is skipped) ...
        for i, m in enumerate(messages):
            if m.get("content"):
                a[f"gen_ai.prompt.{i}.content"] = m["content"]
            a[f"gen_ai.prompt.{i}.role"] = m["role"]
        # ... then _set_prompts: role, content, tool_call_id (none here), tool_calls.{j}.id (none) / name / arguments;
        # tool_name is not recorded
        for i, m in enumerate(messages):
            for j, tc in enumerate(m.get("tool_calls") or []):
                a[f"gen_ai.prompt.{i}.tool_calls.{j}.name"] = tc["function"]["name"]
                a[f"gen_ai.prompt.{i}.tool_calls.{j}.arguments"] = jdump(tc["function"]["arguments"])
        for k, (name, desc, params) in enumerate(functions):
            a[f"llm.request.functions.{k}.name"] = name
            a[f"llm.request.functions.{k}.description"] = desc
            a[f"llm.request.functions.{k}.parameters"] = jdump(params)
        # set_response_attributes: only message content (empty for a tool-call reply) and role
        if reply_content:
            a["gen_ai.completion.0.content"] = reply_content
        a["gen_ai.completion.0.role"] = "assistant"
        a.update({"gen_ai.response.model": "llama3.1", "llm.usage.total_tokens": tin + tout,
                  "gen_ai.usage.output_tokens": tout, "gen_ai.usage.input_tokens": tin})
        return a

    t.span("chat1", scope, "ollama.chat", KIND_CLIENT, 20, 1000, chat_attrs([user], "", 188, 41), parent=root)
    t.span("chat2", scope, "ollama.chat", KIND_CLIENT, 1110, 2290,
           chat_attrs([user, assistant] + tool_msgs, FINAL_TEXT, 301, 27), parent=root)
    P = "packages/opentelemetry-instrumentation-ollama/opentelemetry/instrumentation/ollama"
    emit(case, [(f"{case}.traces.json", "traces", t.doc())], [
        {"repo": OLL_REPO, "ref": OLL_REF, "path": f"{P}/span_utils.py",
         "what": "set_input_attributes (chat): gen_ai.prompt.0.role='user', then per message gen_ai.prompt.{i}.content/"
                 "role; _set_prompts: role, content (list -> json.dumps), tool_call_id, tool_calls.{j}.id/name/arguments "
                 "(dict -> json.dumps); tool_name is NOT recorded; set_response_attributes: gen_ai.completion.0.content "
                 "and .role only (reply tool_calls are not recorded)"},
        {"repo": OLL_REPO, "ref": OLL_REF, "path": f"{P}/__init__.py",
         "what": "wraps ollama._client.Client._request (request body = kwargs['json']); span 'ollama.chat' CLIENT, "
                 "gen_ai.system='Ollama', llm.request.type='chat'"},
        {"repo": "ollama/ollama-python", "ref": "25b93290d8cd07b0d00732641f812ee34fd4c989 (v0.6.2)",
         "path": "ollama/_client.py",
         "what": "chat(): json=ChatRequest(messages=list(_copy_messages(messages)), ...).model_dump(exclude_none=True); "
                 "_copy_messages drops falsy fields"},
        {"repo": "ollama/ollama-python", "ref": "25b93290d8cd07b0d00732641f812ee34fd4c989 (v0.6.2)",
         "path": "ollama/_types.py",
         "what": "Message fields role, content, thinking, images, tool_name, tool_calls[{function: {name, arguments: "
                 "Mapping}}] (no call id)"},
    ], "Parallel calls: one assistant message with two tool_calls (no ids), then two role 'tool' messages in the "
       "same order. The app sends {'role': 'tool', 'content': json.dumps(result), 'tool_name': name} as the Ollama "
       "docs show, but OpenLLMetry writes only gen_ai.prompt.{i}.role = 'tool' and .content: no id and no "
       "tool_name, so results match calls only by position (gen_ai.prompt.1.tool_calls.0 -> gen_ai.prompt.2, "
       ".1 -> gen_ai.prompt.3). The record is in gen_ai.prompt.2.content of the second ollama.chat span and in the "
       "find_customer tool span's traceloop.entity.output. Same in OpenLLMetry 0.62.1 (ollama span_utils.py is "
       "unchanged since 0.53.4 apart from __init__.py).")


# ---------------------------------------------------------------- 6. openai-legacy-function

def case_openai_legacy_function():
    case = "openai-legacy-function"
    files = []
    functions = [
        {"name": "find_customer", "description": "Find a customer by free-text query",
         "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}},
        {"name": "get_weather", "description": "Current weather for a city",
         "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    ]
    cust_args_str = jcompact(FIND_ARGS)      # what the model returns in function_call.arguments
    weather_args_str = jcompact(WEATHER_ARGS)
    # the app appends response.choices[0].message (pydantic); openai-python's transform turns it into
    # model_dump(exclude_unset=True, mode="json") in the request body
    a1 = {"content": None, "refusal": None, "role": "assistant", "annotations": [],
          "function_call": {"arguments": cust_args_str, "name": "find_customer"}}
    a2 = {"content": None, "refusal": None, "role": "assistant", "annotations": [],
          "function_call": {"arguments": weather_args_str, "name": "get_weather"}}
    user = {"role": "user", "content": USER_TEXT}
    f1 = {"role": "function", "name": "find_customer", "content": jdump(RECORD)}
    f2 = {"role": "function", "name": "get_weather", "content": jdump(WEATHER)}
    final = {"content": FINAL_TEXT, "refusal": None, "role": "assistant", "annotations": []}
    calls = [([user], a1, "function_call", "chatcmpl-Bf1aXq2", (96, 18)),
             ([user, a1, f1], a2, "function_call", "chatcmpl-Bf1bYr3", (171, 15)),
             ([user, a1, f1, a2, f2], final, "stop", "chatcmpl-Bf1cZs4", (214, 24))]
    tool_times = [(1010, 1060), (2010, 2040)]
    tools = [("find_customer", FIND_ARGS, RECORD) + tool_times[0], ("get_weather", WEATHER_ARGS, WEATHER) + tool_times[1]]

    # (a) OpenLLMetry openai 0.53.4 (gen_ai.prompt.* / gen_ai.completion.*)
    t, root = traceloop_trace(case + "/openllmetry", tools, 3010)
    scope = ("opentelemetry.instrumentation.openai.v1", "0.53.4")
    for n, ((msgs, reply, finish, rid, (tin, tout)), (s, e)) in enumerate(zip(calls, TIMES3)):
        a = {"llm.request.type": "chat", "traceloop.workflow.name": "support", "gen_ai.system": "openai",
             "gen_ai.request.model": "gpt-4o-mini", "llm.headers": "None", "llm.is_streaming": False}
        for i, m in enumerate(msgs):
            a[f"gen_ai.prompt.{i}.role"] = m["role"]
            if m.get("content"):
                a[f"gen_ai.prompt.{i}.content"] = m["content"]
            # no name, no function_call: _set_prompts reads only role, content, tool_call_id and tool_calls
        for k, f in enumerate(functions):
            a[f"llm.request.functions.{k}.name"] = f["name"]
            a[f"llm.request.functions.{k}.description"] = f["description"]
            a[f"llm.request.functions.{k}.parameters"] = jdump(f["parameters"])
        a["llm.request.reasoning_effort"] = []
        a.update({"gen_ai.response.model": "gpt-4o-mini-2024-07-18", "gen_ai.response.id": rid,
                  "gen_ai.openai.system_fingerprint": "fp_560af6e559", "llm.usage.total_tokens": tin + tout,
                  "gen_ai.usage.output_tokens": tout, "gen_ai.usage.input_tokens": tin,
                  "gen_ai.usage.cache_read_input_tokens": 0,
                  "gen_ai.completion.0.finish_reason": finish, "gen_ai.completion.0.role": "assistant"})
        if reply.get("content"):
            a["gen_ai.completion.0.content"] = reply["content"]
        if reply.get("function_call"):
            a["gen_ai.completion.0.tool_calls.0.name"] = reply["function_call"]["name"]
            a["gen_ai.completion.0.tool_calls.0.arguments"] = reply["function_call"]["arguments"]
        t.span(f"chat{n}", scope, "openai.chat", KIND_CLIENT, s, e, a, parent=root)
    files.append((f"{case}.openllmetry.traces.json", "traces", t.doc()))

    # (b) OpenInference openai 0.1.54 (llm.input_messages.* with message.name / message.function_call_*)
    t, root = oi_agent_trace(case + "/openinference")
    scope = ("openinference.instrumentation.openai", "0.1.54")
    for n, ((msgs, reply, finish, rid, (tin, tout)), (s, e)) in enumerate(zip(calls, TIMES3)):
        body = {"messages": msgs, "model": "gpt-4o-mini", "functions": functions}
        a = {"llm.provider": "openai", "openinference.span.kind": "LLM", "llm.system": "openai",
             "input.value": oijson(body), "input.mime_type": "application/json",
             "llm.invocation_parameters": oijson({"model": "gpt-4o-mini"})}
        for i, m in enumerate(msgs):
            p = f"llm.input_messages.{i}"
            a[f"{p}.message.role"] = m["role"]
            if m.get("content"):
                a[f"{p}.message.content"] = m["content"]
            if m.get("name"):
                a[f"{p}.message.name"] = m["name"]
            if m.get("function_call"):
                a[f"{p}.message.function_call_name"] = m["function_call"]["name"]
                a[f"{p}.message.function_call_arguments_json"] = m["function_call"]["arguments"]
        resp = {"id": rid, "choices": [{"finish_reason": finish, "index": 0, "logprobs": None, "message": reply}],
                "created": 1767261600 + n, "model": "gpt-4o-mini-2024-07-18", "object": "chat.completion",
                "service_tier": "default", "system_fingerprint": "fp_560af6e559",
                "usage": {"completion_tokens": tout, "prompt_tokens": tin, "total_tokens": tin + tout}}
        a.update({"output.value": jcompact(resp), "output.mime_type": "application/json",
                  "llm.model_name": "gpt-4o-mini-2024-07-18", "llm.token_count.total": tin + tout,
                  "llm.token_count.prompt": tin, "llm.token_count.completion": tout,
                  "llm.output_messages.0.message.role": "assistant"})
        if reply.get("content"):
            a["llm.output_messages.0.message.content"] = reply["content"]
        if reply.get("function_call"):
            a["llm.output_messages.0.message.function_call_name"] = reply["function_call"]["name"]
            a["llm.output_messages.0.message.function_call_arguments_json"] = reply["function_call"]["arguments"]
        a["llm.finish_reason"] = finish
        t.span(f"chat{n}", scope, "ChatCompletion", KIND_INTERNAL, s, e, a, parent=root, status={"code": 1})
        if n < 2:
            name, args, result = [("find_customer", FIND_ARGS, RECORD), ("get_weather", WEATHER_ARGS, WEATHER)][n]
            oi_decorated_tool(t, root, name, functions[n]["description"], args, result, *tool_times[n])
    files.append((f"{case}.openinference.traces.json", "traces", t.doc()))

    P_OLL = "packages/opentelemetry-instrumentation-openai/opentelemetry/instrumentation/openai"
    P_OI = "python/instrumentation/openinference-instrumentation-openai/src/openinference/instrumentation/openai"
    emit(case, files, [
        {"repo": OLL_REPO, "ref": OLL_REF, "path": f"{P_OLL}/shared/chat_wrappers.py",
         "what": "(openllmetry file) _set_prompts: gen_ai.prompt.{i}.role, .content, .tool_call_id, .tool_calls.{j}.* "
                 "only (message 'name' and 'function_call' are not read); _set_completions: a reply's function_call -> "
                 "gen_ai.completion.{n}.tool_calls.0.name / .arguments; span 'openai.chat', llm.request.type 'chat'"},
        {"repo": OLL_REPO, "ref": OLL_REF, "path": f"{P_OLL}/shared/__init__.py",
         "what": "_set_functions_attributes: llm.request.functions.{i}.name/description/parameters; "
                 "_set_request_attributes / _set_response_attributes"},
        {"repo": OI_REPO, "ref": OI_REF, "path": f"{P_OI}/_request_attributes_extractor.py",
         "what": "(openinference file) _get_attributes_from_message_param: message.role, .tool_call_id, .content, "
                 ".name, .function_call_name, .function_call_arguments_json, .tool_calls.*"},
        {"repo": OI_REPO, "ref": OI_REF, "path": f"{P_OI}/_response_attributes_extractor.py",
         "what": "llm.output_messages.{i}.message.function_call_name / function_call_arguments_json; llm.finish_reason"},
        {"repo": OI_REPO, "ref": OI_REF, "path": f"{P_OI}/_request.py",
         "what": "span name = cast_to class name ('ChatCompletion'); input.value = JSON of the request body "
                 "(FinalRequestOptions.json_data); output.value = response.model_dump_json(exclude_unset=True)"},
    ], "Legacy functions API (functions=[...], replies with message.function_call, results as role 'function' "
       "messages with 'name'); calls are sequential (one function_call per reply). openllmetry: the role "
       "'function' prompt has only role and content (name not recorded) and the assistant's function_call in "
       "the history is dropped entirely (the prompt is just role 'assistant'), so the call is visible only in the "
       "previous span's gen_ai.completion.0.tool_calls.0.*, without an id. openinference: "
       "llm.input_messages.{i}.message.role 'function' with message.name and message.content, the assistant "
       "history message with message.function_call_name / function_call_arguments_json, and input.value holding "
       "the whole request. Incidental attributes (api base, service tier) are omitted.")


# ---------------------------------------------------------------- 7. langchain-message-dicts

class LC:
    """A LangChain message object (langchain_core 1.x field order), serialised the three ways the
    OpenInference LangChain tracer meets it: model_dump() (<= 0.1.61), message_to_dict() = {"type", "data":
    model_dump()} (>= 0.1.62), and dumpd() = {"lc": 1, "type": "constructor", "id": [...], "kwargs"} (chat
    model run inputs, made by langchain_core's tracer)."""

    CLASS = {"human": "HumanMessage", "ai": "AIMessage", "tool": "ToolMessage"}

    def __init__(self, type_, **f):
        self.type = type_
        self.f = f

    def model_dump(self):
        d = {"content": self.f.get("content", ""), "additional_kwargs": self.f.get("additional_kwargs", {}),
             "response_metadata": self.f.get("response_metadata", {}), "type": self.type,
             "name": self.f.get("name"), "id": self.f.get("id")}
        if self.type == "ai":
            d.update({"tool_calls": self.f.get("tool_calls", []), "invalid_tool_calls": [],
                      "usage_metadata": self.f.get("usage_metadata")})
        if self.type == "tool":
            d.update({"tool_call_id": self.f["tool_call_id"], "artifact": self.f.get("artifact"),
                      "status": self.f.get("status", "success")})
        return d

    def message_to_dict(self):
        return {"type": self.type, "data": self.model_dump()}

    def dumpd(self):
        # Serializable.to_json(): kwargs are the fields that are required or truthy, in field order
        d = self.model_dump()
        kw = {k: v for k, v in d.items() if k == "content" or k == "tool_call_id" or v}
        return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", self.CLASS[self.type]],
                "kwargs": kw}


def case_langchain_message_dicts():
    case = "langchain-message-dicts"
    cid, wid = "call_Qm3vT8xKp2LrN7sW4yB1cD9e", "call_Hj6nR2wYt5MaE8uZ0kF3gS7q"
    human = LC("human", content=USER_TEXT, id="7d1c2b9e-3f4a-4c8d-9b6e-1a2f3e4d5c6b")
    usage1 = {"input_tokens": 96, "output_tokens": 51, "total_tokens": 147,
              "input_token_details": {"audio": 0, "cache_read": 0}, "output_token_details": {"audio": 0, "reasoning": 0}}
    ai1 = LC("ai", content="", id="lc_run--5b7e3c1a-9d2f-4e8b-a6c4-0f1e2d3c4b5a",
             additional_kwargs={"tool_calls": [
                 {"id": cid, "function": {"arguments": jcompact(FIND_ARGS), "name": "find_customer"}, "type": "function"},
                 {"id": wid, "function": {"arguments": jcompact(WEATHER_ARGS), "name": "get_weather"}, "type": "function"}]},
             response_metadata={"finish_reason": "tool_calls", "model_name": "gpt-4o-mini-2024-07-18",
                                "model_provider": "openai"},
             tool_calls=[{"name": "find_customer", "args": FIND_ARGS, "id": cid, "type": "tool_call"},
                         {"name": "get_weather", "args": WEATHER_ARGS, "id": wid, "type": "tool_call"}],
             usage_metadata=usage1)
    # find_customer is a @tool(response_format="content_and_artifact") returning (json.dumps(record), record);
    # get_weather returns a dict, which BaseTool stringifies with json.dumps(ensure_ascii=False)
    tm1 = LC("tool", content=jdump(RECORD), name="find_customer", id="b2c4e6f8-1a3b-4c5d-8e9f-0a1b2c3d4e5f",
             tool_call_id=cid, artifact=RECORD)
    tm2 = LC("tool", content=jdump(WEATHER), name="get_weather", id="c3d5f7a9-2b4c-4d6e-9f0a-1b2c3d4e5f6a",
             tool_call_id=wid)
    usage2 = {"input_tokens": 231, "output_tokens": 24, "total_tokens": 255,
              "input_token_details": {"audio": 0, "cache_read": 0}, "output_token_details": {"audio": 0, "reasoning": 0}}
    ai2 = LC("ai", content=FINAL_TEXT, id="lc_run--6c8f4d2b-0e3a-4f9c-b7d5-1a2b3c4d5e6f",
             response_metadata={"finish_reason": "stop", "model_name": "gpt-4o-mini-2024-07-18",
                                "model_provider": "openai"},
             usage_metadata=usage2)
    scope = ("openinference.instrumentation.langchain", None)
    files = []
    for variant, version, ser in (("oi-0.1.61", "0.1.61", "model_dump"), ("oi-0.1.62", "0.1.62", "message_to_dict")):
        t = Trace(f"{case}/{variant}", "svc")
        sc = (scope[0], version)

        def enc(m):
            return m.model_dump() if ser == "model_dump" else m.message_to_dict()

        def io(obj):
            """_convert_io + _json_dumps (json.dumps(cls=_OpenInferenceJSONEncoder, ensure_ascii=False))."""
            def conv(v):
                if isinstance(v, LC):
                    return enc(v)
                if isinstance(v, dict):
                    return {k: conv(x) for k, x in v.items()}
                if isinstance(v, list):
                    return [conv(x) for x in v]
                return v
            return json.dumps(conv(obj), ensure_ascii=False)

        def chain_attrs(kind, inputs, outputs, extra=None):
            a = {"openinference.span.kind": kind, "input.value": io(inputs), "input.mime_type": "application/json",
                 "output.value": io(outputs), "output.mime_type": "application/json"}
            a.update(extra or {})
            return a

        def llm_attrs(msgs, reply, ok=True):
            a = {"openinference.span.kind": "LLM",
                 "input.value": json.dumps({"messages": [[m.dumpd() for m in msgs]]}, ensure_ascii=False),
                 "input.mime_type": "application/json"}
            out = {"generations": [[{"text": reply.f.get("content", ""), "generation_info": {
                "finish_reason": reply.f["response_metadata"]["finish_reason"], "logprobs": None},
                "type": "ChatGeneration", "message": reply.dumpd()}]],
                "llm_output": {"model_name": "gpt-4o-mini-2024-07-18"}, "run": None, "type": "LLMResult"}
            a["output.value"] = json.dumps(out, ensure_ascii=False)
            a["output.mime_type"] = "application/json"
            for i, m in enumerate(msgs):
                p = f"llm.input_messages.{i}"
                a[f"{p}.message.role"] = {"human": "user", "ai": "assistant", "tool": "tool"}[m.type]
                if m.f.get("content"):
                    a[f"{p}.message.content"] = m.f["content"]
                if m.type == "tool":
                    a[f"{p}.message.tool_call_id"] = m.f["tool_call_id"]
                    a[f"{p}.message.name"] = m.f["name"]
                # kwargs.tool_calls first, then additional_kwargs.tool_calls (OpenAI raw) overwrite the same keys
                for k, tc in enumerate(m.f.get("additional_kwargs", {}).get("tool_calls", [])):
                    a[f"{p}.message.tool_calls.{k}.tool_call.id"] = tc["id"]
                    a[f"{p}.message.tool_calls.{k}.tool_call.function.name"] = tc["function"]["name"]
                    a[f"{p}.message.tool_calls.{k}.tool_call.function.arguments"] = tc["function"]["arguments"]
            p = "llm.output_messages.0"
            a[f"{p}.message.role"] = "assistant"
            if reply.f.get("content"):
                a[f"{p}.message.content"] = reply.f["content"]
            for k, tc in enumerate(reply.f.get("additional_kwargs", {}).get("tool_calls", [])):
                a[f"{p}.message.tool_calls.{k}.tool_call.id"] = tc["id"]
                a[f"{p}.message.tool_calls.{k}.tool_call.function.name"] = tc["function"]["name"]
                a[f"{p}.message.tool_calls.{k}.tool_call.function.arguments"] = tc["function"]["arguments"]
            a.update({"llm.provider": "openai", "llm.system": "openai", "llm.model_name": "gpt-4o-mini-2024-07-18",
                      "llm.finish_reason": reply.f["response_metadata"]["finish_reason"]})
            return a

        ok = {"code": 1}
        root = t.span("root", sc, "LangGraph", KIND_INTERNAL, 0, 3010, chain_attrs(
            "CHAIN", {"messages": [{"role": "user", "content": USER_TEXT}]},
            {"messages": [human, ai1, tm1, tm2, ai2]}), status=ok)
        ag1 = t.span("agent1", sc, "agent", KIND_INTERNAL, 10, 1000, chain_attrs(
            "AGENT", {"messages": [human]}, {"messages": [ai1]}), parent=root, status=ok)
        t.span("llm1", sc, "ChatOpenAI", KIND_INTERNAL, 20, 990, llm_attrs([human], ai1), parent=ag1, status=ok)
        tools = t.span("tools", sc, "tools", KIND_INTERNAL, 1010, 1300, chain_attrs(
            "CHAIN", {"messages": [human, ai1]}, {"messages": [tm1, tm2]}), parent=root, status=ok)
        for (label, name, desc, args, msg, s, e) in (
                ("t1", "find_customer", "Find a customer by free-text query", FIND_ARGS, tm1, 1020, 1100),
                ("t2", "get_weather", "Current weather for a city", WEATHER_ARGS, tm2, 1020, 1080)):
            a = {"openinference.span.kind": "TOOL",
                 # on_tool_start(input_str=str(tool_input)): a Python repr; _convert_io tags it JSON by its braces
                 "input.value": repr(args), "input.mime_type": "application/json",
                 "output.value": json.dumps(enc(msg), ensure_ascii=False), "output.mime_type": "application/json",
                 "tool.name": name, "tool.description": desc}
            t.span(label, sc, name, KIND_INTERNAL, s, e, a, parent=tools, status=ok)
        ag2 = t.span("agent2", sc, "agent", KIND_INTERNAL, 1310, 3000, chain_attrs(
            "AGENT", {"messages": [human, ai1, tm1, tm2]}, {"messages": [ai2]}), parent=root, status=ok)
        t.span("llm2", sc, "ChatOpenAI", KIND_INTERNAL, 1320, 2990, llm_attrs([human, ai1, tm1, tm2], ai2),
               parent=ag2, status=ok)
        files.append((f"{case}.{variant}.traces.json", "traces", t.doc()))

    P = "python/instrumentation/openinference-instrumentation-langchain/src/openinference/instrumentation/langchain"
    emit(case, files, [
        {"repo": OI_REPO, "ref": "5fbd529df^ (openinference-instrumentation-langchain 0.1.61)", "path": f"{P}/_tracer.py",
         "what": "(oi-0.1.61 file) _OpenInferenceJSONEncoder.default: pydantic objects -> obj.model_dump(), so a "
                 "BaseMessage in run inputs/outputs is the flat dict {content, additional_kwargs, response_metadata, "
                 "type, name, id, tool_call_id, artifact, status}"},
        {"repo": OI_REPO, "ref": OI_REF + " (0.1.70; message_to_dict since 5fbd529df, released 0.1.62)",
         "path": f"{P}/_tracer.py",
         "what": "(oi-0.1.62 file) _serialize_langchain_message: langchain_core message_to_dict -> {type, data}; "
                 "_convert_io: single str value as is (JSON mime if it looks like {..}/[..]), key input/output -> "
                 "_json_dumps(value), else _json_dumps(whole dict); _update_span: span kind AGENT when the run name "
                 "contains 'agent'; _parse_message_data: llm.input_messages from dumpd kwargs (content, tool_call_id, "
                 "name, tool_calls, additional_kwargs.tool_calls); _tools: tool.name / tool.description"},
        {"repo": "langchain-ai/langchain", "ref": "d88c3ef880a62b6a6a69e4dd4a85dd4ae93164ef",
         "path": "libs/core/langchain_core/messages/tool.py",
         "what": "ToolMessage fields tool_call_id, type 'tool', artifact, status; ToolCall {name, args, id, type: "
                 "'tool_call'}"},
    ], "LangGraph ReAct agent (nodes 'agent' and 'tools', parallel tool calls) traced by OpenInference's Python "
       "LangChain instrumentation, in two files that differ only in how a message object is serialised in "
       "input.value/output.value: oi-0.1.61 writes model_dump() ({\"type\": \"tool\", \"content\", \"tool_call_id\", "
       "\"name\", \"artifact\", ...}), oi-0.1.62 writes message_to_dict() ({\"type\": \"tool\", \"data\": {...}}). "
       "find_customer is a content_and_artifact tool: the record is the ToolMessage's content (JSON string) and "
       "its artifact (object). It appears in the find_customer TOOL span's output.value, the 'tools' CHAIN "
       "span's output.value, the second 'agent' span's input.value, the root 'LangGraph' span's output.value, "
       "and the second ChatOpenAI LLM span's input.value (dumpd form, kwargs.content and kwargs.artifact) and "
       "llm.input_messages.2.message.content (role tool, tool_call_id, name). Approximate, not verified against "
       "a run: AIMessage response_metadata/usage_metadata contents, LLM output.value, intermediate runnables "
       "(RunnableSequence, prompt, tools_condition) and the 'metadata' attribute are left out; message field "
       "order is langchain_core 1.x without HumanMessage/AIMessage 'example'.")


# ---------------------------------------------------------------- 8. vercel-experimental-content

def case_vercel_experimental_content():
    case = "vercel-experimental-content"
    t = Trace(case, "svc")
    scope = ("ai", "")
    fid = "support-chat"
    cid, wid = "call_Zp4Lq8Xr2Vn6Tb1Kd9Hs3Mw7", "call_Fy7Jc2Qe5Ru9Wa3Ng6Lb1Pt8"
    user1 = {"role": "user", "content": USER_TEXT}
    follow = "Thanks. Is that account in good standing?"
    user2 = {"role": "user", "content": follow}
    answer2 = "Yes, the account is active."
    # find_customer has experimental_toToolResultContent: r => [{ type: 'text', text: JSON.stringify(r) }]
    cust_content = [{"type": "text", "text": jcompact(RECORD)}]
    tools_lm = [
        {"type": "function", "name": "find_customer", "description": "Find a customer by free-text query",
         "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"],
                        "additionalProperties": False, "$schema": "http://json-schema.org/draft-07/schema#"}},
        {"type": "function", "name": "get_weather", "description": "Current weather for a city",
         "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
                        "additionalProperties": False, "$schema": "http://json-schema.org/draft-07/schema#"}},
    ]
    # response messages of turn 1 (toResponseMessages): assistant {role, content, id}, tool {role, id, content}
    resp_msgs = [
        {"role": "assistant", "content": [
            {"type": "tool-call", "toolCallId": cid, "toolName": "find_customer", "args": FIND_ARGS},
            {"type": "tool-call", "toolCallId": wid, "toolName": "get_weather", "args": WEATHER_ARGS}],
         "id": "msg-9XkQ2vR7mLp4Tn8Ws1Yc6Bd3"},
        {"role": "tool", "id": "msg-4HfJ8sN2qWx6Ze1Vr9Kt3Ga7", "content": [
            {"type": "tool-result", "toolCallId": cid, "toolName": "find_customer",
             "result": cust_content, "experimental_content": cust_content},
            {"type": "tool-result", "toolCallId": wid, "toolName": "get_weather", "result": WEATHER}]},
        {"role": "assistant", "content": [{"type": "text", "text": FINAL_TEXT}], "id": "msg-7Pb3Ld9Uc5Nx1Qm8Rj4Vs2Ke"},
    ]

    def lm_prompt(msgs):
        """convertToLanguageModelPrompt (v4): tool-result -> {type, toolCallId, toolName, result, content:
        part.experimental_content, isError, providerMetadata}; undefined fields vanish in JSON.stringify."""
        out = []
        for m in msgs:
            if m["role"] == "user":
                c = m["content"]
                out.append({"role": "user", "content": [{"type": "text", "text": c}] if isinstance(c, str) else c})
            elif m["role"] == "assistant":
                parts = []
                for p in m["content"]:
                    if p["type"] == "text" and p["text"] == "":
                        continue
                    parts.append(dict(p))
                out.append({"role": "assistant", "content": parts})
            else:
                parts = []
                for p in m["content"]:
                    q = {"type": "tool-result", "toolCallId": p["toolCallId"], "toolName": p["toolName"],
                         "result": p["result"]}
                    if "experimental_content" in p:
                        q["content"] = p["experimental_content"]
                    parts.append(q)
                out.append({"role": "tool", "content": parts})
        return out

    def op(opid):
        return {"operation.name": f"{opid} {fid}", "resource.name": fid, "ai.operationId": opid,
                "ai.telemetry.functionId": fid, "ai.model.provider": "openai.chat", "ai.model.id": "gpt-4o-mini",
                "ai.settings.maxRetries": 2}

    def do_generate(label, parent, s, e, msgs, fmt, finish, tool_calls, text, rid, tin, tout):
        a = op("ai.generateText.doGenerate")
        a.update({"ai.prompt.format": fmt, "ai.prompt.messages": jcompact(lm_prompt(msgs)),
                  "ai.prompt.tools": [jcompact(x) for x in tools_lm], "ai.prompt.toolChoice": jcompact({"type": "auto"}),
                  "gen_ai.system": "openai.chat", "gen_ai.request.model": "gpt-4o-mini",
                  "ai.response.finishReason": finish})
        if text:
            a["ai.response.text"] = text
        if tool_calls:
            a["ai.response.toolCalls"] = jcompact(tool_calls)
        a.update({"ai.response.id": rid, "ai.response.model": "gpt-4o-mini-2024-07-18",
                  "ai.response.timestamp": "2026-01-01T10:00:01.000Z",
                  "ai.usage.promptTokens": tin, "ai.usage.completionTokens": tout,
                  "gen_ai.response.finish_reasons": [finish], "gen_ai.response.id": rid,
                  "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
                  "gen_ai.usage.input_tokens": tin, "gen_ai.usage.output_tokens": tout})
        t.span(label, scope, "ai.generateText.doGenerate", KIND_INTERNAL, s, e, a, parent=parent)

    root = t.span("app", ("svc", ""), "support-chat turn", KIND_INTERNAL, 0, 4200, {})
    # turn 1: generateText({ messages: [user1], tools, maxSteps: 3 })
    g1a = op("ai.generateText")
    g1a.update({"ai.prompt": jcompact({"messages": [user1]}), "ai.settings.maxSteps": 3})
    g1 = t.span("gen1", scope, "ai.generateText", KIND_INTERNAL, 10, 2600, g1a, parent=root)
    lm_calls = [{"toolCallType": "function", "toolCallId": cid, "toolName": "find_customer", "args": jcompact(FIND_ARGS)},
                {"toolCallType": "function", "toolCallId": wid, "toolName": "get_weather", "args": jcompact(WEATHER_ARGS)}]
    do_generate("gen1.step1", g1, 20, 1000, [user1], "messages", "tool-calls", lm_calls, None,
                "chatcmpl-Bx1aQ2", 120, 46)
    for (label, name, tc, args, result, s, e) in (("tc1", "find_customer", cid, FIND_ARGS, RECORD, 1010, 1060),
                                                  ("tc2", "get_weather", wid, WEATHER_ARGS, WEATHER, 1010, 1040)):
        a = {"operation.name": f"ai.toolCall {fid}", "resource.name": fid, "ai.operationId": "ai.toolCall",
             "ai.telemetry.functionId": fid, "ai.toolCall.name": name, "ai.toolCall.id": tc,
             "ai.toolCall.args": jcompact(args), "ai.toolCall.result": jcompact(result)}
        t.span(label, scope, "ai.toolCall", KIND_INTERNAL, s, e, a, parent=g1)
    do_generate("gen1.step2", g1, 1070, 2590, [user1] + resp_msgs[:2], "messages", "stop", None, FINAL_TEXT,
                "chatcmpl-Bx1bR3", 251, 24)
    t_end = {"ai.response.finishReason": "stop", "ai.response.text": FINAL_TEXT,
             "ai.usage.promptTokens": 251, "ai.usage.completionTokens": 24}
    # the outer span gets its response attributes at the end
    for s in t.scopes[scope]:
        if s["spanId"] == g1:
            s["attributes"] += attributes(t_end, drop_none=True)
    # turn 2: generateText({ messages: [user1, ...result.response.messages, user2] }): the raw ai.prompt has
    # experimental_content, the converted ai.prompt.messages has content
    hist = [user1] + resp_msgs + [user2]
    g2a = op("ai.generateText")
    g2a.update({"ai.prompt": jcompact({"messages": hist}), "ai.settings.maxSteps": 3})
    g2 = t.span("gen2", scope, "ai.generateText", KIND_INTERNAL, 2700, 4100, g2a, parent=root)
    do_generate("gen2.step1", g2, 2710, 4090, hist, "messages", "stop", None, answer2, "chatcmpl-Bx1cS4", 290, 9)
    for s in t.scopes[scope]:
        if s["spanId"] == g2:
            s["attributes"] += attributes({"ai.response.finishReason": "stop", "ai.response.text": answer2,
                                           "ai.usage.promptTokens": 290, "ai.usage.completionTokens": 9},
                                          drop_none=True)
    emit(case, [(f"{case}.traces.json", "traces", t.doc())], [
        {"repo": "vercel/ai", "ref": "v4 (ai 4.2-4.3; stored file id 8857513995)",
         "path": "packages/ai/core/generate-text/generate-text.ts",
         "what": "ai.generateText: 'ai.prompt' = JSON.stringify({system, prompt, messages}) (the caller's messages as "
                 "given); ai.generateText.doGenerate: 'ai.prompt.messages' = stringifyForTelemetry(promptMessagesForStep) "
                 "(the converted LanguageModelV1 prompt), ai.response.toolCalls; ai.toolCall: ai.toolCall.args / "
                 "ai.toolCall.result = JSON.stringify(result)"},
        {"repo": "vercel/ai", "ref": "v4 (ai 4.2-4.3)", "path": "packages/ai/core/prompt/convert-to-language-model-prompt.ts",
         "what": "tool message parts -> {type: 'tool-result', toolCallId, toolName, result, content: "
                 "part.experimental_content, isError, providerMetadata}"},
        {"repo": "vercel/ai", "ref": "v4 (ai 4.2-4.3)", "path": "packages/ai/core/generate-text/to-response-messages.ts",
         "what": "a tool with experimental_toToolResultContent gets {type: 'tool-result', toolCallId, toolName, result: "
                 "toToolResultContent(r), experimental_content: toToolResultContent(r)}"},
    ], "AI SDK v4 generateText with maxSteps and a find_customer tool that has experimental_toToolResultContent "
       "(result -> [{type: 'text', text: JSON.stringify(result)}]), followed by a second generateText that passes "
       "result.response.messages back as history. The tool-result part spells the field 'experimental_content' "
       "only where the caller's messages are recorded verbatim (the second ai.generateText span's ai.prompt); in "
       "every ai.prompt.messages (doGenerate) the SDK has converted it to 'content', next to 'result' holding the "
       "same array. The record is also the find_customer ai.toolCall span's ai.toolCall.result. The root "
       "'support-chat turn' span is the application's own (scope 'svc'), only there to hold both calls in one "
       "trace. Empty text parts of the first assistant message follow the ai 4.3 toResponseMessages that "
       "omits them.")


# ---------------------------------------------------------------- the cases, in manifest order

CASES = [
    case_anthropic_openllmetry,
    case_anthropic_openinference,
    case_bedrock_converse,
    case_gemini_function_response,
    case_ollama,
    case_openai_legacy_function,
    case_langchain_message_dicts,
    case_vercel_experimental_content,
]


if __name__ == "__main__":
    OUT.run(CASES, indent=1, ensure_ascii=True)
