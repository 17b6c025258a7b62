package agentspan

import (
	"slices"
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// flatConvention describes a transcript flattened into indexed attributes, as OpenInference
// (llm.input_messages.{i}.message.*) and OpenLLMetry (gen_ai.prompt.{i}.*) write them.
type flatConvention struct {
	inputPrefix, outputPrefix string
	role                      string
	// content names the attributes holding a message's content: an exact suffix, or a prefix when it
	// ends in '.' (OpenInference's message.contents.{k}.message_content.text).
	content     []string
	toolCallID  string
	callsPrefix string
	// callID, callName and callArgs are suffixes under callsPrefix.{j}.
	callID, callName, callArgs string
}

// flatMessage is what the attributes say about message i.
type flatMessage struct {
	index       int
	role        string
	toolCallID  string
	contentKeys []string
	calls       []flatCall
}

type flatCall struct {
	index    int
	id, name string
	argsKey  string
}

// messages groups the attributes under prefix by message index, in index order.
func (f *flatConvention) messages(attrs pcommon.Map, prefix string) []flatMessage {
	var msgs []flatMessage
	attrs.Range(func(key string, v pcommon.Value) bool {
		idx, rest, ok := indexed(key, prefix)
		if !ok {
			return true
		}
		m := messageAt(&msgs, idx)
		switch {
		case rest == f.role:
			m.role = v.AsString()
		case rest == f.toolCallID:
			m.toolCallID = strings.TrimSpace(v.AsString())
		case strings.HasPrefix(rest, f.callsPrefix):
			j, sub, ok := indexed(rest, f.callsPrefix)
			if !ok {
				return true
			}
			c := callAt(&m.calls, j)
			switch sub {
			case f.callID:
				c.id = strings.TrimSpace(v.AsString())
			case f.callName:
				c.name = v.AsString()
			case f.callArgs:
				c.argsKey = key
			}
		case f.isContent(rest):
			m.contentKeys = append(m.contentKeys, key)
		}
		return true
	})
	slices.SortFunc(msgs, func(a, b flatMessage) int { return a.index - b.index })
	return msgs
}

func (f *flatConvention) isContent(rest string) bool {
	for _, c := range f.content {
		if rest == c || strings.HasSuffix(c, ".") && strings.HasPrefix(rest, c) && strings.HasSuffix(rest, ".text") {
			return true
		}
	}
	return false
}

// withholdInput shapes the content of tool messages the policy withholds and the arguments of such
// calls; with taint, assistant text after the first withheld result is withheld too.
func (f *flatConvention) withholdInput(attrs pcommon.Map, p Policy, s Shaper, taint bool) (shaped int, tainted bool) {
	msgs := f.messages(attrs, f.inputPrefix)
	if len(msgs) == 0 {
		return 0, false
	}
	// A tool message without an id (LangChain's) answers the calls of the assistant message before it,
	// in order, as the chat protocols require.
	var pending []flatCall
	for _, m := range msgs {
		for _, c := range m.calls {
			if c.argsKey != "" && p.Withheld(jsonraw.StringBytes(c.id), nameBytes(c.name)) {
				shaped += shapeAttr(attrs, c.argsKey, s)
			}
		}
		if len(m.calls) > 0 {
			pending = m.calls
		}
		id, name := m.toolCallID, callName(msgs, m.toolCallID)
		if m.role == "tool" && id == "" && len(pending) > 0 {
			id, name, pending = pending[0].id, pending[0].name, pending[1:]
		}
		switch {
		case m.role == "tool" && (id != "" || name != "") && p.Withheld(jsonraw.StringBytes(id), nameBytes(name)):
			tainted = true
			for _, k := range m.contentKeys {
				shaped += shapeAttr(attrs, k, s)
			}
		case taint && tainted && m.role == "assistant":
			for _, k := range m.contentKeys {
				shaped += shapeAttr(attrs, k, s)
			}
		}
	}
	return shaped, tainted
}

// withholdOutput withholds the text of every output message: the caller found the transcript tainted.
func (f *flatConvention) withholdOutput(attrs pcommon.Map, s Shaper) (shaped int) {
	for _, m := range f.messages(attrs, f.outputPrefix) {
		for _, k := range m.contentKeys {
			shaped += shapeAttr(attrs, k, s)
		}
	}
	return shaped
}

func shapeAttr(attrs pcommon.Map, key string, s Shaper) int {
	v, ok := attrs.Get(key)
	if !ok {
		return 0
	}
	v.SetStr(s.ShapeText(v.AsString()))
	return 1
}

// nameBytes views a tool name for the policy, nil when the transcript does not say.
func nameBytes(name string) []byte {
	if name == "" {
		return nil
	}
	return jsonraw.StringBytes(name)
}

// callName is the tool name the transcript's calls give an id: the calls come before their results,
// and a transcript holds few, so a scan beats building a map per span.
func callName(msgs []flatMessage, id string) string {
	if id == "" {
		return ""
	}
	for _, m := range msgs {
		for _, c := range m.calls {
			if c.id == id {
				return c.name
			}
		}
	}
	return ""
}

// indexed splits "<prefix><n>.<rest>" into n and rest.
func indexed(key, prefix string) (int, string, bool) {
	if !strings.HasPrefix(key, prefix) {
		return 0, "", false
	}
	tail := key[len(prefix):]
	dot := strings.IndexByte(tail, '.')
	if dot <= 0 {
		return 0, "", false
	}
	n, err := strconv.Atoi(tail[:dot])
	if err != nil || n < 0 {
		return 0, "", false
	}
	return n, tail[dot+1:], true
}

func messageAt(msgs *[]flatMessage, index int) *flatMessage {
	for i := range *msgs {
		if (*msgs)[i].index == index {
			return &(*msgs)[i]
		}
	}
	*msgs = append(*msgs, flatMessage{index: index})
	return &(*msgs)[len(*msgs)-1]
}

func callAt(calls *[]flatCall, index int) *flatCall {
	for i := range *calls {
		if (*calls)[i].index == index {
			return &(*calls)[i]
		}
	}
	*calls = append(*calls, flatCall{index: index})
	return &(*calls)[len(*calls)-1]
}
