#!/usr/bin/env python3
# Copyright The agentotel Authors
# SPDX-License-Identifier: Apache-2.0

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
import sys

sys.dont_write_bytecode = True  # a run leaves nothing in testdata but the payloads
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # testdata/formats: otlpgen
from otlpgen import (FIND_ARGS, KIND_CLIENT, KIND_INTERNAL, RECORD, SECRETS, USER_TEXT, WEATHER, WEATHER_ARGS, Output, any_value,
                     attributes, converse_parts, event, jcompact, jdump, logs_request, nanos, service_resource, span,
                     traces_request)

OUT = Output(__file__)

# ---------------------------------------------------------------------------
# The data every case carries besides otlpgen's support run.

# The model's arguments to a second customer-data tool (cases 4 and 5).
UPDATE_ARGS = {"email": "jane.roe@example-mail.test", "notes": "VIP; disputes every invoice since March"}

FINAL_TEXT = "The account is active with one order on file. Oslo: 3 C, overcast."
DATA_CLASS_TOOLS = {"find_customer": "customer"}


# ---------------------------------------------------------------------------
# OTLP JSON helpers.


def traces(scope_spans, service="svc"):
    """scope_spans: list of (scope dict, [span, ...])."""
    return traces_request(service_resource(service), scope_spans)


def log_record(at, event_name, attrs, body=None, trace_id=None, span_id=None, severity=None):
    r = {"timeUnixNano": nanos(at), "observedTimeUnixNano": nanos(at)}
    if severity:
        r["severityNumber"] = severity
    if event_name:
        r["eventName"] = event_name
    if trace_id:
        r["traceId"] = trace_id
        r["spanId"] = span_id
    if body is not None:
        r["body"] = any_value(body)
    r["attributes"] = attributes(attrs)
    return r


def logs(scope_logs, service="svc"):
    """scope_logs: list of (scope dict, [logRecord, ...])."""
    return logs_request(service_resource(service), scope_logs)


def tid(n):
    return "%032x" % (0x4a1e0000000000000000000000000000 + n)


def sid(t, n):
    return "%016x" % (0x5b00000000000000 + t * 0x100 + n)


def trace_ids(t, n):
    """Trace t's id and the ids of its first n spans."""
    return tid(t), [sid(t, i) for i in range(1, n + 1)]


def add_case(case, files, sources, notes, secrets=SECRETS, data_class_tools=DATA_CLASS_TOOLS, **extra):
    entry = {"case": case, "files": files, "sources": sources}
    if data_class_tools is not None:
        entry["data_class_tools"] = data_class_tools
    if secrets is not None:
        entry["secrets"] = secrets
    entry.update(extra)
    entry["notes"] = notes
    OUT.manifest.append(entry)


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


SOURCE_INPUT_MESSAGES = {
    "repo": SEMCONV_GENAI, "path": "model/gen-ai/gen-ai-input-messages.json", "ref": SEMCONV_GENAI_REF,
    "what": "ChatMessage {role, parts}; ToolCallRequestPart {type:tool_call, id, name, arguments}; ToolCallResponsePart {type:tool_call_response, id, response}",
}


# The OpenAI model every GenAI case's chat spans call.
GENAI_OPENAI = {"gen_ai.provider.name": "openai", "gen_ai.request.model": "gpt-4o"}


def genai_chat_span(T, s, parent, start, end, resp_id, finish, tin, tout, inp, outp):
    """An inference span 'chat gpt-4o' (CLIENT) with its gen_ai.input.messages inp and gen_ai.output.messages
    outp, structured or as JSON text."""
    return span(T, s, "chat gpt-4o", start, end, {
        "gen_ai.operation.name": "chat", **GENAI_OPENAI,
        "gen_ai.response.model": "gpt-4o-2024-08-06", "gen_ai.response.id": resp_id,
        "gen_ai.response.finish_reasons": [finish],
        "gen_ai.usage.input_tokens": tin, "gen_ai.usage.output_tokens": tout,
        "gen_ai.input.messages": inp, "gen_ai.output.messages": outp,
    }, parent=parent, kind=KIND_CLIENT)


def execute_tool_span(T, s, parent, start, end, call_id, name, arguments=None, result=None):
    """An execute_tool span (INTERNAL, 'execute_tool {tool}'); gen_ai.tool.call.arguments and .result only
    where the instrumentation records them (not None), structured or as JSON text."""
    a = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": call_id,
         "gen_ai.tool.type": "function"}
    if arguments is not None:
        a["gen_ai.tool.call.arguments"] = arguments
    if result is not None:
        a["gen_ai.tool.call.result"] = result
    return span(T, s, "execute_tool " + name, start, end, a, parent=parent)


def genai_first_round(user_text):
    """The first round of the GenAI cases: the user's question, the model's two tool calls, and the
    next call's input with both results; as (in1, out1, in2)."""
    in1 = [{"role": "user", "parts": [text_part(user_text)]}]
    out1 = [{"role": "assistant", "parts": [
        tool_call_part("call_1", "find_customer", FIND_ARGS),
        tool_call_part("call_2", "get_weather", WEATHER_ARGS),
    ], "finish_reason": "tool_call"}]
    in2 = in1 + [
        {"role": "assistant", "parts": out1[0]["parts"]},
        {"role": "tool", "parts": [tool_response_part("call_1", RECORD)]},
        {"role": "tool", "parts": [tool_response_part("call_2", WEATHER)]},
    ]
    return in1, out1, in2


