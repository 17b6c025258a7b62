// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Captures the OpenTelemetry project's own OpenAI instrumentation
// (@opentelemetry/instrumentation-openai, OpenTelemetry JS 3.x) around the
// `openai` client for the five shared scenarios. The instrumentation writes a
// span per chat completion and, with message content captured
// (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true), one log record per
// message of the request and one per choice: GenAI's per-message events
// (gen_ai.user.message, gen_ai.assistant.message, gen_ai.tool.message,
// gen_ai.choice), named by their event.name attribute, bodies as OTLP maps. The
// agent loop is application code (chatCompletionsLoop in capture-lib.mjs), and
// so are its spans: invoke_agent <agent> around the run and execute_tool <tool>
// around each tool, with GenAI's keys. The client talks to the mock
// chat-completions server of capture-lib.mjs on 127.0.0.1, through its fetch
// option, so that the spans name api.openai.example.
// Output, next to this file (one OTLP JSON request per line): traces.json, and
// logs.json, the same runs' log records.
import { OpenAIInstrumentation } from "@opentelemetry/instrumentation-openai";
import { context, logs, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { TracerProvider, InMemorySpanExporter, SimpleSpanProcessor as SpanProcessor3 } from "@opentelemetry/sdk-trace";
import { LoggerProvider, InMemoryLogRecordExporter, SimpleLogRecordProcessor } from "@opentelemetry/sdk-logs";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer, JsonLogsSerializer } from "@opentelemetry/otlp-transformer";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { scenarios } from "../scenarios.mjs";
import { chatCompletionsLoop, eachChatScenario, makeCapture } from "../capture-lib.mjs";

process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = "true";

// OpenTelemetry JS 3.x's TracerProvider registers nothing itself: the capture sets it, and a context
// manager, as the SDK's node setup would; its span processors take their exporter in an options object.
class SimpleSpanProcessor extends SpanProcessor3 {
  constructor(exporter) {
    super({ exporter });
  }
}
class NodeTracerProvider extends TracerProvider {
  register() {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(this);
  }
}

const resource = resourceFromAttributes({ "service.name": "agentotel-fixture-openai-otel-js", "agentotel.fixture.sdk": "openai-otel-js" });
const logExporter = new InMemoryLogRecordExporter();
const loggerProvider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter: logExporter })] });
logs.setGlobalLoggerProvider(loggerProvider);

const capture = makeCapture(
  { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, resourceFromAttributes, JsonTraceSerializer },
  { serviceName: "agentotel-fixture-openai-otel-js", sdk: "openai-otel-js", flush: () => loggerProvider.forceFlush() },
);
// The instrumentation patches the `openai` module when it is required: it is enabled first, and the
// client loaded through require after it, as an application's OpenTelemetry setup runs before the rest.
const instrumentation = new OpenAIInstrumentation();
instrumentation.setTracerProvider(capture.provider);
instrumentation.setLoggerProvider(loggerProvider);
instrumentation.enable();
const { OpenAI } = createRequire(import.meta.url)("openai");

const tracer = capture.tracer;
const logLines = [];

await eachChatScenario(
  scenarios,
  // The instrumentation records the server's address on its spans: the client is given a .example host,
  // and its fetch sends each request to the mock instead.
  (mockURL) =>
    new OpenAI({
      apiKey: "sk-fixture-not-a-key",
      baseURL: "https://api.openai.example/v1",
      fetch: (url, init) => fetch(String(url).replace("https://api.openai.example/v1", mockURL), init),
      maxRetries: 0,
    }),
  (scenario, client, runTool, tools) =>
    capture.run(scenario, async () => {
      logExporter.reset();
      await tracer.startActiveSpan(
        `invoke_agent ${scenario.agent}`,
        { attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": scenario.agent } },
        async (agent) => {
          await chatCompletionsLoop(client, scenario, tools, (name, args, callID) =>
            tracer.startActiveSpan(
              `execute_tool ${name}`,
              { attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": callID } },
              async (span) => {
                const result = await runTool(name, args);
                span.setAttributes({ "gen_ai.tool.call.arguments": JSON.stringify(args), "gen_ai.tool.call.result": JSON.stringify(result) });
                span.end();
                return result;
              },
            ),
          );
          agent.end();
        },
      );
      await loggerProvider.forceFlush();
      logLines.push(new TextDecoder().decode(JsonLogsSerializer.serializeRequest(logExporter.getFinishedLogRecords())));
    }),
);
writeFileSync(new URL("./logs.json", import.meta.url), logLines.join("\n") + "\n");
await capture.write(new URL("./traces.json", import.meta.url));
await loggerProvider.shutdown();
