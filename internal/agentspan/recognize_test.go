// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// attrsOf builds a span's attributes the way an SDK exporter hands them over.
func attrsOf(t testing.TB, raw map[string]any) pcommon.Map {
	t.Helper()
	m := pcommon.NewMap()
	if err := m.FromRaw(raw); err != nil {
		t.Fatalf("FromRaw: %v", err)
	}
	return m
}

// TestRecognize covers each convention's agent, tool, model and other spans with the attributes the
// SDKs really write (docs/conventions.md), including the spans that carry a second convention's keys.
func TestRecognize(t *testing.T) {
	tests := []struct {
		name  string
		span  string
		scope string
		attrs map[string]any
		want  View
	}{
		// GenAI semantic conventions.
		{
			name: "genai agent", span: "invoke_agent support",
			attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "support", "gen_ai.provider.name": "openai"},
			want:  View{Role: RoleAgent, Convention: &genAI, Agent: "support"},
		},
		{
			name: "genai create_agent", span: "create_agent support",
			attrs: map[string]any{"gen_ai.operation.name": "create_agent", "gen_ai.agent.name": "support"},
			want:  View{Role: RoleAgent, Convention: &genAI, Agent: "support"},
		},
		{
			name: "genai tool", span: "execute_tool find_customer",
			attrs: map[string]any{
				"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer", "gen_ai.tool.call.id": " call_1 ",
				"gen_ai.tool.call.arguments": `{"query":"Ada"}`, "gen_ai.tool.call.result": `{"rows":[]}`,
				"gen_ai.agent.name": "support",
			},
			want: View{Role: RoleTool, Convention: &genAI, Tool: "find_customer", CallID: "call_1",
				ArgsKey: "gen_ai.tool.call.arguments", ResultKey: "gen_ai.tool.call.result", Agent: "support"},
		},
		{
			name: "genai tool named only by its span", span: "execute_tool  lookup ",
			attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.id": "c2"},
			want:  View{Role: RoleTool, Convention: &genAI, Tool: "lookup", CallID: "c2"},
		},
		{
			name: "genai tool without result", span: "execute_tool t",
			attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t", "gen_ai.tool.call.arguments": "{}"},
			want:  View{Role: RoleTool, Convention: &genAI, Tool: "t", ArgsKey: "gen_ai.tool.call.arguments"},
		},
		// Pydantic AI: GenAI's keys, but its instrumentation versions 1 and 2 put a tool's call elsewhere.
		{
			name: "pydantic-ai version 2 tool", span: "running tool", scope: "pydantic-ai",
			attrs: map[string]any{
				"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer", "gen_ai.tool.call.id": "call_1",
				"tool_arguments": `{"query":"Ada"}`, "tool_response": `{"rows":[]}`, "logfire.msg": "running tool: find_customer",
			},
			want: View{Role: RoleTool, Convention: &pydanticAI, Tool: "find_customer", CallID: "call_1",
				ArgsKey: "tool_arguments", ResultKey: "tool_response"},
		},
		{
			name: "pydantic-ai version 2 agent", span: "agent run", scope: "pydantic-ai",
			attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "agent_name": "support_agent"},
			want:  View{Role: RoleAgent, Convention: &pydanticAI, Agent: "support_agent"},
		},
		{
			name: "running tool of another scope is GenAI's", span: "running tool",
			attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t", "tool_response": "{}"},
			want:  View{Role: RoleTool, Convention: &genAI, Tool: "t"},
		},
		// LangSmith: a run's span is named after it; its inputs and outputs are gen_ai.prompt / completion.
		{
			name: "langsmith python tool", span: "find_customer", scope: "langsmith",
			attrs: map[string]any{
				"langsmith.span.kind": "tool", "gen_ai.operation.name": "execute_tool", "langsmith.trace.name": "find_customer",
				"gen_ai.prompt": `{"query":"Ada"}`, "gen_ai.completion": `{"rows":[]}`, "langsmith.metadata.session_id": "s1",
			},
			want: View{Role: RoleTool, Convention: &langSmith, Tool: "find_customer", RunID: "s1",
				ArgsKey: "gen_ai.prompt", ResultKey: "gen_ai.completion"},
		},
		{
			name: "langsmith langchain tool", span: "find_customer", scope: "langsmith",
			attrs: map[string]any{
				"langsmith.span.kind": "tool", "gen_ai.operation.name": "execute_tool", "gen_ai.prompt": `{"input":"Ada"}`,
				"gen_ai.completion": `{"output":{"content":"{\"rows\":[]}","type":"tool","name":"find_customer","tool_call_id":"call_9","status":"success"}}`,
			},
			want: View{Role: RoleTool, Convention: &langSmith, Tool: "find_customer", CallID: "call_9",
				ArgsKey: "gen_ai.prompt", ResultKey: "gen_ai.completion"},
		},
		{
			name: "langsmith llm", span: "ChatOpenAI", scope: "langsmith",
			attrs: map[string]any{"langsmith.span.kind": "llm", "gen_ai.operation.name": "chat"},
			want:  View{Role: RoleModel, Convention: &langSmith},
		},
		{
			name: "langsmith root chain", span: "support-agent", scope: "langsmith",
			attrs: map[string]any{"langsmith.span.kind": "chain", "gen_ai.operation.name": "chain"},
			want:  View{Role: RoleOther, Convention: &langSmith},
		},
		{
			name: "langsmith run name on another tracer's span", span: "RunnableSequence", scope: "openinference.instrumentation.langchain",
			attrs: map[string]any{"langsmith.trace.name": "RunnableSequence", "langsmith.span.kind": "chain"},
			want:  View{},
		},
		// Logfire's OpenAI Agents spans: named by their template; name is the tool only on a function span.
		{
			name: "logfire function span", span: "Function: {name}", scope: "logfire.openai_agents",
			attrs: map[string]any{"logfire.msg_template": "Function: {name}", "name": " find_customer ", "input": `{"query":"Ada"}`,
				"output": `{"rows":[]}`},
			want: View{Role: RoleTool, Convention: &logfireAgents, Tool: "find_customer", ArgsKey: "input", ResultKey: "output"},
		},
		{
			name: "logfire responses span", span: "Responses API with {gen_ai.request.model!r}", scope: "logfire.openai_agents",
			attrs: map[string]any{"logfire.msg_template": "Responses API with {gen_ai.request.model!r}", "gen_ai.operation.name": "chat"},
			want:  View{Role: RoleModel, Convention: &logfireAgents},
		},
		{
			name: "a span of another scope with a name attribute is no tool call", span: "work",
			attrs: map[string]any{"logfire.msg_template": "Function: {name}", "name": "find_customer"},
			want:  View{},
		},
		// The Anthropic SDK's own spans: GenAI's, and its result and stop reason in keys of its own.
		{
			name: "anthropic sdk tool", span: "anthropic.custom_tool_use find_customer", scope: "com.anthropic.sdk.typescript",
			attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer", "gen_ai.tool.call.id": "toolu_1",
				"gen_ai.tool.call.arguments": `{"query":"Ada"}`, "anthropic.tool_result.content": `[{"type":"text","text":"{}"}]`},
			want: View{Role: RoleTool, Convention: &anthropicSDK, Tool: "find_customer", CallID: "toolu_1",
				ArgsKey: "gen_ai.tool.call.arguments", ResultKey: "anthropic.tool_result.content"},
		},
		{
			name: "anthropic sdk tool named only by its span", span: "anthropic.mcp_tool_use lookup", scope: "com.anthropic.sdk.typescript.bedrock",
			attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.id": "toolu_2"},
			want:  View{Role: RoleTool, Convention: &anthropicSDK, Tool: "lookup", CallID: "toolu_2"},
		},
		{
			name: "anthropic sdk model call", span: "anthropic.messages.create", scope: "com.anthropic.sdk.typescript",
			attrs: map[string]any{"gen_ai.operation.name": "chat", "anthropic.message.stop_reason": "tool_use"},
			want:  View{Role: RoleModel, Convention: &anthropicSDK},
		},
		{
			name: "anthropic sdk tool runner", span: "anthropic.messages.tool_runner", scope: "com.anthropic.sdk.typescript",
			attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "anthropic.session.id": "sesn_1"},
			want:  View{Role: RoleAgent, Convention: &anthropicSDK, RunID: "sesn_1"},
		},
		{
			name: "the anthropic result key on a span of another scope is GenAI's", span: "execute_tool find_customer", scope: "my-agent",
			attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_customer", "anthropic.tool_result.content": `[]`},
			want:  View{Role: RoleTool, Convention: &genAI, Tool: "find_customer"},
		},
		// MLflow: every value is JSON text, its span type and function name too.
		{
			name: "mlflow tool", span: "find_customer", scope: "mlflow.tracing.provider",
			attrs: map[string]any{"mlflow.spanType": `"TOOL"`, "mlflow.spanFunctionName": `"find_customer"`,
				"mlflow.spanInputs": `{"query": "Ada"}`, "mlflow.spanOutputs": `{"rows": []}`},
			want: View{Role: RoleTool, Convention: &mlflowTracing, Tool: "find_customer", ArgsKey: "mlflow.spanInputs", ResultKey: "mlflow.spanOutputs"},
		},
		{
			name: "mlflow tool span named by the application", span: "Customer lookup",
			attrs: map[string]any{"mlflow.spanType": `"TOOL"`, "mlflow.spanFunctionName": `"find_customer"`},
			want:  View{Role: RoleTool, Convention: &mlflowTracing, Tool: "find_customer"},
		},
		{
			name: "mlflow tool without its function name", span: "lookup",
			attrs: map[string]any{"mlflow.spanType": `"TOOL"`},
			want:  View{Role: RoleTool, Convention: &mlflowTracing, Tool: "lookup"},
		},
		{
			name: "mlflow chat model", span: "Completions",
			attrs: map[string]any{"mlflow.spanType": `"CHAT_MODEL"`, "mlflow.message.format": `"openai"`},
			want:  View{Role: RoleModel, Convention: &mlflowTracing},
		},
		{
			name: "mlflow agent with its session", span: "support_agent",
			attrs: map[string]any{"mlflow.spanType": `"AGENT"`, "session.id": "s-1"},
			want:  View{Role: RoleAgent, Convention: &mlflowTracing, Agent: "support_agent", RunID: "s-1"},
		},
		{
			name: "mlflow chain", span: "RunnableSequence",
			attrs: map[string]any{"mlflow.spanType": `"CHAIN"`},
			want:  View{Role: RoleOther, Convention: &mlflowTracing},
		},
		{
			name: "mlflow span type set as plain text", span: "lookup",
			attrs: map[string]any{"mlflow.spanType": "TOOL"},
			want:  View{Role: RoleTool, Convention: &mlflowTracing, Tool: "lookup"},
		},
		// Genkit: every action's span is labelled; genkit:name is the tool only on a tool's span.
		{
			name: "genkit tool", span: "find_customer", scope: "genkit-tracer",
			attrs: map[string]any{"genkit:type": "action", "genkit:metadata:subtype": "tool", "genkit:name": " find_customer ",
				"genkit:input": `{"query":"Ada"}`, "genkit:output": `{"rows":[]}`, "genkit:state": "success"},
			want: View{Role: RoleTool, Convention: &genkit, Tool: "find_customer", ArgsKey: "genkit:input", ResultKey: "genkit:output"},
		},
		{
			name: "genkit model", span: "googleai/gemini-2.5-flash", scope: "genkit-tracer",
			attrs: map[string]any{"genkit:type": "action", "genkit:metadata:subtype": "model", "genkit:name": "googleai/gemini-2.5-flash"},
			want:  View{Role: RoleModel, Convention: &genkit},
		},
		{
			name: "genkit flow is the agent", span: "support-agent", scope: "genkit-tracer",
			attrs: map[string]any{"genkit:type": "action", "genkit:metadata:subtype": "flow", "genkit:name": "support-agent", "genkit:isRoot": true},
			want:  View{Role: RoleAgent, Convention: &genkit, Agent: "support-agent"},
		},
		{
			name: "genkit agent session", span: "support", scope: "genkit-tracer",
			attrs: map[string]any{"genkit:type": "action", "genkit:metadata:subtype": "agent", "genkit:metadata:agent:sessionId": "sess-1"},
			want:  View{Role: RoleAgent, Convention: &genkit, Agent: "support", RunID: "sess-1"},
		},
		{
			name: "genkit generate turn", span: "generate", scope: "genkit-tracer",
			attrs: map[string]any{"genkit:type": "util", "genkit:name": "generate", "genkit:input": `{"messages":[]}`},
			want:  View{Role: RoleOther, Convention: &genkit},
		},
		{
			name: "a genkit name without its labels is no tool call", span: "find_customer",
			attrs: map[string]any{"genkit:name": "find_customer", "genkit:input": `{"query":"Ada"}`},
			want:  View{},
		},
		// Spring AI: its framework spans before GenAI, whose operation they also name.
		{
			name: "spring-ai 1.x tool", span: "tool_call find_customer",
			attrs: map[string]any{
				"gen_ai.operation.name": "framework", "gen_ai.system": "spring_ai", "spring.ai.kind": "tool_call",
				"spring.ai.tool.definition.name": "find_customer", "spring.ai.tool.call.arguments": `{"query":"Ada"}`,
				"spring.ai.tool.call.result": `{"rows":[]}`,
			},
			want: View{Role: RoleTool, Convention: &springAI, Tool: "find_customer",
				ArgsKey: "spring.ai.tool.call.arguments", ResultKey: "spring.ai.tool.call.result"},
		},
		{
			name: "spring-ai 2.0 tool named only by its span", span: "execute_tool find_customer",
			attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "spring.ai.kind": "tool_call", "spring.ai.tool.call.id": "call_7"},
			want:  View{Role: RoleTool, Convention: &springAI, Tool: "find_customer", CallID: "call_7"},
		},
		{
			name: "spring-ai chat client", span: "spring_ai chat_client",
			attrs: map[string]any{"gen_ai.operation.name": "framework", "spring.ai.kind": "chat_client"},
			want:  View{Role: RoleAgent, Convention: &springAI},
		},
		{
			name: "spring-ai advisor", span: "chat_client_advisor call",
			attrs: map[string]any{"gen_ai.operation.name": "framework", "spring.ai.kind": "advisor"},
			want:  View{Role: RoleOther, Convention: &springAI},
		},
		{
			name: "genai chat", span: "chat gpt-4.1",
			attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.input.messages": "[]", "gen_ai.system": "openai"},
			want:  View{Role: RoleModel, Convention: &genAI},
		},
		{
			name: "genai text_completion", span: "text_completion",
			attrs: map[string]any{"gen_ai.operation.name": "text_completion"},
			want:  View{Role: RoleModel, Convention: &genAI},
		},
		{
			name: "genai generate_content", span: "generate_content gemini",
			attrs: map[string]any{"gen_ai.operation.name": "generate_content"},
			want:  View{Role: RoleModel, Convention: &genAI},
		},
		{
			name: "genai embeddings is other", span: "embeddings",
			attrs: map[string]any{"gen_ai.operation.name": "embeddings"},
			want:  View{Role: RoleOther, Convention: &genAI},
		},
		{
			// Some SDKs emit both: GenAI wins.
			name: "genai beats openinference", span: "x",
			attrs: map[string]any{"gen_ai.operation.name": "chat", "openinference.span.kind": "TOOL", "tool.name": "t"},
			want:  View{Role: RoleModel, Convention: &genAI},
		},

		// OpenInference.
		{
			name: "openinference agent", span: "support",
			attrs: map[string]any{"openinference.span.kind": "AGENT", "agent.name": "support", "input.value": "refund Ada"},
			want:  View{Role: RoleAgent, Convention: &openInference, Agent: "support"},
		},
		{
			name: "openinference tool", span: "find_customer",
			attrs: map[string]any{
				"openinference.span.kind": "TOOL", "tool.name": "find_customer", "tool_call.id": "oi_1 ",
				"input.value": `{"query":"Ada"}`, "output.value": `{"rows":[]}`, "input.mime_type": "application/json",
			},
			want: View{Role: RoleTool, Convention: &openInference, Tool: "find_customer", CallID: "oi_1",
				ArgsKey: "input.value", ResultKey: "output.value"},
		},
		{
			name: "openinference kind in lower case", span: "t",
			attrs: map[string]any{"openinference.span.kind": "tool", "tool.name": "t"},
			want:  View{Role: RoleTool, Convention: &openInference, Tool: "t"},
		},
		{
			name: "openinference llm", span: "ChatCompletion",
			attrs: map[string]any{"openinference.span.kind": "LLM", "llm.input_messages.0.message.role": "user"},
			want:  View{Role: RoleModel, Convention: &openInference},
		},
		{
			name: "openinference chain is other", span: "RunnableSequence",
			attrs: map[string]any{"openinference.span.kind": "CHAIN"},
			want:  View{Role: RoleOther, Convention: &openInference},
		},

		// Vercel AI SDK.
		{
			name: "vercel agent", span: "ai.generateText",
			attrs: map[string]any{"ai.operationId": "ai.generateText", "ai.telemetry.functionId": "support", "operation.name": "ai.generateText support"},
			want:  View{Role: RoleAgent, Convention: &vercelAI, Agent: "support"},
		},
		{
			name: "vercel streamObject agent", span: "ai.streamObject",
			attrs: map[string]any{"ai.operationId": "ai.streamObject"},
			want:  View{Role: RoleAgent, Convention: &vercelAI},
		},
		{
			name: "vercel v4 tool", span: "ai.toolCall",
			attrs: map[string]any{
				"ai.operationId": "ai.toolCall", "ai.toolCall.name": "findCustomer", "ai.toolCall.id": "v1",
				"ai.toolCall.args": `{"query":"Ada"}`, "ai.toolCall.result": `{"rows":[]}`, "ai.telemetry.functionId": "support",
			},
			want: View{Role: RoleTool, Convention: &vercelAI, Tool: "findCustomer", CallID: "v1",
				ArgsKey: "ai.toolCall.args", ResultKey: "ai.toolCall.result", Agent: "support"},
		},
		{
			name: "vercel v5 tool", span: "ai.toolCall",
			attrs: map[string]any{
				"ai.operationId": "ai.toolCall", "ai.toolCall.name": "findCustomer", "ai.toolCall.id": " v2",
				"ai.toolCall.input": `{"query":"Ada"}`, "ai.toolCall.output": `{"rows":[]}`,
			},
			want: View{Role: RoleTool, Convention: &vercelAI, Tool: "findCustomer", CallID: "v2",
				ArgsKey: "ai.toolCall.input", ResultKey: "ai.toolCall.output"},
		},
		{
			name: "vercel tool recognised by span name alone", span: "ai.toolCall",
			attrs: map[string]any{"ai.toolCall.name": "findCustomer", "ai.toolCall.id": "v3"},
			want:  View{Role: RoleTool, Convention: &vercelAI, Tool: "findCustomer", CallID: "v3"},
		},
		{
			// The SDK sets gen_ai.system and gen_ai.request.model on doGenerate, never gen_ai.operation.name:
			// the span must stay a Vercel model span, not an unknown GenAI one.
			name: "vercel doGenerate with gen_ai keys", span: "ai.generateText.doGenerate",
			attrs: map[string]any{
				"ai.operationId": "ai.generateText.doGenerate", "gen_ai.system": "openai.chat", "gen_ai.request.model": "gpt-4.1",
				"gen_ai.response.model": "gpt-4.1-2025-04-14", "ai.prompt.messages": "[]", "ai.telemetry.functionId": "support",
			},
			want: View{Role: RoleModel, Convention: &vercelAI, Agent: "support"},
		},
		{
			name: "vercel doStream", span: "ai.streamText.doStream",
			attrs: map[string]any{"ai.operationId": "ai.streamText.doStream", "gen_ai.system": "anthropic.messages"},
			want:  View{Role: RoleModel, Convention: &vercelAI},
		},
		{
			name: "vercel doGenerate by span name", span: "ai.generateObject.doGenerate",
			attrs: map[string]any{"gen_ai.system": "openai.chat"},
			want:  View{Role: RoleModel, Convention: &vercelAI},
		},
		{
			name: "vercel embed is other", span: "ai.embed",
			attrs: map[string]any{"ai.operationId": "ai.embed"},
			want:  View{Role: RoleOther, Convention: &vercelAI},
		},

		// OpenLLMetry.
		{
			name: "openllmetry agent", span: "support.agent",
			attrs: map[string]any{"traceloop.span.kind": "agent", "traceloop.entity.name": "support", "traceloop.workflow.name": "support"},
			want:  View{Role: RoleAgent, Convention: &openLLMetry, Agent: "support"},
		},
		{
			name: "openllmetry workflow", span: "refunds.workflow",
			attrs: map[string]any{"traceloop.span.kind": "workflow", "traceloop.entity.name": "refunds"},
			want:  View{Role: RoleAgent, Convention: &openLLMetry, Agent: "refunds"},
		},
		{
			name: "openllmetry tool", span: "find_customer.tool",
			attrs: map[string]any{
				"traceloop.span.kind": "tool", "traceloop.entity.name": "find_customer", "traceloop.entity.tool_call_id": " t1 ",
				"traceloop.entity.input": `{"query":"Ada"}`, "traceloop.entity.output": `{"rows":[]}`,
			},
			want: View{Role: RoleTool, Convention: &openLLMetry, Tool: "find_customer", CallID: "t1",
				ArgsKey: "traceloop.entity.input", ResultKey: "traceloop.entity.output"},
		},
		{
			// The openai instrumentation writes no traceloop kind on the model span: the flattened prompt
			// is what marks it, next to gen_ai.system that every convention may carry.
			name: "openllmetry model by gen_ai.prompt", span: "openai.chat",
			attrs: map[string]any{
				"gen_ai.system": "openai", "llm.request.type": "chat", "gen_ai.request.model": "gpt-4.1",
				"gen_ai.prompt.0.role": "system", "gen_ai.prompt.0.content": "You are helpful.",
				"gen_ai.prompt.1.role": "user", "gen_ai.prompt.1.content": "refund Ada",
				"traceloop.workflow.name": "support",
			},
			want: View{Role: RoleModel, Convention: &openLLMetry},
		},
		{
			name: "openllmetry model by gen_ai.completion alone", span: "openai.chat",
			attrs: map[string]any{"gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.content": "done"},
			want:  View{Role: RoleModel, Convention: &openLLMetry},
		},
		{
			// Tools are often decorated as tasks: a task is a tool call.
			name: "openllmetry task is a tool call", span: "fetch.task",
			attrs: map[string]any{"traceloop.span.kind": "task", "traceloop.entity.name": "fetch"},
			want:  View{Role: RoleTool, Convention: &openLLMetry, Tool: "fetch"},
		},

		{
			// The LangChain handler: GenAI's operation beside the kind, the tool's class for its name, and
			// LangChain's ToolMessage, which names the tool and its call, for its output.
			name: "openllmetry langchain tool named by its ToolMessage", span: "execute_tool DynamicStructuredTool",
			attrs: map[string]any{
				"gen_ai.operation.name": "execute_tool", "traceloop.span.kind": "task", "traceloop.entity.name": "DynamicStructuredTool",
				"traceloop.entity.input": `{"args":["{\"query\":\"Ada\"}"]}`,
				"traceloop.entity.output": `{"lc":1,"type":"constructor","id":["langchain_core","messages","ToolMessage"],` +
					`"kwargs":{"status":"success","content":"{\"rows\":[]}","tool_call_id":"call_1","name":"find_customer"}}`,
			},
			want: View{Role: RoleTool, Convention: &openLLMetry, Tool: "find_customer", CallID: "call_1",
				ArgsKey: "traceloop.entity.input", ResultKey: "traceloop.entity.output"},
		},
		{
			name: "openllmetry langchain workflow span, as GenAI reads it", span: "workflow RunnableSequence",
			attrs: map[string]any{"gen_ai.operation.name": "workflow", "traceloop.span.kind": "workflow", "traceloop.workflow.name": "RunnableSequence"},
			want:  View{Role: RoleOther, Convention: &openLLMetry},
		},
		{
			name: "a GenAI span with no traceloop kind stays GenAI's", span: "chat scripted-model",
			attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.provider.name": "langchain"},
			want:  View{Role: RoleModel, Convention: &genAI},
		},

		// Not agent telemetry.
		{
			name: "http span", span: "GET /customers",
			attrs: map[string]any{"http.request.method": "GET", "url.path": "/customers", "gen_ai.system": "openai"},
			want:  View{},
		},
		{
			name: "empty", span: "",
			attrs: map[string]any{},
			want:  View{},
		},
		{
			// A non-string operation is not a GenAI span: str() only reads strings.
			name: "non-string operation", span: "x",
			attrs: map[string]any{"gen_ai.operation.name": int64(3)},
			want:  View{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Default.Recognize(Span{Scope: tt.scope, Name: tt.span, Attrs: attrsOf(t, tt.attrs)})
			if got != tt.want {
				t.Errorf("Recognize(%q) =\n %+v\nwant\n %+v", tt.span, got, tt.want)
			}
		})
	}
}

