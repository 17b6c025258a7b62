// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package agentspan recognises AI-agent telemetry across instrumentation conventions.
//
// A Registry holds the conventions: each built-in convention (GenAI semantic conventions,
// OpenInference, the Vercel AI SDK, OpenLLMetry, Google ADK) is one file declaring how it marks its
// spans and where it writes a tool call's name, id, arguments and result, its transcripts, the agent
// name, the run id and the finish reason; users declare more in configuration (Declared). Recognize
// turns a span, span event or log record into one View; both processors read agent telemetry only
// through the registry.
//
// Message formats inside transcripts (GenAI parts, OpenAI chat and Responses items, Anthropic blocks,
// Gemini parts, Bedrock Converse blocks, Ollama and LangChain messages, AI SDK parts) are recognised by
// their shape wherever they appear, in JSON text or in OTLP structured values: see messages.go.
//
// What the registry cannot read it says so (View.ResultKey empty, Reply.Known false): callers never
// guess. The rules it serves are in docs/design.md.
package agentspan
