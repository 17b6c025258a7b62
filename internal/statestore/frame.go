// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package statestore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// A frame is magic (4 bytes), the format version (2), the payload's CRC-32C (4), its length (8), and
// the payload: enough to tell a value that is not ours, one cut short and one damaged apart.
const (
	magic     = "agst"
	headerLen = len(magic) + 2 + 4 + 8
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errNotOurs is a value that does not start as a frame does.
var errNotOurs = errors.New("not an agentotel state value")

// versionError is a frame of another format version.
type versionError struct{ got, want uint16 }

func (e versionError) Error() string {
	return fmt.Sprintf("written by state format version %d; this build reads version %d", e.got, e.want)
}

// frame returns payload framed as format version.
func frame(version uint16, payload []byte) []byte {
	out := make([]byte, headerLen, headerLen+len(payload))
	copy(out, magic)
	binary.BigEndian.PutUint16(out[4:], version)
	binary.BigEndian.PutUint32(out[6:], crc32.Checksum(payload, castagnoli))
	binary.BigEndian.PutUint64(out[10:], uint64(len(payload)))
	return append(out, payload...)
}

// unframe returns the payload of a frame of format version want.
func unframe(value []byte, want uint16) ([]byte, error) {
	if len(value) < len(magic) || string(value[:len(magic)]) != magic {
		return nil, errNotOurs
	}
	if len(value) < headerLen {
		return nil, fmt.Errorf("truncated: %d bytes, shorter than the %d-byte header", len(value), headerLen)
	}
	if got := binary.BigEndian.Uint16(value[4:]); got != want {
		return nil, versionError{got: got, want: want}
	}
	payload := value[headerLen:]
	if n := binary.BigEndian.Uint64(value[10:]); n != uint64(len(payload)) {
		return nil, fmt.Errorf("truncated: the header says %d payload bytes, %d are there", n, len(payload))
	}
	if sum := crc32.Checksum(payload, castagnoli); sum != binary.BigEndian.Uint32(value[6:]) {
		return nil, errors.New("damaged: the payload's checksum does not match")
	}
	return payload, nil
}
