#!/usr/bin/env python3
"""Writes the OTLP JSON payloads of testdata/formats/genai/ and their manifest.json.

Run: python3 testdata/formats/genai/gen.py   (from anywhere; writes next to this file)

Every payload is one OTLP JSON request per line (ExportTraceServiceRequest or
ExportLogsServiceRequest, as pdata's ptrace/plog JSONUnmarshaler read them). Ids and
timestamps are fixed, so the output is byte-identical on every run. The shapes (span
names, attribute keys, where the tool result reappears) follow the sources named in
each case's manifest entry; README.md says per case what comes from where.
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------------------
# The data every case carries.

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
FIND_ARGS = {"query": "Roe-Whitfield account"}
WEATHER_ARGS = {"city": "Oslo"}
WEATHER = {"city": "Oslo", "temp_c": 3, "sky": "overcast skies today"}
# The model's arguments to a second customer-data tool (cases 4 and 5).
UPDATE_ARGS = {"email": "jane.roe@example-mail.test", "notes": "VIP; disputes every invoice since March"}

USER_TEXT = "Look up the Roe-Whitfield account and tell me the weather in Oslo."
FINAL_TEXT = "The account is active with one order on file. Oslo: 3 C, overcast."
DATA_CLASS_TOOLS = {"find_customer": "customer"}

T0 = 1767225600000000000  # 2026-01-01T00:00:00Z


def ms(n):
    return str(T0 + n * 1_000_000)


def jdump(v):
    """JSON text as Python's json.dumps writes it (the Python instrumentations)."""
    return json.dumps(v)


def jcompact(v):
    """JSON text as JavaScript's JSON.stringify writes it."""
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------------------
# OTLP JSON helpers.


def av(v):
    """A Python value as an OTLP AnyValue."""
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    if isinstance(v, str):
        return {"stringValue": v}
    if isinstance(v, (list, tuple)):
        return {"arrayValue": {"values": [av(x) for x in v]}}
    if isinstance(v, dict):
        return {"kvlistValue": {"values": [{"key": k, "value": av(x)} for k, x in v.items()]}}
    if v is None:
        return {}
    raise TypeError(type(v))


def attrs(d):
    return [{"key": k, "value": av(v)} for k, v in d.items()]


def resource(service="svc"):
    return {"attributes": attrs({"service.name": service})}


def span(trace_id, span_id, name, start, end, attributes, parent=None, kind=1, events=None, status=None):
    s = {"traceId": trace_id, "spanId": span_id}
    if parent:
        s["parentSpanId"] = parent
    s.update({
        "name": name,
        "kind": kind,
        "startTimeUnixNano": ms(start),
        "endTimeUnixNano": ms(end),
        "attributes": attrs(attributes),
    })
    if events:
        s["events"] = events
    s["status"] = status or {}
    return s


def event(name, at, attributes):
    return {"name": name, "timeUnixNano": ms(at), "attributes": attrs(attributes)}


def traces(scope_spans, service="svc"):
    """scope_spans: list of (scope dict, [span, ...])."""
    return {"resourceSpans": [{
        "resource": resource(service),
        "scopeSpans": [{"scope": sc, "spans": sp} for sc, sp in scope_spans],
    }]}


def log_record(at, event_name, attributes, body=None, trace_id=None, span_id=None, severity=None):
    r = {"timeUnixNano": ms(at), "observedTimeUnixNano": ms(at)}
    if severity:
        r["severityNumber"] = severity
    if event_name:
        r["eventName"] = event_name
    if trace_id:
        r["traceId"] = trace_id
        r["spanId"] = span_id
    if body is not None:
        r["body"] = av(body)
    r["attributes"] = attrs(attributes)
    return r


def logs(scope_logs, service="svc"):
    """scope_logs: list of (scope dict, [logRecord, ...])."""
    return {"resourceLogs": [{
        "resource": resource(service),
        "scopeLogs": [{"scope": sc, "logRecords": lr} for sc, lr in scope_logs],
    }]}


def tid(n):
    return "%032x" % (0x4a1e0000000000000000000000000000 + n)


def sid(t, n):
    return "%016x" % (0x5b00000000000000 + t * 0x100 + n)


MANIFEST = []
WRITTEN = []