def case_genai_structured_span():
    t = 1
    T, (agent, chat1, tool1, tool2, chat2) = trace_ids(t, 5)
    scope = {"name": "genai-semconv-spec", "version": "semantic-conventions-genai@2b902ce"}
    in1, out1, in2 = genai_first_round(USER_TEXT)
    out2 = [{"role": "assistant", "parts": [text_part(FINAL_TEXT)], "finish_reason": "stop"}]
    spans = [
        span(T, agent, "invoke_agent support-agent", 0, 900, {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "support-agent", **GENAI_OPENAI}),
        genai_chat_span(T, chat1, agent, 10, 300, "chatcmpl-1", "tool_calls", 52, 41, in1, out1),
        execute_tool_span(T, tool1, agent, 310, 340, "call_1", "find_customer", FIND_ARGS, RECORD),
        execute_tool_span(T, tool2, agent, 341, 360, "call_2", "get_weather", WEATHER_ARGS, WEATHER),
        genai_chat_span(T, chat2, agent, 370, 890, "chatcmpl-2", "stop", 231, 19, in2, out2),
    ]
    f = OUT.write("genai-structured-span.traces.json", [traces([(scope, spans)])])
    add_case(
        "genai-structured-span", [f],
        [
            SOURCE_INPUT_MESSAGES,
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
# gen_ai.client.inference.operation.details, as opentelemetry-python-contrib's util-genai
# (InferenceInvocation._maybe_create_event, get_content_attributes(for_span=False)) builds it for
# openai-v2 in OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental mode.

PYCONTRIB = "open-telemetry/opentelemetry-python-contrib"
PYCONTRIB_REF = "466ae4c00de77d1f54f77a9600f1d08eba2306b5"
UTIL_GENAI = "util/opentelemetry-util-genai/src/opentelemetry/util/genai/"
OPENAI_V2 = "instrumentation-genai/opentelemetry-instrumentation-openai-v2/src/opentelemetry/instrumentation/openai_v2/"
UTIL_SCOPE = {"name": "opentelemetry.util.genai.handler", "version": "0.5b0.dev"}
UTIL_SCHEMA = "https://opentelemetry.io/schemas/1.37.0"


def py_tool_call(call_id, name, arguments):
    # dataclasses.asdict(ToolCallRequest): field order arguments, name, id, type
    return {"arguments": arguments, "name": name, "id": call_id, "type": "tool_call"}


def py_tool_response(call_id, response):
    # dataclasses.asdict(ToolCallResponse): response, id, type
    return {"response": response, "id": call_id, "type": "tool_call_response"}


def py_text(t):
    return {"content": t, "type": "text"}


def openai_v2_rounds():
    """The two chat calls of the support run as openai-v2's _prepare_input_messages /
    _prepare_output_messages turn them into util-genai messages. The tool messages the
    application sends carry content = json.dumps(result), so `response` is that string."""
    user = {"role": "user", "parts": [py_text(USER_TEXT)]}
    calls = [py_tool_call("call_1", "find_customer", FIND_ARGS),
             py_tool_call("call_2", "get_weather", WEATHER_ARGS)]
    out1 = [{"role": "assistant", "parts": calls, "finish_reason": "tool_calls"}]
    in2 = [user,
           {"role": "assistant", "parts": calls},
           {"role": "tool", "parts": [py_tool_response("call_1", jdump(RECORD))]},
           {"role": "tool", "parts": [py_tool_response("call_2", jdump(WEATHER))]}]
    out2 = [{"role": "assistant", "parts": [py_text(FINAL_TEXT)], "finish_reason": "stop"}]
    return [user], out1, in2, out2


def inference_attrs(resp_id, finish, tin, tout):
    # InferenceInvocation._get_attributes() order
    return {
        "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o",
        "gen_ai.provider.name": "openai", "server.address": "api.openai.com",
        "gen_ai.response.finish_reasons": [finish], "gen_ai.response.model": "gpt-4o-2024-08-06",
        "gen_ai.response.id": resp_id, "gen_ai.usage.input_tokens": tin, "gen_ai.usage.output_tokens": tout,
    }


def inference_details_trace(t, with_span_events):
    """Spans of one run; content only in the events (EVENT_ONLY capture mode)."""
    T, (agent, chat1, tool1, tool2, chat2) = trace_ids(t, 5)
    in1, out1, in2, out2 = openai_v2_rounds()
    a1 = inference_attrs("chatcmpl-1", "tool_calls", 52, 41)
    a2 = inference_attrs("chatcmpl-2", "stop", 231, 19)
    ev1 = {**a1, "gen_ai.input.messages": in1, "gen_ai.output.messages": out1}
    ev2 = {**a2, "gen_ai.input.messages": in2, "gen_ai.output.messages": out2}
    name = "gen_ai.client.inference.operation.details"
    spans = [
        span(T, agent, "invoke_agent support-agent", 0, 900, {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.provider.name": "openai",
            "gen_ai.agent.name": "support-agent"}),
        span(T, chat1, "chat gpt-4o", 10, 300, a1, parent=agent, kind=3,
             events=[event(name, 300, ev1)] if with_span_events else None),
        # ToolInvocation._apply_finish: name, call id, type, arguments (a str: the Python SDK drops
        # dict-valued span attributes); gen_ai.tool.call.result is not set at this commit.
        execute_tool_span(T, tool1, agent, 310, 340, "call_1", "find_customer", jdump(FIND_ARGS)),
        execute_tool_span(T, tool2, agent, 341, 360, "call_2", "get_weather", jdump(WEATHER_ARGS)),
        span(T, chat2, "chat gpt-4o", 370, 890, a2, parent=agent, kind=3,
             events=[event(name, 890, ev2)] if with_span_events else None),
    ]
    req = traces([(dict(UTIL_SCOPE), spans)])
    req["resourceSpans"][0]["scopeSpans"][0]["schemaUrl"] = UTIL_SCHEMA
    records = [
        log_record(300, name, ev1, trace_id=T, span_id=chat1),
        log_record(890, name, ev2, trace_id=T, span_id=chat2),
    ]
    lreq = logs([(dict(UTIL_SCOPE), records)])
    lreq["resourceLogs"][0]["scopeLogs"][0]["schemaUrl"] = UTIL_SCHEMA
    return req, lreq


INFERENCE_DETAILS_SOURCES = [
    {"repo": PYCONTRIB, "path": UTIL_GENAI + "_inference_invocation.py", "ref": PYCONTRIB_REF,
     "what": "_maybe_create_event: LogRecord(event_name='gen_ai.client.inference.operation.details', attributes=span attributes + get_content_attributes(for_span=False), context=span context); _apply_finish sets the same on the span with for_span=True"},
    {"repo": PYCONTRIB, "path": UTIL_GENAI + "_invocation.py", "ref": PYCONTRIB_REF,
     "what": "get_content_attributes: for_span -> gen_ai_json_dumps string, else list of dataclasses.asdict dicts (structured)"},
    {"repo": PYCONTRIB, "path": UTIL_GENAI + "types.py", "ref": PYCONTRIB_REF,
     "what": "ToolCallRequest(arguments, name, id, type='tool_call'), ToolCallResponse(response, id, type='tool_call_response'), Text(content, type), InputMessage(role, parts), OutputMessage(role, parts, finish_reason)"},
    {"repo": PYCONTRIB, "path": UTIL_GENAI + "handler.py", "ref": PYCONTRIB_REF,
     "what": "tracer and logger named __name__ = opentelemetry.util.genai.handler, schema 1.37.0"},
    {"repo": PYCONTRIB, "path": OPENAI_V2 + "utils.py", "ref": PYCONTRIB_REF,
     "what": "_prepare_input_messages: tool message -> ToolCallResponse(id=tool_call_id, response=content); extract_tool_calls_new: arguments json.loads'ed; _prepare_output_messages: finish_reason = choice.finish_reason (OpenAI's 'tool_calls')"},
    {"repo": PYCONTRIB, "path": UTIL_GENAI + "_tool_invocation.py", "ref": PYCONTRIB_REF,
     "what": "execute_tool span: gen_ai.tool.name/call.id/type/call.arguments; gen_ai.tool.call.result documented but not set"},
    {"repo": SEMCONV_GENAI, "path": "model/gen-ai/events.yaml", "ref": "fecf9e12378d7b913438c954f8d7d243680ece47",
     "what": "event gen_ai.client.inference.operation.details: attributes = ref_group span.gen_ai.inference.client"},
]


def case_genai_inference_details():
    req, _ = inference_details_trace(2, with_span_events=True)
    f = OUT.write("genai-inference-details-span-event.traces.json", [req])
    add_case(
        "genai-inference-details-span-event", [f], INFERENCE_DETAILS_SOURCES,
        "Same run as genai-inference-details-log, but each chat span carries the event as a SPAN EVENT "
        "gen_ai.client.inference.operation.details with the log record's attributes (structured "
        "gen_ai.input.messages / gen_ai.output.messages). The record appears once: the response (a JSON string, "
        "as openai-v2 passes the tool message content) of the call_1 tool_call_response part in the second chat "
        "span's event; the call_1 -> find_customer link is the tool_call part in the first event's output. "
        "util-genai emits this event only as a log record; the span-event form is the semconv event carried "
        "on a span (no Python emitter: the Python SDK cannot put structured values on span events).",
    )
    req, lreq = inference_details_trace(3, with_span_events=False)
    fl = OUT.write("genai-inference-details-log.logs.json", [lreq])
    ft = OUT.write("genai-inference-details-log.traces.json", [req])
    add_case(
        "genai-inference-details-log", [fl, ft], INFERENCE_DETAILS_SOURCES,
        "Two log records gen_ai.client.inference.operation.details (eventName, no body, traceId/spanId of their "
        "chat span; attributes: the chat span's attributes plus structured gen_ai.input.messages / "
        "gen_ai.output.messages), exactly as util-genai's InferenceInvocation._maybe_create_event builds them for "
        "openai-v2 in EVENT_ONLY capture mode, plus the trace they belong to (spans without content; the tool "
        "spans have no result). The record appears once, in the second record's input: "
        "{role:tool, parts:[{response:'<json.dumps(record)>', id:'call_1', type:'tool_call_response'}]}.",
    )


# ---------------------------------------------------------------------------
# Older per-message GenAI events (log records) as openai-v2 writes them on its default (legacy)
# path: utils.message_to_event / choice_to_event / extract_tool_calls, emitted by patch.py's
# chat_completions_create_v_old inside the chat span (so they carry its trace and span id).

V2_SCOPE = {"name": "opentelemetry.instrumentation.openai_v2", "version": "2.5b0.dev"}
V2_SCHEMA = "https://opentelemetry.io/schemas/1.30.0"
V2_SYS = {"gen_ai.system": "openai"}

# The tool calls as the OpenAI API returns them (arguments: a compact JSON string).
OAI_CALLS = [
    {"id": "call_1", "type": "function", "function": {"name": "find_customer", "arguments": jcompact(FIND_ARGS)}},
    {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": jcompact(WEATHER_ARGS)}},
]


def v2_user(text):
    return ("gen_ai.user.message", {"content": text})


def v2_assistant_calls():
    # message_to_event: for an assistant message with tool_calls, body = {"tool_calls": [...]} only
    return ("gen_ai.assistant.message", {"tool_calls": OAI_CALLS})


def v2_assistant_text(text):
    return ("gen_ai.assistant.message", {"content": text})


def v2_tool(call_id, result):
    # message_to_event: body {"content": <the tool message's content>, "id": tool_call_id}
    return ("gen_ai.tool.message", {"content": jdump(result), "id": call_id})


def v2_choice(finish, message):
    return ("gen_ai.choice", {"index": 0, "finish_reason": finish, "message": message})


def v2_chat_span(T, s, start, end, resp_id, finish, tin, tout, parent=None):
    # get_llm_request_attributes(..., latest_experimental_enabled=False) + _set_response_attributes
    return span(T, s, "chat gpt-4o", start, end, {
        "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o", "gen_ai.system": "openai",
        "server.address": "api.openai.com", "gen_ai.response.model": "gpt-4o-2024-08-06",
        "gen_ai.response.finish_reasons": [finish], "gen_ai.response.id": resp_id,
        "gen_ai.usage.input_tokens": tin, "gen_ai.usage.output_tokens": tout,
    }, parent=parent, kind=3)


def v2_records(T, s, start, end, messages, choice):
    """Message events at span start (one per request message, in order), the choice at the end."""
    out = [log_record(start, n, V2_SYS, body=b, trace_id=T, span_id=s) for n, b in messages]
    n, b = choice
    out.append(log_record(end, n, V2_SYS, body=b, trace_id=T, span_id=s))
    return out


def v2_logs(records):
    req = logs([(dict(V2_SCOPE), records)])
    req["resourceLogs"][0]["scopeLogs"][0]["schemaUrl"] = V2_SCHEMA
    return req


def v2_traces(spans_by_scope):
    req = traces(spans_by_scope)
    for ss in req["resourceSpans"][0]["scopeSpans"]:
        if ss["scope"]["name"] == V2_SCOPE["name"]:
            ss["schemaUrl"] = V2_SCHEMA
    return req


ROUND1 = [v2_user(USER_TEXT)]
CHOICE1 = v2_choice("tool_calls", {"role": "assistant", "tool_calls": OAI_CALLS})
ROUND2 = [v2_user(USER_TEXT), v2_assistant_calls(), v2_tool("call_1", RECORD), v2_tool("call_2", WEATHER)]
CHOICE2 = v2_choice("stop", {"role": "assistant", "content": FINAL_TEXT})
USER_TEXT_2 = "Is that account still in good standing?"
FINAL_TEXT_2 = "Yes, the account is active."

LEGACY_SOURCES = [
    {"repo": PYCONTRIB, "path": OPENAI_V2 + "utils.py", "ref": PYCONTRIB_REF,
     "what": "message_to_event: event_name gen_ai.{role}.message, attributes {gen_ai.system: openai}, body {content} / assistant with tool_calls: body {tool_calls} only / tool: {content, id}; choice_to_event: gen_ai.choice body {index, finish_reason, message:{role, tool_calls?, content?}}; extract_tool_calls: {id, type, function:{name, arguments (string, newlines removed)}}"},
    {"repo": PYCONTRIB, "path": OPENAI_V2 + "patch.py", "ref": PYCONTRIB_REF,
     "what": "chat_completions_create_v_old: span '{operation} {model}' CLIENT made current, one message event per request message emitted at start, choice events after the response (both inside the span, so trace/span id = the chat span); _set_response_attributes"},
    {"repo": PYCONTRIB, "path": OPENAI_V2 + "__init__.py", "ref": PYCONTRIB_REF,
     "what": "tracer and logger named opentelemetry.instrumentation.openai_v2, schema 1.30.0 on the legacy path"},
    {"repo": SEMCONV_OLD, "path": "model/gen-ai/deprecated/events-deprecated.yaml", "ref": SEMCONV_OLD_REF,
     "what": "the deprecated gen_ai.{system,user,assistant,tool}.message and gen_ai.choice events"},
]


def case_genai_log_events():
    # (a) log records only: one run, two chat calls, no span in the payload at all.
    t = 4
    T = tid(t)
    c1, c2 = sid(t, 2), sid(t, 5)
    recs = v2_records(T, c1, 10, 300, ROUND1, CHOICE1) + v2_records(T, c2, 370, 890, ROUND2, CHOICE2)
    fa = OUT.write("genai-log-events-only.logs.json", [v2_logs(recs)])
    add_case(
        "genai-log-events-only", [fa], LEGACY_SOURCES,
        "Log records only, no spans: the events openai-v2 emits for the two chat calls of the run (trace/span ids "
        "point at chat spans that are not in the payload). The record appears once, as the body content (a JSON "
        "string, json.dumps of the result) of the gen_ai.tool.message with id call_1; the only link from call_1 "
        "to find_customer is the preceding gen_ai.assistant.message (and the first call's gen_ai.choice) whose "
        "tool_calls[].function.name says find_customer.",
    )

    # (b) the tool messages as log records first, the execute_tool spans later in a traces file.
    t = 5
    T, (agent, c1, tool1, tool2, c2) = trace_ids(t, 5)
    recs = [r for r in v2_records(T, c2, 370, 890, ROUND2, CHOICE2) if r["eventName"] == "gen_ai.tool.message"]
    fl = OUT.write("genai-log-events-tool-span.logs.json", [v2_logs(recs)])
    app_scope = {"name": "support-app"}
    spans_app = [
        span(T, agent, "invoke_agent support-agent", 0, 900, {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "support-agent", "gen_ai.system": "openai"}),
        execute_tool_span(T, tool1, agent, 310, 340, "call_1", "find_customer"),
        execute_tool_span(T, tool2, agent, 341, 360, "call_2", "get_weather"),
    ]
    spans_v2 = [
        v2_chat_span(T, c1, 10, 300, "chatcmpl-1", "tool_calls", 52, 41, parent=agent),
        v2_chat_span(T, c2, 370, 890, "chatcmpl-2", "stop", 231, 19, parent=agent),
    ]
    ft = OUT.write("genai-log-events-tool-span.traces.json", [v2_traces([(app_scope, spans_app), (dict(V2_SCOPE), spans_v2)])])
    add_case(
        "genai-log-events-tool-span", [fl, ft],
        LEGACY_SOURCES + [
            {"repo": SEMCONV_GENAI, "path": "model/gen-ai/spans.yaml", "ref": "7e7e4e763354b505b8e1f76512f17a1977b00f70",
             "what": "execute_tool span (name 'execute_tool {gen_ai.tool.name}', gen_ai.tool.call.id); openai-v2 makes no tool span, the application does"},
        ],
        "Feed the files in their listed order: the logs file FIRST, then the traces file. The logs file holds only the two gen_ai.tool.message "
        "records of the second chat call (openai-v2's exact records; the other events of that call are left out "
        "so that nothing in the logs names the tool): body {content: json.dumps(result), id: call_1|call_2}, "
        "trace/span id of the second chat span. The traces file (same trace id) then brings the application's "
        "execute_tool find_customer span with gen_ai.tool.call.id call_1 (no arguments or result on it) and "
        "openai-v2's two chat spans (no content on spans on the legacy path). The record is in the logs only.",
    )

    # (c) a later turn of the same conversation in a NEW trace: the history is sent again.
    t1, t2 = 6, 7
    T1, T2 = tid(t1), tid(t2)
    line1 = v2_logs(v2_records(T1, sid(t1, 2), 10, 300, ROUND1, CHOICE1)
                    + v2_records(T1, sid(t1, 5), 370, 890, ROUND2, CHOICE2))
    turn2 = ROUND2 + [v2_assistant_text(FINAL_TEXT), v2_user(USER_TEXT_2)]
    line2 = v2_logs(v2_records(T2, sid(t2, 2), 60_010, 60_400, turn2,
                               v2_choice("stop", {"role": "assistant", "content": FINAL_TEXT_2})))
    fc = OUT.write("genai-log-events-later-turn.logs.json", [line1, line2])
    add_case(
        "genai-log-events-later-turn", [fc], LEGACY_SOURCES,
        "Two lines. Line 1: turn 1 (trace ...0006), the same events as genai-log-events-only. Line 2: turn 2 a "
        "minute later in a NEW trace (...0007), one chat call whose request repeats the whole history, so "
        "openai-v2 emits again gen_ai.user.message, gen_ai.assistant.message {tool_calls naming find_customer "
        "call_1 and get_weather call_2}, gen_ai.tool.message {content: json.dumps(record), id: call_1}, "
        "gen_ai.tool.message (weather), gen_ai.assistant.message {content: earlier answer}, gen_ai.user.message, "
        "then gen_ai.choice. The record appears in both lines; in line 2 nothing of trace 1 is available, only "
        "that record's own preceding assistant message names the tool.",
    )


# ---------------------------------------------------------------------------
# OpenLLMetry: gen_ai.prompt.N.* / gen_ai.completion.N.* flattened attributes, as the openai
# instrumentations wrote them until they moved to gen_ai.input/output.messages at the end of
# March 2026 (Python opentelemetry-instrumentation-openai 0.54.0, JS @traceloop/instrumentation-openai
# 0.22.5), and the traceloop-sdk decorators' traceloop.entity.input / output.

OLLM_PY = "traceloop/openllmetry"
OLLM_PY_REF = "0b30e2de6^"  # parent of 'instrumentation to support OTel GenAI Semantic Conventions 0.5.0' (#3844)
OLLM_PY_HEAD = "93429cfb9767e6b51db6cb35f6b70f758117669a"
OLLM_JS = "traceloop/openllmetry-js"
OLLM_JS_REF = "26a0d015^"  # parent of 'Migrate OpenAI instrumentation to OTel 1.40 semantic conventions' (#909)
OLLM_JS_HEAD = "1faf69deed3401593a9e3551130f5fcc2925f60a"

UPDATE_RESULT = {"ok": True}
CALL_UPDATE = {"id": "call_3", "type": "function",
               "function": {"name": "update_customer", "arguments": jcompact(UPDATE_ARGS)}}


def flat_tool_calls(prefix, tool_calls, keys):
    """OpenAI tool calls as indexed attributes, prefix % j for call j: keys name the attributes of a call's id,
    function name and arguments (the API's string); a key of None is not recorded."""
    a = {}
    for j, tc in enumerate(tool_calls or []):
        for key, value in zip(keys, (tc["id"], tc["function"]["name"], tc["function"]["arguments"])):
            if key:
                a[prefix % j + key] = value
    return a


def flat_messages(prefix, messages, fields, call_keys):
    """Chat Completions messages as indexed attributes, the way OpenLLMetry's and OpenInference's Python
    openai instrumentations flatten them: under prefix % i, message i's role, then each of fields whose value
    is set and not empty, then its tool calls (flat_tool_calls with call_keys)."""
    a = {}
    for i, m in enumerate(messages):
        p = prefix % i
        a[p + "role"] = m["role"]
        for field in fields:
            if m.get(field):
                a[p + field] = m[field]
        a.update(flat_tool_calls(p + "tool_calls.%d.", m.get("tool_calls"), call_keys))
    return a


OLLM_CALL_KEYS = ("id", "name", "arguments")


def ollm_py_prompts(messages):
    """chat_wrappers._set_prompts (0.54.0): role, content if truthy, tool_call_id, tool_calls.{j}.id/name/arguments."""
    return flat_messages("gen_ai.prompt.%d.", messages, ("content", "tool_call_id"), OLLM_CALL_KEYS)


def ollm_py_completion(finish, content=None, tool_calls=None):
    """chat_wrappers._set_completions (0.54.0); _set_span_attribute skips None and ''."""
    p = "gen_ai.completion.0."
    a = {p + "finish_reason": finish, p + "role": "assistant"}
    if content:
        a[p + "content"] = content
    a.update(flat_tool_calls(p + "tool_calls.%d.", tool_calls, OLLM_CALL_KEYS))
    return a


def ollm_js_prompts(messages):
    """instrumentation.ts startSpan (0.22.5): role, and content (a string, else JSON.stringify: null -> "null"); nothing else."""
    a = {}
    for i, m in enumerate(messages):
        p = "gen_ai.prompt.%d" % i
        a[p + ".role"] = m["role"]
        c = m.get("content")
        a[p + ".content"] = c if isinstance(c, str) else jcompact(c)
    return a


def ollm_js_completion(finish, content=None, tool_calls=None):
    """instrumentation.ts _endSpan (0.22.5): finish_reason, role, content ?? '', tool_calls.{j}.name/arguments (no id)."""
    p = "gen_ai.completion.0."
    a = {p + "finish_reason": finish, p + "role": "assistant", p + "content": content or ""}
    a.update(flat_tool_calls(p + "tool_calls.%d.", tool_calls, (None, "name", "arguments")))
    return a


def openai_history(dumps):
    """The chat-completions messages of the three calls; tool message content = dumps(result)."""
    user = {"role": "user", "content": USER_TEXT}
    a1 = {"role": "assistant", "content": None, "tool_calls": OAI_CALLS}
    h2 = [user, a1,
          {"role": "tool", "tool_call_id": "call_1", "content": dumps(RECORD)},
          {"role": "tool", "tool_call_id": "call_2", "content": dumps(WEATHER)}]
    a2 = {"role": "assistant", "content": None, "tool_calls": [CALL_UPDATE]}
    h3 = h2 + [a2, {"role": "tool", "tool_call_id": "call_3", "content": dumps(UPDATE_RESULT)}]
    return [user], h2, h3


def case_openllmetry():
    # --- Python: traceloop-sdk decorators + opentelemetry-instrumentation-openai 0.54.0
    t = 8
    T, (agent, c1, tk1, tk2, c2, tk3, c3) = trace_ids(t, 7)
    h1, h2, h3 = openai_history(jdump)
    sdk_scope = {"name": "traceloop.tracer"}
    oai_scope = {"name": "opentelemetry.instrumentation.openai.v1", "version": "0.54.0"}
    ctx = {"gen_ai.agent.name": "support_agent"}  # default_span_processor_on_start, from the agent context

    def task(s, name, start, end, kwargs, result):
        # entity_method -> _setup_span (name '<entity>.task', kind, entity name), _handle_span_input/output
        return span(T, s, name + ".task", start, end, {
            **ctx, "traceloop.span.kind": "task", "traceloop.entity.name": name,
            "traceloop.entity.input": jdump({"args": [], "kwargs": kwargs}),
            "traceloop.entity.output": jdump(result)}, parent=agent)

    def chat(s, start, end, rid, prompts, completion, tin, tout):
        return span(T, s, "openai.chat", start, end, {
            "llm.request.type": "chat", **ctx,
            "gen_ai.openai.api_base": "https://api.openai.com/v1/", "gen_ai.system": "openai",
            "gen_ai.request.model": "gpt-4o", "llm.headers": "None", "llm.is_streaming": False,
            **prompts,
            "gen_ai.response.model": "gpt-4o-2024-08-06", "gen_ai.response.id": rid,
            "llm.usage.total_tokens": tin + tout, "gen_ai.usage.output_tokens": tout,
            "gen_ai.usage.input_tokens": tin,
            **completion}, parent=agent, kind=3)

    spans_sdk = [
        span(T, agent, "support_agent.agent", 0, 1300, {
            **ctx, "traceloop.span.kind": "agent", "traceloop.entity.name": "support_agent",
            "traceloop.entity.input": jdump({"args": [USER_TEXT], "kwargs": {}}),
            "traceloop.entity.output": jdump(FINAL_TEXT)}),
        task(tk1, "find_customer", 310, 340, FIND_ARGS, RECORD),
        task(tk2, "get_weather", 341, 360, WEATHER_ARGS, WEATHER),
        task(tk3, "update_customer", 700, 730, UPDATE_ARGS, UPDATE_RESULT),
    ]
    spans_oai = [
        chat(c1, 10, 300, "chatcmpl-1", ollm_py_prompts(h1), ollm_py_completion("tool_calls", tool_calls=OAI_CALLS), 52, 41),
        chat(c2, 370, 690, "chatcmpl-2", ollm_py_prompts(h2), ollm_py_completion("tool_calls", tool_calls=[CALL_UPDATE]), 231, 38),
        chat(c3, 740, 1290, "chatcmpl-3", ollm_py_prompts(h3), ollm_py_completion("stop", content=FINAL_TEXT), 270, 19),
    ]
    fp = OUT.write("openllmetry-completion-tool-calls-python.traces.json", [traces([(sdk_scope, spans_sdk), (oai_scope, spans_oai)])])

    # --- JavaScript: @traceloop/node-server-sdk withAgent / withTask + @traceloop/instrumentation-openai 0.22.5
    t = 9
    T, (agent, c1, tk1, tk2, c2, tk3, c3) = trace_ids(t, 7)
    h1, h2, h3 = openai_history(jcompact)
    sdk_scope = {"name": "@traceloop/node-server-sdk", "version": "0.22.8"}
    oai_scope = {"name": "@traceloop/instrumentation-openai", "version": "0.22.5"}
    ctx = {"traceloop.workflow.name": "support-agent", "gen_ai.agent.name": "support-agent"}

    def jtask(s, name, start, end, kwargs, result):
        # withEntity(TASK): name '<name>.task', entity name, entity path '' (no enclosing task), kind,
        # agent name from the context; input {args:[], kwargs: <the single object argument>}
        return span(T, s, name + ".task", start, end, {
            "traceloop.entity.name": name, "traceloop.entity.path": "", "traceloop.span.kind": "task",
            "gen_ai.agent.name": "support-agent",
            "traceloop.entity.input": jcompact({"args": [], "kwargs": kwargs}),
            "traceloop.entity.output": jcompact(result)}, parent=agent)

    def jchat(s, start, end, prompts, completion, tin, tout):
        return span(T, s, "openai.chat", start, end, {
            "gen_ai.system": "OpenAI", "llm.request.type": "chat", "gen_ai.request.model": "gpt-4o",
            **prompts, **ctx,
            "gen_ai.response.model": "gpt-4o-2024-08-06", "llm.usage.total_tokens": tin + tout,
            "gen_ai.usage.completion_tokens": tout, "gen_ai.usage.prompt_tokens": tin,
            **completion}, parent=agent, kind=3)

    spans_sdk = [
        span(T, agent, "support-agent.agent", 0, 1300, {
            "traceloop.workflow.name": "support-agent", "traceloop.entity.name": "support-agent",
            "traceloop.entity.path": "", "traceloop.span.kind": "agent", "gen_ai.agent.name": "support-agent",
            "traceloop.entity.input": jcompact({"args": [], "kwargs": {"question": USER_TEXT}}),
            "traceloop.entity.output": jcompact(FINAL_TEXT)}),
        jtask(tk1, "find_customer", 310, 340, FIND_ARGS, RECORD),
        jtask(tk2, "get_weather", 341, 360, WEATHER_ARGS, WEATHER),
        jtask(tk3, "update_customer", 700, 730, UPDATE_ARGS, UPDATE_RESULT),
    ]
    spans_oai = [
        jchat(c1, 10, 300, ollm_js_prompts(h1), ollm_js_completion("tool_calls", tool_calls=OAI_CALLS), 52, 41),
        jchat(c2, 370, 690, ollm_js_prompts(h2), ollm_js_completion("tool_calls", tool_calls=[CALL_UPDATE]), 231, 38),
        jchat(c3, 740, 1290, ollm_js_prompts(h3), ollm_js_completion("stop", content=FINAL_TEXT), 270, 19),
    ]
    fj = OUT.write("openllmetry-completion-tool-calls-js.traces.json", [traces([(sdk_scope, spans_sdk), (oai_scope, spans_oai)])])

    add_case(
        "openllmetry-completion-tool-calls", [fp, fj],
        [
            {"repo": OLLM_PY, "path": "packages/opentelemetry-instrumentation-openai/opentelemetry/instrumentation/openai/shared/chat_wrappers.py", "ref": OLLM_PY_REF,
             "what": "SPAN_NAME openai.chat (CLIENT); _set_prompts: gen_ai.prompt.{i}.role/content/tool_call_id/tool_calls.{j}.id|name|arguments; _set_completions: gen_ai.completion.{index}.finish_reason/role/content/tool_calls.{j}.id|name|arguments (function.arguments as the API returned it)"},
            {"repo": OLLM_PY, "path": "packages/opentelemetry-instrumentation-openai/opentelemetry/instrumentation/openai/shared/__init__.py", "ref": OLLM_PY_REF,
             "what": "_set_request_attributes / _set_response_attributes (gen_ai.system 'openai', gen_ai.openai.api_base, llm.headers str(None), llm.is_streaming, usage keys)"},
            {"repo": OLLM_PY, "path": "packages/traceloop-sdk/traceloop/sdk/decorators/base.py", "ref": OLLM_PY_HEAD,
             "what": "_setup_span: span '<entity>.<kind>', traceloop.span.kind / entity.name; _handle_span_input: json.dumps({'args': args, 'kwargs': kwargs}); _handle_span_output: json.dumps(result)"},
            {"repo": OLLM_PY, "path": "packages/traceloop-sdk/traceloop/sdk/tracing/tracing.py", "ref": OLLM_PY_HEAD,
             "what": "TRACER_NAME traceloop.tracer; default_span_processor_on_start copies gen_ai.agent.name (agent context) onto every span"},
            {"repo": OLLM_JS, "path": "packages/instrumentation-openai/src/instrumentation.ts", "ref": OLLM_JS_REF,
             "what": "startSpan 'openai.chat': gen_ai.prompt.{i}.role/content only (assistant tool calls and tool_call_id not recorded; null content -> \"null\"); _endSpan: gen_ai.completion.{i}.finish_reason/role/content ?? ''/tool_calls.{j}.name|arguments (no id)"},
            {"repo": OLLM_JS, "path": "packages/traceloop-sdk/src/lib/tracing/decorators.ts", "ref": OLLM_JS_REF,
             "what": "withEntity (withAgent/withTask): '<name>.<type>', traceloop.entity.input = JSON.stringify({args: [], kwargs: <single object arg>}) else {args, kwargs: {}}; output = JSON.stringify(result); unchanged at HEAD " + OLLM_JS_HEAD[:9]},
        ],
        "Two files, one trace each (agent root; openai.chat, <tool>.task spans as its children). The model's "
        "second reply calls update_customer with arguments carrying customer data: "
        "gen_ai.completion.0.tool_calls.0.arguments = '{\"email\":\"jane.roe@example-mail.test\",\"notes\":\"VIP; "
        "disputes every invoice since March\"}' (and again in the third call's gen_ai.prompt.4.tool_calls.0.arguments "
        "in Python). The record appears as traceloop.entity.output of find_customer.task, and as "
        "gen_ai.prompt.2.content (role tool) of the 2nd and 3rd chat spans; Python also writes "
        "gen_ai.prompt.2.tool_call_id = call_1, JS writes neither the tool_call_id nor the assistant's tool "
        "calls in prompts (assistant content is the string \"null\"), so in JS the tool message can only be "
        "matched by position. update_customer.task's traceloop.entity.input carries the email and notes. "
        "update_customer is NOT configured as a data-class tool (data_class_tools lists only find_customer): the "
        "secrets in its arguments are values that came out of find_customer's result. These are the PRE-migration "
        "shapes: since March 2026 both instrumentations write gen_ai.input.messages / gen_ai.output.messages "
        "JSON strings instead (Python: finish_reason mapped, e.g. tool_calls -> tool_call).",
    )


# ---------------------------------------------------------------------------
# OpenInference: openinference-instrumentation-openai (Python) LLM spans and openinference-instrumentation
# (OITracer) @tracer.agent / @tracer.tool spans.

OI = "Arize-ai/openinference"
OI_REF = "1fe497f1d9f45a07eee55d97fe185e020560f9c7"
OI_OPENAI = "python/instrumentation/openinference-instrumentation-openai/src/openinference/instrumentation/openai/"
OI_CORE = "python/openinference-instrumentation/src/openinference/instrumentation/"


def oi_json(v):
    # safe_json_dumps / _json_serialize: json.dumps(..., ensure_ascii=False), default separators
    return json.dumps(v, ensure_ascii=False)


def oi_tool_schema(name, props):
    # _infer_tool_parameters: {"type":"object","title":name,"properties":{...},"required":[...]}
    return {"type": "object", "title": name, "properties": {k: {"type": "string"} for k in props}, "required": list(props)}


OI_TOOLS = [
    {"type": "function", "function": {"name": n, "parameters": {"type": "object", "properties": {k: {"type": "string"} for k in p}, "required": list(p)}}}
    for n, p in (("find_customer", ["query"]), ("get_weather", ["city"]), ("update_customer", ["email", "notes"]))
]


OI_CALL_KEYS = ("tool_call.id", "tool_call.function.name", "tool_call.function.arguments")


def oi_input_messages(messages):
    """_request_attributes_extractor._get_attributes_from_message_param: role, tool_call_id, content (if
    truthy), tool_calls.{j}.tool_call.id / function.name / function.arguments."""
    return flat_messages("llm.input_messages.%d.message.", messages, ("tool_call_id", "content"), OI_CALL_KEYS)


def oi_output(finish, content=None, tool_calls=None):
    """_response_attributes_extractor: llm.output_messages.{index}.message.role / content / tool_calls.{j}.tool_call.*,
    then llm.finish_reason of choice 0."""
    p = "llm.output_messages.0.message."
    a = {p + "role": "assistant"}
    if content:
        a[p + "content"] = content
    a.update(flat_tool_calls(p + "tool_calls.%d.", tool_calls, OI_CALL_KEYS))
    a["llm.finish_reason"] = finish
    return a


def oi_response_json(rid, finish, content, tool_calls, tin, tout):
    """ChatCompletion.model_dump_json(exclude_unset=True): compact, pydantic field order."""
    msg = {"content": content, "refusal": None, "role": "assistant"}
    if tool_calls:
        msg["tool_calls"] = [{"id": tc["id"], "function": {"arguments": tc["function"]["arguments"], "name": tc["function"]["name"]}, "type": "function"} for tc in tool_calls]
    resp = {"id": rid, "choices": [{"finish_reason": finish, "index": 0, "logprobs": None, "message": msg}],
            "created": 1767225600, "model": "gpt-4o-2024-08-06", "object": "chat.completion",
            "usage": {"completion_tokens": tout, "prompt_tokens": tin, "total_tokens": tin + tout}}
    return json.dumps(resp, separators=(",", ":"), ensure_ascii=False)


def oi_llm_span(T, s, parent, start, end, messages, rid, finish, content, tool_calls, tin, tout):
    request = {"messages": messages, "model": "gpt-4o", "tools": OI_TOOLS}
    a = {
        "openinference.span.kind": "LLM", "llm.system": "openai",
        "input.value": oi_json(request), "input.mime_type": "application/json",
        "output.value": oi_response_json(rid, finish, content, tool_calls, tin, tout),
        "output.mime_type": "application/json",
    }
    for i, t in enumerate(OI_TOOLS):
        a["llm.tools.%d.tool.json_schema" % i] = oi_json(t)
    a["llm.invocation_parameters"] = oi_json({"model": "gpt-4o"})
    a.update(oi_input_messages(messages))
    a["llm.provider"] = "openai"
    a.update({"llm.model_name": "gpt-4o-2024-08-06", "llm.token_count.total": tin + tout,
              "llm.token_count.prompt": tin, "llm.token_count.completion": tout})
    a.update(oi_output(finish, content, tool_calls))
    return span(T, s, "ChatCompletion", start, end, a, parent=parent, status={"code": 1})


def case_openinference():
    t = 10
    T, (agent, c1, tl1, tl2, c2, tl3, c3) = trace_ids(t, 7)
    h1, h2, h3 = openai_history(jdump)
    app = {"name": "support_app"}
    oai = {"name": "openinference.instrumentation.openai", "version": "0.1.54"}

    def tool(s, name, start, end, args, result):
        # _tool_context: input = get_input_attributes(bound arguments), tool.name, tool.parameters; on return
        # _ToolContext.process_output -> set_output -> get_output_attributes(result)
        return span(T, s, name, start, end, {
            "input.value": oi_json(args), "input.mime_type": "application/json",
            "tool.name": name, "tool.parameters": oi_json(oi_tool_schema(name, list(args))),
            "openinference.span.kind": "TOOL",
            "output.value": oi_json(result), "output.mime_type": "application/json",
        }, parent=agent, status={"code": 1})

    spans_app = [
        # @tracer.agent on support_agent(question): one bound argument, a str -> input.value text/plain
        span(T, agent, "support_agent", 0, 1300, {
            "input.value": USER_TEXT, "input.mime_type": "text/plain", "openinference.span.kind": "AGENT",
            "output.value": FINAL_TEXT, "output.mime_type": "text/plain"}, status={"code": 1}),
        tool(tl1, "find_customer", 310, 340, FIND_ARGS, RECORD),
        tool(tl2, "get_weather", 341, 360, WEATHER_ARGS, WEATHER),
        tool(tl3, "update_customer", 700, 730, UPDATE_ARGS, UPDATE_RESULT),
    ]
    spans_oai = [
        oi_llm_span(T, c1, agent, 10, 300, h1, "chatcmpl-1", "tool_calls", None, OAI_CALLS, 52, 41),
        oi_llm_span(T, c2, agent, 370, 690, h2, "chatcmpl-2", "tool_calls", None, [CALL_UPDATE], 231, 38),
        oi_llm_span(T, c3, agent, 740, 1290, h3, "chatcmpl-3", "stop", FINAL_TEXT, None, 270, 19),
    ]
    f = OUT.write("openinference-output-tool-calls.traces.json", [traces([(app, spans_app), (oai, spans_oai)])])
    add_case(
        "openinference-output-tool-calls", [f],
        [
            {"repo": OI, "path": OI_OPENAI + "_response_attributes_extractor.py", "ref": OI_REF,
             "what": "_get_attributes_from_chat_completion_message: llm.output_messages.{index}.message.role / content / message.tool_calls.{j}.tool_call.id / tool_call.function.name / tool_call.function.arguments (the API's string); llm.finish_reason for choice 0; llm.model_name, llm.token_count.*"},
            {"repo": OI, "path": OI_OPENAI + "_request_attributes_extractor.py", "ref": OI_REF,
             "what": "llm.input_messages.{i}.message.role / tool_call_id / content / tool_calls.{j}.tool_call.*; llm.tools.{i}.tool.json_schema; llm.invocation_parameters without messages and tools"},
            {"repo": OI, "path": OI_OPENAI + "_request.py", "ref": OI_REF,
             "what": "span name = cast_to class name (ChatCompletion); openinference.span.kind LLM, llm.system openai, llm.provider; input.value = the request parameters as JSON, output.value = response.model_dump_json(exclude_unset=True)"},
            {"repo": OI, "path": OI_OPENAI + "_utils.py", "ref": OI_REF, "what": "_io_value_and_type, _as_input_attributes / _as_output_attributes (mime application/json)"},
            {"repo": OI, "path": OI_CORE + "_tracers.py", "ref": OI_REF,
             "what": "@tracer.agent (_chain_context: one bound argument -> that value as input) and @tracer.tool (_tool_context: input = bound arguments as JSON, tool.name, tool.parameters = _infer_tool_parameters JSON schema; output = result)"},
            {"repo": OI, "path": OI_CORE + "_attributes.py", "ref": OI_REF,
             "what": "get_input_attributes / get_output_attributes: str -> text/plain, Mapping -> json.dumps(ensure_ascii=False) application/json; get_tool_attributes"},
        ],
        "One trace: AGENT support_agent > LLM ChatCompletion x3 and TOOL find_customer / get_weather / update_customer "
        "(all children of the agent span). The model's second reply calls update_customer: "
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments = '{\"email\":\"jane.roe@example-mail.test\","
        "\"notes\":\"VIP; disputes every invoice since March\"}', the same arguments inside that span's output.value "
        "(response JSON, escaped) and in the third call's llm.input_messages.4.message.tool_calls.0.tool_call.function.arguments "
        "and input.value; update_customer's TOOL span input.value holds them too. The record is find_customer's TOOL "
        "span output.value, llm.input_messages.2.message.content (role tool, tool_call_id call_1) of the 2nd and 3rd "
        "LLM spans, and inside their input.value (the request JSON, where it is a JSON string inside JSON). "
        "update_customer is not configured as a data-class tool. The TOOL spans carry no tool call id (the decorator "
        "does not know it).",
    )


# ---------------------------------------------------------------------------
# Mastra: @mastra/observability spans exported by @mastra/otel-exporter, keys as in the repo's real
# capture testdata/sdk/mastra-otel/traces.json (@mastra/otel-exporter 1.4.0) and gen-ai-semantics.ts.

MASTRA_SCOPE = {"name": "@mastra/otel-exporter", "version": "1.4.0"}
MASTRA_SYS = "You are a support agent. Never repeat customer personal data in replies."


def case_mastra():
    t = 11
    T = tid(t)
    ids = iter(sid(t, i) for i in range(1, 40))
    run = {"mastra.metadata.runId": "run-support-0001", "mastra.metadata.sessionId": "run-support-0001"}
    model_meta = {"mastra.metadata.modelMetadata": jcompact({"modelId": "gpt-4o", "modelVersion": "v2", "modelProvider": "openai"})}
    agent = next(ids)
    gen = next(ids)
    spans = []
    calls = [("call_1", "find_customer", FIND_ARGS, RECORD, "Look up a customer by name."),
             ("call_2", "get_weather", WEATHER_ARGS, WEATHER, "Current weather for a city.")]
    history = [{"role": "system", "content": MASTRA_SYS}, {"role": "user", "content": USER_TEXT}]
    clock = 10
    tin = 100
    for step, call in enumerate(calls + [None]):
        st, ch = next(ids), next(ids)
        start = clock
        if call:
            cid, name, args, result, desc = call
            step_out = {"text": "", "toolCalls": [{"toolCallId": cid, "toolName": name, "args": args}]}
            out_msgs = [{"role": "assistant", "parts": [{"type": "text", "content": ""}]}]
            finish = "tool-calls"
            tout = 15
        else:
            step_out = {"text": FINAL_TEXT, "toolCalls": []}
            out_msgs = [{"role": "assistant", "parts": [{"type": "text", "content": FINAL_TEXT}]}]
            finish = "stop"
            tout = 20
        # chunk spans (children of the chat span): tool-call chunk with output, tool-result chunk without
        if call:
            c1, c2, tl = next(ids), next(ids), next(ids)
            spans.append(span(T, c1, "model_chunk support-agent", start + 5, start + 6, {
                "gen_ai.operation.name": "model_chunk", "mastra.span.type": "model_chunk",
                "mastra.model_chunk.output": jcompact({"toolName": name, "toolCallId": cid, "toolInput": args}),
                **run}, parent=ch, status={"code": 1}))
            spans.append(span(T, tl, "execute_tool " + name, start + 7, start + 8, {
                "gen_ai.operation.name": "execute_tool", "mastra.span.type": "tool_call",
                "gen_ai.tool.call.arguments": jcompact(args), "gen_ai.tool.call.result": jcompact(result),
                "gen_ai.tool.name": name, "gen_ai.tool.call.id": cid, "gen_ai.tool.description": desc,
                "gen_ai.tool.type": "tool", **run}, parent=st, status={"code": 1}))
            spans.append(span(T, c2, "model_chunk support-agent", start + 9, start + 9, {
                "gen_ai.operation.name": "model_chunk", "mastra.span.type": "model_chunk", **run,
                "mastra.metadata.toolCallId": cid, "mastra.metadata.toolName": name}, parent=ch))
        else:
            c1 = next(ids)
            spans.append(span(T, c1, "model_chunk support-agent", start + 5, start + 6, {
                "gen_ai.operation.name": "model_chunk", "mastra.span.type": "model_chunk",
                "mastra.model_chunk.output": jcompact({"text": FINAL_TEXT}), **run}, parent=ch, status={"code": 1}))
        spans.append(span(T, ch, "chat gpt-4o", start + 1, start + 10, {
            "gen_ai.operation.name": "chat", "mastra.span.type": "model_inference",
            "gen_ai.output.messages": jcompact(out_msgs), "gen_ai.request.model": "gpt-4o",
            "gen_ai.provider.name": "openai", "gen_ai.usage.input_tokens": tin, "gen_ai.usage.output_tokens": tout,
            "gen_ai.agent.id": "support-agent", "gen_ai.agent.name": "support-agent",
            "mastra.completion_start_time": "2026-01-01T00:00:00.%03dZ" % (start + 2),
            "gen_ai.response.finish_reasons": jcompact([finish]), "gen_ai.response.model": "gpt-4o", **run},
            parent=st, kind=3, status={"code": 1}))
        spans.append(span(T, st, "agent_step support-agent", start, start + 11, {
            "gen_ai.operation.name": "agent_step", "mastra.span.type": "model_step",
            "mastra.model_step.input": jcompact(history), "mastra.model_step.output": jcompact(step_out),
            "mastra.model_step.step_index": step, "mastra.model_step.is_continued": call is not None,
            **run, **model_meta}, parent=gen, status={"code": 1}))
        if call:
            # what the next step's input shows of this round: placeholders, not the result
            history = history + [{"role": "assistant", "content": "[tool: %s]" % name},
                                 {"role": "tool", "content": "[tool-result: %s]" % name}]
        clock += 20
        tin += 20
    all_calls = [{"toolCallId": c[0], "toolName": c[1], "args": c[2]} for c in calls]
    spans.append(span(T, gen, "model_generation gpt-4o", 5, clock, {
        "gen_ai.operation.name": "model_generation", "mastra.span.type": "model_generation",
        "mastra.model_generation.input": jcompact({"messages": [
            {"role": "system", "content": MASTRA_SYS},
            {"role": "user", "content": [{"type": "text", "text": USER_TEXT, "providerOptions": {"mastra": {"createdAt": 1767225600000}}}]}]}),
        "mastra.model_generation.output": jcompact({"files": [], "reasoning": [], "sources": [], "text": FINAL_TEXT,
                                                    "warnings": [], "toolCalls": all_calls}),
        **run}, parent=agent, status={"code": 1}))
    spans.append(span(T, agent, "invoke_agent support-agent", 0, clock + 5, {
        "gen_ai.operation.name": "invoke_agent", "mastra.span.type": "agent_run",
        "mastra.agent_run.input": USER_TEXT, "mastra.agent_run.output": jcompact({"text": FINAL_TEXT, "files": []}),
        "gen_ai.agent.id": "support-agent", "gen_ai.agent.name": "support-agent",
        "gen_ai.tool.definitions": jcompact(["find_customer", "get_weather"]),
        "gen_ai.system_instructions": MASTRA_SYS, **run}, status={"code": 1}))
    fa = OUT.write("mastra-agent.traces.json", [traces([(dict(MASTRA_SCOPE), spans)])])

    # A workflow whose first step is the find_customer tool (createStep(tool)); its output becomes the next step's input.
    t = 12
    T = tid(t)
    wf, s1, s2 = sid(t, 1), sid(t, 2), sid(t, 3)
    wrun = {"mastra.metadata.runId": "run-lookup-0001"}
    reply = {"text": FINAL_TEXT}
    wspans = [
        span(T, s1, "workflow_step find_customer", 10, 40, {
            "gen_ai.operation.name": "workflow_step", "mastra.span.type": "workflow_step",
            "mastra.workflow_step.input": jcompact(FIND_ARGS), "mastra.workflow_step.output": jcompact(RECORD),
            "mastra.workflow_step.step_id": "find_customer", "mastra.workflow_step.status": "success", **wrun},
            parent=wf, status={"code": 1}),
        span(T, s2, "workflow_step compose-reply", 41, 60, {
            "gen_ai.operation.name": "workflow_step", "mastra.span.type": "workflow_step",
            "mastra.workflow_step.input": jcompact(RECORD), "mastra.workflow_step.output": jcompact(reply),
            "mastra.workflow_step.step_id": "compose-reply", "mastra.workflow_step.status": "success", **wrun},
            parent=wf, status={"code": 1}),
        span(T, wf, "invoke_workflow customer-lookup", 0, 70, {
            "gen_ai.operation.name": "invoke_workflow", "mastra.span.type": "workflow_run",
            "mastra.workflow_run.input": jcompact(FIND_ARGS), "mastra.workflow_run.output": jcompact(reply),
            "mastra.workflow_run.status": "success", **wrun}, status={"code": 1}),
    ]
    fw = OUT.write("mastra-workflow.traces.json", [traces([(dict(MASTRA_SCOPE), wspans)])])
    add_case(
        "mastra", [fa, fw],
        [
            {"repo": "agentotel/agentotel", "path": "testdata/sdk/mastra-otel/traces.json", "ref": "main",
             "what": "real capture (@mastra/core 1.71.0, @mastra/observability 1.17.9, @mastra/otel-exporter 1.4.0): span names, the mastra.* keys, kinds, parents, and that tool results reach mastra.model_step.input only as '[tool-result: <tool>]'"},
            {"repo": "mastra-ai/mastra", "path": "observability/otel-exporter/src/gen-ai-semantics.ts", "ref": "newest version in the search index (its commit is not reported; it has MODEL_INFERENCE and matches the capture)",
             "what": "getAttributes: input/output -> gen_ai.input/output.messages (model call), gen_ai.tool.call.arguments/result (tool calls), else mastra.<span_type>.input / .output (JSON.stringify unless a string); workflow_step: mastra.workflow_step.step_id / status, span name 'workflow_step <entityId>'; workflow_run: 'invoke_workflow <name>', mastra.workflow_run.status; model_step: operation agent_step, mastra.model_step.step_index / is_continued"},
            {"repo": "mastra-ai/mastra", "path": "observability/mastra/src/__snapshots__/agent-workflow-tool-trace.json", "ref": "0860a2f69cb39c34a4f53485ba51ce33b9ca6dd1",
             "what": "Mastra's own span data: workflow_step input/output and workflow_run output (= last step's output), tool-result chunk spans are events without output"},
        ],
        "mastra-agent: one agent run as the capture shows it (invoke_agent > model_generation > agent_step x3 > chat, "
        "model_chunk, execute_tool), the model calling find_customer then get_weather in separate steps. The record "
        "is ONLY in gen_ai.tool.call.result of 'execute_tool find_customer' (a GenAI key on Mastra's span): no mastra.* "
        "key of an agent run carries a tool result (mastra.model_step.input shows '[tool-result: find_customer]', "
        "mastra.model_generation.output lists toolCalls but no results, the tool-result model_chunk has no output). "
        "mastra-workflow: a workflow whose step find_customer (a tool used as a step) outputs the record: "
        "mastra.workflow_step.output of 'workflow_step find_customer' and mastra.workflow_step.input of the next step "
        "'compose-reply' (a step's input is the previous step's output). No gen_ai.tool.name there: the step is known "
        "only by mastra.workflow_step.step_id = find_customer. The workflow file is built from the exporter source, "
        "not captured.",
    )


# ---------------------------------------------------------------------------
# pydantic-ai: InstrumentationSettings version 1 (all_messages_events / events, pydantic-ai <= 1.107.0;
# removed in 2.0.0) and version 5 (the default at HEAD, 2.33.0: pydantic_ai.all_messages,
# gen_ai.input/output.messages, execute_tool spans with gen_ai.tool.call.*).

PAI = "pydantic/pydantic-ai"
PAI_HEAD = "4fda38988f2939fa6ea9cdefcf120693e10ef491"
PAI_1107 = "394cc1d31656620704a703a2daed752afa5135fe"  # v1.107.5
PAI_V1 = "e2b661cb7^"  # parent of 'Pydantic AI V2 (#5451)', = v1.107.0 + unreleased


def pai_json(v):
    # pydantic_core.to_json: compact
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def case_pydantic_ai():
    args1 = jcompact(FIND_ARGS)  # ToolCallPart.args as the OpenAI API returned it (a JSON string)
    args2 = jcompact(WEATHER_ARGS)

    # --- version 1 (pydantic-ai 1.107.0, InstrumentationSettings(version=1), event_mode='attributes')
    t = 13
    T, (agent, c1, tl1, tl2, c2) = trace_ids(t, 5)
    scope = {"name": "pydantic-ai", "version": "1.107.0"}
    ev_user = {"content": USER_TEXT, "role": "user"}
    ev_calls = {"role": "assistant", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "find_customer", "arguments": args1}},
        {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": args2}}]}
    ev_tool1 = {"role": "tool", "id": "call_1", "name": "find_customer", "content": RECORD}
    ev_tool2 = {"role": "tool", "id": "call_2", "name": "get_weather", "content": WEATHER}
    ev_final = {"role": "assistant", "content": FINAL_TEXT}

    def ev(body, idx, name, system=False):
        # messages_to_otel_events: attributes {gen_ai.message.index, event.name}; handle_messages prepends
        # gen_ai.system; event_to_dict = {**body, **attributes}
        attrs = ({"gen_ai.system": "openai"} if system else {})
        if idx is not None:
            attrs["gen_ai.message.index"] = idx
        attrs["event.name"] = name
        return {**body, **attrs}

    all_events = [ev(ev_user, 0, "gen_ai.user.message"), ev(ev_calls, 1, "gen_ai.assistant.message"),
                  ev(ev_tool1, 2, "gen_ai.tool.message"), ev(ev_tool2, 2, "gen_ai.tool.message"),
                  ev(ev_final, 3, "gen_ai.assistant.message")]
    events1 = [ev(ev_user, 0, "gen_ai.user.message", True),
               ev({"index": 0, "message": ev_calls}, None, "gen_ai.choice", True)]
    events2 = [ev(ev_user, 0, "gen_ai.user.message", True), ev(ev_calls, 1, "gen_ai.assistant.message", True),
               ev(ev_tool1, 2, "gen_ai.tool.message", True), ev(ev_tool2, 2, "gen_ai.tool.message", True),
               ev({"index": 0, "message": ev_final}, None, "gen_ai.choice", True)]
    schema_events = json.dumps({"type": "object", "properties": {"events": {"type": "array"}, "model_request_parameters": {"type": "object"}}})

    def chat_v1(s, start, end, events, rid, finish, tin, tout):
        return span(T, s, "chat gpt-4o", start, end, {
            "gen_ai.operation.name": "chat", "gen_ai.system": "openai", "gen_ai.request.model": "gpt-4o",
            "server.address": "api.openai.com",
            "events": json.dumps(events), "logfire.json_schema": schema_events,
            "gen_ai.usage.input_tokens": tin, "gen_ai.usage.output_tokens": tout,
            "gen_ai.response.model": "gpt-4o-2024-08-06", "gen_ai.response.id": rid,
            "gen_ai.response.finish_reasons": [finish]}, parent=agent, kind=3)

    def tool_v1(s, start, end, cid, name, args, result):
        return span(T, s, "running tool", start, end, {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": cid,
            "tool_arguments": args, "logfire.msg": "running tool: " + name,
            "tool_response": pai_json(result)}, parent=agent)

    spans = [
        span(T, agent, "agent run", 0, 900, {
            "model_name": "gpt-4o", "agent_name": "support_agent", "gen_ai.agent.name": "support_agent",
            "gen_ai.agent.call.id": "run-support-0001", "gen_ai.conversation.id": "conv-support-0001",
            "gen_ai.operation.name": "invoke_agent", "logfire.msg": "support_agent run",
            "final_result": FINAL_TEXT,
            "gen_ai.aggregated_usage.input_tokens": 283, "gen_ai.aggregated_usage.output_tokens": 60,
            "all_messages_events": pai_json(all_events),
            "logfire.json_schema": pai_json({"type": "object", "properties": {"all_messages_events": {"type": "array"}, "final_result": {"type": "object"}}})}),
        chat_v1(c1, 10, 300, events1, "chatcmpl-1", "tool_call", 52, 41),
        tool_v1(tl1, 310, 340, "call_1", "find_customer", args1, RECORD),
        tool_v1(tl2, 341, 360, "call_2", "get_weather", args2, WEATHER),
        chat_v1(c2, 370, 890, events2, "chatcmpl-2", "stop", 231, 19),
    ]
    f1 = OUT.write("pydantic-ai-v1-all-messages-events.traces.json", [traces([(scope, spans)])])

    # --- version 5 (HEAD, 2.33.0, the default)
    t = 14
    T, (agent, c1, tl1, tl2, c2) = trace_ids(t, 5)
    scope = {"name": "pydantic-ai", "version": "2.33.0"}
    baggage = {"gen_ai.agent.name": "support_agent", "gen_ai.agent.call.id": "run-support-0001",
               "gen_ai.conversation.id": "conv-support-0001"}
    m_user = {"role": "user", "parts": [{"type": "text", "content": USER_TEXT}]}
    calls = [{"type": "tool_call", "id": "call_1", "name": "find_customer", "arguments": args1},
             {"type": "tool_call", "id": "call_2", "name": "get_weather", "arguments": args2}]
    m_calls = {"role": "assistant", "parts": calls, "finish_reason": "tool_call"}
    # version 5: tool returns stay in a 'user' message (version 6: role 'tool')
    m_results = {"role": "user", "parts": [
        {"type": "tool_call_response", "id": "call_1", "name": "find_customer", "result": RECORD},
        {"type": "tool_call_response", "id": "call_2", "name": "get_weather", "result": WEATHER}]}
    m_final = {"role": "assistant", "parts": [{"type": "text", "content": FINAL_TEXT}], "finish_reason": "stop"}
    schema_msgs = pai_json({"type": "object", "properties": {"gen_ai.input.messages": {"type": "array"}, "gen_ai.output.messages": {"type": "array"}}})

    def chat_v5(s, start, end, inp, out, rid, finish, tin, tout):
        return span(T, s, "chat gpt-4o", start, end, {
            "gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.system": "openai",
            "server.address": "api.openai.com", "gen_ai.request.model": "gpt-4o", **baggage,
            "gen_ai.input.messages": pai_json(inp), "gen_ai.output.messages": pai_json([out]),
            "logfire.json_schema": schema_msgs,
            "gen_ai.usage.input_tokens": tin, "gen_ai.usage.output_tokens": tout,
            "gen_ai.response.model": "gpt-4o-2024-08-06", "gen_ai.response.id": rid,
            "gen_ai.response.finish_reasons": [finish]}, parent=agent, kind=3)

    def tool_spans(name_of, args_key, result_key):
        """Tool spans named name_of(tool), the call's arguments and result in args_key and result_key."""
        def tool(s, start, end, cid, name, args, result):
            return span(T, s, name_of(name), start, end, {
                "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": cid,
                args_key: args, **baggage, "logfire.msg": "running tool: " + name,
                "logfire.json_schema": pai_json({"type": "object", "properties": {
                    args_key: {"type": "object"}, result_key: {"type": "object"},
                    "gen_ai.tool.name": {}, "gen_ai.tool.call.id": {}}}),
                result_key: pai_json(result)}, parent=agent)
        return tool

    all_msgs = [m_user, m_calls, m_results, m_final]

    def run_spans(agent_span_name, tool):
        return [
            span(T, agent, agent_span_name, 0, 900, {
                "model_name": "gpt-4o", "agent_name": "support_agent", **baggage,
                "gen_ai.operation.name": "invoke_agent", "logfire.msg": "support_agent run",
                "final_result": FINAL_TEXT,
                "gen_ai.aggregated_usage.input_tokens": 283, "gen_ai.aggregated_usage.output_tokens": 60,
                "pydantic_ai.all_messages": pai_json(all_msgs),
                "logfire.json_schema": pai_json({"type": "object", "properties": {"pydantic_ai.all_messages": {"type": "array"}, "final_result": {"type": "object"}}})}),
            chat_v5(c1, 10, 300, [m_user], m_calls, "chatcmpl-1", "tool_call", 52, 41),
            tool(tl1, 310, 340, "call_1", "find_customer", args1, RECORD),
            tool(tl2, 341, 360, "call_2", "get_weather", args2, WEATHER),
            chat_v5(c2, 370, 890, [m_user, m_calls, m_results], m_final, "chatcmpl-2", "stop", 231, 19),
        ]

    spans = run_spans("invoke_agent support_agent",
                      tool_spans(lambda name: "execute_tool " + name, "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"))
    f5 = OUT.write("pydantic-ai-v5-all-messages.traces.json", [traces([(scope, spans)])])

    # --- version 2 (pydantic-ai 1.x's default, 1.107.5): the chat spans of version 5, but the agent span
    # 'agent run' naming its agent in agent_name, and tool spans 'running tool' with tool_arguments /
    # tool_response (InstrumentationNames.for_version(2))
    t = 42
    T, (agent, c1, tl1, tl2, c2) = trace_ids(t, 5)
    scope = {"name": "pydantic-ai", "version": "1.107.5"}
    spans = run_spans("agent run", tool_spans(lambda name: "running tool", "tool_arguments", "tool_response"))
    f2 = OUT.write("pydantic-ai-v2-default.traces.json", [traces([(scope, spans)])])

    add_case(
        "pydantic-ai", [f1, f5, f2],
        [
            {"repo": PAI, "path": "pydantic_ai_slim/pydantic_ai/capabilities/instrumentation.py", "ref": PAI_V1,
             "what": "_run_span_end_attributes, version 1: all_messages_events = to_json([event_to_dict(e) for e in messages_to_otel_events(history)]) on the agent run span; removed by 'Pydantic AI V2 (#5451)'"},
            {"repo": PAI, "path": "pydantic_ai_slim/pydantic_ai/models/instrumented.py", "ref": PAI_V1,
             "what": "messages_to_otel_events (attributes gen_ai.message.index, event.name), handle_messages v1: gen_ai.choice {index: 0, message}, gen_ai.system prepended, _emit_events -> span attribute 'events' = json.dumps([...]) (event_mode 'attributes')"},
            {"repo": PAI, "path": "pydantic_ai_slim/pydantic_ai/messages.py", "ref": PAI_V1,
             "what": "ToolReturnPart.otel_event: gen_ai.tool.message body {role: tool, id, name, content: <the return value>}; ModelResponse.otel_events: gen_ai.assistant.message {role, tool_calls: [{id, type: function, function: {name, arguments}}]} / {role, content}; UserPromptPart: {content, role}"},
            {"repo": PAI, "path": "pydantic_ai_slim/pydantic_ai/_instrumentation.py", "ref": PAI_V1,
             "what": "event_to_dict = {**body, **attributes}; InstrumentationNames for version <= 2: 'agent run', 'running tool', tool_arguments / tool_response"},
            {"repo": PAI, "path": "pydantic_ai_slim/pydantic_ai/_instrumentation.py", "ref": PAI_1107,
             "what": "1.107.5: DEFAULT_INSTRUMENTATION_VERSION = 2; InstrumentationNames.for_version(2): 'agent run', agent_name, 'running tool', tool_arguments / tool_response; models/instrumented.py: version 2 writes gen_ai.input.messages / gen_ai.output.messages on model request spans and pydantic_ai.all_messages on the agent run span"},
            {"repo": PAI, "path": "pydantic_ai_slim/pydantic_ai/capabilities/instrumentation.py", "ref": PAI_HEAD,
             "what": "HEAD (2.33.0): agent span 'invoke_agent <name>' with final_result and pydantic_ai.all_messages = messages_to_otel_messages(history); tool spans 'execute_tool <name>' with gen_ai.tool.call.arguments (args_as_json_str) / gen_ai.tool.call.result"},
            {"repo": PAI, "path": "pydantic_ai_slim/pydantic_ai/models/instrumented.py", "ref": PAI_HEAD,
             "what": "versions 2-6 only (default 5); messages_to_otel_messages: tool returns in role 'user' (version 6: 'tool'), output messages with finish_reason; handle_messages: gen_ai.input.messages / gen_ai.output.messages JSON strings on 'chat <model>'"},
            {"repo": PAI, "path": "pydantic_ai_slim/pydantic_ai/messages.py", "ref": PAI_HEAD,
             "what": "ToolCallResponsePart {type: tool_call_response, id, name, result: serialize_any(content)} -- 'result', not the semconv 'response'; _tool_call_otel_part {type: tool_call, id, name, arguments (the str as received, else a dict)}"},
            {"repo": PAI, "path": "pydantic_ai_slim/pydantic_ai/_instrumentation.py", "ref": PAI_HEAD,
             "what": "model request span 'chat <model>' (CLIENT): provider/system/server/request.model, gen_ai.response.finish_reasons = [pydantic-ai's normalized reason]; scope 'pydantic-ai'"},
        ],
        "Three files, one trace each, an agent run with two model requests and two tool calls. v1 (pydantic-ai <= 1.107.0 "
        "with InstrumentationSettings(version=1); gone since 2.0.0): the record is in all_messages_events on the 'agent "
        "run' span ({role: tool, id: call_1, name: find_customer, content: <record object>, gen_ai.message.index, "
        "event.name: gen_ai.tool.message}, compact JSON), in the second 'chat gpt-4o' span's 'events' attribute (the same "
        "event with gen_ai.system, json.dumps spacing), and as tool_response of the first 'running tool' span. v5 (HEAD 2.33.0, "
        "default): in pydantic_ai.all_messages on 'invoke_agent support_agent', in the second chat span's "
        "gen_ai.input.messages as {type: tool_call_response, id: call_1, name: find_customer, result: <record object>} inside "
        "a role 'user' message (version 6 uses role 'tool'), and as gen_ai.tool.call.result of 'execute_tool find_customer'. "
        "Tool-call arguments are the API's JSON string in both. v2 (pydantic-ai 1.x's default, 1.107.5): the chat spans "
        "and pydantic_ai.all_messages of v5 on an 'agent run' span, and 'running tool' spans with the record as tool_response.",
    )


# ---------------------------------------------------------------------------
# Finish reasons (for agentguard): per convention one trace, a root span and three model calls,
# cut at the output limit, stopped normally, and an empty reply (no text, no tool call).

CUT_TEXT = "The deploy failed because the migration step timed out while"
DONE_TEXT = "The incident is resolved; the migration now runs before the deploy."
FINISH_USER = "Why did last night's deploy fail?"


# The replies of every finish-* trace, in order: (text, output tokens, the finish agentguard must read,
# whether the reply is empty).
FINISH_REPLIES = [(CUT_TEXT, 64, "length", False), (DONE_TEXT, 14, "stop", False), ("", 0, "stop", True)]


def finish_case(conv, scope, root_name, name, kind, model_attrs, reasons, sources, notes, scope_schema=None):
    """One trace: the application's root span and a model call `name` per FINISH_REPLIES entry, with the
    attributes model_attrs(reason, text, output tokens); reasons: the convention's own finish reason for a
    reply cut at the output limit and for one that stopped."""
    t = {"genai": 20, "openllmetry": 21, "openinference": 22, "anthropic": 23, "gemini": 24}[conv]
    T = tid(t)
    root = sid(t, 1)
    spans = [span(T, root, root_name, 0, 1000, {})]
    expect = []
    for i, (text, tout, finish, empty) in enumerate(FINISH_REPLIES):
        s = sid(t, i + 2)
        a = model_attrs(reasons[0] if finish == "length" else reasons[1], text, tout)
        spans.append(span(T, s, name, 10 + 300 * i, 290 + 300 * i, a, parent=root, kind=kind))
        expect.append({"span_name": name, "span_id": s, "finish": finish, "empty": empty})
    req = traces([({"name": "support-app"}, spans[:1]), (scope, spans[1:])])
    if scope_schema:
        req["resourceSpans"][0]["scopeSpans"][1]["schemaUrl"] = scope_schema
    f = OUT.write("finish-%s.traces.json" % conv, [req])
    add_case("finish-" + conv, [f], sources, notes, secrets=None, data_class_tools=None, expect=expect)


def case_finish():
    # --- GenAI: openai-v2 through util-genai (latest experimental, SPAN_ONLY): JSON strings on the span
    def genai_span(finish, text, tout):
        out = [{"role": "assistant", "parts": [py_text(text)], "finish_reason": finish}]
        return {
            "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o", "gen_ai.provider.name": "openai",
            "server.address": "api.openai.com", "gen_ai.request.max_tokens": 64,
            "gen_ai.response.finish_reasons": [finish], "gen_ai.response.model": "gpt-4o-2024-08-06",
            "gen_ai.response.id": "chatcmpl-f", "gen_ai.usage.input_tokens": 40, "gen_ai.usage.output_tokens": tout,
            "gen_ai.input.messages": json.dumps([{"role": "user", "parts": [py_text(FINISH_USER)]}], separators=(",", ":")),
            "gen_ai.output.messages": json.dumps(out, separators=(",", ":")),
        }
    finish_case(
        "genai", dict(UTIL_SCOPE), "support-agent run",
        "chat gpt-4o", KIND_CLIENT, genai_span, ("length", "stop"),
        [{"repo": PYCONTRIB, "path": OPENAI_V2 + "utils.py", "ref": PYCONTRIB_REF,
          "what": "_prepare_output_messages: finish_reason = choice.finish_reason or 'error' (OpenAI's value, unmapped); content '' is a text part (_is_text_part), None gives no part"},
         {"repo": PYCONTRIB, "path": UTIL_GENAI + "_inference_invocation.py", "ref": PYCONTRIB_REF,
          "what": "gen_ai.response.finish_reasons from invocation.finish_reasons; span messages via get_content_attributes(for_span=True) = compact JSON strings"},
         {"repo": SEMCONV_GENAI, "path": "model/gen-ai/gen-ai-output-messages.json", "ref": SEMCONV_GENAI_REF,
          "what": "FinishReason enum stop|length|content_filter|tool_call|compaction|error; output-message finish_reason deprecated in favour of gen_ai.response.finish_reasons"}],
        "openai-v2 with OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental, SPAN_ONLY: gen_ai.response.finish_reasons "
        "(string array) and finish_reason in each gen_ai.output.messages entry carry OpenAI's own value (length / stop; a tool "
        "call would be 'tool_calls', not the schema's 'tool_call'). The empty reply is OpenAI content '' with finish 'stop': "
        "openai-v2 keeps it as one text part with content '' ([{\"content\":\"\",\"type\":\"text\"}]); content null would give "
        "parts []. Root span: application scope.",
        scope_schema=UTIL_SCHEMA,
    )

    # --- OpenLLMetry: Python opentelemetry-instrumentation-openai 0.54.0 (pre-migration)
    def ollm_span(finish, text, tout):
        a = {"llm.request.type": "chat", "gen_ai.openai.api_base": "https://api.openai.com/v1/", "gen_ai.system": "openai",
             "gen_ai.request.model": "gpt-4o", "gen_ai.request.max_tokens": 64, "llm.headers": "None",
             "llm.is_streaming": False, "gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": FINISH_USER,
             "gen_ai.response.model": "gpt-4o-2024-08-06", "gen_ai.response.id": "chatcmpl-f",
             "llm.usage.total_tokens": 40 + tout, "gen_ai.usage.output_tokens": tout, "gen_ai.usage.input_tokens": 40}
        a.update(ollm_py_completion(finish, content=text))
        return a
    finish_case(
        "openllmetry", {"name": "opentelemetry.instrumentation.openai.v1", "version": "0.54.0"}, "support_agent.agent",
        "openai.chat", KIND_CLIENT, ollm_span, ("length", "stop"),
        [{"repo": OLLM_PY, "path": "packages/opentelemetry-instrumentation-openai/opentelemetry/instrumentation/openai/shared/chat_wrappers.py", "ref": OLLM_PY_REF,
          "what": "_set_completions: gen_ai.completion.{index}.finish_reason = choice.finish_reason (raw), role, content"},
         {"repo": OLLM_PY, "path": "packages/opentelemetry-instrumentation-openai/opentelemetry/instrumentation/openai/shared/__init__.py", "ref": OLLM_PY_REF,
          "what": "_set_span_attribute drops None and '': an empty reply has NO gen_ai.completion.0.content attribute"},
         {"repo": OLLM_PY, "path": "packages/opentelemetry-instrumentation-openai/opentelemetry/instrumentation/openai/shared/chat_wrappers.py", "ref": OLLM_PY_HEAD,
          "what": "since March 2026: gen_ai.output.messages with finish_reason mapped through OPENAI_FINISH_REASON_MAP"}],
        "gen_ai.completion.0.finish_reason is OpenAI's raw value (length, stop, tool_calls, content_filter; content_filter also "
        "sets content 'FILTERED'). The empty reply has finish_reason stop and role assistant but no "
        "gen_ai.completion.0.content at all (empty strings are not set). Pre-migration shape (<= 0.54.x). Root span name as the "
        "traceloop @agent decorator makes it, but written by the application scope here.",
    )

    # --- OpenInference: Python openinference-instrumentation-openai (llm.finish_reason since May 2026)
    def oi_span(finish, text, tout):
        request = {"messages": [{"role": "user", "content": FINISH_USER}], "model": "gpt-4o", "max_tokens": 64}
        a = {"openinference.span.kind": "LLM", "llm.system": "openai",
             "input.value": oi_json(request), "input.mime_type": "application/json",
             "output.value": oi_response_json("chatcmpl-f", finish, text, None, 40, tout),
             "output.mime_type": "application/json",
             "llm.invocation_parameters": oi_json({"model": "gpt-4o", "max_tokens": 64}),
             "llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": FINISH_USER,
             "llm.provider": "openai", "llm.model_name": "gpt-4o-2024-08-06", "llm.token_count.total": 40 + tout,
             "llm.token_count.prompt": 40, "llm.token_count.completion": tout}
        a.update(oi_output(finish, content=text))
        return a
    finish_case(
        "openinference", {"name": "openinference.instrumentation.openai", "version": "0.1.54"}, "support_agent",
        "ChatCompletion", KIND_INTERNAL, oi_span, ("length", "stop"),
        [{"repo": OI, "path": OI_OPENAI + "_response_attributes_extractor.py", "ref": OI_REF,
          "what": "llm.finish_reason = choices[0].finish_reason (raw OpenAI value, first choice only); message.content only when truthy"},
         {"repo": OI, "path": "python/openinference-semantic-conventions/src/openinference/semconv/trace/__init__.py", "ref": OI_REF,
          "what": "LLM_FINISH_REASON = 'llm.finish_reason' (semantic conventions 0.1.29, 2026-04-21; openai instrumentation since #3056, 2026-05-05)"}],
        "OpenInference has llm.finish_reason (added April/May 2026); before that the finish reason was only inside output.value "
        "(the response JSON: choices[0].finish_reason), which is still written. Values are the provider's raw ones. The empty "
        "reply has llm.finish_reason stop and llm.output_messages.0.message.role but no message.content (empty strings are "
        "skipped); output.value shows \"content\":\"\". The root span is the application's (scope support-app), as in "
        "every finish-* file.",
    )

    # --- Anthropic stop_reason through @arizeai/openinference-instrumentation-anthropic 0.2.8 (as in testdata/sdk)
    def anth_span(stop, text, tout):
        content = [{"type": "text", "text": text}] if text else []
        msg = {"id": "msg_f", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": content,
               "stop_reason": stop, "stop_sequence": None, "usage": {"input_tokens": 40, "output_tokens": tout}}
        a = {"openinference.span.kind": "LLM", "llm.model_name": "claude-sonnet-4-5",
             "llm.request.model_name": "claude-sonnet-4-5",
             "input.value": jcompact({"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [{"role": "user", "content": FINISH_USER}]}),
             "input.mime_type": "application/json",
             "llm.invocation_parameters": jcompact({"model": "claude-sonnet-4-5", "max_tokens": 64}),
             "llm.system": "anthropic", "llm.provider": "anthropic",
             "llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": FINISH_USER,
             "output.value": jcompact(msg), "output.mime_type": "application/json",
             "llm.response.model_name": "claude-sonnet-4-5", "llm.finish_reason": stop,
             "llm.output_messages.0.message.role": "assistant"}
        if text:
            a["llm.output_messages.0.message.contents.0.message_content.type"] = "text"
            a["llm.output_messages.0.message.contents.0.message_content.text"] = text
        a.update({"llm.token_count.prompt": 40, "llm.token_count.completion": tout, "llm.token_count.total": 40 + tout})
        return a
    finish_case(
        "anthropic", {"name": "@arizeai/openinference-instrumentation-anthropic", "version": "0.2.8"}, "support-agent",
        "Anthropic Messages", KIND_INTERNAL, anth_span, ("max_tokens", "end_turn"),
        [{"repo": "agentotel/agentotel", "path": "testdata/sdk/anthropic-openinference/traces.json", "ref": "main",
          "what": "real capture: span 'Anthropic Messages', llm.finish_reason = 'tool_use' / 'end_turn' (Anthropic's stop_reason unmapped), output contents as message.contents.{i}.message_content.type/text"},
         {"repo": "npm:@arizeai/openinference-instrumentation-anthropic", "path": "dist/esm/instrumentation.js", "ref": "0.2.8 (the installed package of testdata/sdk/anthropic-openinference; the GitHub snapshot of Arize-ai/openinference available here has the JS package at 0.1.21, without llm.finish_reason)",
          "what": "getAnthropicFinishReasonAttributes: {llm.finish_reason: stop_reason}; getAnthropicOutputMessagesAttributes: role always, one contents entry per content block (none for content [])"}],
        "Anthropic's stop_reason is passed through unmapped as llm.finish_reason: max_tokens (cut), end_turn (normal), also "
        "tool_use, stop_sequence, pause_turn, refusal. The empty reply is content [] with stop_reason end_turn: only "
        "llm.output_messages.0.message.role is written, and output.value has \"content\":[]. Not covered: Anthropic through "
        "GenAI-semconv instrumentations (no Anthropic instrumentation in opentelemetry-python-contrib at this commit).",
    )

    # --- Gemini finishReason through opentelemetry-instrumentation-google-genai (python-contrib)
    def gem_span(reason_enum, text, tout):
        # _update_finish_reasons: FinishReason.name.lower(); message._to_finish_reason: STOP->stop, MAX_TOKENS->length
        fr_attr = reason_enum.lower()
        fr_msg = {"STOP": "stop", "MAX_TOKENS": "length"}[reason_enum]
        # the empty reply is a candidate without content (as ADK shows it): no output message
        out = [{"role": "assistant", "parts": [py_text(text)], "finish_reason": fr_msg}] if text else []
        return {"code.function.name": "google.genai.Models.generate_content", "gen_ai.request.model": "gemini-2.5-flash",
                "gen_ai.operation.name": "generate_content", "gen_ai.system": "gemini",
                "gen_ai.request.max_tokens": 64,
                "gen_ai.input.messages": json.dumps([{"role": "user", "parts": [py_text(FINISH_USER)]}], separators=(",", ":")),
                "gen_ai.output.messages": json.dumps(out, separators=(",", ":")),
                "gen_ai.usage.input_tokens": 40, "gen_ai.usage.output_tokens": tout,
                "gen_ai.response.finish_reasons": [fr_attr]}
    finish_case(
        "gemini", {"name": "opentelemetry.instrumentation.google_genai", "version": "0.8b0.dev"}, "support-agent run",
        "generate_content gemini-2.5-flash", KIND_INTERNAL, gem_span, ("MAX_TOKENS", "STOP"),
        [{"repo": PYCONTRIB, "path": "instrumentation-genai/opentelemetry-instrumentation-google-genai/src/opentelemetry/instrumentation/google_genai/generate_content.py", "ref": PYCONTRIB_REF,
          "what": "span 'generate_content <model>'; gen_ai.response.finish_reasons = sorted({FinishReason.name.lower().removeprefix('finish_reason_')}) -> 'max_tokens', 'stop', 'safety', ...; messages on the span via gen_ai_json_dumps (output messages always set, '[]' when none)"},
         {"repo": PYCONTRIB, "path": "instrumentation-genai/opentelemetry-instrumentation-google-genai/src/opentelemetry/instrumentation/google_genai/message.py", "ref": PYCONTRIB_REF,
          "what": "to_output_messages: a candidate without content gives no output message; _to_finish_reason: STOP->stop, MAX_TOKENS->length, UNSPECIFIED/OTHER->error, else the enum name (e.g. SAFETY)"},
         {"repo": "agentotel/agentotel", "path": "docs/fixtures.md", "ref": "main",
          "what": "ADK's empty Gemini reply: finishReason STOP and no content (adk-js capture)"}],
        "The same Gemini finishReason appears twice, in two vocabularies: gen_ai.response.finish_reasons has the enum name "
        "lower-cased (max_tokens, stop), the output messages' finish_reason the GenAI value (length, stop; SAFETY etc. stay "
        "upper-case enum names). The empty reply is a candidate with finishReason STOP and no content (as ADK shows it): "
        "gen_ai.output.messages = \"[]\", finish_reasons [\"stop\"]. Span kind INTERNAL (start_as_current_span default).",
        scope_schema="https://opentelemetry.io/schemas/1.30.0",
    )


# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# A copy outside any transcript: the HTTP client span an instrumented HTTP library writes under a tool
# call, whose url.full carries the tool's arguments in its query string, percent- and form-encoded.

SEMCONV_URL_REF = "12e714652e248bbf18ef51f7ef9039739dc12ca2"
SEND_ARGS = {"to": RECORD["email"], "name": RECORD["name"], "phone": RECORD["phone"]}


def case_genai_http_client_span():
    t = 30
    T, (agent, chat1, tool1, tool2, chat2, tool3, http, chat3) = trace_ids(t, 8)
    scope = {"name": "genai-semconv-spec", "version": "semantic-conventions-genai@2b902ce"}
    http_scope = {"name": "opentelemetry.instrumentation.requests", "version": "0.55b0"}
    in1, out1, in2 = genai_first_round(USER_TEXT + " Then send them a confirmation.")
    out2 = [{"role": "assistant", "parts": [tool_call_part("call_3", "send_confirmation", SEND_ARGS)],
             "finish_reason": "tool_call"}]
    in3 = in2 + [
        {"role": "assistant", "parts": out2[0]["parts"]},
        {"role": "tool", "parts": [tool_response_part("call_3", {"status": "queued"})]},
    ]
    out3 = [{"role": "assistant", "parts": [text_part(FINAL_TEXT + " Confirmation queued.")], "finish_reason": "stop"}]
    query = "to=jane.roe%40example-mail.test&name=Jane+Roe-Whitfield&phone=%2B1%20415%20555%200199"

    # Transcripts, tool arguments and results as JSON text, the way Python's opentelemetry-util-genai
    # writes them on spans.
    def chat(sid_, start, end, resp, finish, tin, tout, inp, outp):
        return genai_chat_span(T, sid_, agent, start, end, resp, finish, tin, tout, jdump(inp), jdump(outp))

    def tool(sid_, start, end, name, call_id, args, result):
        return execute_tool_span(T, sid_, agent, start, end, call_id, name, jdump(args), jdump(result))

    spans = [
        span(T, agent, "invoke_agent support-agent", 0, 1400, {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "support-agent", **GENAI_OPENAI}),
        chat(chat1, 10, 300, "chatcmpl-1", "tool_calls", 52, 41, in1, out1),
        tool(tool1, 310, 340, "find_customer", "call_1", FIND_ARGS, RECORD),
        tool(tool2, 341, 360, "get_weather", "call_2", WEATHER_ARGS, WEATHER),
        chat(chat2, 370, 700, "chatcmpl-2", "tool_calls", 231, 38, in2, out2),
        tool(tool3, 710, 800, "send_confirmation", "call_3", SEND_ARGS, {"status": "queued"}),
        chat(chat3, 810, 1390, "chatcmpl-3", "stop", 290, 21, in3, out3),
    ]
    http_span = span(T, http, "POST", 720, 790, {
        "http.request.method": "POST", "url.full": "https://notify.example/v1/confirmations?" + query,
        "url.scheme": "https", "url.path": "/v1/confirmations", "url.query": query,
        "server.address": "notify.example", "server.port": 443, "http.response.status_code": 202,
    }, parent=tool3, kind=3)
    f = OUT.write("genai-http-client-span.traces.json", [traces([(scope, spans), (http_scope, [http_span])])])
    add_case(
        "genai-http-client-span", [f],
        [
            SOURCE_INPUT_MESSAGES,
            {"repo": SEMCONV_OLD, "path": "model/url/registry.yaml", "ref": SEMCONV_URL_REF,
             "what": "url.full: absolute URL with its query string; only the values of AWSAccessKeyId, Signature, sig and X-Goog-Signature are redacted by default. url.query: the query component, the same rule"},
        ],
        "One trace: invoke_agent > chat > execute_tool find_customer, execute_tool get_weather > chat that calls "
        "send_confirmation with the customer's email, name and phone > execute_tool send_confirmation, whose child is "
        "the HTTP client span of the request it makes (an instrumented HTTP library's scope) > chat with the final "
        "answer. Transcripts and tool arguments and results are JSON strings, as Python's opentelemetry-util-genai "
        "writes them on spans. The HTTP span's url.full and url.query carry the three values in the query string, the "
        "email and phone percent-encoded (%40, %2B, %20) and the name form-encoded (+ for the space): nothing there is a "
        "transcript or a tool call, so only the content search, reading through URL escapes, can withhold them.",
    )


# ---------------------------------------------------------------------------
# Strands Agents (strands-agents/sdk-python, src/strands/telemetry/tracer.py): spans with GenAI names
# whose content rides on span events, in two modes. By default (legacy events) every message is an
# event whose `content` attribute is Strands' own content blocks (Bedrock Converse shapes: text,
# toolUse, toolResult) serialised with json.dumps(ensure_ascii=False); a tool span's result is a
# gen_ai.choice event {message, id}, and each event-loop cycle span repeats the tool results in its
# gen_ai.choice event's `tool.result`. With OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental
# the same content is one gen_ai.client.inference.operation.details event per span holding
# gen_ai.input.messages / gen_ai.output.messages in GenAI parts. A @tool function returning a dict is
# wrapped as content [{"text": str(result)}]: the record reaches the trace as Python's repr of it.

STRANDS = "strands-agents/sdk-python"
STRANDS_REF = "006ad58fafd1389537fadb43a3e9a2851d229d92"
STRANDS_SCOPE = {"name": "strands.telemetry.tracer"}
STRANDS_MODEL = "us.anthropic.claude-sonnet-4-20250514-v1:0"


def strands_dump(v):
    """tracer.serialize: json.dumps(obj, ensure_ascii=False)."""
    return json.dumps(v, ensure_ascii=False)


def strands_rounds():
    """Strands' messages of the support run (Bedrock Converse content blocks)."""
    user = {"role": "user", "content": [{"text": USER_TEXT}]}
    uses = [{"toolUse": {"toolUseId": "tooluse_Fq1", "name": "find_customer", "input": FIND_ARGS}},
            {"toolUse": {"toolUseId": "tooluse_Wx2", "name": "get_weather", "input": WEATHER_ARGS}}]
    assistant = {"role": "assistant", "content": [{"text": "Let me look that up."}] + uses}
    # DecoratedFunctionTool.stream: a dict that is not already a tool result becomes [{"text": str(result)}]
    results = {"role": "user", "content": [
        {"toolResult": {"toolUseId": "tooluse_Fq1", "status": "success", "content": [{"text": str(RECORD)}]}},
        {"toolResult": {"toolUseId": "tooluse_Wx2", "status": "success", "content": [{"text": str(WEATHER)}]}},
    ]}
    final = {"role": "assistant", "content": [{"text": FINAL_TEXT}]}
    return user, uses, assistant, results, final


def strands_parts(blocks):
    """Tracer._map_content_blocks_to_otel_parts: a toolResult's response is its content list as it is."""
    return converse_parts(blocks, lambda r: r["content"])


def strands_trace(t, latest):
    T, (agent, cycle1, chat1, tool1, tool2, cycle2, chat2) = trace_ids(t, 7)
    user, uses, assistant, results, final = strands_rounds()
    system = {"gen_ai.provider.name": "strands-agents"} if latest else {"gen_ai.system": "strands-agents"}
    details = "gen_ai.client.inference.operation.details"

    def at(n):
        return "2026-01-01T00:00:%02d.%06d+00:00" % (n // 1000, (n % 1000) * 1000)

    def messages_in(msgs, when):
        # Tracer._add_event_messages
        if latest:
            return [event(details, when, {"gen_ai.input.messages": strands_dump(
                [{"role": m["role"], "parts": strands_parts(m["content"])} for m in msgs])})]
        out = []
        for m in msgs:
            name = "gen_ai.tool.message" if any("toolResult" in b for b in m["content"]) else "gen_ai.%s.message" % m["role"]
            out.append(event(name, when, {"content": strands_dump(m["content"])}))
        return out

    def reply_out(m, finish, when):
        # Tracer.end_model_invoke_span
        if latest:
            return event(details, when, {"gen_ai.output.messages": strands_dump(
                [{"role": m["role"], "parts": strands_parts(m["content"]), "finish_reason": finish}])})
        return event("gen_ai.choice", when, {"finish_reason": finish, "message": strands_dump(m["content"])})

    def tool_span(sp, use, result, start, end):
        # Tracer.start_tool_call_span / end_tool_call_span
        u, r = use["toolUse"], result["toolResult"]
        if latest:
            evs = [event(details, start, {"gen_ai.input.messages": strands_dump([{"role": "tool", "parts": [
                       {"type": "tool_call", "name": u["name"], "id": u["toolUseId"], "arguments": u["input"]}]}])}),
                   event(details, end, {"gen_ai.output.messages": strands_dump([{"role": "tool", "parts": [
                       {"type": "tool_call_response", "id": r["toolUseId"], "response": r["content"]}]}])})]
        else:
            evs = [event("gen_ai.tool.message", start, {"role": "tool", "content": strands_dump(u["input"]), "id": u["toolUseId"]}),
                   event("gen_ai.choice", end, {"message": strands_dump(r["content"]), "id": r["toolUseId"]})]
        return span(T, sp, "execute_tool " + u["name"], start, end, {
            "gen_ai.event.start_time": at(start), "gen_ai.operation.name": "execute_tool", **system,
            "gen_ai.tool.name": u["name"], "gen_ai.tool.call.id": u["toolUseId"],
            "gen_ai.event.end_time": at(end), "gen_ai.tool.status": "success"},
            parent=cycle1, events=evs, status={"code": 1})

    def cycle_end(m, tool_results, when):
        # Tracer.end_event_loop_cycle_span: an event only when the cycle ran tools
        if tool_results is None:
            return []
        if latest:
            return [event(details, when, {"gen_ai.output.messages": strands_dump(
                [{"role": tool_results["role"], "parts": strands_parts(tool_results["content"])}])})]
        return [event("gen_ai.choice", when, {"message": strands_dump(m["content"]),
                                              "tool.result": strands_dump(tool_results["content"])})]

    usage1 = {"gen_ai.usage.prompt_tokens": 412, "gen_ai.usage.input_tokens": 412, "gen_ai.usage.completion_tokens": 97,
              "gen_ai.usage.output_tokens": 97, "gen_ai.usage.total_tokens": 509}
    usage2 = {"gen_ai.usage.prompt_tokens": 655, "gen_ai.usage.input_tokens": 655, "gen_ai.usage.completion_tokens": 31,
              "gen_ai.usage.output_tokens": 31, "gen_ai.usage.total_tokens": 686}
    history2 = [user, assistant, results]
    agent_out = (event(details, 900, {"gen_ai.output.messages": strands_dump(
        [{"role": "assistant", "parts": [{"type": "text", "content": FINAL_TEXT + "\n"}], "finish_reason": "end_turn"}])})
        if latest else event("gen_ai.choice", 900, {"message": FINAL_TEXT + "\n", "finish_reason": "end_turn"}))
    spans = [
        span(T, agent, "invoke_agent support-agent", 0, 900, {
            "gen_ai.event.start_time": at(0), "gen_ai.operation.name": "invoke_agent", **system,
            "gen_ai.agent.name": "support-agent", "gen_ai.request.model": STRANDS_MODEL,
            "gen_ai.agent.tools": strands_dump(["find_customer", "get_weather"]),
            "gen_ai.event.end_time": at(900), **usage1},
            events=messages_in([user], 0) + [agent_out], status={"code": 1}),
        span(T, cycle1, "execute_event_loop_cycle", 5, 400, {
            "gen_ai.event.start_time": at(5), "event_loop.cycle_id": "6c1e7a52-4f0e-4b8e-9d61-0a4cbd0f2a11",
            "gen_ai.event.end_time": at(400)},
            parent=agent, events=messages_in([user], 5) + cycle_end(assistant, results, 400), status={"code": 1}),
        span(T, chat1, "chat", 10, 300, {
            "gen_ai.event.start_time": at(10), "gen_ai.operation.name": "chat", **system,
            "gen_ai.request.model": STRANDS_MODEL, "gen_ai.event.end_time": at(300), **usage1},
            parent=cycle1, events=messages_in([user], 10) + [reply_out(assistant, "tool_use", 300)], status={"code": 1}),
        tool_span(tool1, uses[0], results["content"][0], 310, 340),
        tool_span(tool2, uses[1], results["content"][1], 341, 360),
        span(T, cycle2, "execute_event_loop_cycle", 405, 895, {
            "gen_ai.event.start_time": at(405), "event_loop.cycle_id": "0b7f3d9e-2a55-4c1f-8e3a-5d2b6f9c7e40",
            "event_loop.parent_cycle_id": "6c1e7a52-4f0e-4b8e-9d61-0a4cbd0f2a11", "gen_ai.event.end_time": at(895)},
            parent=agent, events=messages_in(history2, 405), status={"code": 1}),
        span(T, chat2, "chat", 410, 890, {
            "gen_ai.event.start_time": at(410), "gen_ai.operation.name": "chat", **system,
            "gen_ai.request.model": STRANDS_MODEL, "gen_ai.event.end_time": at(890), **usage2},
            parent=cycle2, events=messages_in(history2, 410) + [reply_out(final, "end_turn", 890)], status={"code": 1}),
    ]
    return traces([(dict(STRANDS_SCOPE), spans)], service="strands-agents")


STRANDS_SOURCES = [
    {"repo": STRANDS, "path": "src/strands/telemetry/tracer.py", "ref": STRANDS_REF,
     "what": "start/end_model_invoke_span, start/end_tool_call_span, start/end_event_loop_cycle_span, start/end_agent_span: "
             "span names, gen_ai.* attributes, gen_ai.event.start_time/end_time; _add_event_messages: legacy "
             "gen_ai.{role}.message / gen_ai.tool.message events {content: serialize(blocks)}, or with "
             "gen_ai_latest_experimental one gen_ai.client.inference.operation.details event {gen_ai.input.messages}; "
             "_map_content_blocks_to_otel_parts; serialize = json.dumps(ensure_ascii=False)"},
    {"repo": STRANDS, "path": "src/strands/tools/decorator.py", "ref": "01327c2912aa102173ebe683df37a2b0457b49b3",
     "what": "DecoratedFunctionTool.stream: a return value that is not {status, content} becomes "
             "{toolUseId, status: success, content: [{text: str(result)}]}"},
]


def case_strands():
    f = OUT.write("strands-events.traces.json", [strands_trace(20, latest=False)])
    add_case(
        "strands-events", [f], STRANDS_SOURCES,
        "One Strands Agents run in the default (legacy event) mode: invoke_agent support-agent > execute_event_loop_cycle "
        "> chat, execute_tool find_customer, execute_tool get_weather; > execute_event_loop_cycle > chat. Every message "
        "is a span event whose content attribute holds Strands' Bedrock-Converse content blocks as a JSON string "
        "(text, toolUse, toolResult {toolUseId, status, content}). The record, Python's str() of the dict the tool "
        "returned, appears four times: the find_customer span's gen_ai.choice event (message), the first cycle span's "
        "gen_ai.choice event (tool.result), and the gen_ai.tool.message events of the second cycle span and of its chat "
        "span. No span attribute holds a tool's arguments or result.",
    )
    f = OUT.write("strands-latest.traces.json", [strands_trace(21, latest=True)])
    add_case(
        "strands-latest", [f], STRANDS_SOURCES,
        "The same run with OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental: each span carries "
        "gen_ai.client.inference.operation.details events holding gen_ai.input.messages / gen_ai.output.messages as "
        "JSON strings of GenAI parts; a tool span's output is {role: tool, parts: [{type: tool_call_response, id, "
        "response: [{text: str(record)}]}]}, and the first cycle span's output repeats both results the same way.",
    )


# ---------------------------------------------------------------------------
# Spring AI (spring-projects/spring-ai): Micrometer observations exported through Micrometer Tracing's
# OpenTelemetry bridge, under Spring Boot's tracer (scope org.springframework.boot). Every tag is a
# string attribute. A ChatClient call is a "spring_ai chat_client" span; each chat model call a
# "chat {model}" span of GenAI attributes with the provider's finish reasons as a list in one string
# ("["TOOL_CALLS"]"); the tool calls the model asked for run after its call returned, each a span of
# its own: in 1.x "tool_call {tool}" with gen_ai.operation.name "framework", from 2.0 "execute_tool
# {tool}" with "execute_tool" and the call id. With spring.ai.tools.observations.include-content the
# tool span carries spring.ai.tool.call.arguments and spring.ai.tool.call.result, the result as the
# tool's converter wrote it (Jackson JSON of the returned object by default). Prompt and completion
# content are logged, not put on spans, by default.

SPRING_AI = "spring-projects/spring-ai"
SPRING_AI_1_REF = "098a92cf347b5c7ec3ee4ca6b21cb4ab1c88cd56"
SPRING_AI_2_REF = "fd3fd6ec700340b90c3d516be57c6e6c87dd7df1"
SPRING_SCOPE = {"name": "org.springframework.boot", "version": "3.5.3"}
SPRING_FIND_SCHEMA = jcompact({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                               "properties": {"query": {"type": "string"}}, "required": ["query"],
                               "additionalProperties": False})
SPRING_WEATHER_SCHEMA = jcompact({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                                  "properties": {"city": {"type": "string"}}, "required": ["city"],
                                  "additionalProperties": False})


def spring_trace(t, major):
    T, (client, chat1, tool1, tool2, chat2) = trace_ids(t, 5)
    framework = {"gen_ai.system": "spring_ai"}

    def chat(sid_, start, end, resp, finish, tin, tout):
        return span(T, sid_, "chat gpt-4o", start, end, {
            "gen_ai.operation.name": "chat", "gen_ai.system": "openai", "gen_ai.request.model": "gpt-4o",
            "gen_ai.response.model": "gpt-4o-2024-08-06", "gen_ai.request.temperature": "0.7",
            "spring.ai.model.request.tool.names": '["get_weather", "find_customer"]',
            "gen_ai.response.finish_reasons": '["%s"]' % finish, "gen_ai.response.id": resp,
            "gen_ai.usage.input_tokens": str(tin), "gen_ai.usage.output_tokens": str(tout),
            "gen_ai.usage.total_tokens": str(tin + tout),
        }, parent=client, kind=3)

    def tool(sid_, start, end, name, call_id, description, schema, args, result):
        a = {"gen_ai.operation.name": "framework" if major == 1 else "execute_tool", **framework,
             "spring.ai.kind": "tool_call"}
        if major == 2:
            a["spring.ai.tool.type"] = "function"
        a.update({"spring.ai.tool.definition.name": name, "spring.ai.tool.definition.description": description,
                  "spring.ai.tool.definition.schema": schema})
        if major == 2:
            a["spring.ai.tool.call.id"] = call_id
        a.update({"spring.ai.tool.call.arguments": jcompact(args), "spring.ai.tool.call.result": jcompact(result)})
        return span(T, sid_, ("tool_call " if major == 1 else "execute_tool ") + name, start, end, a, parent=client)

    spans = [
        span(T, client, "spring_ai chat_client", 0, 900, {
            "gen_ai.operation.name": "framework", **framework, "spring.ai.kind": "chat_client",
            "spring.ai.chat.client.stream": "false"}),
        chat(chat1, 10, 300, "chatcmpl-s1", "TOOL_CALLS", 96, 52),
        tool(tool1, 305, 340, "find_customer", "call_1", "Find a customer by name, email or account",
             SPRING_FIND_SCHEMA, FIND_ARGS, RECORD),
        tool(tool2, 341, 360, "get_weather", "call_2", "Current weather in a city", SPRING_WEATHER_SCHEMA,
             WEATHER_ARGS, WEATHER),
        chat(chat2, 365, 890, "chatcmpl-s2", "STOP", 281, 24),
    ]
    return traces([(SPRING_SCOPE, spans)], service="support-app")


def case_spring_ai():
    sources = lambda ref: [
        {"repo": SPRING_AI, "path": "spring-ai-model/src/main/java/org/springframework/ai/tool/observation/DefaultToolCallingObservationConvention.java",
         "ref": ref, "what": "the tool span's name ('tool_call {tool}' in 1.x, 'execute_tool {tool}' from 2.0) and its gen_ai.operation.name, gen_ai.system, spring.ai.kind, spring.ai.tool.definition.name/description/schema (and from 2.0 spring.ai.tool.type and spring.ai.tool.call.id)"},
        {"repo": SPRING_AI, "path": "spring-ai-model/src/main/java/org/springframework/ai/tool/observation/ToolCallingContentObservationFilter.java",
         "ref": ref, "what": "with tool content observed: spring.ai.tool.call.arguments and spring.ai.tool.call.result"},
        {"repo": SPRING_AI, "path": "spring-ai-model/src/main/java/org/springframework/ai/chat/observation/DefaultChatModelObservationConvention.java",
         "ref": ref, "what": "the chat span: '{operation} {model}', GenAI attributes as strings, finish reasons as one string '[\"TOOL_CALLS\"]'"},
        {"repo": "spring-projects/spring-boot", "path": "spring-boot-project/spring-boot-actuator-autoconfigure/src/main/java/org/springframework/boot/actuate/autoconfigure/tracing/OpenTelemetryTracingAutoConfiguration.java",
         "ref": "3.5.x", "what": "otelTracer: openTelemetry.getTracer(\"org.springframework.boot\", SpringBootVersion.getVersion())"},
    ]
    f = OUT.write("spring-ai-1.traces.json", [spring_trace(40, 1)])
    add_case(
        "spring-ai-1", [f], sources(SPRING_AI_1_REF),
        "One Spring AI 1.x ChatClient call with OpenAI and tool content observed: spring_ai chat_client > chat gpt-4o "
        "(finish reasons [\"TOOL_CALLS\"]), tool_call find_customer, tool_call get_weather, chat gpt-4o ([\"STOP\"]). "
        "The tool spans' gen_ai.operation.name is 'framework', which the GenAI convention does not read as a tool "
        "call, and no call id is recorded. The record is on the find_customer span only (spring.ai.tool.call.result, "
        "Jackson's JSON); no span carries a transcript.",
    )
    f = OUT.write("spring-ai-2.traces.json", [spring_trace(41, 2)])
    add_case(
        "spring-ai-2", [f], sources(SPRING_AI_2_REF),
        "The same call in Spring AI 2.0: the tool spans are 'execute_tool {tool}' with gen_ai.operation.name "
        "'execute_tool', spring.ai.tool.type and the call id in spring.ai.tool.call.id; the tool is still named only "
        "by spring.ai.tool.definition.name and the span name, its arguments and result still spring.ai.tool.call.*.",
    )


# ---------------------------------------------------------------------------
# Logfire's OpenAI Agents instrumentation (pydantic/logfire, logfire/_internal/integrations/
# openai_agents.py) around the OpenAI Agents SDK (openai/openai-agents-python). Every span of the SDK's
# tracing becomes a Logfire span (scope logfire.openai_agents), named by its message template, with the
# span data's export() as attributes; non-primitive values are JSON (logfire_json_dumps: compact,
# ensure_ascii=False) with logfire.json_schema beside them. A function tool's span: name, input (the
# model's arguments string), output (the return value itself, not the SDK's str() of it). The model is
# sent str(result) in a function_call_output item (items.py, _convert_tool_output): a dict's Python repr.

LOGFIRE = "pydantic/logfire"
LOGFIRE_REF = "e484a6b53a0df3062d304ce258573e387cf3140a"
AGENTS = "openai/openai-agents-python"
AGENTS_REF = "7f7a44f8dc0650296bd5ab6c745c9bcbaa6ac3b7"


def case_logfire_openai_agents():
    t = 43
    T, (root, agent, r1, f1, f2, r2) = trace_ids(t, 6)
    scope = {"name": "logfire.openai_agents", "version": "4.30.0"}
    args1, args2 = jcompact(FIND_ARGS), jcompact(WEATHER_ARGS)

    def lf(template, msg, attributes, schema):
        return {**attributes, "logfire.msg_template": template, "logfire.msg": msg, "logfire.span_type": "span",
                "logfire.json_schema": jcompact({"type": "object", "properties": schema})}

    def calls():
        return [
            {"arguments": args1, "call_id": "call_1", "name": "find_customer", "type": "function_call", "id": "fc_1", "status": "completed"},
            {"arguments": args2, "call_id": "call_2", "name": "get_weather", "type": "function_call", "id": "fc_2", "status": "completed"},
        ]

    def response_span(s, start, end, rid, raw_input, output, tin, tout):
        response = {"id": rid, "created_at": 1767225600.0, "model": "gpt-4o-2024-08-06", "object": "response",
                    "output": output, "parallel_tool_calls": True, "status": "completed", "tool_choice": "auto",
                    "usage": {"input_tokens": tin, "output_tokens": tout, "total_tokens": tin + tout}}
        return span(T, s, "Responses API with {gen_ai.request.model!r}", start, end, lf(
            "Responses API with {gen_ai.request.model!r}", "Responses API with 'gpt-4o'", {
                "gen_ai.request.model": "gpt-4o", "response_id": rid, "gen_ai.system": "openai",
                "gen_ai.response.model": "gpt-4o-2024-08-06", "response": jcompact(response),
                "gen_ai.operation.name": "chat", "raw_input": jcompact(raw_input),
                "gen_ai.usage.input_tokens": tin, "gen_ai.usage.output_tokens": tout},
            {"response": {"type": "object"}, "raw_input": {"type": "array"}}), parent=agent)

    def function_span(s, start, end, name, args, result):
        return span(T, s, "Function: {name}", start, end, lf("Function: {name}", "Function: " + name, {
            "name": name, "input": args, "output": jcompact(result), "gen_ai.system": "openai"},
            {"output": {"type": "object"}}), parent=agent)

    user = {"content": USER_TEXT, "role": "user"}
    outputs = [{"call_id": "call_1", "output": repr(RECORD), "type": "function_call_output"},
               {"call_id": "call_2", "output": repr(WEATHER), "type": "function_call_output"}]
    final = [{"id": "msg_1", "content": [{"annotations": [], "text": FINAL_TEXT, "type": "output_text"}],
              "role": "assistant", "status": "completed", "type": "message"}]
    spans = [
        span(T, root, "OpenAI Agents trace: {name}", 0, 1000, lf("OpenAI Agents trace: {name}", "OpenAI Agents trace: Agent workflow", {
            "name": "Agent workflow", "agent_trace_id": "trace_4a1e0043", "group_id": "conv-support-0001"}, {})),
        span(T, agent, "Agent run: {name!r}", 5, 990, lf("Agent run: {name!r}", "Agent run: 'support_agent'", {
            "name": "support_agent", "handoffs": "[]", "tools": jcompact(["find_customer", "get_weather"]), "output_type": "str"},
            {"handoffs": {"type": "array"}, "tools": {"type": "array"}}), parent=root),
        response_span(r1, 10, 300, "resp_1", [user], calls(), 96, 52),
        function_span(f1, 310, 340, "find_customer", args1, RECORD),
        function_span(f2, 341, 360, "get_weather", args2, WEATHER),
        response_span(r2, 370, 980, "resp_2", [user] + calls() + outputs, final, 281, 24),
    ]
    f = OUT.write("logfire-openai-agents.traces.json", [traces([(scope, spans)])])
    add_case(
        "logfire-openai-agents", [f],
        [
            {"repo": LOGFIRE, "path": "logfire/_internal/integrations/openai_agents.py", "ref": LOGFIRE_REF,
             "what": "LogfireTraceProviderWrapper: create_trace -> span 'OpenAI Agents trace: {name}' (name, agent_trace_id, the trace's kwargs); create_span -> span named by its template ('Agent run: {name!r}', 'Function: {name}', 'Responses API with {gen_ai.request.model!r}') with attributes_from_span_data: the span data's export() but its type, gen_ai.system openai, for a function span output = span_data.output (the value itself), for a response span get_basic_response_attributes (gen_ai.response.model, response, gen_ai.operation.name chat), raw_input and usage; custom_scope_suffix='openai_agents'"},
            {"repo": LOGFIRE, "path": "logfire/_internal/json_encoder.py", "ref": LOGFIRE_REF,
             "what": "logfire_json_dumps: json.dumps(separators=(',', ':'), ensure_ascii=False)"},
            {"repo": AGENTS, "path": "src/agents/tracing/span_data.py", "ref": AGENTS_REF,
             "what": "FunctionSpanData.export: {type, name, input, output, mcp_data}; AgentSpanData: {type, name, handoffs, tools, output_type}"},
            {"repo": AGENTS, "path": "src/agents/run_internal/tool_execution.py", "ref": AGENTS_REF,
             "what": "span_fn.span_data.input = tool_call.arguments; span_fn.span_data.output = result"},
            {"repo": AGENTS, "path": "src/agents/items.py", "ref": AGENTS_REF,
             "what": "tool_call_output_item: {call_id, output, type: function_call_output}, output = _convert_tool_output(result) = str(result) for a dict"},
        ],
        "One OpenAI Agents SDK run (Python) with Logfire's instrumentation: OpenAI Agents trace > Agent run > Responses "
        "API (two function calls), Function: {name} for find_customer and get_weather, Responses API (the answer). The "
        "record is the find_customer Function span's output (JSON) and, as Python's repr of the dict the tool returned, "
        "the output of a function_call_output item in the second response span's raw_input. Span names are Logfire's "
        "templates: no span name holds a tool's name. Not reproduced: the response spans' events attribute (the same "
        "messages as GenAI events), code.* attributes, the response object's null fields.",
    )


# ---------------------------------------------------------------------------
# MLflow Tracing (mlflow/mlflow), Python, exporting OTLP (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): an agent
# function and its tools traced with @mlflow.trace, the model called through the OpenAI client with
# mlflow.openai.autolog(). Every attribute MLflow sets is json.dumps of its value
# (SpanAttributesRegistry.set, ensure_ascii=False), a string too. With MLFLOW_ENABLE_OTEL_GENAI_SEMCONV
# the export translates each span to GenAI's keys first and drops every mlflow.* key.

MLFLOW = "mlflow/mlflow"
MLFLOW_REF = "ae915b4d26d66ce62f110039f62f4eb089876575"


def mlflow_dumps(v):
    return json.dumps(v, ensure_ascii=False)


def mlflow_run(t):
    """The run as MLflow holds it: (name, span type, function name, inputs, outputs, extra mlflow.*
    attributes, parent index, start, end) per span, in export order."""
    tools = [
        {"type": "function", "function": {"name": "find_customer", "description": "Find a customer by name, email or account",
                                          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}},
        {"type": "function", "function": {"name": "get_weather", "description": "Current weather in a city",
                                          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
    ]
    system = {"role": "system", "content": "You are a support agent."}
    user = {"role": "user", "content": USER_TEXT}
    calls = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "find_customer", "arguments": jdump(FIND_ARGS)}},
        {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": jdump(WEATHER_ARGS)}},
    ]}
    results = [
        {"role": "tool", "tool_call_id": "call_1", "content": jdump(RECORD)},
        {"role": "tool", "tool_call_id": "call_2", "content": jdump(WEATHER)},
    ]

    def completion(cid, message, finish, tin, tout):
        return {"id": cid, "choices": [{"finish_reason": finish, "index": 0, "logprobs": None, "message": message}],
                "created": 1767225600, "model": "gpt-4o-2024-08-06", "object": "chat.completion",
                "usage": {"completion_tokens": tout, "prompt_tokens": tin, "total_tokens": tin + tout}}

    def model_attrs(tin, tout):
        return {"mlflow.message.format": "openai", "mlflow.llm.model": "gpt-4o", "mlflow.llm.provider": "openai",
                "mlflow.chat.tools": tools,
                "mlflow.chat.tokenUsage": {"input_tokens": tin, "output_tokens": tout, "total_tokens": tin + tout}}

    final = {"role": "assistant", "content": FINAL_TEXT, "refusal": None}
    return [
        ("support_agent", "AGENT", "support_agent", {"question": USER_TEXT}, FINAL_TEXT, {}, None, 0, 1000),
        ("Completions", "CHAT_MODEL", None, {"messages": [system, user], "model": "gpt-4o", "tools": tools},
         completion("chatcmpl-m1", {**calls, "refusal": None}, "tool_calls", 96, 52), model_attrs(96, 52), 0, 10, 300),
        ("find_customer", "TOOL", "find_customer", FIND_ARGS, RECORD, {}, 0, 305, 340),
        ("get_weather", "TOOL", "get_weather", WEATHER_ARGS, WEATHER, {}, 0, 341, 360),
        ("Completions", "CHAT_MODEL", None, {"messages": [system, user, calls] + results, "model": "gpt-4o", "tools": tools},
         completion("chatcmpl-m2", final, "stop", 281, 24), model_attrs(281, 24), 0, 365, 990),
    ]


def mlflow_native(t):
    T, ids = trace_ids(t, 5)
    spans = []
    for i, (name, kind, fn, inputs, outputs, extra, parent, start, end) in enumerate(mlflow_run(t)):
        a = {"mlflow.traceRequestId": mlflow_dumps("tr-" + T), "mlflow.spanType": mlflow_dumps(kind)}
        if fn:
            a["mlflow.spanFunctionName"] = mlflow_dumps(fn)
        a["mlflow.spanInputs"] = mlflow_dumps(inputs)
        a["mlflow.spanOutputs"] = mlflow_dumps(outputs)
        a.update({k: mlflow_dumps(v) for k, v in extra.items()})
        spans.append(span(T, ids[i], name, start, end, a, parent=None if parent is None else ids[parent]))
    return traces([({"name": "mlflow.tracing.provider"}, spans)], service="support-app")


def mlflow_genai_parts(messages):
    """OpenAIChatCompletionConverter's _convert_message for each message but the system ones."""
    out = []
    for m in messages:
        if m["role"] == "system":
            continue
        parts = [{"type": "text", "content": m["content"]}] if isinstance(m.get("content"), str) else []
        for tc in m.get("tool_calls") or []:
            parts.append({"type": "tool_call", "id": tc["id"], "name": tc["function"]["name"],
                          "arguments": json.loads(tc["function"]["arguments"])})
        if m.get("tool_call_id"):
            out.append({"role": m["role"], "parts": [{"type": "tool_call_response", "id": m["tool_call_id"],
                                                      "response": parts[0]["content"] if parts else None}]})
            continue
        out.append({"role": m["role"], "parts": parts})
    return out


def mlflow_genai(t):
    T, ids = trace_ids(t, 5)
    operation = {"AGENT": "invoke_agent", "CHAT_MODEL": "chat", "TOOL": "execute_tool"}
    spans = []
    for i, (name, kind, fn, inputs, outputs, extra, parent, start, end) in enumerate(mlflow_run(t)):
        op = operation[kind]
        a = {"gen_ai.operation.name": op}
        if kind == "CHAT_MODEL":
            usage = extra["mlflow.chat.tokenUsage"]
            choice = outputs["choices"][0]
            out_msg = mlflow_genai_parts([choice["message"]])[0]
            out_msg["finish_reason"] = choice["finish_reason"]
            a.update({"gen_ai.request.model": "gpt-4o", "gen_ai.provider.name": "openai",
                      "gen_ai.usage.input_tokens": usage["input_tokens"], "gen_ai.usage.output_tokens": usage["output_tokens"],
                      "gen_ai.input.messages": jdump(mlflow_genai_parts(inputs["messages"])),
                      "gen_ai.system_instructions": jdump([{"type": "text", "content": inputs["messages"][0]["content"]}]),
                      "gen_ai.output.messages": jdump([out_msg]),
                      "gen_ai.response.finish_reasons": [choice["finish_reason"]],
                      "gen_ai.response.id": outputs["id"], "gen_ai.response.model": outputs["model"]})
            span_name, span_kind = "chat gpt-4o", 3
        elif kind == "TOOL":
            a.update({"gen_ai.tool.call.arguments": jdump(inputs), "gen_ai.tool.call.result": jdump(outputs)})
            span_name, span_kind = "execute_tool", 1
        else:
            span_name, span_kind = op, 1
        spans.append(span(T, ids[i], span_name, start, end, a, parent=None if parent is None else ids[parent], kind=span_kind))
    return traces([({"name": "mlflow.tracing.provider"}, spans)], service="support-app")


def case_mlflow():
    sources = [
        {"repo": MLFLOW, "path": "mlflow/entities/span.py", "ref": MLFLOW_REF,
         "what": "SpanAttributesRegistry.set: every attribute json.dumps(value, cls=TraceJSONEncoder, ensure_ascii=False); LiveSpan sets mlflow.traceRequestId and mlflow.spanType"},
        {"repo": MLFLOW, "path": "mlflow/tracing/constant.py", "ref": MLFLOW_REF,
         "what": "SpanAttributeKey: mlflow.spanInputs, mlflow.spanOutputs, mlflow.spanType, mlflow.spanFunctionName, mlflow.chat.tools, mlflow.chat.tokenUsage, mlflow.llm.model, mlflow.llm.provider, mlflow.message.format"},
        {"repo": MLFLOW, "path": "mlflow/tracing/fluent.py", "ref": MLFLOW_REF,
         "what": "@mlflow.trace: span named name or fn.__name__, mlflow.spanFunctionName fn.__name__, inputs capture_function_input_args (the arguments by name), outputs the return value"},
        {"repo": MLFLOW, "path": "mlflow/openai/_openai_autolog.py", "ref": MLFLOW_REF,
         "what": "the chat completion span: named after the resource class (Completions), span type CHAT_MODEL, inputs the call's keyword arguments, outputs the ChatCompletion"},
        {"repo": MLFLOW, "path": "mlflow/tracing/export/genai_semconv/translator.py", "ref": MLFLOW_REF,
         "what": "translate_span_to_genai (MLFLOW_ENABLE_OTEL_GENAI_SEMCONV): gen_ai.operation.name from the span type (TOOL -> execute_tool), a TOOL span's inputs and outputs as gen_ai.tool.call.arguments / result (json.dumps), every mlflow.* key dropped, the span renamed '{operation} {model}', or the operation alone: a tool span is 'execute_tool'"},
        {"repo": MLFLOW, "path": "mlflow/openai/genai_semconv_converter.py", "ref": "07ab5f970fe43778d01b66783595dea37e38eead",
         "what": "OpenAIChatCompletionConverter: messages but the system ones as GenAI parts (a tool message: tool_call_response with its tool_call_id and its content), choices as output messages with finish_reason, system instructions, finish reasons"},
    ]
    f = OUT.write("mlflow.traces.json", [mlflow_native(44)])
    add_case(
        "mlflow", [f], sources,
        "One agent run traced by MLflow (Python) and exported over OTLP as it holds it: support_agent (AGENT, "
        "@mlflow.trace) > Completions (CHAT_MODEL, mlflow.openai.autolog: two tool calls), find_customer and "
        "get_weather (TOOL, @mlflow.trace), Completions (the answer). Every attribute is JSON text. The record is the "
        "find_customer span's mlflow.spanOutputs and, as the content of a tool message, in the second Completions "
        "span's mlflow.spanInputs. Not reproduced: mlflow.experimentId, span events.",
    )
    f = OUT.write("mlflow-genai-semconv.traces.json", [mlflow_genai(45)])
    add_case(
        "mlflow-genai-semconv", [f], sources,
        "The same run exported with MLFLOW_ENABLE_OTEL_GENAI_SEMCONV=true: invoke_agent, chat gpt-4o, execute_tool, "
        "execute_tool, chat gpt-4o, GenAI keys only. The tool spans are named execute_tool and carry no tool name: "
        "only their call's arguments and result say which tool ran. The record is the first execute_tool span's "
        "gen_ai.tool.call.result and the second chat span's tool_call_response part (call_1).",
    )


# ---------------------------------------------------------------------------
# Haystack (deepset-ai/haystack), Python, its own OpenTelemetry tracer with content tracing on
# (HAYSTACK_CONTENT_TRACING_ENABLED=true). Every tag is one attribute: a str, bool, int or float as it
# is, anything else json.dumps of its _to_trace_dict()/to_dict() form (default separators, ASCII
# escapes). No gen_ai.* key anywhere, and in 2.x no attribute holds a tool's name alone: the tools run
# inside one ToolInvoker component span, and their names are only inside its JSON.

HAYSTACK = "deepset-ai/haystack"
HAYSTACK_2_REF = "df44022bbd85d38123b76350f639803068f43aba"  # v2.31.0
HAYSTACK_3_REF = "c7cb46c0f28ad1984f60e5d3e9404b124a221437"  # 3.2.0-rc0
HAYSTACK_INTEGRATIONS = "deepset-ai/haystack-core-integrations"
HAYSTACK_INTEGRATIONS_REF = "50a84e949fc700ed05cb4600b99f73955b787db8"


def hs_tool(name, description, props):
    return {"type": "haystack.tools.tool.Tool", "data": {
        "name": name, "description": description,
        "parameters": {"type": "object", "properties": props, "required": list(props)},
        "function": "app." + name, "outputs_to_string": None, "inputs_from_state": None, "outputs_to_state": None}}


HS_TOOLS = [
    hs_tool("find_customer", "Find a customer by name, email or account", {"query": {"type": "string"}}),
    hs_tool("get_weather", "Current weather in a city", {"city": {"type": "string"}}),
]


def hs_message(role, content, meta=None):
    """ChatMessage.to_dict(): role, meta, name, content, in that order."""
    return {"role": role, "meta": meta or {}, "name": None, "content": content}


def hs_meta(finish, tin, tout):
    return {"model": "gpt-4o-mini-2024-07-18", "index": 0, "finish_reason": finish,
            "usage": {"completion_tokens": tout, "prompt_tokens": tin, "total_tokens": tin + tout}}


def hs_call(call_id, name, arguments):
    return {"tool_name": name, "arguments": arguments, "id": call_id, "extra": None}


def hs_rounds(result_text):
    """The run's messages: the user's, the model's two tool calls, one tool message per result (its
    text as result_text makes it from what the tool returned), the answer."""
    c1, c2 = hs_call("call_1", "find_customer", FIND_ARGS), hs_call("call_2", "get_weather", WEATHER_ARGS)
    user = hs_message("user", [{"text": USER_TEXT}])
    calls = hs_message("assistant", [{"tool_call": c1}, {"tool_call": c2}], hs_meta("tool_calls", 96, 52))
    results = [hs_message("tool", [{"tool_call_result": {"result": result_text(r), "origin": c, "error": False}}])
               for c, r in ((c1, RECORD), (c2, WEATHER))]
    final = hs_message("assistant", [{"text": FINAL_TEXT}], hs_meta("stop", 281, 24))
    return user, calls, results, final


def hs_state(messages):
    """State.to_dict() of an Agent's state holding messages."""
    msg_type = "list[haystack.dataclasses.chat_message.ChatMessage]"
    return {"schema": {"messages": {"type": msg_type, "handler": "haystack.components.agents.state.state_utils.merge_lists"}},
            "data": {"serialization_schema": {"type": "object", "properties": {"messages": {
                "type": "array", "items": {"type": "haystack.dataclasses.chat_message.ChatMessage"}}}},
                "serialized_data": {"messages": messages}}}


def hs_component(name, typ, module, inputs, outputs, inp, out, visits):
    """A haystack.component.run span's attributes (PipelineBase._create_component_span and
    Pipeline._run_component)."""
    return {
        "haystack.component.name": name, "haystack.component.type": typ,
        "haystack.component.fully_qualified_type": module + "." + typ,
        "haystack.component.input_types": jdump({k: v for k, v in inputs.items()}),
        "haystack.component.input_spec": jdump({k: {"type": v, "senders": []} for k, v in inputs.items()}),
        "haystack.component.output_spec": jdump({k: {"type": v, "receivers": []} for k, v in outputs.items()}),
        "haystack.component.input": jdump(inp),
        "haystack.component.visits": visits,
        "haystack.component.output": jdump(out),
    }


def haystack_2(t):
    T, (pipe, agent_c, agent, g1, ti, g2) = trace_ids(t, 6)
    # ToolInvoker's default output handler: str() of what the tool returned, a dict's repr.
    user, calls, results, final = hs_rounds(str)
    history = [user, calls] + results
    gen = "haystack.components.generators.chat.openai"
    chat_in = {"messages": "list", "tools": "list"}
    chat_out = {"replies": "list[haystack.dataclasses.chat_message.ChatMessage]"}
    schema = {"messages": {"type": "list[haystack.dataclasses.chat_message.ChatMessage]",
                           "handler": "haystack.components.agents.state.state_utils.merge_lists"}}
    spans = [
        span(T, pipe, "haystack.pipeline.run", 0, 1000, {
            "haystack.pipeline.input_data": jdump({"agent": {"messages": [user]}}),
            "haystack.pipeline.output_data": jdump({}), "haystack.pipeline.metadata": jdump({}),
            "haystack.pipeline.max_runs_per_component": 100}),
        span(T, agent_c, "haystack.component.run", 2, 998, hs_component(
            "agent", "Agent", "haystack.components.agents.agent", {"messages": "list"},
            {"messages": "list[haystack.dataclasses.chat_message.ChatMessage]", "last_message": "ChatMessage"},
            {"messages": [user]}, {"messages": history + [final], "last_message": final}, 1), parent=pipe),
        span(T, agent, "haystack.agent.run", 4, 996, {
            "haystack.agent.max_steps": 100, "haystack.agent.tools": jdump(HS_TOOLS),
            "haystack.agent.exit_conditions": jdump(["text"]), "haystack.agent.state_schema": jdump(schema),
            "haystack.agent.input": jdump({"messages": [user], "streaming_callback": None, "break_point": None, "snapshot": None}),
            "haystack.agent.output": jdump({"messages": history + [final]}),
            "haystack.agent.steps_taken": 2}, parent=agent_c),
        span(T, g1, "haystack.component.run", 10, 300, hs_component(
            "chat_generator", "OpenAIChatGenerator", gen, chat_in, chat_out,
            {"messages": [user], "tools": HS_TOOLS}, {"replies": [calls]}, 1), parent=agent),
        span(T, ti, "haystack.component.run", 305, 360, hs_component(
            "tool_invoker", "ToolInvoker", "haystack.components.tools.tool_invoker",
            {"messages": "list", "state": "State", "tools": "list", "enable_streaming_callback_passthrough": "bool"},
            {"tool_messages": "list[haystack.dataclasses.chat_message.ChatMessage]", "state": "State"},
            {"messages": [calls], "state": hs_state([user, calls]), "tools": HS_TOOLS, "enable_streaming_callback_passthrough": False},
            {"tool_messages": results, "state": hs_state([user, calls])}, 1), parent=agent),
        span(T, g2, "haystack.component.run", 365, 990, hs_component(
            "chat_generator", "OpenAIChatGenerator", gen, chat_in, chat_out,
            {"messages": history, "tools": HS_TOOLS}, {"replies": [final]}, 2), parent=agent),
    ]
    return traces([({"name": "haystack"}, spans)], service="haystack")


def haystack_3(t):
    T, (agent, s1, l1, f1, f2, s2, l2) = trace_ids(t, 7)
    # The Agent's tool calling: _result_to_string, json.dumps(result, ensure_ascii=False) of a dict.
    user, calls, results, final = hs_rounds(lambda r: json.dumps(r, ensure_ascii=False))
    history = [user, calls] + results
    schema = {"messages": {"type": "list[haystack.dataclasses.chat_message.ChatMessage]",
                           "handler": "haystack.components.agents.state.state_utils.merge_lists"}}

    def tool_span(s, start, end, name, description, args, result):
        return span(T, s, "haystack.agent.step.tool", start, end, {
            "haystack.tool.name": name, "haystack.tool.description": description,
            "haystack.agent.step.tool.input": jdump(args), "haystack.agent.step.tool.output": jdump(result)}, parent=s1)

    spans = [
        span(T, agent, "haystack.agent.run", 0, 1000, {
            "haystack.agent.max_steps": 100, "haystack.agent.tools": jdump(HS_TOOLS),
            "haystack.agent.exit_conditions": jdump(["text"]), "haystack.agent.state_schema": jdump(schema),
            "haystack.agent.input": jdump({"messages": [user]}),
            "haystack.agent.output": jdump({"messages": history + [final], "last_message": final}),
            "haystack.agent.steps_taken": 2}),
        span(T, s1, "haystack.agent.step", 5, 400, {"haystack.agent.step": 0}, parent=agent),
        span(T, l1, "haystack.agent.step.llm", 10, 300, {
            "haystack.agent.step.llm.input": jdump({"messages": [user], "tools": HS_TOOLS}),
            "haystack.agent.step.llm.output": jdump({"replies": [calls]})}, parent=s1),
        tool_span(f1, 305, 340, "find_customer", HS_TOOLS[0]["data"]["description"], FIND_ARGS, RECORD),
        tool_span(f2, 305, 360, "get_weather", HS_TOOLS[1]["data"]["description"], WEATHER_ARGS, WEATHER),
        span(T, s2, "haystack.agent.step", 405, 995, {"haystack.agent.step": 1}, parent=agent),
        span(T, l2, "haystack.agent.step.llm", 410, 990, {
            "haystack.agent.step.llm.input": jdump({"messages": history, "tools": HS_TOOLS}),
            "haystack.agent.step.llm.output": jdump({"replies": [final]})}, parent=s2),
    ]
    return traces([({"name": "haystack"}, spans)], service="haystack")


def case_haystack():
    tracing_sources = [
        {"repo": HAYSTACK, "path": "haystack/tracing/utils.py", "ref": HAYSTACK_2_REF,
         "what": "coerce_tag_value: bool/str/int/float as they are, None as '', anything else json.dumps(_serializable_value(v)) (default separators, ensure_ascii), which uses _to_trace_dict() or to_dict()"},
        {"repo": HAYSTACK, "path": "haystack/dataclasses/chat_message.py", "ref": HAYSTACK_2_REF,
         "what": "ChatMessage.to_dict: role, meta, name, content; parts {text}, {tool_call: {tool_name, arguments, id, extra}}, {tool_call_result: {result, origin, error}}"},
    ]
    f = OUT.write("haystack-2-agent.traces.json", [haystack_2(46)])
    add_case(
        "haystack-2-agent", [f], tracing_sources + [
            {"repo": HAYSTACK, "path": "haystack/core/pipeline/base.py", "ref": HAYSTACK_2_REF,
             "what": "_create_component_span: haystack.component.run with haystack.component.{name, type, fully_qualified_type, input_types, input_spec, output_spec}"},
            {"repo": HAYSTACK, "path": "haystack/core/pipeline/pipeline.py", "ref": HAYSTACK_2_REF,
             "what": "haystack.pipeline.run (input_data, output_data at start so '{}', metadata, max_runs_per_component); _run_component: content tags haystack.component.input before run() and haystack.component.output, tag haystack.component.visits"},
            {"repo": HAYSTACK, "path": "haystack/components/agents/agent.py", "ref": HAYSTACK_2_REF,
             "what": "_create_agent_span: haystack.agent.run (max_steps, tools, exit_conditions, state_schema), content tags haystack.agent.input and haystack.agent.output, steps_taken; its chat_generator and tool_invoker run as haystack.component.run children"},
            {"repo": HAYSTACK, "path": "haystack/components/tools/tool_invoker.py", "ref": HAYSTACK_2_REF,
             "what": "ToolInvoker.run(messages, state, tools, enable_streaming_callback_passthrough) -> {tool_messages, state}; _default_output_to_string_handler: str(result) of a dict, so a Python repr"},
        ],
        "One Haystack 2.x Agent inside a Pipeline (haystack 2.31.0, its OpenTelemetry tracer, content tracing on): "
        "haystack.pipeline.run > haystack.component.run (agent) > haystack.agent.run > haystack.component.run "
        "chat_generator (two tool calls), tool_invoker (both tools), chat_generator (the answer). No span is a tool's "
        "and no attribute names a tool alone: both tools run inside the tool_invoker span. The record is the Python "
        "repr of the dict find_customer returned, as the result of a tool_call_result part, in the tool_invoker's "
        "output, the second chat_generator's input, and the agent's output (haystack.agent.output and the agent "
        "component's). Not reproduced: the haystack.tracing.auto_enable span, usage's token details.",
    )
    f = OUT.write("haystack-3-agent.traces.json", [haystack_3(47)])
    add_case(
        "haystack-3-agent", [f], tracing_sources + [
            {"repo": HAYSTACK, "path": "haystack/components/agents/agent.py", "ref": HAYSTACK_3_REF,
             "what": "haystack.agent.run (same tags as 2.x, output with last_message), haystack.agent.step (tag haystack.agent.step, the step counter), haystack.agent.step.llm with content tags haystack.agent.step.llm.input ({messages, tools}) and .output ({replies})"},
            {"repo": HAYSTACK, "path": "haystack/components/agents/tool_calling.py", "ref": HAYSTACK_3_REF,
             "what": "_create_tool_span: one haystack.agent.step.tool span per tool call, tags haystack.tool.name and haystack.tool.description, content tags haystack.agent.step.tool.input (the arguments) and .output (what the tool returned); _result_to_string: json.dumps(result, ensure_ascii=False) for the tool message"},
            {"repo": HAYSTACK_INTEGRATIONS, "path": "integrations/opentelemetry/src/haystack_integrations/components/connectors/opentelemetry/opentelemetry_connector.py", "ref": HAYSTACK_INTEGRATIONS_REF,
             "what": "the 3.x tracer: resource service.name haystack, tracer haystack, the core 2.x tracer's tag coercion"},
        ],
        "The same run with Haystack 3.x's Agent (3.2.0-rc0, traced by opentelemetry-haystack): haystack.agent.run > "
        "haystack.agent.step > haystack.agent.step.llm (two tool calls), one haystack.agent.step.tool span per call "
        "(haystack.tool.name alone, the arguments and what the tool returned as JSON), then a second step with the "
        "answer. The record is the find_customer tool span's output, the result of a tool_call_result part in the "
        "second llm span's input (JSON text inside the JSON), and the agent's output.",
    )


# ---------------------------------------------------------------------------
# LlamaIndex's own OpenTelemetry integration (llama-index-observability-otel), Python: a FunctionAgent
# whose OpenAI model calls both tools at once. No convention reads it: it is here to show what the
# guarantee holds on a format agentotel does not know. Spans are LlamaIndex's dispatcher spans, named
# Class.method; their only attributes are the workflow's llamaindex.* tags; LlamaIndex's instrumentation
# events become span events named by class, their model_dump() flattened into dotted keys (a list of
# dicts as json.dumps, None as "null"). The tool's name, arguments and output are on the call_tool step
# span's AgentToolCallStartEvent / AgentToolCallEndEvent; the model's input on the chat span's
# LLMChatStartEvent. With streaming (FunctionAgent's default) the replies' events arrive after their
# span closed and are dropped.

LLAMA_INDEX = "run-llama/llama_index"
LLAMA_INDEX_REF = "23d883949bda8b3338695c0b1448a7d0128ddf78"
WORKFLOWS = "run-llama/workflows-py"
WORKFLOWS_REF = "0b2098b762f4f49994c7877a40f2060f419dcae7"


def li_summary(cls, fields, max_length=200):
    """workflows' summarize_event: Class(field=repr(value), ...), long strings cut at 50, lists of more
    than 3 items and dicts of more than 3 keys counted, the whole cut at 200."""
    def value(v):
        if isinstance(v, str):
            return repr(v[:50] + "..." if len(v) > 50 else v)
        if isinstance(v, list) and len(v) > 3:
            return "[%d items]" % len(v)
        if isinstance(v, dict) and len(v) > 3:
            return "{%d keys}" % len(v)
        return v if isinstance(v, LiRepr) else repr(v)
    out = "%s(%s)" % (cls, ", ".join("%s=%s" % (k, value(v)) for k, v in fields))
    return out[:max_length - 3] + "..." if len(out) > max_length else out


class LiRepr(str):
    """A pydantic model's repr, already written."""


def li_flatten(d, parent=""):
    """llama-index-observability-otel's flatten_dict."""
    out = {}
    for k, v in d.items():
        key = parent + "." + k if parent else k
        if isinstance(v, dict):
            out.update(li_flatten(v, key))
        elif v is None:
            out[key] = "null"
        elif isinstance(v, (str, int, float, bool)) or (isinstance(v, list) and all(isinstance(x, (str, int, float, bool)) for x in v)):
            out[key] = v
        else:
            out[key] = json.dumps(v, default=str)
    return out


def li_event(name, at, span_id, tags, data):
    base = {"timestamp": '"2026-01-01 00:00:00.%06d"' % at, "id_": "evt-%d" % at, "span_id": span_id, "tags": tags}
    return event(name, at, li_flatten({**data, **base, "class_name": name}))


def llamaindex_run(t):
    T, (root, step1, llm1, tool1, fn1, tool2, fn2, agg1, agg2, step2, llm2) = trace_ids(t, 11)
    run_id = "run_Vq3kP0aZ"
    calls = [("call_1", "find_customer", FIND_ARGS, RECORD,
              "find_customer(query: str) -> dict\nFind a customer by name, email or account"),
             ("call_2", "get_weather", WEATHER_ARGS, WEATHER, "get_weather(city: str) -> dict\nCurrent weather in a city")]

    def tags(input_event, summary):
        return {"llamaindex.run_id": run_id, "llamaindex.step.input_event": input_event, "llamaindex.step.input_summary": summary}

    def tool_output_repr(name, args, result):
        return LiRepr("ToolOutput(blocks=[TextBlock(block_type='text', text=%r)], tool_name=%r, raw_input=%r, raw_output=%r, is_error=False)"
                      % (str(result), name, {"args": (), "kwargs": args}, result))

    user = {"role": "user", "additional_kwargs": {}, "blocks": [{"block_type": "text", "text": USER_TEXT}]}
    assistant = {"role": "assistant", "additional_kwargs": {"tool_calls": [
        {"index": i, "id": cid, "function": {"arguments": jdump(args), "name": name}, "type": "function"}
        for i, (cid, name, args, _, _) in enumerate(calls)]}, "blocks": []}
    results = [{"role": "tool", "additional_kwargs": {"tool_call_id": cid}, "blocks": [{"block_type": "text", "text": str(result)}]}
               for cid, _, _, result, _ in calls]
    openai_tools = [{"type": "function", "function": {"name": name, "description": desc.replace("\\n", "\n"),
                                                      "parameters": {"type": "object", "properties": {k: {"type": "string"} for k in args}, "required": list(args)}}}
                    for _, name, args, _, desc in calls]
    setup = li_summary("AgentSetup", [("input", [LiRepr("ChatMessage(role=<MessageRole.USER: 'user'>, ...)")]), ("current_agent_name", "Agent")])

    def chat_span(s, parent, start, end, messages, step_tags):
        start_event = li_event("LLMChatStartEvent", start + 1, "OpenAI.astream_chat-%s" % s, step_tags, {
            "model_dict": {"model": "gpt-4o-mini", "temperature": 0.1, "class_name": "openai_llm"},
            "messages": messages, "additional_kwargs": {"tools": openai_tools, "tool_choice": "auto"}})
        return span(T, s, "OpenAI.astream_chat", start, end, step_tags, parent=parent, events=[start_event], status={"code": 1})

    step1_tags = tags("AgentSetup", setup)
    spans = [
        span(T, root, "FunctionAgent.run", 0, 1000, {}, status={"code": 1}),
        span(T, step1, "BaseWorkflowAgent.run_agent_step", 5, 300, step1_tags, parent=root, status={"code": 1}),
        chat_span(llm1, step1, 10, 290, [user], step1_tags),
    ]
    for i, (cid, name, args, result, desc) in enumerate(calls):
        call_s, fn_s, agg_s = (tool1, fn1, agg1) if i == 0 else (tool2, fn2, agg2)
        call_tags = tags("ToolCall", li_summary("ToolCall", [("tool_name", name), ("tool_kwargs", args), ("tool_id", cid)]))
        output = tool_output_repr(name, args, result)
        result_summary = li_summary("ToolCallResult", [("tool_name", name), ("tool_kwargs", args), ("tool_id", cid),
                                                       ("tool_output", output), ("return_direct", False)])
        start, end = 305 + 20 * i, 340 + 20 * i
        events = [
            li_event("AgentToolCallStartEvent", start + 1, "BaseWorkflowAgent.call_tool-%s" % call_s, call_tags,
                     {"tool_id": cid, "tool_name": name, "tool_kwargs": args, "tool_description": desc.replace("\\n", "\n")}),
            li_event("AgentToolCallEndEvent", end - 1, "BaseWorkflowAgent.call_tool-%s" % call_s, call_tags, {
                "tool_id": cid, "tool_name": name, "tool_output": {
                    "blocks": [{"block_type": "text", "text": str(result)}], "tool_name": name,
                    "raw_input": {"args": [], "kwargs": args}, "raw_output": result, "is_error": False}}),
            event("step.output", end, {"output": result_summary}),
        ]
        spans.append(span(T, call_s, "BaseWorkflowAgent.call_tool", start, end, call_tags, parent=root, events=events, status={"code": 1}))
        spans.append(span(T, fn_s, "FunctionTool.acall", start + 2, end - 2, call_tags, parent=call_s, status={"code": 1}))
        spans.append(span(T, agg_s, "BaseWorkflowAgent.aggregate_tool_results", end + 1, end + 3,
                          tags("ToolCallResult", result_summary), parent=root, status={"code": 1}))
    step2_tags = tags("AgentSetup", setup)
    spans += [
        span(T, step2, "BaseWorkflowAgent.run_agent_step", 400, 990, step2_tags, parent=root, status={"code": 1}),
        chat_span(llm2, step2, 405, 985, [user, assistant] + results, step2_tags),
    ]
    return traces([({"name": "llamaindex.opentelemetry.tracer"}, spans)], service="llamaindex.opentelemetry")


def case_llamaindex():
    f = OUT.write("llamaindex-otel.traces.json", [llamaindex_run(48)])
    add_case(
        "llamaindex-otel", [f], [
            {"repo": LLAMA_INDEX, "path": "llama-index-integrations/observability/llama-index-observability-otel/llama_index/observability/otel/base.py", "ref": LLAMA_INDEX_REF,
             "what": "OTelCompatibleSpanHandler.new_span: the span named by its id without the uuid (Class.method), its instrument tags as attributes (llamaindex.* when undotted), status OK; OTelCompatibleEventHandler: an event per instrumentation event, named by class_name(), attributes flatten_dict(event.model_dump()), added when its span ends (dropped when the span ended before); scope llamaindex.opentelemetry.tracer, resource service.name llamaindex.opentelemetry"},
            {"repo": LLAMA_INDEX, "path": "llama-index-integrations/observability/llama-index-observability-otel/llama_index/observability/otel/utils.py", "ref": LLAMA_INDEX_REF,
             "what": "flatten_dict: nested dicts as dotted keys, str/int/float/bool and sequences of them as they are, anything else json.dumps(v, default=str)"},
            {"repo": LLAMA_INDEX, "path": "llama-index-core/llama_index/core/agent/workflow/base_agent.py", "ref": LLAMA_INDEX_REF,
             "what": "call_tool: AgentToolCallStartEvent(tool_id, tool_name, tool_kwargs, tool_description) and AgentToolCallEndEvent(tool_id, tool_name, tool_output)"},
            {"repo": LLAMA_INDEX, "path": "llama-index-core/llama_index/core/tools/function_tool.py", "ref": LLAMA_INDEX_REF,
             "what": "ToolOutput(blocks=[TextBlock(text=str(raw_output))], tool_name, raw_input={args, kwargs}, raw_output): a dict's content is its Python repr"},
            {"repo": LLAMA_INDEX, "path": "llama-index-core/llama_index/core/llms/callbacks.py", "ref": LLAMA_INDEX_REF,
             "what": "llm_chat_callback: LLMChatStartEvent(model_dict, messages, additional_kwargs) on the chat span"},
            {"repo": WORKFLOWS, "path": "packages/llama-index-workflows/src/workflows/_event_summary.py", "ref": WORKFLOWS_REF,
             "what": "summarize_event: Class(field=repr(value), ...), strings over 50 characters cut, the whole cut at 200; the step spans' llamaindex.step.input_summary and step.output events"},
        ],
        "One FunctionAgent run (llama-index-core with llama-index-observability-otel 0.6.4, the OpenAI model, streaming as "
        "by default) calling find_customer and get_weather at once, then answering: FunctionAgent.run > "
        "BaseWorkflowAgent.run_agent_step > OpenAI.astream_chat, two BaseWorkflowAgent.call_tool (each > "
        "FunctionTool.acall) and two aggregate_tool_results, run_agent_step > OpenAI.astream_chat. No convention reads "
        "it. The record is in the find_customer call_tool span's AgentToolCallEndEvent (tool_output.raw_output.* one key "
        "each, tool_output.blocks its Python repr), in the 200-character summaries of its ToolCallResult (its "
        "aggregate_tool_results span, the call_tool span's step.output event), and as the text of a tool message in the "
        "second chat span's LLMChatStartEvent messages. Not reproduced: the init_run, setup_agent and parse_agent_output "
        "step spans, the workflow.output event, the model_dict's other fields.",
    )


CASES = [
    case_genai_structured_span,
    case_genai_inference_details,
    case_genai_log_events,
    case_openllmetry,
    case_openinference,
    case_mastra,
    case_pydantic_ai,
    case_genai_http_client_span,
    case_strands,
    case_spring_ai,
    case_logfire_openai_agents,
    case_mlflow,
    case_haystack,
    case_llamaindex,
    case_finish,
]


if __name__ == "__main__":
    OUT.run(CASES)
