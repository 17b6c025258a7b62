// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package statestore

import (
	"context"
	"fmt"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/extension/xextension/storage"
	"go.uber.org/zap"
)

// key is the one key a processor's state is stored under, in the client the extension gives that
// processor (its own namespace: file_storage keeps one file per component).
const key = "state"

// Store is one processor's saved state, in the client of a storage extension.
type Store struct {
	client  storage.Client
	version uint16
	logger  *zap.Logger
}

// Open gets a client of the storage extension named extension, for the processor named processor,
// that saves and loads state of format version. An extension that is not configured, or not a
// storage extension, is an error: the collector then fails to start, naming it.
func Open(ctx context.Context, host component.Host, extension, processor component.ID, version uint16, logger *zap.Logger) (*Store, error) {
	ext, ok := host.GetExtensions()[extension]
	if !ok {
		return nil, fmt.Errorf("storage: extension %q is not configured; add it under extensions: and service::extensions", extension)
	}
	st, ok := ext.(storage.Extension)
	if !ok {
		return nil, fmt.Errorf("storage: extension %q is not a storage extension (file_storage is one)", extension)
	}
	client, err := st.GetClient(ctx, component.KindProcessor, processor, "")
	if err != nil {
		return nil, fmt.Errorf("storage: extension %q gave no client: %w", extension, err)
	}
	return &Store{client: client, version: version, logger: logger}, nil
}

// Restore reads the saved state and hands its payload to decode. It reports whether state was
// restored: false on a first start (nothing saved), and false, with an error in the log, when the
// value cannot be read, is of another format version, or decode refuses it; the processor then starts
// fresh. decode must leave the processor's state as it was when it returns an error (decode into new
// structures, and keep them only on success).
func (s *Store) Restore(ctx context.Context, decode func(payload []byte) error) bool {
	value, err := s.client.Get(ctx, key)
	if err != nil {
		s.logger.Error("Saved state could not be read; starting fresh", zap.Error(err))
		return false
	}
	if value == nil {
		return false
	}
	payload, err := unframe(value, s.version)
	if err == nil {
		err = decode(payload)
	}
	if err != nil {
		s.logger.Error("Saved state is unreadable; starting fresh", zap.Int("bytes", len(value)), zap.Error(err))
		return false
	}
	return true
}

// Save replaces the saved state with payload.
func (s *Store) Save(ctx context.Context, payload []byte) error {
	return s.client.Set(ctx, key, frame(s.version, payload))
}

// Close releases the client.
func (s *Store) Close(ctx context.Context) error {
	return s.client.Close(ctx)
}
