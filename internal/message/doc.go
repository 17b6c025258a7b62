// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package message is the vocabulary of the message formats inside agent transcripts: what a tool
// call, a tool result and the text a model wrote look like in each provider's and SDK's messages.
//
// Formats are recognised by the members of an object, wherever the object sits: a transcript
// attribute, a request body in input.value, a per-message event, an OTLP map. A Node is one value,
// JSON bytes or an OTLP value, read the same way from both; an Object is what one object's members
// say; Classify says whether it is a call, a result, or something to look inside. The vocabulary, by
// the formats that use it:
//
//	GenAI parts        {"type":"tool_call","id","name","arguments"}  {"type":"tool_call_response","id","response"|"result"}
//	AI SDK parts       {"type":"tool-call","toolCallId","toolName","args"|"input"}
//	                   {"type":"tool-result","toolCallId","toolName","result"|"output","experimental_content"}
//	                   ai.response.toolCalls entries {"toolCallType","toolCallId","toolName","args"}
//	OpenAI chat        {"role":"assistant","tool_calls":[{"id","type":"function","function":{"name","arguments"}}]}
//	                   {"role":"tool","tool_call_id","content"}; legacy {"function_call":{"name","arguments"}} and
//	                   {"role":"function","name","content"}
//	OpenAI Responses   {"type":"function_call","call_id","name","arguments"} {"type":"function_call_output","call_id","output"}
//	                   (OpenAI Agents: "function_call_result" with "callId")
//	Anthropic          {"type":"tool_use","id","name","input"} {"type":"tool_result","tool_use_id","content"}
//	Bedrock Converse   {"toolUse":{"toolUseId","name","input"}} {"toolResult":{"toolUseId","content","status"}}
//	Gemini             {"functionCall":{"name","args","id"?}} {"functionResponse":{"name","response","id"?}}
//	Genkit             {"toolRequest":{"name","ref"?,"input"}} {"toolResponse":{"name","ref"?,"output"}}, matched by name
//	Ollama             {"role":"tool","tool_name","content"}, calls {"function":{"name","arguments"}} without ids
//	LangChain dicts    {"type":"tool","tool_call_id","name","content","artifact"}; calls {"name","args","id","type":"tool_call"}
//	LangChain lc       {"lc":1,"type":"constructor","id":[..,"ToolMessage"],"kwargs":{"tool_call_id","name","content","artifact"}}
//	Haystack           {"role","meta","name","content":[{"tool_call":{"tool_name","arguments","id"}}]} (a call as
//	                   LangChain's is, by its members) {"tool_call_result":{"result","origin":{the call},"error"}}
//
// A member can mean several things ("content" is a result on a tool message and text on an assistant
// one), so each slot fills independently, and every repeat of a key is kept: a duplicate "response"
// is a second payload, a second "name" a second candidate.
//
// The package reads; it neither walks whole transcripts (internal/agentspan does, for both
// processors) nor changes them (shapeonly's rewriter does).
package message