def write(name, requests):
    path = os.path.join(HERE, name)
    with open(path, "w") as f:
        for r in requests:
            f.write(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n")
    WRITTEN.append(name)
    return {"path": name, "signal": "logs" if name.endswith(".logs.json") else "traces"}


def add_case(case, files, sources, notes, secrets=SECRETS, data_class_tools=DATA_CLASS_TOOLS, **extra):
    entry = {"case": case, "files": files, "sources": sources}
    if data_class_tools is not None:
        entry["data_class_tools"] = data_class_tools
    if secrets is not None:
        entry["secrets"] = secrets
    entry.update(extra)
    entry["notes"] = notes
    MANIFEST.append(entry)


# ---------------------------------------------------------------------------
# GenAI semantic conventions (open-telemetry/semantic-conventions-genai; before May 2026 in
# open-telemetry/semantic-conventions). Message parts as the JSON schemas define them.

SEMCONV_GENAI = "open-telemetry/semantic-conventions-genai"
SEMCONV_GENAI_REF = "2b902ce14e7fa9d3d97cac49de02bae6917c02ae"
SEMCONV_OLD = "open-telemetry/semantic-conventions"
SEMCONV_OLD_REF = "c9e48b1d1af565454b73b9e14f0841bca4670ada^"  # the commit before the move


def text_part(t):
    return {"type": "text", "content": t}


def tool_call_part(call_id, name, arguments):
    return {"type": "tool_call", "id": call_id, "name": name, "arguments": arguments}


def tool_response_part(call_id, response):
    return {"type": "tool_call_response", "id": call_id, "response": response}


def case_genai_structured_span():
    t = 1
    T = tid(t)
    agent, chat1, tool1, tool2, chat2 = (sid(t, i) for i in range(1, 6))
    scope = {"name": "genai-semconv-spec", "version": "semantic-conventions-genai@2b902ce"}
    common = {"gen_ai.provider.name": "openai", "gen_ai.request.model": "gpt-4o"}
    in1 = [{"role": "user", "parts": [text_part(USER_TEXT)]}]
    out1 = [{"role": "assistant", "parts": [
        tool_call_part("call_1", "find_customer", FIND_ARGS),
        tool_call_part("call_2", "get_weather", WEATHER_ARGS),
    ], "finish_reason": "tool_call"}]
    in2 = in1 + [
        {"role": "assistant", "parts": out1[0]["parts"]},
        {"role": "tool", "parts": [tool_response_part("call_1", RECORD)]},
        {"role": "tool", "parts": [tool_response_part("call_2", WEATHER)]},
    ]
    out2 = [{"role": "assistant", "parts": [text_part(FINAL_TEXT)], "finish_reason": "stop"}]
    spans = [
        span(T, agent, "invoke_agent support-agent", 0, 900, {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "support-agent", **common}),
        span(T, chat1, "chat gpt-4o", 10, 300, {
            "gen_ai.operation.name": "chat", **common,
            "gen_ai.response.model": "gpt-4o-2024-08-06", "gen_ai.response.id": "chatcmpl-1",
            "gen_ai.response.finish_reasons": ["tool_calls"],
            "gen_ai.usage.input_tokens": 52, "gen_ai.usage.output_tokens": 41,
            "gen_ai.input.messages": in1, "gen_ai.output.messages": out1,
        }, parent=agent, kind=3),
        span(T, tool1, "execute_tool find_customer", 310, 340, {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer",
            "gen_ai.tool.call.id": "call_1", "gen_ai.tool.type": "function",
            "gen_ai.tool.call.arguments": FIND_ARGS, "gen_ai.tool.call.result": RECORD,
        }, parent=agent),
        span(T, tool2, "execute_tool get_weather", 341, 360, {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_weather",
            "gen_ai.tool.call.id": "call_2", "gen_ai.tool.type": "function",
            "gen_ai.tool.call.arguments": WEATHER_ARGS, "gen_ai.tool.call.result": WEATHER,
        }, parent=agent),
        span(T, chat2, "chat gpt-4o", 370, 890, {
            "gen_ai.operation.name": "chat", **common,
            "gen_ai.response.model": "gpt-4o-2024-08-06", "gen_ai.response.id": "chatcmpl-2",
            "gen_ai.response.finish_reasons": ["stop"],
            "gen_ai.usage.input_tokens": 231, "gen_ai.usage.output_tokens": 19,
            "gen_ai.input.messages": in2, "gen_ai.output.messages": out2,
        }, parent=agent, kind=3),
    ]
    f = write("genai-structured-span.traces.json", [traces([(scope, spans)])])
    add_case(
        "genai-structured-span", [f],
        [
            {"repo": SEMCONV_GENAI, "path": "model/gen-ai/gen-ai-input-messages.json", "ref": SEMCONV_GENAI_REF,
             "what": "ChatMessage {role, parts}; ToolCallRequestPart {type:tool_call, id, name, arguments}; ToolCallResponsePart {type:tool_call_response, id, response}"},
            {"repo": SEMCONV_GENAI, "path": "model/gen-ai/gen-ai-output-messages.json", "ref": SEMCONV_GENAI_REF,
             "what": "OutputMessage {role, parts, finish_reason (deprecated, optional; enum stop|length|content_filter|tool_call|compaction|error)}"},
            {"repo": SEMCONV_GENAI, "path": "model/gen-ai/spans.yaml", "ref": "7e7e4e763354b505b8e1f76512f17a1977b00f70",
             "what": "gen_ai.inference.client span (CLIENT, name '{operation} {model}'), gen_ai.execute_tool.internal span (INTERNAL, 'execute_tool {tool}', gen_ai.tool.call.arguments/result opt-in), invoke_agent"},
            {"repo": SEMCONV_OLD, "path": "model/gen-ai/registry.yaml", "ref": SEMCONV_OLD_REF,
             "what": "gen_ai.input.messages / output.messages / tool.call.arguments / tool.call.result are type any: 'SHOULD be recorded in structured form' on spans, MAY be a JSON string where structured attributes are unsupported"},
        ],
        "One trace: invoke_agent > chat (tool_call parts) > execute_tool find_customer, execute_tool get_weather > "
        "chat whose gen_ai.input.messages carries both tool_call_response parts. Everything structured "
        "(arrayValue of kvlistValue; arguments, responses and tool-span result as kvlistValue). The record appears "
        "twice: gen_ai.tool.call.result on the find_customer tool span and response of the call_1 tool_call_response "
        "part in the second chat span. No instrumentation found writes these as structured span attributes (Python's "
        "opentelemetry-util-genai writes JSON strings on spans), so the scope name is a neutral label, not a real one.",
    )


# ---------------------------------------------------------------------------

CASES = [
    case_genai_structured_span,
]


def main():
    for c in CASES:
        c()
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(MANIFEST, f, indent=2, ensure_ascii=False)
        f.write("\n")
    for w in WRITTEN:
        print(w)


if __name__ == "__main__":
    main()
