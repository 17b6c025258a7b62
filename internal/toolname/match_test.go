// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package toolname

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/jsonraw"
)

// The matchers' tests hold each to its obvious reading; the processors' tests hold what they decide
// with them.

func TestSearchable(t *testing.T) {
	assert.False(t, Searchable(`crm "find"`))
	assert.False(t, Searchable(`a\b`))
	assert.False(t, Searchable("tab\there"))
	assert.False(t, Searchable("Zoë"))
	assert.True(t, Searchable("find_customer"))
}

// FuzzHoldsWordInName holds holdsWord on a name (the decoded boundary) to the obvious reading: at every
// place text holds word, look at the characters either side. Names reach it normalised, so the fuzzed
// ones are lower-cased first.
func FuzzHoldsWordInName(f *testing.F) {
	for _, c := range [][2]string{{"tool_call find_customer", "find_customer"}, {"find_customer_report find_customer", "find_customer"},
		{"xfind findx find", "find"}, {"é_lookup lookup", "lookup"}, {"(crm/lookup)", "/lookup)"}, {"aaa", "aa"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, text, word string) {
		text, word = strings.ToLower(text), strings.ToLower(word)
		want := false
		for i := 0; word != "" && i+len(word) <= len(text); i++ {
			if text[i:i+len(word)] != word {
				continue
			}
			before, _ := utf8.DecodeLastRuneInString(text[:i])
			after, _ := utf8.DecodeRuneInString(text[i+len(word):])
			first, _ := utf8.DecodeRuneInString(word)
			last, _ := utf8.DecodeLastRuneInString(word)
			startOK := i == 0 || !continuesName(first) || !continuesName(before)
			endOK := i+len(word) == len(text) || !continuesName(last) || !continuesName(after)
			if startOK && endOK {
				want = true
				break
			}
		}
		if got := holdsWord([]byte(text), word, decoded); got != want {
			t.Fatalf("holdsWord(%q, %q) = %v, want %v", text, word, got, want)
		}
	})
}

func TestHoldsWordInName(t *testing.T) {
	for _, c := range []struct {
		text, word string
		want       bool
	}{
		{"find_customer", "find_customer", true},
		{"tool_call find_customer", "find_customer", true},
		{"a find_customer_report, then find_customer.", "find_customer", true},
		{"find_customer_report", "find_customer", false},
		{"x-find_customer", "find_customer", false},
		{"büro_lookup", "o_lookup", false},
		{"(crm/lookup)", "crm/lookup", true},
		{"mcrm/lookupx", "/lookup", false},
		{"mcrm/lookup", "crm/", false},
		{"get /crm/x", "/crm/", true},
		{"find_cust", "find_customer", false},
		{"", "a", false},
		{"anything", "", false},
	} {
		assert.Equal(t, c.want, holdsWord([]byte(c.text), c.word, decoded), "%q in %q", c.word, c.text)
	}
}

func TestContainsFold(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"find_customer", true}, {`"name":"Find_Customer "`, true}, {"FIND_CUSTOMER", true},
		{"xfind_customerx", true}, {"find_custome", false}, {"find-customer", false}, {"", false},
		{"fIND_cUSTOMEr and more", true}, {"find_customer"[:5], false},
	} {
		assert.Equal(t, c.want, Contains([]byte(c.text), "find_customer"), "%q", c.text)
	}
}

// FuzzContainsFold holds the search to comparing at every offset: a name found anywhere, in either
// case, and not past the end of the text.
func FuzzContainsFold(f *testing.F) {
	for _, c := range [][2]string{{"Find_Customer", "find_customer"}, {"x_x_find_customer", "find_customer"},
		{"quiz", "quiz"}, {"QUIZ", "quiz"}, {"zz", "z"}, {"a_", "a_"}, {"_a", "_a"}, {"find_custome", "find_customer"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, text, name string) {
		name, ok := searchedFuzzName(name)
		if !ok {
			return
		}
		want := eachFoldByOffset(text, name, func(int) bool { return true })
		if got := Contains([]byte(text), name); got != want {
			t.Errorf("Contains(%q, %q) = %v, want %v", text, name, got, want)
		}
	})
}

// searchedFuzzName is a fuzzed name as the name searches take one: lower-case ASCII, not empty.
func searchedFuzzName(name string) (string, bool) {
	name = strings.ToLower(name)
	return name, name != "" && isASCII(name)
}

// eachFoldByOffset is eachFold's obvious reading: compare name at every offset of text, ASCII letters
// in either case, and call at where it is, until at returns true.
func eachFoldByOffset(text, name string, at func(i int) bool) bool {
	for i := 0; i+len(name) <= len(text); i++ {
		if strings.EqualFold(text[i:i+len(name)], name) && isASCII(text[i:i+len(name)]) && at(i) {
			return true
		}
	}
	return false
}

