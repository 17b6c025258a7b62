#!/usr/bin/env bash
# Copyright The agentotel Authors
# SPDX-License-Identifier: Apache-2.0

# make run: start otelcol-agent on the default config, send sample agent traces once it is healthy, show
# what shapeonly and agentguard did to them (read from the spans the collector exported and its own
# metrics), and keep serving OTLP until Ctrl-C, which ends the demo with status 0.
set -euo pipefail
cd "$(dirname "$0")/.."

# Where scripts/demo-capture.yaml has the collector write its copies of the spans, and the demo its log.
export DEMO_DIR=_build/demo
# The exporter queues of deploy/otelcol-agent.yaml: inside the demo's directory, so every demo starts empty.
export STORAGE_DIR=$DEMO_DIR/storage
log=$DEMO_DIR/collector.log
health=http://127.0.0.1:13133/
metrics=http://127.0.0.1:8888/metrics

# The seed scenarios go out in every convention; these show the other ways a run can end.
soft_limit_scenarios=(cutoff-left empty-left tool-throws failed-run)

demo() {
	collector="" interrupted=false
	# On Ctrl-C or a failure, stop the collector and wait for it: never leave it running. The terminal's
	# Ctrl-C reaches the collector itself (it is in the demo's process group); anything else is passed on.
	finish() {
		local status=$?
		trap - EXIT INT TERM
		if [[ -n $collector ]]; then
			if ! $interrupted || [[ ! -t 0 ]]; then kill -INT "$collector" 2>/dev/null || true; fi
			local collector_status=0
			wait "$collector" || collector_status=$?
			if $interrupted; then stopped "$collector_status"; fi
		fi
		if $interrupted; then exit 0; fi
		exit "$status"
	}
	trap finish EXIT
	trap 'interrupted=true; exit' INT TERM

	# Another collector on these ports would answer the health check and take the traces in its place.
	if curl -fsS "$health" >/dev/null 2>&1; then
		echo "something already answers on $health: an otelcol-agent still running? Stop it first." >&2
		exit 1
	fi
	rm -rf "$DEMO_DIR"
	mkdir -p "$DEMO_DIR/bin"
	echo "== building agentgen and agentsummary into $DEMO_DIR/bin =="
	# They live in the test module (test/cmd), beside the suites that share their dependencies.
	go -C test build -o "$PWD/$DEMO_DIR/bin/" ./cmd/agentgen ./cmd/agentsummary

	echo "== starting otelcol-agent on deploy/otelcol-agent.yaml; its log and debug exporter output go to $log =="
	./_build/otelcol-agent --config deploy/otelcol-agent.yaml --config scripts/demo-capture.yaml >"$log" 2>&1 &
	collector=$!
	local give_up=$((SECONDS + 60))
	until curl -fsS "$health" >/dev/null 2>&1; do
		if ! kill -0 "$collector" 2>/dev/null || ((SECONDS > give_up)); then
			echo "otelcol-agent did not become healthy; the end of $log:" >&2
			tail -n 20 "$log" >&2
			exit 1
		fi
		sleep 0.2
	done

	echo "== sending the seed scenarios in each convention: deploy polls a build through a declared wait, docs and"
	echo "   code fetch nothing new, support reads a customer record; then ${soft_limit_scenarios[*]} =="
	for convention in genai openinference vercel openllmetry; do
		"$DEMO_DIR/bin/agentgen" -scenario seeds -convention "$convention"
	done
	for scenario in "${soft_limit_scenarios[@]}"; do
		"$DEMO_DIR/bin/agentgen" -scenario "$scenario"
	done
	echo

	"$DEMO_DIR/bin/agentsummary" -metrics "$metrics" -wait 30s \
		-received "$DEMO_DIR/received.jsonl" -exported "$DEMO_DIR/exported.jsonl"

	cat <<-EOF

	== where to look next ==
	metrics        $metrics (otelcol_processor_agentguard_*, otelcol_processor_shapeonly_*)
	dashboard      deploy/grafana/dashboards/agentotel.json; Prometheus, alerts: docs/alerting.md
	spans          $DEMO_DIR/received.jsonl and exported.jsonl (OTLP JSON), every span printed: $log
	your pipeline  README "Drop into your pipeline"; the rules both processors follow: docs/design.md
	more runs      $DEMO_DIR/bin/agentgen -list; $DEMO_DIR/bin/agentgen -scenario mix -count 100

	otelcol-agent keeps serving OTLP on 127.0.0.1:4317 (gRPC) and 127.0.0.1:4318 (HTTP); Ctrl-C stops it.
	EOF
	local status=0
	wait "$collector" || status=$?
	collector=""
	stopped "$status"
}

# stopped reports how the collector ended, and ends the demo with its status.
stopped() {
	echo
	if (($1 != 0)); then
		echo "otelcol-agent exited with status $1; see $log" >&2
		exit "$1"
	fi
	echo "otelcol-agent stopped."
	exit 0
}

# Ctrl-C is how the demo ends. A terminal sends it to its foreground process group, make's: make would die
# of it and report the demo as failed. With job control the demo runs as a job of its own, the terminal's
# foreground group while it runs, so Ctrl-C reaches the demo alone and make sees the demo's status.
if [[ -t 0 ]]; then set -m; fi
(demo)
