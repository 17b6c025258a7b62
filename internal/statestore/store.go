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
// storage extension, is an error: the collector then fails to start, naming it. An extension that
// cannot open the processor's storage (file_storage finding its file damaged) is an error in the log
// and a Store that restores nothing and saves nowhere: the processor starts fresh and keeps its state
// in memory only, until a restart finds the storage readable again.
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
		logger.Error("Saved state could not be opened; starting fresh, and keeping state in memory only until a restart",
			zap.String("storage", extension.String()), zap.Error(err))
		client = nil
	}
	return &Store{client: client, version: version, logger: logger}, nil
}

// Restore reads the saved state and hands its payload to decode. It reports whether state was
// restored: false on a first start (nothing saved), and false, with an error in the log, when the
// value cannot be read, is of another format version, or decode refuses it; the processor then starts
// fresh. decode must leave the processor's state as it was when it returns an error (decode into new
// structures, and keep them only on success).
func (s *Store) Restore(ctx context.Context, decode func(payload []byte) error) bool {
	if s.client == nil {
		return false
	}
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

// Attached reports whether the Store saves anywhere: false when its storage could not be opened, and
// a processor then need not encode its state at all.
func (s *Store) Attached() bool { return s.client != nil }

// Save replaces the saved state with payload (on a Store that could not be opened, nothing).
func (s *Store) Save(ctx context.Context, payload []byte) error {
	if s.client == nil {
		return nil
	}
	return s.client.Set(ctx, key, frame(s.version, payload))
}

// Close releases the client.
func (s *Store) Close(ctx context.Context) error {
	if s.client == nil {
		return nil
	}
	return s.client.Close(ctx)
}
