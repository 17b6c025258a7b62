// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package digest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"unicode/utf8"
)

// rawNode is a JSON value split by encoding/json (an independent parser),
// keeping every scalar and key as its raw input bytes so that rewriting the
// document changes nothing but member order.
type rawNode struct {
	raw  []byte // scalars
	obj  bool
	arr  bool
	keys [][]byte
	kids []*rawNode
}

func splitRaw(data []byte) (*rawNode, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	prev := int64(0)
	next := func() (json.Token, []byte, error) {
		tok, err := d.Token()
		if err != nil {
			return nil, nil, err
		}
		end := d.InputOffset()
		raw := bytes.TrimLeft(data[prev:end], " \t\r\n,:")
		prev = end
		return tok, raw, nil
	}
	var build func(tok json.Token, raw []byte) (*rawNode, error)
	build = func(tok json.Token, raw []byte) (*rawNode, error) {
		switch tok {
		case json.Delim('{'):
			n := &rawNode{obj: true}
			for {
				k, kraw, err := next()
				if err != nil {
					return nil, err
				}
				if k == json.Delim('}') {
					return n, nil
				}
				v, vraw, err := next()
				if err != nil {
					return nil, err
				}
				kid, err := build(v, vraw)
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, kraw)
				n.kids = append(n.kids, kid)
			}
		case json.Delim('['):
			n := &rawNode{arr: true}
			for {
				v, vraw, err := next()
				if err != nil {
					return nil, err
				}
				if v == json.Delim(']') {
					return n, nil
				}
				kid, err := build(v, vraw)
				if err != nil {
					return nil, err
				}
				n.kids = append(n.kids, kid)
			}
		}
		return &rawNode{raw: raw}, nil
	}
	tok, raw, err := next()
	if err != nil {
		return nil, err
	}
	root, err := build(tok, raw)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return root, nil
}

// write serialises n with every object's members shuffled by choices drawn
// from perm (Fisher-Yates; an exhausted perm means no further swaps).
func (n *rawNode) write(buf *bytes.Buffer, perm *[]byte) {
	pick := func(k int) int {
		if len(*perm) == 0 {
			return k - 1
		}
		c := int((*perm)[0])
		*perm = (*perm)[1:]
		return c % k
	}
	switch {
	case n.obj:
		order := make([]int, len(n.kids))
		for i := range order {
			order[i] = i
		}
		for i := len(order); i > 1; i-- {
			j := pick(i)
			order[i-1], order[j] = order[j], order[i-1]
		}
		buf.WriteByte('{')
		for i, k := range order {
			if i > 0 {
				buf.WriteString(" ,")
			}
			buf.Write(n.keys[k])
			buf.WriteString(" : ")
			n.kids[k].write(buf, perm)
		}
		buf.WriteByte('}')
	case n.arr:
		buf.WriteByte('[')
		for i, kid := range n.kids {
			if i > 0 {
				buf.WriteByte(',')
			}
			kid.write(buf, perm)
		}
		buf.WriteByte(']')
	default:
		buf.Write(n.raw)
	}
}

func FuzzOf(f *testing.F) {
	for _, in := range benchInputs() {
		f.Add(in.data, []byte{3, 1, 4, 1, 5, 9, 2, 6})
	}
	for _, s := range []string{
		`{"b":1,"a":2,"c":{"z":[1,{"y":0,"x":null}],"served_at":"t"}}`,
		`{"a":1,"a":2,"A":3}`,
		`{"\u0061":1,"a":"\ud800","b":"\ud83d\ude00"}`,
		`[1.0,-0,1e2,0.000001,1e-7,123e-20,1e400]`,
		`{"status":"queued","jobs":"0/4","served_at":"2026-03-17T09:12:44.181Z"}`,
		`0 results`, `   `, `{"a":`, `"x`, `[[[[]]]]`, "{\"\xff\":\"\xfe\"}",
	} {
		f.Add([]byte(s), []byte{7, 7, 7, 1, 0, 2})
	}
	n := New(nil, Limits{MaxDepth: 10000}) // encoding/json's own depth limit
	f.Fuzz(func(t *testing.T, doc, perm []byte) {
		var s Scratch
		r := n.Of(doc, &s)
		if again := n.Of(doc, &s); again != r {
			t.Fatalf("Of is not deterministic: %+v then %+v", r, again)
		}
		n.Key(string(perm), doc, &s) // must not panic

		trimmed := bytes.TrimSpace(doc)
		p := parser{n: n, s: &s, in: trimmed, strip: true}
		_, accepted := p.document()
		// Strings must be UTF-8 here, where encoding/json lets any byte through; outside strings
		// a byte above 0x7F is invalid to both, so this is the whole difference.
		valid := json.Valid(trimmed) && utf8.Valid(trimmed)
		if accepted != valid {
			t.Fatalf("parser accepted=%v, encoding/json valid=%v for %q", accepted, valid, trimmed)
		}
		startsJSON := len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[')
		if r.Invalid != (startsJSON && !valid) {
			t.Fatalf("Invalid=%v for %q (valid=%v)", r.Invalid, trimmed, valid)
		}
		if !valid {
			return
		}

		// Idempotent: the canonical text is its own canonical form (where no volatile token was
		// masked: the marker is a raw control byte, which JSON text cannot hold).
		canon := append([]byte(nil), p.out...)
		if c := n.Of(canon, &s); bytes.IndexByte(canon, marker) < 0 && (c.Sum != r.Sum || c.Empty != r.Empty) {
			t.Fatalf("canonical text %q digests differently from %q", canon, trimmed)
		}

		// Reformatting never changes the digest.
		var ind bytes.Buffer
		if err := json.Indent(&ind, trimmed, " ", "\t"); err != nil {
			t.Fatal(err)
		}
		if c := n.Of(ind.Bytes(), &s); c.Sum != r.Sum || c.Empty != r.Empty {
			t.Fatalf("indented document digests differently:\n%s\n%s", trimmed, ind.Bytes())
		}

		// Permuting object members never changes the digest.
		root, err := splitRaw(trimmed)
		if err != nil {
			t.Fatalf("encoding/json could not split a valid document: %v", err)
		}
		var out bytes.Buffer
		rest := perm
		root.write(&out, &rest)
		if c := n.Of(out.Bytes(), &s); c.Sum != r.Sum || c.Empty != r.Empty {
			t.Fatalf("permuted document digests differently:\n%s\n%s", trimmed, out.Bytes())
		}
	})
}
