// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package main

// note is what docs/conventions.md says of a convention beyond its Convention value: how it recognises
// its spans (Claim is code), and what the attributes the registry lists hold, or where else the
// convention finds a value (ToolFromSpan, Unwrap and the other functions). A field's text follows the
// keys the generator lists for it: a note that opens with a parenthesis qualifies them, any other is
// added after a semicolon. Keys the Convention value lists are not repeated here.
type note struct {
	// Title is the SDK or instrumentation, as its users name it.
	Title string
	// Recognised completes "recognised by ...".
	Recognised string
	// Tool, CallID, Arguments, Result, Transcripts, Run, Agent and Finish add to the keys of that row.
	Tool, CallID, Arguments, Result, Transcripts, Run, Agent, Finish string
	// Captured adds to the list of captures (what each capture shows).
	Captured string
	// Uncaptured is set for a convention with no capture in testdata/sdk.
	Uncaptured *uncaptured
	// Configure is what to set in the processors for this convention beyond naming its tools.
	Configure string
}

// uncaptured says why testdata/sdk/capture.sh cannot capture a convention's SDK, and which payloads
// stand in for a capture.
type uncaptured struct {
	// Why completes "none: ...".
	Why string
	// Payloads is a glob, relative to the repository root, that must match files.
	Payloads string
	// Source says what the payloads are written from.
	Source string
}

