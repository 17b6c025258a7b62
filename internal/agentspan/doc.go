// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package agentspan recognises AI-agent telemetry across instrumentation conventions, for both
// processors: they read agent telemetry only through it.
//
// A Registry holds the conventions. Each built-in convention is one file of this package declaring how
// it marks its spans and where it writes a tool call's name, id, arguments and result, its transcripts,
// the agent name, the run id and the finish reason; users declare more in configuration (Declared).
// docs/conventions.md lists them, with what each is read for; it is generated from Builtin (package
// conventionsdoc), and make check-generate fails when it is not current. Recognize turns a span, span event or log record into one View.
//
// Beyond the View, it reads what a record carries:
//   - tool calls' arguments and results, opened from the envelope a convention wraps them in, a
//     Python repr read as the JSON it stands for (Args, Result, EventCall);
//   - a model call's reply: why it stopped, how many tools it asked for, whether it was empty (Reply,
//     EventReply, ChoiceReply);
//   - transcripts (TranscriptReader): the tool calls, tool results and a model's text in every message
//     format internal/message knows, in JSON text and OTLP values, flattened transcripts, per-message
//     events and ReAct scratchpads, each with its ids, tool names and payload nodes. It changes nothing:
//     agentguard reads a model request's latest round from it (RequestReader), and shapeonly's
//     rewriter (processor/shapeonly/internal/withhold) decides what to withhold from it.
//
// What the registry cannot read it says so (View.ResultKey empty, Reply.Known false,
// Document.Unreadable): callers never guess. The rules it serves are in docs/design.md.
package agentspan