func TestRoleStrings(t *testing.T) {
	for r, want := range map[Role]string{RoleOther: "other", RoleAgent: "agent", RoleTool: "tool", RoleModel: "model", Role(99): "other"} {
		if got := r.String(); got != want {
			t.Errorf("Role(%d).String() = %q, want %q", r, got, want)
		}
	}
}

// TestStructuralKeysCoverRecognisedKeys: every attribute Recognize reads to identify a call must survive
// shaping, or the processor would erase the very ids later batches are matched by.
func TestStructuralKeysCoverRecognisedKeys(t *testing.T) {
	keys := map[string]bool{}
	for _, k := range Default.StructuralKeys() {
		if k == "" {
			t.Error("empty structural key")
		}
		keys[k] = true
	}
	for _, k := range []string{
		"gen_ai.operation.name", "gen_ai.tool.name", "gen_ai.tool.call.id", "gen_ai.agent.name",
		"openinference.span.kind", "tool.name", "tool_call.id", "agent.name",
		"ai.operationId", "ai.toolCall.name", "ai.toolCall.id", "ai.telemetry.functionId",
		"traceloop.span.kind", "traceloop.entity.name", "traceloop.entity.tool_call_id",
	} {
		if !keys[k] {
			t.Errorf("StructuralKeys lacks %q", k)
		}
	}
	for _, k := range []string{"gen_ai.tool.call.result", "gen_ai.tool.call.arguments", "output.value", "input.value",
		"ai.toolCall.result", "ai.toolCall.output", "ai.toolCall.args", "traceloop.entity.output", "traceloop.entity.input"} {
		if keys[k] {
			t.Errorf("StructuralKeys holds payload key %q", k)
		}
	}
}

// TestLangSmithToolMessageResult: a LangChain tool run traced by LangSmith's exporter records its
// ToolMessage under "output"; its result is the message's content, not the envelope, whose call id
// differs on every call and would make every repeat of the same result look new.
func TestLangSmithToolMessageResult(t *testing.T) {
	attrs := attrsOf(t, map[string]any{"langsmith.span.kind": "tool", "gen_ai.operation.name": "execute_tool",
		"gen_ai.completion": `{"output":{"content":"{\"rows\":[]}","type":"tool","name":"find_customer","tool_call_id":"call_9","status":"success"}}`})
	v := Default.Recognize(Span{Scope: "langsmith", Name: "find_customer", Attrs: attrs})
	result, ok := Default.Result(v, attrs)
	if !ok || string(result) != `{"rows":[]}` {
		t.Fatalf("Result = %q, %v; want the ToolMessage's content", result, ok)
	}
}
