# Copyright The agentotel Authors
# SPDX-License-Identifier: Apache-2.0

"""What the payload generators under testdata/formats share: the customer record and the support run
they script, the fixed clock, deterministic ids, JSON text as each language writes it, OTLP JSON
builders, and writing the payload files and manifest.json.

Not a program: each gen.py puts this directory on sys.path and imports what it uses from here. It
writes no file of its own; a generator's output stays byte-identical on every run because everything
here is a pure function of its arguments.
"""

import datetime
import hashlib
import json
import os

# ---------------------------------------------------------------------------
# The scripted support run: a user asks about a customer account and the weather, the model calls
# find_customer (a data-class tool: its result is the customer record) and get_weather.

RECORD = {
    "customer_id": "cus_88421907",
    "name": "Jane Roe-Whitfield",
    "email": "jane.roe@example-mail.test",
    "phone": "+1 415 555 0199",
    "notes": "VIP; disputes every invoice since March",
    "status": "active",
    "orders": [{"id": "ord_1", "total": 129.5}],
}
# The values of RECORD a privacy test must never find after shaping.
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
USER_TEXT = "Look up the Roe-Whitfield account and tell me the weather in Oslo."

# ---------------------------------------------------------------------------
# Time: every run starts at T0; the generators count in milliseconds after it (codex in microseconds).

T0 = 1767225600000000000  # 2026-01-01T00:00:00Z, in ns
T0_MS = T0 // 1_000_000


def nanos(ms, t0=T0):
    """An OTLP JSON time (ns since the epoch, as a string) ms milliseconds after t0."""
    return str(t0 + ms * 1_000_000)


