#!/usr/bin/env bash
# Copyright The agentotel Authors
# SPDX-License-Identifier: Apache-2.0

# Checks and unit-tests agentotel's Prometheus alerting rules with promtool:
#   promtool check config deploy/prometheus/prometheus.yaml (which also checks the rules it loads)
#   promtool check rules  deploy/prometheus/agentotel-rules.yaml
#   promtool test rules   deploy/prometheus/agentotel-rules.test.yaml
# Exits non-zero when promtool is missing or any step fails. Set PROMTOOL to use another binary.
set -euo pipefail

dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
promtool=${PROMTOOL:-promtool}

if ! command -v "$promtool" >/dev/null 2>&1; then
	echo "test-rules.sh: promtool not found: install Debian's prometheus package (apt-get install -y prometheus), or set PROMTOOL" >&2
	exit 1
fi

cd "$dir"
status=0
run() {
	echo "+ $promtool $*"
	if ! "$promtool" "$@"; then
		echo "test-rules.sh: FAILED: $promtool $*" >&2
		status=1
	fi
}
run check config prometheus.yaml
run check rules agentotel-rules.yaml
run test rules agentotel-rules.test.yaml

if [ "$status" -ne 0 ]; then
	echo "test-rules.sh: the alerting rules failed their checks" >&2
	exit "$status"
fi
echo "test-rules.sh: alerting rules OK"
