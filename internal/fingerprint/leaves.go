// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import "github.com/agentotel/agentotel/internal/jsonraw"

// AddJSONLeaves remembers the leaves that shaping withholds from doc, a JSON document: every
// string not directly under a key that kept reports true (kept sees the key decoded; nil keeps
// none), and every string inside an array, kept or not (shaping withholds an array whole). Strings are remembered decoded. A string that
// holds a JSON object or array (a document stringified into another, which shaping shapes as
// JSON) contributes that document's leaves by the same rules instead of its own text. Keys,
// numbers and literals are kept by shaping, so they are not leaves.
//
// If doc is not valid JSON, shaping withholds it whole, so it is remembered whole as one leaf,
// and the error is returned. added and full are as for AddLeaf, summed over the leaves.
func (s *Set) AddJSONLeaves(doc []byte, kept func(key []byte) bool) (added int, full bool, err error) {
	if err := validate(doc); err != nil {
		added, full = s.AddLeaf(doc)
		return added, full, err
	}
	c := leafCollector{set: s, kept: kept}
	c.value(doc[jsonraw.SkipSpace(doc, 0):], false, false)
	return c.added, c.full, nil
}

// leafCollector walks a validated document for AddJSONLeaves.
type leafCollector struct {
	set   *Set
	kept  func([]byte) bool
	buf   []byte // the decoded text of a string leaf
	key   []byte // a decoded key
	added int
	full  bool
}

// value remembers the leaves of v; keep says it sits directly under a kept key, inArray that it
// is inside an array.
func (c *leafCollector) value(v []byte, keep, inArray bool) {
	switch v[0] {
	case '{':
		jsonraw.EachMember(v, func(m jsonraw.Member) {
			c.value(m.Value, !inArray && c.isKept(m.Key), inArray)
		})
	case '[':
		jsonraw.EachElement(v, func(elem []byte, _ int) { c.value(elem, false, true) })
	case '"':
		if keep {
			return
		}
		c.buf, _ = jsonraw.AppendUnquote(c.buf[:0], v)
		if jsonraw.IsContainer(c.buf) && validate(c.buf) == nil {
			inner := append([]byte(nil), c.buf...) // walking it reuses c.buf
			c.value(inner[jsonraw.SkipSpace(inner, 0):], false, inArray)
			return
		}
		added, full := c.set.AddLeaf(c.buf)
		c.added += added
		c.full = c.full || full
	}
}

// isKept reports whether kept holds the raw key, compared decoded.
func (c *leafCollector) isKept(raw []byte) bool {
	if c.kept == nil {
		return false
	}
	c.key, _ = jsonraw.AppendUnquote(c.key[:0], raw)
	return c.kept(c.key)
}