var notes = map[string]note{
	"claude-code": {
		Title: "Claude Code",
		Recognised: "its scopes `com.anthropic.claude_code.tracing` (`claude_code.interaction` an agent, `claude_code.llm_request` " +
			"a model call, `claude_code.tool` a tool) and `com.anthropic.claude_code.events` (log records named in `event.name`: " +
			"`tool_result` a tool, `api_request_body` a request); one trace per prompt, the records in its interaction's span",
		Tool: "`tool_name` (`mcp__<server>__<tool>`), or, on a record whose `tool_name` is `mcp_tool`, `mcp__` + " +
			"`tool_parameters`' `mcp_server_name` + `__` + `mcp_tool_name`",
		Arguments:   "(records; on detailed spans after `[TOOL INPUT: <tool>]`)",
		Result:      "(`OTEL_LOG_TOOL_CONTENT`); a `tool_result` record carries no result",
		Transcripts: "`api_request_body`'s `body`, the Messages API request (`OTEL_LOG_RAW_API_BODIES`), read as any JSON",
		Uncaptured: &uncaptured{
			Why:      "a CLI that calls Anthropic's API itself",
			Payloads: "testdata/formats/cli/claude-code/claude-code-*.json",
			Source: "are written from its monitoring documentation (code.claude.com/docs/en/monitoring-usage, sections " +
				"\"Tool result event\", \"Span attributes\") and published captures of 2.1.283 to 2.1.289, each field's source in its README",
		},
		Configure: "see [Coding-agent CLIs](#coding-agent-clis)",
	},
	"gemini-cli": {
		Title: "Gemini CLI",
		Recognised: "its scope `gemini-cli`: `llm_call` a model call, `tool_call` a tool, the records `gemini_cli.api_request` and " +
			"`gen_ai.client.inference.operation.details` requests (`event.name`); a trace per model call and per tool batch",
		Tool:   "(`mcp_<server>_<tool>`); on a `gemini_cli.tool_call` record `function_name`",
		CallID: "(read without its `<tool>__` prefix, as the requests spell it)",
		Arguments: "(in the input messages, the `args` of its call); a value cut at 10,000 characters " +
			"(`...[TRUNCATED: original length N]`) is not read; a `gemini_cli.tool_call` record carries no result and no id, and counts nothing",
		Result:      "(its `functionResponse`'s `response`); a value cut at 10,000 characters is not read",
		Transcripts: "the messages are Gemini contents; a `gemini_cli.api_request` record's `request_text` is read as any JSON",
		Finish:      "or the reply's calls",
		Uncaptured: &uncaptured{
			Why:      "a CLI that calls Gemini's API itself",
			Payloads: "testdata/formats/cli/gemini-cli/gemini-cli-*.json",
			Source: "are written from its source at `5411f11` (`packages/core/src/telemetry/trace.ts:55-78, 158-194`, `types.ts`, " +
				"`loggers.ts`; `utils/textUtils.ts:106-145` the truncation), each field's lines in its README",
		},
		Configure: "see [Coding-agent CLIs](#coding-agent-clis)",
	},
	"codex": {
		Title: "Codex CLI",
		Recognised: "its scope `codex_otel.log_only`, records named in `event.name`: `codex.tool_result` a tool, " +
			"`codex.api_request` a model call; its spans (scope `codex_exec`) carry no content and are none of these",
		Tool:        "`mcp__` + `mcp_server` + `__` + the rest of `tool_name` (Codex writes `mcp__<server><tool>`)",
		Result:      "(after its `Wall time` and `Output:` lines, a single content block read as its text); an output cut at 2,048 bytes (`[... telemetry preview truncated ...]`) is not read",
		Transcripts: "none: Codex exports no request",
		Uncaptured: &uncaptured{
			Why:      "a CLI that calls OpenAI's API itself",
			Payloads: "testdata/formats/cli/codex/codex-*.json",
			Source: "are written from its source at `608b8b1` (`codex-rs/otel/src/events/session_telemetry.rs:1095-1141` the tool record, " +
				"`codex-rs/core/src/tools/context.rs:117-126, 465-503` its output and preview), each field's lines in its README",
		},
		Configure: "see [Coding-agent CLIs](#coding-agent-clis)",
	},
	"google-adk": {
		Title:       "Google ADK",
		Recognised:  "its scope `gcp.vertex.agent` or any `gcp.vertex.agent.*` attribute; `execute_tool`, `invoke_agent`, `call_llm`",
		Tool:        "or the span name `execute_tool <name>`",
		Transcripts: "the request and response are Gemini's",
		Finish:      "`finishReason` in the response",
		Captured:    "with model-given and ADK-generated call ids",
		Configure:   "`run_attributes: [gen_ai.conversation.id, gcp.vertex.agent.session_id]`",
	},
	"mastra": {
		Title:      "Mastra",
		Recognised: "`mastra.span.type` (`tool_call`, `workflow_step`, `model_inference`, `agent_run`, ...)",
		Tool:       "(a workflow step by its step id); or the span name `execute_tool <name>`",
		Configure:  "`run_attributes: [mastra.metadata.runId]`",
	},
	"strands": {
		Title:      "Strands Agents",
		Recognised: "its scope `strands-agents` (TypeScript) or `strands.telemetry.tracer` (Python), then as `genai`",
		Tool:       "or the span name `execute_tool <name>`",
		Arguments:  "the events' content blocks are Bedrock Converse shapes, as JSON; in the latest GenAI mode the `tool_call` part",
		Result: "(a result of one content block, `[{\"json\": value}]` or `[{\"text\": ...}]`, is read as its value); in the latest " +
			"GenAI mode the `tool_call_response` part",
		Transcripts: "GenAI's per-message events, whose `content` / `message` hold Strands' content blocks (Bedrock Converse shapes) as JSON; " +
			"in the latest mode GenAI's messages",
		Finish:   "(Strands' own reasons: `toolUse`, `endTurn`, `maxTokens`, ...)",
		Captured: "default and `gen_ai_latest_experimental`",
		Configure: "none: a run is its trace; `run_attributes: [session.id]` if you pass one in the agent's trace attributes " +
			"(on its `invoke_agent` span only). Either GenAI mode, Python or TypeScript",
	},
	"spring-ai": {
		Title: "Spring AI",
		Recognised: "`spring.ai.kind` (`tool_call`, `chat_client`; `advisor`, `vector_store` are neither); its chat model spans " +
			"carry none and are `genai`'s",
		Tool:        "or the span name `tool_call <name>` (1.x), `execute_tool <name>` (from 2.0)",
		CallID:      "(from 2.0)",
		Arguments:   "(with tool content observed, `spring.ai.tools.observations.include-content`)",
		Result:      "(with tool content observed)",
		Transcripts: "none on spans: prompts and completions are logged",
		Finish:      "its chat spans' `gen_ai.response.finish_reasons`, the provider's own in one string (`[\"TOOL_CALLS\"]`)",
		Uncaptured: &uncaptured{
			Why:      "a JVM framework",
			Payloads: "testdata/formats/genai/spring-ai-*.traces.json",
			Source:   "are written from its source (1.x and 2.0)",
		},
		Configure: "none: a ChatClient call is its trace. 1.x and 2.0, through Micrometer Tracing's OpenTelemetry bridge; " +
			"agentguard needs `spring.ai.tools.observations.include-content` to judge a step",
	},
	"pydantic-ai": {
		Title:      "Pydantic AI",
		Recognised: "its scope `pydantic-ai`, then as `genai`",
		Tool:       "or the span name `execute_tool <name>`",
		Arguments: "(the second with instrumentation version 1 or 2, the default through Pydantic AI 1.x, whose tool spans are " +
			"`running tool`)",
		Result: "(the second with instrumentation version 1 or 2)",
		Transcripts: "`pydantic_ai.all_messages` (from version 2) or `all_messages_events` (version 1) on the agent span, and the " +
			"chat span's `events` (version 1), read as any JSON",
		Uncaptured: &uncaptured{
			Why:      "a Python library",
			Payloads: "testdata/formats/genai/pydantic-ai-*.traces.json",
			Source:   "are written from its source (instrumentation versions 1, 2 and 5)",
		},
		Configure: "`run_attributes: [gen_ai.conversation.id]` if a conversation spans traces; with `include_content` (the default) " +
			"its tool spans hold the tool's arguments and result",
	},
	"langsmith": {
		Title: "LangSmith",
		Recognised: "its scope `langsmith` (the JS SDK's OpenTelemetry tracing mode, the Python SDK's OpenTelemetry exporter), then " +
			"`langsmith.span.kind` (`tool`, `llm`; `chain` and the rest are neither)",
		Tool:      "or the span name: a run's span is named after it",
		CallID:    "a LangChain tool run's ToolMessage's `tool_call_id`",
		Arguments: "(the run's inputs, JSON)",
		Result:    "(the run's outputs, JSON; a LangChain tool run's `{\"output\": <ToolMessage>}` is read as the message's content)",
		Transcripts: "an llm run's request is OpenAI's `{\"model\", \"messages\"}`; other instrumentations write plain " +
			"text under these keys",
		Finish: "(a string)",
		Configure: "`run_attributes: [langsmith.metadata.session_id]` (or `thread_id`, `conversation_id`: the metadata your " +
			"application gives a run)",
	},
	"logfire-openai-agents": {
		Title: "OpenAI Agents SDK with Logfire",
		Recognised: "its scope `logfire.openai_agents`, then `logfire.msg_template` (`Function: {name}` a tool, `Agent run: {name!r}` " +
			"an agent), else as `genai` (its model calls carry GenAI's operation)",
		Tool:        "`name`, on a function span only (spans are named by their template)",
		Arguments:   "(the model's arguments, a JSON string)",
		Result:      "(the return value, JSON when an object)",
		Transcripts: "none declared: `raw_input` and `response` on the Responses API spans are read as any JSON",
		Run:         "none: a run is its trace",
		Finish:      "(the Responses API gives none)",
		Uncaptured: &uncaptured{
			Why:      "Python libraries",
			Payloads: "testdata/formats/genai/logfire-openai-agents.traces.json",
			Source:   "is written from their source",
		},
		Configure: "none: a run is its trace (`logfire.instrument_openai_agents()`)",
	},
	"anthropic-sdk": {
		Title:      "Anthropic SDK (its own tracing)",
		Recognised: "its scope `com.anthropic.sdk.*` (`.typescript`, and a platform's package's suffix after it), then as `genai`",
		Tool:       "or the span name `anthropic.custom_tool_use <name>`, `anthropic.mcp_tool_use <name>`",
		Result:     "(in content mode: the content blocks the tool runner sent, one text block read as its text)",
		Transcripts: "the tool runner continues a thread the API keeps, so a request's `gen_ai.input.messages` holds only the " +
			"results since the reply before",
		Captured: "its own tracing in content mode, the tool runner; and its default, metadata only",
		Configure: "none: a tool runner's call is its trace; `run_attributes: [gen_ai.conversation.id]` if a conversation spans traces " +
			"(the SDK writes it from a request's `openTelemetry.conversationId` option, or a Session thread's id). Its default " +
			"tracing (`metadata_only`) records no tool arguments or results: every step is unjudged and no run is called " +
			"stuck, while stop reasons and token counts still give cut-offs, empty replies and outcomes. Set " +
			"`ANTHROPIC_OPEN_TELEMETRY_TRACES_CONTENT_MODE=content` (and shapeonly in the pipeline) for agentguard to judge its steps",
	},
	"openllmetry": {
		Title: "OpenLLMetry",
		Recognised: "`traceloop.span.kind` (`agent`, `workflow`, `tool`, `task`: tools are often decorated as tasks), or " +
			"`gen_ai.prompt.*` / `gen_ai.completion.*` / `llm.request.type` on model spans; before `genai`, since its LangChain " +
			"handler writes GenAI's operation beside the kind (a `tool` or `task` span is read as OpenLLMetry's, a span with both " +
			"keys otherwise as `genai` reads its operation)",
		Tool: "or the name in the LangChain ToolMessage its LangChain handler records as the output (the entity name is then the " +
			"tool's class, `DynamicStructuredTool`)",
		CallID:      "(JS tool spans carry none); the LangChain ToolMessage's `tool_call_id`",
		Result:      "(a LangChain ToolMessage's content)",
		Transcripts: "newer releases write GenAI's `gen_ai.input.messages`",
		Configure: "`run_attributes: [traceloop.association.properties.session_id]`. With its LangChain instrumentation, wrap " +
			"the agent in `withAgent` or a span of your own, or every span is a trace",
	},
	"genai": {
		Title:       "GenAI semantic conventions",
		Recognised:  "`gen_ai.operation.name` (`invoke_agent`, `execute_tool`, `chat`, ...)",
		Tool:        "or the span name `execute_tool <name>`",
		Transcripts: "the messages as JSON text or OTLP values",
		Configure: "`run_attributes: [gen_ai.conversation.id]` if a conversation spans traces. AI SDK 7 (`@ai-sdk/otel`) writes no " +
			"conversation id: with `runtimeContext`, `[ai.settings.context.sessionId]` (on its `invoke_agent` and step spans). The " +
			"OpenTelemetry project's instrumentations, such as `@opentelemetry/instrumentation-openai`, write messages as log " +
			"records: put shapeonly in the logs pipeline too. A data class may also come from `data_class_attribute: tool.data_class`",
	},
	"openinference": {
		Title:      "OpenInference (LangGraph, OpenAI Agents, Anthropic)",
		Recognised: "`openinference.span.kind` (`AGENT`, `TOOL`, `LLM`)",
		CallID:     "LangChain: the ToolMessage's `tool_call_id` in `output.value`",
		Result:     "(LangChain: the ToolMessage's content)",
		Agent:      "(the instrumentations write no `agent.name`: OpenAI Agents names the AGENT span after the agent, LangGraph names the run in its root CHAIN span's name)",
		Configure:  "`run_attributes: [session.id]` to group turns; these SDKs set no custom tool attributes",
	},
	"vercel-ai": {
		Title:      "Vercel AI SDK `ai.*` (v4 to v6)",
		Recognised: "`ai.operationId` or a span name `ai.*`",
		Configure:  "`run_attributes: [ai.telemetry.metadata.sessionId]`; tools by the names you gave them, `tools: {findCustomer: customer}`",
	},
	"langfuse": {
		Title:       "Langfuse (`@langfuse/tracing`, the Python SDK from v3)",
		Recognised:  "`langfuse.observation.type` (`tool`, `generation`, `agent`; others are neither)",
		Tool:        "the span name: an observation is named after its tool",
		Transcripts: "a generation's request is `{\"messages\": [..]}`",
		Configure: "`run_attributes: [session.id]` to group turns; Langfuse's own span processor copies it to every span, an OTLP " +
			"exporter alone leaves it on the span that set it",
	},
	"genkit": {
		Title: "Genkit",
		Recognised: "`genkit:type` (any Genkit span), then `genkit:metadata:subtype` (`tool`; `model`; `flow` and `agent` are agents, since " +
			"an application's agent loop is a flow around `generate`; `generate` turns, `genkit:type` `util`, which repeat the " +
			"conversation, are neither: the model's own span is the model call)",
		Tool: "`genkit:name`, on a tool span only (every action is named by it)",
		CallID: "none: a tool span does not carry the `ref` its request gave (results in transcripts are matched by name, or by the " +
			"`ref` of their `toolRequest` / `toolResponse` parts)",
		Transcripts: "a model's request is `{\"messages\": [..], \"tools\": [..]}` (a generate turn's too), its response " +
			"`{\"message\": {..}, \"finishReason\": ..}`; a flow's input may be a bare string",
		Run:       "(an agent's session); else a run is its trace",
		Finish:    "`finishReason` in `genkit:output`",
		Captured:  "a flow around `generate` with `defineTool` tools",
		Configure: "none: a flow's call is its trace; `run_attributes: [genkit:metadata:agent:sessionId]` for an agent's session",
	},
	"haystack": {
		Title: "Haystack",
		Recognised: "span names `haystack.*` (its own tracer, `haystack`): `haystack.agent.step.tool` a tool, `haystack.agent.step.llm` " +
			"and a `haystack.component.run` of a `*ChatGenerator` a model call, `haystack.agent.run` an agent; pipelines, steps and " +
			"other components (a 2.x `ToolInvoker` runs every call of a message in one span) are neither",
		Tool:   "(3.x; in 2.x no attribute names a tool)",
		CallID: "none: a 3.x tool span does not carry its call's id (results in transcripts name their call in `origin`)",
		Transcripts: "with content tracing, JSON: a model call's `{\"messages\": [..], \"tools\": [..]}` and `{\"replies\": [..]}`, a " +
			"component's inputs and outputs (a ToolInvoker's `tool_messages` too); Haystack's `ChatMessage` dicts",
		Run:    "none: a run is its trace",
		Finish: "`finish_reason` in a reply's `meta`",
		Uncaptured: &uncaptured{
			Why:      "a Python library",
			Payloads: "testdata/formats/genai/haystack-*.traces.json",
			Source:   "are written from its source (`haystack-2-agent.traces.json` from 2.31.0, `haystack-3-agent.traces.json` from 3.x)",
		},
		Configure: "none: a run is its trace. Turn content tracing on (`HAYSTACK_CONTENT_TRACING_ENABLED=true`); 3.x names each " +
			"call's tool, a 2.x ToolInvoker's messages name them",
	},
	"mlflow": {
		Title: "MLflow Tracing",
		Recognised: "`mlflow.spanType` (`TOOL`; `CHAT_MODEL`, `LLM`; `AGENT`; `CHAIN` and the rest are neither); every value MLflow " +
			"sets is JSON text, a string too (`\"\\\"TOOL\\\"\"`)",
		Tool:      "`mlflow.spanFunctionName` (JSON text), or the span name (a traced function's span is named after it)",
		CallID:    "a LangChain tool run's ToolMessage's `tool_call_id`",
		Arguments: "(the arguments by name)",
		Result:    "(the return value; a LangChain ToolMessage's content)",
		Transcripts: "a model call's request is `{\"messages\": [..], \"tools\": [..]}`. With `MLFLOW_ENABLE_OTEL_GENAI_SEMCONV` the export writes GenAI's keys instead, " +
			"read as `genai` (its tool spans, all named `execute_tool`, name no tool)",
		Run:    "(on the root span)",
		Finish: "`finish_reason` in the response",
		Uncaptured: &uncaptured{
			Why:      "a Python library",
			Payloads: "testdata/formats/genai/mlflow*.traces.json",
			Source:   "are written from its source (`mlflow.traces.json`, and `mlflow-genai-semconv.traces.json` in GenAI's terms)",
		},
		Configure: "`run_attributes: [session.id]` if a session spans traces (on its root span only); in GenAI mode its tool spans " +
			"name no tool and are withheld while any tool is data-class",
	},
}
