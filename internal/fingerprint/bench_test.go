// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentotel/agentotel/internal/jsonraw"
)

// The benchmarks search agent transcripts that hold none of 1,000 remembered customer values,
// the common case on a busy collector, at three sizes: time per byte should not depend on the
// size. Each operation takes the next slice of that size from 16 MiB of text, so the small sizes
// see the same mix as the large one. The anchors in the same run are the floor any scan pays:
// one bytes.Index of one 8-byte needle (SIMD on amd64), and a loop that touches every byte once.

var benchSizes = []struct {
	name string
	size int
}{{"1KiB", 1 << 10}, {"1MiB", 1 << 20}, {"16MiB", 16 << 20}}

var (
	benchLeaves = customerLeaves(1000)
	benchSet    = setOf(benchLeaves...)
	benchText   = transcriptText(16 << 20)
)

// benchKinds are the texts searched: prose without a backslash (searched as it is), the
// transcript (prose, log lines and chat messages whose tool results are stringified JSON, so
// decoded once where those escapes are), and the transcript as it sits in a JSON string (every
// quote and newline escaped, the stringified results twice: decoded twice throughout).
func benchKinds() []struct {
	name string
	text []byte
} {
	escaped, _ := json.Marshal(string(benchText))
	return []struct {
		name string
		text []byte
	}{
		{"prose", bytes.ReplaceAll(benchText, []byte(`\`), []byte("/"))},
		{"transcript", benchText},
		{"escaped", escaped[1 : len(escaped)-1]},
	}
}

// slices cuts text into consecutive pieces of size bytes, at most 1,024 of them.
func slicesOf(text []byte, size int) [][]byte {
	var out [][]byte
	for i := 0; i+size <= len(text) && len(out) < 1024; i += size {
		out = append(out, text[i:i+size])
	}
	return out
}

func BenchmarkHit(b *testing.B) {
	sets := []*Set{benchSet}
	kinds := benchKinds()
	for _, bs := range benchSizes {
		for _, kind := range kinds {
			b.Run(kind.name+"/"+bs.name, func(b *testing.B) {
				texts := slicesOf(kind.text, bs.size)
				var sc Scanner // its first search grows its buffers, as a batch's first span does
				for _, t := range texts {
					if sc.Hit(sets, t) {
						b.Fatal("the benchmark text holds a leaf")
					}
				}
				b.SetBytes(int64(bs.size))
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					sc.Hit(sets, texts[i%len(texts)])
					i++
				}
			})
		}
	}
}

func BenchmarkAnchorIndex(b *testing.B) {
	for _, bs := range benchSizes {
		b.Run(bs.name, func(b *testing.B) {
			text, needle := benchText[:bs.size], []byte("the agenT")
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if bytes.Contains(text, needle) {
					b.Fatal("needle found")
				}
			}
		})
	}
}

func BenchmarkAnchorByteLoop(b *testing.B) {
	for _, bs := range benchSizes {
		b.Run(bs.name, func(b *testing.B) {
			text := benchText[:bs.size]
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if countByte(text, 0) != 0 {
					b.Fatal("NUL found")
				}
			}
		})
	}
}

//go:noinline
func countByte(text []byte, c byte) int {
	n := 0
	for _, x := range text {
		if x == c {
			n++
		}
	}
	return n
}

// BenchmarkRedactText redacts the transcript as it is ("clean": nothing to withhold) and with a
// remembered value written into it every 4 KiB ("leaves").
func BenchmarkRedactText(b *testing.B) {
	sets := []*Set{benchSet}
	for _, bs := range benchSizes {
		for _, kind := range []struct {
			name string
			text []byte
		}{{"clean", benchText}, {"leaves", withLeaves(benchText, 4<<10)}} {
			b.Run(kind.name+"/"+bs.name, func(b *testing.B) {
				texts := slicesOf(kind.text, bs.size)
				var sc Scanner
				var dst []byte
				for _, t := range texts { // grows the buffers, as a batch's first spans do
					dst, _ = sc.redactText(dst[:0], sets, t)
				}
				b.SetBytes(int64(bs.size))
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					dst, _ = sc.redactText(dst[:0], sets, texts[i%len(texts)])
					i++
				}
			})
		}
	}
}

// BenchmarkRedactJSON redacts a JSON array of chat messages, a third of them with a stringified
// tool result as content: with no remembered value in it ("clean"), and with one in every 20th
// message ("leaves").
func BenchmarkRedactJSON(b *testing.B) {
	sets := []*Set{benchSet}
	for _, bs := range benchSizes {
		for _, kind := range []struct {
			name string
			doc  []byte
		}{{"clean", transcriptDoc(bs.size, 0)}, {"leaves", transcriptDoc(bs.size, 20)}} {
			b.Run(kind.name+"/"+bs.name, func(b *testing.B) {
				var sc Scanner
				dst, _, _ := sc.redactJSON(nil, sets, kind.doc, nil)
				b.SetBytes(int64(len(kind.doc)))
				b.ReportAllocs()
				for b.Loop() {
					var err error
					if dst, _, err = sc.redactJSON(dst[:0], sets, kind.doc, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkAnchorValidJSON validates the clean documents of BenchmarkRedactJSON with
// jsonraw.Valid: the floor of any redaction that must refuse invalid JSON.
func BenchmarkAnchorValidJSON(b *testing.B) {
	for _, bs := range benchSizes {
		doc := transcriptDoc(bs.size, 0)
		b.Run(bs.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if !jsonraw.Valid(doc) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

// BenchmarkAddLeaf remembers 10 to 10,000 leaves and reports the Set's memory per KiB of leaf
// text.
func BenchmarkAddLeaf(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		leaves := customerLeaves(n)
		total := 0
		for _, l := range leaves {
			total += len(l)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			var s *Set
			for b.Loop() {
				s = NewSet(1 << 20)
				s.AddLeaves(leaves)
				s.Build()
			}
			b.ReportMetric(float64(s.SizeBytes())/(float64(total)/1024), "setB/KiB")
			b.ReportMetric(float64(s.Len()), "fingerprints")
		})
	}
}

// BenchmarkAddJSONLeaves remembers the leaves of the clean documents of BenchmarkRedactJSON: into
// a new Set ("new": a trace's first tool result), and into a Set that holds them already
// ("again": a transcript that repeats what its trace withheld, the common case). The floor is
// BenchmarkAnchorValidJSON, one validating pass over the same documents.
func BenchmarkAddJSONLeaves(b *testing.B) {
	for _, bs := range benchSizes[:2] { // 16 MiB of leaves would overflow any bound a Set has
		doc := transcriptDoc(bs.size, 0)
		for _, again := range []bool{false, true} {
			name := "new/"
			if again {
				name = "again/"
			}
			b.Run(name+bs.name, func(b *testing.B) {
				held := NewSet(1 << 20)
				held.AddJSONLeaves(doc, nil)
				held.Build()
				b.SetBytes(int64(len(doc)))
				b.ReportAllocs()
				for b.Loop() {
					s := held
					if !again {
						s = NewSet(1 << 20)
					}
					if full, err := s.AddJSONLeaves(doc, nil); full || err != nil {
						b.Fatal(full, err)
					}
					s.Build()
				}
			})
		}
	}
}

// withLeaves returns a copy of text with a remembered value written over it every interval bytes.
func withLeaves(text []byte, interval int) []byte {
	out := append([]byte(nil), text...)
	for i, at := 0, interval/2; at+100 < len(out); i, at = i+1, at+interval {
		copy(out[at:], benchLeaves[i%len(benchLeaves)])
	}
	return out
}

// transcriptDoc returns about size bytes of JSON: chat messages whose content is prose or a
// stringified tool result, every leafEvery-th naming a remembered value (none if leafEvery is 0).
func transcriptDoc(size, leafEvery int) []byte {
	doc := []byte("[")
	for i := 0; len(doc) < size; i++ {
		if i > 0 {
			doc = append(doc, ',')
		}
		prose := benchText[(i*997)%(len(benchText)-300):][:200]
		leaf := ""
		if leafEvery > 0 && i%leafEvery == 0 {
			leaf = string(benchLeaves[i%len(benchLeaves)])
		}
		var content any = string(prose) + leaf
		if i%3 == 0 {
			inner, _ := json.Marshal(map[string]any{"status": "ok", "total": i, "note": leaf + string(prose[:60])})
			content = string(inner)
		}
		msg, _ := json.Marshal(map[string]any{"role": []string{"user", "assistant", "tool"}[i%3], "id": fmt.Sprintf("call_%06d", i), "content": content})
		doc = append(doc, msg...)
	}
	return append(doc, ']')
}
