// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package countsonly

import (
	"strconv"

	"github.com/agentotel/agentotel/internal/jsonraw"
	"github.com/agentotel/agentotel/internal/zerocopy"
)

// Values arrive in three forms: text (an attribute that may hold a JSON document), a raw JSON value
// inside a document (which may be a string that itself holds JSON, as SDKs stringify tool output),
// and structured OTLP values, which the caller walks. This file shapes the first two, so every caller
// decides JSON-or-text the same way.

// AppendText appends the shaped form of a text value. Text that holds a JSON container is shaped
// structurally and stays JSON text; any other text has no key that could keep it, so it is withheld.
// A container that cannot be shaped is withheld whole and its error returned (fail closed).
func (s *Shaper) AppendText(dst, text []byte) ([]byte, Stats, error) {
	if !LooksLikeJSON(text) {
		return append(dst, Withheld...), Stats{Strings: 1}, nil
	}
	out, stats, err := s.AppendJSON(dst, text)
	if err != nil {
		return append(dst, Withheld...), Stats{Strings: 1}, err
	}
	return out, stats, nil
}

// AppendValue appends the shaped form of one raw JSON value from a document, as a JSON value. A
// string that holds JSON is shaped as JSON and written back as a string; a string that cannot be
// decoded, or a value that cannot be shaped, is withheld whole and its error returned. A string is
// decoded and shaped in scratch, which is returned grown: a caller that keeps it allocates nothing
// once it is large enough. leaves, when given, lists what was withheld (see Leaves).
func (s *Shaper) AppendValue(dst, raw, scratch []byte, leaves *Leaves) ([]byte, []byte, Stats, error) {
	if leaves != nil {
		leaves.reset()
	}
	if len(raw) > 0 && raw[0] == '"' {
		text, ok := jsonraw.AppendUnquote(scratch[:0], raw)
		if !ok {
			return jsonraw.AppendString(dst, Withheld), text, Stats{Strings: 1}, errAt(ErrSyntax, 0)
		}
		// The shaped text goes after the decoded one in the same buffer; growing it leaves text
		// where it was.
		out, stats, err := s.AppendText(text, text)
		shaped := out[len(text):]
		return jsonraw.AppendString(dst, zerocopy.String(shaped)), out, stats, err
	}
	out, stats, err := s.appendJSON(dst, raw, leaves)
	if err != nil {
		return jsonraw.AppendString(dst, Withheld), scratch, Stats{Strings: 1}, err
	}
	if leaves != nil {
		leaves.Complete = true
	}
	return out, scratch, stats, nil
}

// IsDocument reports whether text is a JSON document shaping reads structurally: a container
// (LooksLikeJSON) that is valid JSON within the Shaper's depth limit.
func (s *Shaper) IsDocument(text []byte) bool {
	return LooksLikeJSON(text) && jsonraw.ValidDepth(text, s.limits.MaxDepth)
}

// StringHoldsDocument reports whether raw, one JSON value, is a string whose content is a document
// (IsDocument): a value an SDK stringified into another document. The content is decoded in
// scratch, which is returned grown.
func (s *Shaper) StringHoldsDocument(raw, scratch []byte) (bool, []byte) {
	if len(raw) == 0 || raw[0] != '"' {
		return false, scratch
	}
	text, ok := jsonraw.AppendUnquote(scratch[:0], raw)
	return ok && s.IsDocument(text), text[:0]
}

// WithheldArray is what an array of n values becomes: "[n withheld]".
func WithheldArray(n int) string {
	return "[" + strconv.Itoa(n) + " withheld]"
}
