// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

var (
	firstNames = []string{"Jane", "Ada", "Grace", "Alan", "Edsger", "Barbara", "Ken", "Radia", "Frances", "Donald", "Margaret", "Tim", "Sophie", "Linus", "Hedy", "Claude"}
	lastNames  = []string{"Roe-Whitfield", "Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Thompson", "Perlman", "Allen", "Knuth", "Hamilton", "Berners-Lee", "Wilson", "Torvalds", "Lamarr", "Shannon"}
	streets    = []string{"Acme Street", "Harbour Road", "Mill Lane", "Station Avenue", "Church Walk", "Queen's Parade"}
	cities     = []string{"Leeds", "Utrecht", "Porto", "Lyon", "Graz", "Aarhus"}
)

// customerLeaves returns n withheld values as a customer-search tool returns them: names,
// emails, phone numbers, addresses and notes, 8 to about 80 bytes, all distinct.
func customerLeaves(n int) [][]byte {
	r := rand.New(rand.NewPCG(7, uint64(n)))
	leaves := make([][]byte, 0, n)
	for i := range n {
		first, last := firstNames[r.IntN(len(firstNames))], lastNames[r.IntN(len(lastNames))]
		var v string
		switch i % 5 {
		case 0:
			v = fmt.Sprintf("%s %s %d", first, last, i)
		case 1:
			v = fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(first), strings.ToLower(last), i)
		case 2:
			v = fmt.Sprintf("+44 20 %04d %04d", r.IntN(10000), i)
		case 3:
			v = fmt.Sprintf("%d %s, %s %05d", 1+r.IntN(300), streets[r.IntN(len(streets))], cities[r.IntN(len(cities))], i)
		default:
			v = fmt.Sprintf("VIP since %d; prefers email; account %08d; last order shipped late", 2000+r.IntN(25), i)
		}
		leaves = append(leaves, []byte(v))
	}
	return leaves
}

// transcriptText returns size bytes of agent transcript that shares no whole leaf with
// customerLeaves: model prose, tool-call JSON and log lines, as later spans carry them.
func transcriptText(size int) []byte {
	r := rand.New(rand.NewPCG(11, 13))
	words := strings.Fields("the agent called search_orders with a query for the last week and got back a page of results " +
		"status ok total rows next cursor model gpt-4o tokens prompt completion tool call id call_ summary " +
		"I found several matching customers; the most recent order was delayed by the carrier and a refund is pending review")
	var b strings.Builder
	for b.Len() < size {
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&b, `{"role":"tool","tool_call_id":"call_%08x","content":"{\"status\":\"ok\",\"total\":%d}"}`, r.Uint32(), r.IntN(500))
		case 1:
			fmt.Fprintf(&b, "%s level=info span=%016x msg=%q\n", "2025-06-01T12:00:00Z", r.Uint64(), words[r.IntN(len(words))])
		default:
			for range 12 {
				b.WriteString(words[r.IntN(len(words))])
				b.WriteByte(' ')
			}
			b.WriteString(".\n")
		}
	}
	return []byte(b.String()[:size])
}

// setOf returns a Set holding leaves.
func setOf(leaves ...[]byte) *Set {
	s := NewSet(1 << 20)
	s.AddLeaves(leaves)
	s.Build()
	return s
}
