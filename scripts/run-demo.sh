#!/usr/bin/env bash
# make run: start otelcol-agent on the default config, send the sample agent traces once it is healthy,
# print a summary from the collector's own metrics, and keep serving OTLP until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

config=${CONFIG:-deploy/otelcol-agent.yaml}
health=http://127.0.0.1:13133/
metrics=http://127.0.0.1:8888/metrics

./_build/otelcol-agent --config "$config" &
collector=$!
trap 'kill -INT $collector 2>/dev/null; wait $collector 2>/dev/null' EXIT INT TERM

for _ in $(seq 1 100); do
	if curl -fsS "$health" >/dev/null 2>&1; then break; fi
	if ! kill -0 $collector 2>/dev/null; then echo "otelcol-agent exited; see its log above" >&2; exit 1; fi
	sleep 0.2
done
curl -fsS "$health" >/dev/null || { echo "otelcol-agent did not become healthy" >&2; exit 1; }

echo "== sending the seed scenarios (deploy, docs, code, support) in each convention =="
for convention in genai openinference vercel openllmetry; do
	go run ./cmd/agentgen -scenario seeds -convention "$convention" -endpoint 127.0.0.1:4317
done
# Every span has passed the processors once the debug exporter has sent as many as the receiver accepted.
count() { curl -fsS "$metrics" | awk -v name="$1" '$0 ~ "^" name "[{ ]" { total += $NF } END { print total + 0 }'; }
for _ in $(seq 1 100); do
	if [ "$(count otelcol_exporter_sent_spans)" = "$(count otelcol_receiver_accepted_spans)" ]; then break; fi
	sleep 0.2
done
echo
echo "== summary from the collector's own metrics ($metrics) =="
go run ./cmd/agentsummary -metrics "$metrics"
echo
echo "otelcol-agent keeps serving OTLP on 127.0.0.1:4317 (gRPC) and 127.0.0.1:4318 (HTTP); Ctrl-C stops it."
wait $collector