// TestSpellingEscape: a \u or \/ escape may spell a name, and so may an escaped backslash before a u,
// which decoding once more makes one (a document stringified inside a string: "kyc\\u005flookup"); a
// Windows path in JSON is read the same way, and its trace walked, which costs time, not privacy.
func TestSpellingEscape(t *testing.T) {
	for text, want := range map[string]bool{
		`find\u005fcustomer`: true, `a\/b`: true, `say \"hi\"`: false, `C:\\users`: true, `C:\\Users`: false,
		`an escaped backslash, then u: \\u0066`: true, `ends in \`: false, `\\\u0066`: true, `\\\\`: false, ``: false,
	} {
		assert.Equal(t, want, SpellingEscape([]byte(text)), "%q", text)
	}
}

// FuzzSpellingEscape holds spellingEscape to the obvious reading: some backslash, escaped or not, is
// followed by a u or a slash.
func FuzzSpellingEscape(f *testing.F) {
	for _, s := range []string{`find\u005fcustomer`, `C:\\users\\u`, `\\\\\u0066`, `a\/b`, `\\/`, `ends in \`, `\\\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		want := bytes.Contains(text, []byte(`\u`)) || bytes.Contains(text, []byte(`\/`))
		if got := SpellingEscape(text); got != want {
			t.Fatalf("SpellingEscape(%q) = %v, want %v", text, got, want)
		}
	})
}

// FuzzHoldsAlone holds holdsAlone to the obvious reading: at every place text holds name (ASCII letters
// in either case), look at what surrounds it, spaces aside.
func FuzzHoldsAlone(f *testing.F) {
	for _, c := range [][2]string{{"find_customer", "find_customer"}, {` {"tool": " FIND_customer "} `, "find_customer"},
		{"call find_customer", "find_customer"}, {"'x'", "x"}, {"`ab` ab", "ab"}, {"\"aa\"a\"", "aa"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, text, name string) {
		name, ok := searchedFuzzName(name)
		if !ok {
			return
		}
		want := eachFoldByOffset(text, name, func(i int) bool {
			before := strings.TrimRight(text[:i], " \t\r\n")
			after := strings.TrimLeft(text[i+len(name):], " \t\r\n")
			return before == "" && after == "" ||
				before != "" && after != "" && isQuote(before[len(before)-1]) && isQuote(after[0])
		})
		if got := holdsAlone([]byte(text), name); got != want {
			t.Errorf("holdsAlone(%q, %q) = %v, want %v", text, name, got, want)
		}
	})
}

// FuzzUnescapeAll: decoding escapes never grows a text, and leaves a text without a backslash as it is.
func FuzzUnescapeAll(f *testing.F) {
	for _, s := range []string{`find\u005fcustomer`, `\\u0066`, `\"a\"`, `\ud83d\ude00`, `\`, `\x`, "plain"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := unescapeAll(nil, []byte(s))
		if len(out) > len(s) {
			t.Errorf("unescapeAll(%q) = %q, longer", s, out)
		}
		if !strings.Contains(s, `\`) && string(out) != s {
			t.Errorf("unescapeAll(%q) = %q, changed a text without escapes", s, out)
		}
	})
}

// FuzzDocumentNames: reading any text for a data-class tool's name never fails, and a JSON document
// that names the tool still does stringified inside another, as an SDK that encodes a document twice
// writes it.
func FuzzDocumentNames(f *testing.F) {
	r := NewReader(NewSet([]string{"find_customer"}), countsonly.DefaultMaxDepth)
	for _, s := range []string{`{"tool":"find_customer"}`, `[{"name":"find_customer","description":"x"}]`,
		`{'tool': 'find_customer'}`, `{"a":"{\"tool\":\"find\\u005fcustomer\"}"}`, `"find_customer"`, `{"tool":"find_customer"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		named := r.names([]byte(text), 1, false, false)
		if !named || !jsonraw.Valid([]byte(text)) || !jsonraw.IsContainer(bytes.TrimSpace([]byte(text))) {
			return
		}
		quoted, err := json.Marshal(text)
		require.NoError(t, err)
		if wrapped := `{"payload":` + string(quoted) + `}`; !r.names([]byte(wrapped), 0, false, false) {
			t.Errorf("%s names the tool, %s does not", text, wrapped)
		}
	})
}

// FuzzHoldsWordInValue holds holdsWord on a value (the bytewise boundary) to holdsWord on the same text
// as a name (decoded, lower-cased), on ASCII text, where the two boundaries agree.
func FuzzHoldsWordInValue(f *testing.F) {
	for _, c := range [][2]string{{"crm.find_customer", "find_customer"}, {"refind_customer", "find_customer"},
		{"tools/FIND_CUSTOMER?x", "find_customer"}, {"a-b", "b"}, {"ab", "b"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, text, name string) {
		name = strings.ToLower(name)
		if name == "" || !isASCII(text) || !isASCII(name) {
			return
		}
		if got, want := holdsWord([]byte(text), name, bytewise), holdsWord([]byte(strings.ToLower(text)), name, decoded); got != want {
			t.Errorf("holdsWord(%q, %q, bytewise) = %v, decoded says %v", text, name, got, want)
		}
	})
}

// continuesName is the decoded boundary's obvious reading: a character tool names are made of.
func continuesName(r rune) bool {
	return r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
