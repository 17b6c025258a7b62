#!/usr/bin/env python3
"""Generates the provider-format payloads in this directory (OTLP JSON) and manifest.json.

Every case is one agent run in one trace: the model is asked to look up a customer and the weather,
calls `find_customer` and `get_weather`, and answers after seeing both results. The attribute names
and value encodings follow the instrumentations' own source (see README.md and manifest.json
"sources"); only the conversation content is scripted.

Run: python3 gen.py   (rewrites every *.json here; output is deterministic)
"""
import hashlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------- the scripted conversation

RECORD = {
    "customer_id": "cus_88421907",
    "name": "Jane Roe-Whitfield",
    "email": "jane.roe@example-mail.test",
    "phone": "+1 415 555 0199",
    "notes": "VIP; disputes every invoice since March",
    "status": "active",
    "orders": [{"id": "ord_1", "total": 129.5}],
}
SECRETS = [
    "cus_88421907",
    "Jane Roe-Whitfield",
    "jane.roe@example-mail.test",
    "+1 415 555 0199",
    "VIP; disputes every invoice since March",
]
CUST_ARGS = {"query": "Roe-Whitfield account"}
WEATHER_ARGS = {"city": "Oslo"}
WEATHER = {"city": "Oslo", "temp_c": 3, "sky": "overcast skies today"}
USER_TEXT = "Look up the Roe-Whitfield account and tell me the weather in Oslo."
PLAN_TEXT = "I'll look up the account and check the weather."
FINAL_TEXT = "The account is active with one order on file. Oslo is at 3 C with overcast skies today."


def pyjson(v):
    """json.dumps with Python's default separators (what Python instrumentations and tools write)."""
    return json.dumps(v)


def jsjson(v):
    """JSON.stringify (compact)."""
    return json.dumps(v, separators=(",", ":"))


# ---------------------------------------------------------------- OTLP JSON helpers

def anyvalue(v):
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    if isinstance(v, str):
        return {"stringValue": v}
    if isinstance(v, (list, tuple)):
        return {"arrayValue": {"values": [anyvalue(x) for x in v]}}
    if isinstance(v, dict):
        return {"kvlistValue": {"values": [{"key": k, "value": anyvalue(x)} for k, x in v.items()]}}
    raise TypeError(type(v))


def attrs(d):
    return [{"key": k, "value": anyvalue(v)} for k, v in d.items() if v is not None]


def hexid(case, label, n):
    return hashlib.sha256(f"{case}/{label}".encode()).hexdigest()[:n]


BASE_NS = 1767261600000000000  # 2026-01-01T10:00:00Z
MS = 1_000_000


class Trace:
    """Spans of one trace, grouped by instrumentation scope in insertion order."""

    def __init__(self, case, service):
        self.case = case
        self.service = service
        self.trace_id = hexid(case, "trace", 32)
        self.scopes = {}  # (name, version) -> [span]

    def span(self, label, scope, name, kind, start_ms, end_ms, attributes, parent=None, events=None,
             status=None):
        sid = hexid(self.case, label, 16)
        s = {"traceId": self.trace_id, "spanId": sid}
        if parent is not None:
            s["parentSpanId"] = parent
        s.update({
            "name": name,
            "kind": kind,
            "startTimeUnixNano": str(BASE_NS + start_ms * MS),
            "endTimeUnixNano": str(BASE_NS + end_ms * MS),
            "attributes": attrs(attributes),
        })
        if events:
            s["events"] = [{"name": n, "timeUnixNano": str(BASE_NS + t * MS), "attributes": attrs(a)}
                           for (n, t, a) in events]
        s["status"] = status or {}
        self.scopes.setdefault(scope, []).append(s)
        return sid

    def doc(self):
        return {"resourceSpans": [{
            "resource": {"attributes": attrs({"service.name": self.service})},
            "scopeSpans": [
                {"scope": {"name": n, "version": v}, "spans": spans}
                for (n, v), spans in self.scopes.items()
            ],
        }]}


KIND_INTERNAL, KIND_SERVER, KIND_CLIENT = 1, 2, 3

CASES = []  # manifest entries, in order


