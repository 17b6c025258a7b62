#!/usr/bin/env bash
# Copyright The agentotel Authors
# SPDX-License-Identifier: Apache-2.0

# Regenerates testdata/sdk/*/traces.json (and the other captures a folder
# writes: outcomes.json, variants): installs each SDK folder's pinned
# packages (npm ci, from its package-lock.json) and runs its capture.mjs.
# Needs Node 20+ and npm with the npm registry reachable; the captures
# themselves make no network calls (scripted models).
#
#   testdata/sdk/capture.sh              # every SDK
#   testdata/sdk/capture.sh ai-v6 ...    # only these
set -euo pipefail
cd "$(dirname "$0")"

# Mastra sends product telemetry unless told not to (capture.mjs sets it too).
export MASTRA_TELEMETRY_DISABLED=1
# Never let an SDK's own exporter or tracing backend be configured from the
# environment of whoever runs this.
unset OTEL_EXPORTER_OTLP_ENDPOINT OTEL_EXPORTER_OTLP_TRACES_ENDPOINT OPENAI_API_KEY OPENAI_BASE_URL ANTHROPIC_API_KEY ANTHROPIC_BASE_URL \
  GOOGLE_API_KEY GEMINI_API_KEY GOOGLE_GENAI_USE_VERTEXAI TRACELOOP_API_KEY TRACELOOP_BASE_URL LANGSMITH_TRACING LANGCHAIN_TRACING_V2 || true

sdks=("$@")
if [ ${#sdks[@]} -eq 0 ]; then
  sdks=(ai-v6 ai-v7-otel langgraph-openinference langgraph-openllmetry openai-agents-openinference mastra-otel adk-js openllmetry-openai
    anthropic-openinference anthropic-sdk-otel openai-otel-js strands-js langfuse-js langsmith-otel genkit)
fi

for sdk in "${sdks[@]}"; do
  echo "== $sdk"
  (
    cd "$sdk"
    npm ci --no-audit --no-fund --loglevel=error
    node capture.mjs
  )
done

# Every capture parses as OTLP JSON, one trace per line, and holds no network
# address.
node check.mjs
