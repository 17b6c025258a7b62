package jsonraw

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestSkipMatchesTheStandardValidator(t *testing.T) {
	for _, doc := range []string{
		`{}`, `[]`, `{"a":[1,2,{"b":null}],"c":"\u00e9\n","d":-0.5e+10}`, ` [ true , false ] `, `"x"`, `0`,
		`{"a":}`, `[1,]`, `{"a" 1}`, `01`, `1.`, `"\x"`, `"abc`, `{"a":1}}`, `[1 2]`, "\"\x01\"", `-`, `tru`,
	} {
		if got, want := Valid([]byte(doc)), json.Valid([]byte(doc)); got != want {
			t.Errorf("Valid(%s) = %v, encoding/json says %v", doc, got, want)
		}
	}
}

func TestMembersAndField(t *testing.T) {
	doc := []byte(`{"status":"running","jobs":{"done":1,"total":4},"n":12,"esc\u0061ped":"yes"}`)
	for path, want := range map[string]string{"status": "running", "jobs.done": "1", "n": "12", "escaped": "yes"} {
		raw, ok := Field(doc, path)
		got, _ := Text(raw)
		if !ok || got != want {
			t.Errorf("Field(%q) = %q, %v; want %q", path, got, ok, want)
		}
	}
	if _, ok := Field(doc, "missing"); ok {
		t.Error("found a missing field")
	}
	if _, ok := Field([]byte(`[1]`), "a"); ok {
		t.Error("found a field in an array")
	}
}

func TestAppendStringIsValidJSON(t *testing.T) {
	for _, s := range []string{"plain", `q"uote\`, "ctl\x01\n", "bad\xffutf8", "é✓"} {
		out := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q -> %s: %v", s, out, err)
		}
	}
}

func FuzzSkip(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"c"}]}`, `[`, `"\u12`, `1e5`, `{"a":1,}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := Valid(b)
		// jsonraw rejects invalid UTF-8 in strings, where encoding/json lets it through: a transcript
		// that is not text is withheld rather than passed on.
		if !utf8.Valid(b) {
			return
		}
		if want := json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}

// The trusted iterators see exactly what the validating ones see on valid documents.
func FuzzEachMatchesValidating(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"c\"]}"}],"d":-1e5,"e":{}}`, `[ "x" , [ ] , { "k" : null } ]`, `{}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !Valid(b) {
			return
		}
		type item struct {
			key, val string
			at       int
		}
		var strict, trusted []item
		i := SkipSpace(b, 0)
		doc := b[i:]
		switch {
		case len(doc) > 0 && doc[0] == '{':
			_ = Members(doc, func(m Member) bool {
				strict = append(strict, item{string(m.Key), string(m.Value), m.ValueStart})
				return true
			})
			EachMember(doc, func(m Member) { trusted = append(trusted, item{string(m.Key), string(m.Value), m.ValueStart}) })
		case len(doc) > 0 && doc[0] == '[':
			_ = Elements(doc, func(e []byte, at int) bool { strict = append(strict, item{"", string(e), at}); return true })
			EachElement(doc, func(e []byte, at int) { trusted = append(trusted, item{"", string(e), at}) })
		}
		if len(strict) != len(trusted) {
			t.Fatalf("%q: %d items validating, %d trusted", b, len(strict), len(trusted))
		}
		for k := range strict {
			if strict[k] != trusted[k] {
				t.Fatalf("%q: item %d: %+v vs %+v", b, k, strict[k], trusted[k])
			}
		}
	})
}
