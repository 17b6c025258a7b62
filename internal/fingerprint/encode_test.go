// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"net/url"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// encodeJSON returns s (valid UTF-8) as the content of a JSON string, escaped the way r picks:
// a character that must be escaped gets its short escape or \uXXXX; any other one is written as
// itself, as \uXXXX (upper- or lower-case hex, a surrogate pair above U+FFFF) or as its short
// escape where it has one (\/). Every JSON encoder's output is one of these choices.
func encodeJSON(r *rand.Rand, s []byte) []byte {
	var out []byte
	for _, c := range string(s) {
		short := shortEscape(c)
		mustEscape := c == '"' || c == '\\' || c < 0x20
		switch choice := r.IntN(4); {
		case !mustEscape && choice < 2:
			out = utf8.AppendRune(out, c)
		case short != 0 && choice < 3:
			out = append(out, '\\', short)
		default:
			out = appendUEscape(out, c, r.IntN(2) == 0)
		}
	}
	return out
}

func shortEscape(c rune) byte {
	switch c {
	case '"', '\\', '/':
		return byte(c)
	case '\b':
		return 'b'
	case '\f':
		return 'f'
	case '\n':
		return 'n'
	case '\r':
		return 'r'
	case '\t':
		return 't'
	}
	return 0
}

func appendUEscape(out []byte, c rune, upper bool) []byte {
	format := `\u%04x`
	if upper {
		format = `\u%04X`
	}
	if c > 0xFFFF {
		hi, lo := utf16.EncodeRune(c)
		return fmt.Appendf(out, format+format, hi, lo)
	}
	return fmt.Appendf(out, format, c)
}

// TestEncodeJSONDecodesBack checks the test's own encoder against encoding/json, so that the
// tests built on it test the package and not the encoder.
func TestEncodeJSONDecodesBack(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range []string{"Zoë Roe-Whitfield", "tab\there \"quoted\" back\\slash", "emoji 😀 and \u2028", "\x01\x1f/"} {
		for range 50 {
			enc := encodeJSON(r, []byte(s))
			var got string
			if err := json.Unmarshal([]byte(`"`+string(enc)+`"`), &got); err != nil || got != s {
				t.Fatalf("encodeJSON(%q) = %q, decodes to %q (%v)", s, enc, got, err)
			}
		}
	}
}

// encodeURL returns s percent-encoded the way r picks, as URL encoders write a value: every byte but
// the unreserved ones (RFC 3986: letters, digits, "-._~") as %XX with upper- or lower-case hex, an
// unreserved one as itself or, now and then, as %XX too; with form, a space as '+' (the form
// encoding of query strings), and without, a '+' now and then as itself (as a path keeps it).
func encodeURL(r *rand.Rand, s []byte, form bool) []byte {
	var out []byte
	for _, c := range s {
		unreserved := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
		switch {
		case unreserved && r.IntN(4) != 0:
			out = append(out, c)
		case form && c == ' ':
			out = append(out, '+')
		case !form && c == '+' && r.IntN(2) == 0:
			// A path (url.PathEscape) keeps a '+' as it is.
			out = append(out, c)
		case r.IntN(2) == 0:
			out = fmt.Appendf(out, "%%%02X", c)
		default:
			out = fmt.Appendf(out, "%%%02x", c)
		}
	}
	return out
}

// encodeHTML returns s (valid UTF-8) with its markup characters escaped the way r picks, as HTML and
// XML escapers write them: each of & < > " ' as its named reference or as a decimal or hex numeric
// one (Go's html package writes &#39; and &#34;, Python's html.escape &#x27; and &quot;), and any
// other character now and then as a numeric reference too.
func encodeHTML(r *rand.Rand, s []byte) []byte {
	named := map[rune]string{'&': "amp", '<': "lt", '>': "gt", '"': "quot", '\'': "apos"}
	var out []byte
	for _, c := range string(s) {
		name, markup := named[c]
		switch choice := r.IntN(8); {
		case !markup && choice > 0:
			out = utf8.AppendRune(out, c)
		case markup && choice < 3:
			out = append(append(append(out, '&'), name...), ';')
		case choice%2 == 0:
			out = fmt.Appendf(out, "&#%d;", c)
		default:
			out = fmt.Appendf(out, "&#x%X;", c)
		}
	}
	return out
}

// TestEncodeURLAndHTMLDecodeBack checks the test's URL and HTML encoders against net/url and html.
func TestEncodeURLAndHTMLDecodeBack(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	unescapeHTML := func(s string) (string, error) { return html.UnescapeString(s), nil }
	for _, c := range []struct {
		name   string
		encode func([]byte) []byte
		decode func(string) (string, error)
	}{
		{"percent", func(s []byte) []byte { return encodeURL(r, s, false) }, url.PathUnescape},
		{"form", func(s []byte) []byte { return encodeURL(r, s, true) }, url.QueryUnescape},
		{"html", func(s []byte) []byte { return encodeHTML(r, s) }, unescapeHTML},
	} {
		for _, s := range []string{"Zoë O'Brien", "zoe+vip@example.com", `100% <b>"VIP"</b> & more/less?`, "emoji 😀 &amp; literal"} {
			for range 50 {
				enc := c.encode([]byte(s))
				if got, err := c.decode(string(enc)); err != nil || got != s {
					t.Fatalf("%s: %q encoded as %q decodes to %q (%v)", c.name, s, enc, got, err)
				}
			}
		}
	}
}
