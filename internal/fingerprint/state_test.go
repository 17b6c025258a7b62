// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import (
	"bytes"
	"testing"

	"github.com/agentotel/agentotel/internal/statecodec"
)

// stateTexts are texts a restored Set must redact exactly as the saved one: a leaf repeated verbatim,
// JSON-escaped, cut into, short leaves whole, a marker-like leaf, and text holding none of them.
var stateTexts = [][]byte{
	[]byte(`{"name":"Jane Roe-Whitfield","note":"VIP since 2009; prefers email"}`),
	[]byte(`the customer Jane Roe-Whitfield said \"VIP since 2009; prefers email\" again`),
	[]byte(`"content":"{\"email\":\"jane.roe@example.com\",\"tier\":\"[gold]\"}"`),
	[]byte(`Jane Doe called; she is Jane Doe`),
	[]byte(`nothing the set holds is in this sentence at all`),
}

func savedSet() *Set {
	s := NewSet(1000)
	s.AddLeaves([][]byte{[]byte("Jane Roe-Whitfield"), []byte("VIP since 2009; prefers email"), []byte("Jane Doe")})
	s.Build()
	s.AddLeaves([][]byte{[]byte("jane.roe@example.com"), []byte("tier: [gold]")}) // listed, not yet built
	return s
}

func encodeSet(s *Set) []byte {
	var e statecodec.Encoder
	s.Encode(&e)
	return e.Data()
}

// TestDecodedSetRedactsAsSaved: a decoded Set is built and finds what the saved one finds once
// built, leaf for leaf and byte for byte.
func TestDecodedSetRedactsAsSaved(t *testing.T) {
	saved := savedSet()
	d := statecodec.NewDecoder(encodeSet(saved))
	restored, full := DecodeSet(d, 1000)
	if err := d.Finish(); err != nil || full {
		t.Fatalf("decode: %v, full %v", err, full)
	}
	saved.Build()
	if restored.Len() != saved.Len() || restored.markerLike != saved.markerLike {
		t.Fatalf("restored %d fingerprints (marker-like %v), saved %d (%v)", restored.Len(), restored.markerLike, saved.Len(), saved.markerLike)
	}
	var sc Scanner
	for _, text := range stateTexts {
		want, wantHit := sc.Redacted([]*Set{saved}, text, Redaction{})
		want = bytes.Clone(want)
		got, gotHit := sc.Redacted([]*Set{restored}, text, Redaction{})
		if wantHit != gotHit || !bytes.Equal(got, want) {
			t.Errorf("%s:\n restored %s\n saved    %s", text, got, want)
		}
	}
}

// TestDecodedSetKeepsItsBound: a Set saved larger than the bound it is restored under keeps what
// fits and says it is full, so its scope withholds the rest whole.
func TestDecodedSetKeepsItsBound(t *testing.T) {
	saved := savedSet()
	saved.Build()
	d := statecodec.NewDecoder(encodeSet(saved))
	restored, full := DecodeSet(d, 5)
	if d.Finish() != nil || !full || restored.Len() != 5 {
		t.Fatalf("restored %d of %d fingerprints under a bound of 5, full %v", restored.Len(), saved.Len(), full)
	}
}

// TestKeysOnceInUseStay: the process's own keys are always adopted; other keys are not once a Set
// was made (every test binary has made one by now), since the Sets made under the first would no
// longer be found.
func TestKeysOnceInUseStay(t *testing.T) {
	NewSet(1)
	own := ProcessKeys()
	if !AdoptKeys(own) {
		t.Fatal("the process's own keys were refused")
	}
	other := own
	other[3] ^= 0x40
	if AdoptKeys(other) || ProcessKeys() != own {
		t.Fatal("keys changed under Sets made with the old ones")
	}
}

// FuzzDecodeSet: whatever the bytes, DecodeSet returns a Set or an error, and never panics.
func FuzzDecodeSet(f *testing.F) {
	f.Add(encodeSet(savedSet()), 100)
	f.Add([]byte{3, 0, 0, 0, 0, 0, 0, 0, 0}, 10)
	f.Fuzz(func(t *testing.T, payload []byte, maxEntries int) {
		d := statecodec.NewDecoder(payload)
		s, _ := DecodeSet(d, maxEntries%100_000)
		if d.Err() == nil {
			var sc Scanner
			sc.Redacted([]*Set{s}, stateTexts[0], Redaction{})
		}
	})
}

// TestDecodingLeavesKeysAdoptable: decoding saved Sets makes none under this process's keys, so the
// keys saved beside them can still be adopted after (a restarted collector decodes, then adopts).
func TestDecodingLeavesKeysAdoptable(t *testing.T) {
	payload := encodeSet(savedSet())
	keysInUse.Store(false)
	defer keysInUse.Store(true)
	d := statecodec.NewDecoder(payload)
	if _, _ = DecodeSet(d, 1000); d.Err() != nil || keysInUse.Load() {
		t.Fatalf("decoding marked the keys in use (err %v)", d.Err())
	}
}
