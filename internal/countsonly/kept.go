package countsonly

import (
	"unicode/utf16"
	"unicode/utf8"
)

// DefaultKeptKeys returns a fresh copy of the keys whose string values are kept by default:
// the ones that describe what a tool was asked and what it reported, not the data it returned.
func DefaultKeptKeys() []string {
	return []string{"query", "question", "status", "source", "kind", "title", "description", "error"}
}

// keptSet answers "is this object key kept?" for keys as they appear in the input.
type keptSet struct {
	byName map[string]struct{} // indexed with string(raw), which the compiler does without allocating
	names  []string            // the same keys, for the rare escaped key that must be decoded first
	// filter[c] has bit lenBit(n) set when some kept key of n bytes starts with c. One table
	// load rules out nearly every other key before the map (and its hashing) is reached.
	filter [256]uint64
}

// lenBit maps a key length to its bit in keptSet.filter; lengths of 63 and more share a bit.
func lenBit(n int) uint64 { return 1 << min(n, 63) }

func newKeptSet(keys []string) keptSet {
	k := keptSet{byName: make(map[string]struct{}, len(keys))}
	for _, key := range keys {
		if _, dup := k.byName[key]; dup {
			continue
		}
		k.byName[key] = struct{}{}
		k.names = append(k.names, key)
		if key != "" {
			k.filter[key[0]] |= lenBit(len(key))
		}
	}
	return k
}

// has reports whether the key whose raw content (between the quotes, already validated) is raw
// is kept. Keys are compared by decoded value, so "st\u0061tus" is status; escaped says
// whether raw contains a backslash at all, which keeps the common case a plain map lookup.
func (k *keptSet) has(raw []byte, escaped bool) bool {
	if !escaped {
		if len(raw) > 0 && k.filter[raw[0]]&lenBit(len(raw)) == 0 {
			return false
		}
		_, ok := k.byName[string(raw)]
		return ok
	}
	for _, name := range k.names {
		if decodedEquals(raw, name) {
			return true
		}
	}
	return false
}

// decodedEquals reports whether the JSON string content raw (validated, escapes intact) decodes
// to want. It decodes as it compares so that no buffer is needed, and decodes exactly as
// encoding/json does: an unpaired surrogate escape becomes U+FFFD.
func decodedEquals(raw []byte, want string) bool {
	j := 0
	for i := 0; i < len(raw); {
		if raw[i] != '\\' {
			if j >= len(want) || want[j] != raw[i] {
				return false
			}
			i++
			j++
			continue
		}
		var buf [utf8.UTFMax]byte
		var dec []byte
		if raw[i+1] != 'u' {
			buf[0] = unescapeByte(raw[i+1])
			dec = buf[:1]
			i += 2
		} else {
			r := hex4(raw[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					r2 = hex4(raw[i+2 : i+6])
				}
				if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
					r = pair
					i += 6
				}
			}
			// An unpaired surrogate is not a valid rune, so EncodeRune writes U+FFFD for it.
			dec = buf[:utf8.EncodeRune(buf[:], r)]
		}
		if len(want)-j < len(dec) || want[j:j+len(dec)] != string(dec) {
			return false
		}
		j += len(dec)
	}
	return j == len(want)
}

// unescapeByte maps the character after a backslash (other than 'u') to the byte it stands for.
// The scanner has already rejected any other escape.
func unescapeByte(c byte) byte {
	switch c {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return c // '"', '\\', '/'
}

// hex4 decodes four hex digits already validated by the scanner.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r = r<<4 | rune(hexVal[c])
	}
	return r
}
