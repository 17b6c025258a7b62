// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentspan

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFlatField: the names of a flattened transcript's fields, exactly as a registered convention lays
// them out, and nothing else under the same prefixes.
func TestFlatField(t *testing.T) {
	r := NewRegistry(nil, 0)
	for key, want := range map[string]bool{
		"llm.input_messages.0.message.role":                                 true,
		"llm.output_messages.3.message.content":                             true,
		"llm.input_messages.12.message.tool_call_id":                        true,
		"llm.input_messages.1.message.tool_calls.0.tool_call.function.name": true,
		"llm.input_messages.1.message.tool_calls.10.tool_call.id":           true,
		"gen_ai.prompt.4.content":                                           true,
		"gen_ai.completion.0.finish_reason":                                 true,
		"gen_ai.completion.0.tool_calls.1.arguments":                        true,
		"gen_ai.prompt.0.tool_calls.1.arguments":                            true,
		"llm.input_messages.0.message.contents.":                            false,
		"llm.input_messages.0.message.contents.0.message_content.text":      false, // a content prefix: its parts are open
		"llm.input_messages.0.message.jane.roe@example.test":                false,
		"llm.input_messages.0.message.role.jane":                            false,
		"llm.input_messages.x.message.role":                                 false,
		"llm.input_messages.0.":                                             false,
		"llm.input_messages.1234567890.message.role":                        false, // past nine digits
		"llm.input_messages.1.message.tool_calls.0.tool_call.function.jane": false,
		"llm.input_messages.1.message.tool_calls.0.":                        false,
		"gen_ai.prompt.4.jane.roe@example.test":                             false,
		"gen_ai.input.messages":                                             false,
		"message.role":                                                      false,
	} {
		assert.Equal(t, want, r.FlatField(key), key)
	}
}