def to_iso_string(ms):
    """ms milliseconds after T0 as JavaScript's Date.prototype.toISOString() writes it (milliseconds, UTC)."""
    s, milli = divmod(T0_MS + ms, 1000)
    d = datetime.datetime.fromtimestamp(s, datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S") + ".%03dZ" % milli


def iso_seconds(ms):
    """ms milliseconds after T0 as RFC 3339 in whole seconds, UTC."""
    return to_iso_string(ms)[:19] + "Z"


# ---------------------------------------------------------------------------
# Deterministic ids: hashes of a seed string, so every run writes the same ones.


def sha256_hex(seed):
    return hashlib.sha256(seed.encode()).hexdigest()


def hexid(seed, n):
    """n hex digits derived from seed (a trace id is 32, a span id 16)."""
    return sha256_hex(seed)[:n]


def uuid4(seed):
    """A version-4 UUID whose random bits are derived from seed."""
    x = sha256_hex(seed)
    return "%s-%s-4%s-%s%s-%s" % (x[0:8], x[8:12], x[13:16], "89ab"[int(x[16], 16) % 4], x[17:20], x[20:32])


# ---------------------------------------------------------------------------
# JSON text as the instrumentations write it.


def jdump(v):
    """JSON text as Python's json.dumps writes it by default (the Python instrumentations)."""
    return json.dumps(v)


def jcompact(v):
    """JSON text as JavaScript's JSON.stringify (and Rust's serde_json::to_string) writes it."""
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def utf16_len(s):
    """A string's length as JavaScript counts it (UTF-16 code units)."""
    return len(s.encode("utf-16-le")) // 2


# ---------------------------------------------------------------------------
# OTLP JSON, as pdata's ptrace/plog JSONUnmarshalers read it.


def any_value(v):
    """A Python value as an OTLP AnyValue. None is the empty AnyValue: what an SDK writes for an attribute
    whose value is unset but whose key it keeps."""
    if v is None:
        return {}
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    if isinstance(v, str):
        return {"stringValue": v}
    if isinstance(v, (list, tuple)):
        return {"arrayValue": {"values": [any_value(x) for x in v]}}
    if isinstance(v, dict):
        return {"kvlistValue": {"values": [{"key": k, "value": any_value(x)} for k, x in v.items()]}}
    raise TypeError(type(v))


def attributes(items, drop_none=False):
    """OTLP KeyValues of a dict or of (key, value) pairs, in their order. With drop_none, a key whose value
    is None is left out, for SDKs that skip unset attributes instead of keeping them empty."""
    pairs = items.items() if isinstance(items, dict) else items
    return [{"key": k, "value": any_value(v)} for k, v in pairs if not (drop_none and v is None)]


KIND_INTERNAL, KIND_SERVER, KIND_CLIENT = 1, 2, 3  # OTLP span kinds


def service_resource(service):
    return {"attributes": attributes({"service.name": service})}


def span(trace_id, span_id, name, start, end, attrs, parent=None, kind=KIND_INTERNAL, events=None, status=None, t0=T0,
         drop_none=False):
    """A span that ran from start to end (ms after t0)."""
    s = {"traceId": trace_id, "spanId": span_id}
    if parent:
        s["parentSpanId"] = parent
    s.update({
        "name": name,
        "kind": kind,
        "startTimeUnixNano": nanos(start, t0),
        "endTimeUnixNano": nanos(end, t0),
        "attributes": attributes(attrs, drop_none),
    })
    if events:
        s["events"] = events
    s["status"] = status or {}
    return s


def event(name, at, attrs, t0=T0, drop_none=False):
    """A span event at ms after t0."""
    return {"name": name, "timeUnixNano": nanos(at, t0), "attributes": attributes(attrs, drop_none)}


def traces_request(resource, scope_spans):
    """An ExportTraceServiceRequest of one resource; scope_spans: (scope, [span, ...]) pairs."""
    return {"resourceSpans": [{
        "resource": resource,
        "scopeSpans": [{"scope": sc, "spans": sp} for sc, sp in scope_spans],
    }]}


def logs_request(resource, scope_logs):
    """An ExportLogsServiceRequest of one resource; scope_logs: (scope, [logRecord, ...]) pairs."""
    return {"resourceLogs": [{
        "resource": resource,
        "scopeLogs": [{"scope": sc, "logRecords": lr} for sc, lr in scope_logs],
    }]}


def export_batches(items, interval_ms=5000):
    """Splits (time ms, item) pairs into export requests the way the SDKs' batch processors do by default:
    one export every interval_ms that has items, the export at k * interval carrying what ended in
    ((k - 1) * interval, k * interval]."""
    out = {}
    for t, it in sorted(items, key=lambda p: p[0]):
        out.setdefault(-(-t // interval_ms), []).append(it)
    return [out[k] for k in sorted(out)]


# ---------------------------------------------------------------------------
# GenAI message parts.


def converse_parts(blocks, tool_result_response):
    """Bedrock Converse content blocks (text, toolUse, toolResult) as GenAI message parts, with the keys in the
    order Strands' tracer and OpenLLMetry's bedrock instrumentation both write them; a toolResult's response is
    tool_result_response(toolResult), where the two differ."""
    parts = []
    for b in blocks:
        if "text" in b:
            parts.append({"type": "text", "content": b["text"]})
        elif "toolUse" in b:
            u = b["toolUse"]
            parts.append({"type": "tool_call", "name": u["name"], "id": u["toolUseId"], "arguments": u["input"]})
        elif "toolResult" in b:
            r = b["toolResult"]
            parts.append({"type": "tool_call_response", "id": r["toolUseId"], "response": tool_result_response(r)})
    return parts


# ---------------------------------------------------------------------------
# Writing the payloads and the manifest.


def citing(repo, ref):
    """A function src(path, what, repo=repo, ref=ref) that makes a manifest's source entry: the file of repo at
    ref a payload's shape follows, and what it shows there."""
    def src(path, what, repo=repo, ref=ref):
        return {"repo": repo, "path": path, "ref": ref, "what": what}
    return src


class Output:
    """The files one generator writes into its own directory: payloads, each OTLP JSON request on one line,
    and manifest.json, the list of cases with what each file holds."""

    def __init__(self, script):
        self.dir = os.path.dirname(os.path.abspath(script))
        self.written = []   # payload file names, in the order written
        self.manifest = []  # one entry per case

    def write(self, name, requests):
        """Writes the requests to name, one compact JSON a line; returns the case's file entry."""
        with open(os.path.join(self.dir, name), "w") as f:
            for r in requests:
                f.write(jcompact(r) + "\n")
        self.written.append(name)
        return {"path": name, "signal": "logs" if ".logs." in name else "traces"}

    def write_manifest(self, indent=2, ensure_ascii=False):
        """Writes manifest.json. A case's withheld_too (the fail-closed withholdings it documents) is kept
        from the manifest on disk: it is written by hand from what processor/shapeonly/formats_test.go
        reports, not by the generator."""
        path = os.path.join(self.dir, "manifest.json")
        try:
            with open(path) as f:
                kept = {c["case"]: c.get("withheld_too") for c in json.load(f)}
        except FileNotFoundError:
            kept = {}
        for c in self.manifest:
            if kept.get(c["case"]):
                c["withheld_too"] = kept[c["case"]]
        with open(path, "w") as f:
            json.dump(self.manifest, f, indent=indent, ensure_ascii=ensure_ascii)
            f.write("\n")

    def run(self, cases, **manifest_options):
        """Runs every case builder in order, writes manifest.json and prints the payload files written."""
        for case in cases:
            case()
        self.write_manifest(**manifest_options)
        for name in self.written:
            print(name)