def emit(case, files, sources, notes):
    out = []
    for fname, signal, doc in files:
        with open(os.path.join(HERE, fname), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        out.append({"path": fname, "signal": signal})
    CASES.append({
        "case": case,
        "files": out,
        "sources": sources,
        "data_class_tools": {"find_customer": "customer"},
        "secrets": SECRETS,
        "notes": notes,
    })


def flat(prefix, d):
    """Prefix every key of d (OpenLLMetry / OpenInference flattened attributes)."""
    return {f"{prefix}.{k}": v for k, v in d.items()}


# ---------------------------------------------------------------- 1. anthropic-openllmetry

OLL_REPO = "traceloop/openllmetry"
OLL_REF = "v0.53.4"


def traceloop_workflow_and_tools(t, case, workflow, tools, times):
    """traceloop-sdk @workflow / @tool spans (packages/traceloop-sdk/traceloop/sdk/decorators/base.py):
    name "<entity>.<kind>", scope traceloop.tracer, traceloop.entity.input = json.dumps({"args","kwargs"}),
    traceloop.entity.output = json.dumps(result); every span started in the workflow's context also gets
    traceloop.workflow.name (tracing.py default_span_processor_on_start)."""
    scope = ("traceloop.tracer", "0.53.4")
    root = t.span("workflow", scope, f"{workflow}.workflow", KIND_INTERNAL, 0, times["end"], {
        "traceloop.workflow.name": workflow,
        "traceloop.span.kind": "workflow",
        "traceloop.entity.name": workflow,
        "traceloop.entity.input": pyjson({"args": [USER_TEXT], "kwargs": {}}),
        "traceloop.entity.output": pyjson(FINAL_TEXT),
    })
    ids = {}
    for (name, args, result, start, end) in tools:
        ids[name] = t.span(f"tool/{name}", scope, f"{name}.tool", KIND_INTERNAL, start, end, {
            "traceloop.workflow.name": workflow,
            "traceloop.span.kind": "tool",
            "traceloop.entity.name": name,
            "traceloop.entity.input": pyjson({"args": [], "kwargs": args}),
            "traceloop.entity.output": pyjson(result),
        }, parent=root)
    return root, ids


def case_anthropic_openllmetry():
    case = "anthropic-openllmetry"
    t = Trace(case, "svc")
    tools = [("find_customer", CUST_ARGS, RECORD, 1210, 1260), ("get_weather", WEATHER_ARGS, WEATHER, 1270, 1300)]
    root, _ = traceloop_workflow_and_tools(t, case, "support", tools, {"end": 2600})
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
        "llm.request.functions.0.input_schema": pyjson({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
        "llm.request.functions.1.name": "get_weather",
        "llm.request.functions.1.description": "Current weather for a city",
        "llm.request.functions.1.input_schema": pyjson({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
        "gen_ai.response.model": "claude-sonnet-4-5-20250929",
        "gen_ai.response.id": "msg_01XbQ2m7Rk4s9TtVw3yZp6Ld",
        "gen_ai.usage.input_tokens": 512,
        "gen_ai.usage.output_tokens": 96,
        "llm.usage.total_tokens": 608,
        "gen_ai.completion.0.finish_reason": "tool_use",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.tool_calls.0.id": cid,
        "gen_ai.completion.0.tool_calls.0.name": "find_customer",
        "gen_ai.completion.0.tool_calls.0.arguments": pyjson(CUST_ARGS),
        "gen_ai.completion.0.tool_calls.1.id": wid,
        "gen_ai.completion.0.tool_calls.1.name": "get_weather",
        "gen_ai.completion.0.tool_calls.1.arguments": pyjson(WEATHER_ARGS),
        "gen_ai.completion.0.content": PLAN_TEXT,
    })
    t.span("chat1", scope, "anthropic.chat", KIND_CLIENT, 20, 1200, a1, parent=root)
    # request 2: the assistant turn is response.content (pydantic blocks -> model_dump()), the tool
    # results are the user's tool_result dicts with the result JSON-encoded as a string
    assistant_blocks = [
        {"citations": None, "text": PLAN_TEXT, "type": "text"},
        {"id": cid, "input": CUST_ARGS, "name": "find_customer", "type": "tool_use"},
        {"id": wid, "input": WEATHER_ARGS, "name": "get_weather", "type": "tool_use"},
    ]
    result_blocks = [
        {"type": "tool_result", "tool_use_id": cid, "content": pyjson(RECORD)},
        {"type": "tool_result", "tool_use_id": wid, "content": pyjson(WEATHER)},
    ]
    a2 = dict(common)
    a2.update({
        "gen_ai.prompt.0.content": USER_TEXT,
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.1.content": pyjson(assistant_blocks),
        "gen_ai.prompt.1.role": "assistant",
        "gen_ai.prompt.1.tool_calls.0.id": cid,
        "gen_ai.prompt.1.tool_calls.0.name": "find_customer",
        "gen_ai.prompt.1.tool_calls.0.arguments": pyjson(CUST_ARGS),
        "gen_ai.prompt.1.tool_calls.1.id": wid,
        "gen_ai.prompt.1.tool_calls.1.name": "get_weather",
        "gen_ai.prompt.1.tool_calls.1.arguments": pyjson(WEATHER_ARGS),
        "gen_ai.prompt.2.content": pyjson(result_blocks),
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
    emit(case, [(f"{case}.traces.json", "traces", t.doc())], [
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
    ], "OpenLLMetry Python <= 0.53.4 (from 0.54.0 the instrumentation writes gen_ai.input.messages "
       "instead). The record is in the find_customer tool span's traceloop.entity.output and, as the "
       "JSON-encoded string 'content' of a tool_result block, inside gen_ai.prompt.2.content (a JSON array "
       "string) of the second anthropic.chat span. tool_result blocks carry only tool_use_id: the name comes "
       "from gen_ai.prompt.1.tool_calls.N (same id) or the tool_use block in gen_ai.prompt.1.content.")


# ---------------------------------------------------------------- main

def main():
    case_anthropic_openllmetry()
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(CASES, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
