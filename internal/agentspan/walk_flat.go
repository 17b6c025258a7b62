package agentspan

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// A flattened transcript spreads each message over indexed attributes ("<prefix><i>.<field>").
// Grouping them must stay linear in the number of attributes whatever their order: entries are
// bucketed by message index (a counting sort), never searched for.

// flatField is what one attribute of a flattened message holds.
type flatField uint8

const (
	fieldRole flatField = iota
	fieldCallID
	fieldName
	fieldCall // of tool call sub: which of CallID, CallName, CallArgs is in part
	fieldContent
)

type flatPart uint8

const (
	partID flatPart = iota
	partName
	partArgs
)

type flatEntry struct {
	msg   int
	field flatField
	sub   int // the tool call's index, or the content's order
	part  flatPart
	v     pcommon.Value
}

// flatState holds the grouping buffers, reused from span to span.
type flatState struct {
	entries, sorted []flatEntry
	counts          []int
}

// addFlat reads the flattened transcripts the attributes carry, inputs or outputs.
func (w *Withholder) addFlat(attrs pcommon.Map, output bool) {
	for i := range w.reg.flat {
		f := &w.reg.flat[i]
		if f.output == output && hasPrefixKey(attrs, f.prefix) {
			w.readFlat(attrs, f)
		}
	}
}

func (w *Withholder) readFlat(attrs pcommon.Map, f *flatTranscript) {
	fs := &w.flat
	fs.entries = fs.entries[:0]
	top, order := -1, 0
	attrs.Range(func(key string, v pcommon.Value) bool {
		msg, rest, ok := indexed(key, f.prefix)
		if !ok {
			return true
		}
		e := flatEntry{msg: msg, v: v}
		switch {
		case rest == f.layout.Role:
			e.field = fieldRole
		case slices.Contains(f.layout.ToolCallID, rest):
			e.field = fieldCallID
		case slices.Contains(f.layout.Name, rest):
			e.field = fieldName
		case f.layout.Calls != "" && strings.HasPrefix(rest, f.layout.Calls):
			j, sub, ok := indexed(rest, f.layout.Calls)
			if !ok {
				return true
			}
			e.field, e.sub = fieldCall, j
			switch sub {
			case f.layout.CallID:
				e.part = partID
			case f.layout.CallName:
				e.part = partName
			case f.layout.CallArgs:
				e.part = partArgs
			default:
				return true
			}
		case f.layout.isContent(rest):
			e.field, e.sub = fieldContent, order
			order++
		default:
			return true
		}
		top = max(top, msg)
		fs.entries = append(fs.entries, e)
		return true
	})
	if len(fs.entries) == 0 {
		return
	}
	w.beginDoc(pcommon.NewValueEmpty(), nil)
	fs.sortEntries(top)
	for start := 0; start < len(fs.sorted); {
		end := start + 1
		for end < len(fs.sorted) && fs.sorted[end].msg == fs.sorted[start].msg {
			end++
		}
		w.flatMessage(fs.sorted[start:end], f.output)
		start = end
	}
}

// sortEntries orders the entries by message, and within a message by field and sub-index. Message
// indexes below the entry count are bucketed in linear time; larger ones (no real transcript has
// them) fall back to a sort.
func (fs *flatState) sortEntries(top int) {
	n := len(fs.entries)
	fs.sorted = slices.Grow(fs.sorted[:0], n)[:n]
	if top < 4*n+16 {
		fs.counts = slices.Grow(fs.counts[:0], top+2)[:top+2]
		clear(fs.counts)
		for _, e := range fs.entries {
			fs.counts[e.msg+1]++
		}
		for i := 1; i < len(fs.counts); i++ {
			fs.counts[i] += fs.counts[i-1]
		}
		for _, e := range fs.entries {
			fs.sorted[fs.counts[e.msg]] = e
			fs.counts[e.msg]++
		}
	} else {
		copy(fs.sorted, fs.entries)
		slices.SortStableFunc(fs.sorted, func(a, b flatEntry) int { return cmp.Compare(a.msg, b.msg) })
	}
	// Within a message: role and ids first, then calls by index, then contents in attribute order.
	for start := 0; start < n; {
		end := start + 1
		for end < n && fs.sorted[end].msg == fs.sorted[start].msg {
			end++
		}
		if end-start > 1 {
			slices.SortStableFunc(fs.sorted[start:end], func(a, b flatEntry) int {
				return cmp.Or(cmp.Compare(a.field, b.field), cmp.Compare(a.sub, b.sub))
			})
		}
		start = end
	}
}

// flatMessage records one message's calls, result or text.
func (w *Withholder) flatMessage(entries []flatEntry, output bool) {
	w.turn = int32(entries[0].msg) + 1
	var o object
	var contents []flatEntry
	for i := 0; i < len(entries); i++ {
		e := entries[i]
		switch e.field {
		case fieldRole:
			o.role = otlpNode(e.v)
		case fieldCallID:
			o.read([]byte("tool_call_id"), otlpNode(e.v))
		case fieldName:
			o.read([]byte("name"), otlpNode(e.v))
		case fieldCall:
			j := i
			var call object
			for ; j < len(entries) && entries[j].field == fieldCall && entries[j].sub == e.sub; j++ {
				n := otlpNode(entries[j].v)
				switch entries[j].part {
				case partID:
					call.read([]byte("id"), n)
				case partName:
					call.read([]byte("name"), n)
				case partArgs:
					call.read([]byte("arguments"), n)
				}
			}
			i = j - 1
			w.addCall(&call)
		case fieldContent:
			contents = entries[i:]
			i = len(entries)
		}
	}
	isResult := o.role.isAny(resultRoles) || o.hasID()
	if isResult {
		for _, c := range contents {
			o.addPayload(otlpNode(c.v))
		}
		if o.nPayloads > 0 {
			w.addResult(&o)
		}
		return
	}
	modelText := output || o.role.is("assistant")
	for _, c := range contents {
		if w.Taint && modelText && c.v.Type() == pcommon.ValueTypeStr {
			w.addText(otlpNode(c.v))
		}
		// A content that is JSON holds content blocks (Anthropic's tool_use and tool_result).
		if c.v.Type() == pcommon.ValueTypeStr && jsonraw.IsContainer(jsonraw.StringBytes(c.v.Str())) {
			w.visitOTLP(c.v, inNone)
		}
	}
}

func (l *FlatLayout) isContent(rest string) bool {
	for _, c := range l.Content {
		if rest == c || strings.HasSuffix(c, ".") && strings.HasPrefix(rest, c) && strings.HasSuffix(rest, ".text") {
			return true
		}
	}
	return false
}

// indexed splits "<prefix><n>.<rest>" into n and rest.
func indexed(key, prefix string) (int, string, bool) {
	if !strings.HasPrefix(key, prefix) {
		return 0, "", false
	}
	tail := key[len(prefix):]
	dot := strings.IndexByte(tail, '.')
	if dot <= 0 || dot > 9 {
		return 0, "", false
	}
	n, err := strconv.Atoi(tail[:dot])
	if err != nil || n < 0 {
		return 0, "", false
	}
	return n, tail[dot+1:], true
}
