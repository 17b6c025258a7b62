// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"context"
	"sync"

	"go.opentelemetry.io/collector/component"
	"go.uber.org/zap"

	"github.com/agentotel/agentotel/internal/statestore"
)

// memoryStore keeps a memory on a storage extension (the README's "Across restarts"). The traces and
// logs processors of one configured shapeonly share the memory, so the first of them to start opens
// the store and loads it, before either sees a batch; checkpoints run from then on; the last to shut
// down stops them and saves once more.
type memoryStore struct {
	opened      sync.Once
	err         error
	store       *statestore.Store
	checkpoints *statestore.Checkpoints
	logger      *zap.Logger
}

// open opens the store named by cfg.Storage for the processor id and loads the memory from it, once
// for every processor sharing the memory. An extension that is missing or is not a storage extension
// fails the collector's start, naming it; a saved value that cannot be read is logged, and the memory
// starts empty.
func (m *memory) open(ctx context.Context, host component.Host, cfg *Config, bounds setBounds, id component.ID, logger *zap.Logger) error {
	ms := &m.stored
	ms.opened.Do(func() {
		ms.logger = logger
		ms.store, ms.err = statestore.Open(ctx, host, *cfg.Storage, id, memoryFormat, logger)
		if ms.err != nil {
			return
		}
		ms.store.Restore(ctx, func(payload []byte) error {
			r, err := decodeMemory(payload, cfg, bounds)
			if err != nil {
				return err
			}
			if r.unsearchable {
				logger.Warn("Saved fingerprints were made under keys this process cannot take; the traces and runs that hold them are withheld whole")
			}
			m.load(r)
			logger.Info("Memory restored", zap.Int("traces", len(r.traces)), zap.Int("runs", len(r.runs)))
			return nil
		})
		if ms.store.Attached() {
			ms.checkpoints = statestore.StartCheckpoints(cfg.CheckpointInterval, func() { _ = m.save(context.Background()) })
		}
	})
	return ms.err
}

// save writes the memory to the store, logging a failure: the next checkpoint tries again.
func (m *memory) save(ctx context.Context) error {
	err := m.stored.store.Save(ctx, m.encode())
	if err != nil {
		m.stored.logger.Error("Memory could not be saved", zap.Error(err))
	}
	return err
}

// close ends the checkpoints and saves the memory a last time, when a store was opened.
func (m *memory) close(ctx context.Context) error {
	ms := &m.stored
	if ms.store == nil || !ms.store.Attached() {
		return nil
	}
	ms.checkpoints.Stop()
	err := m.save(ctx)
	if cerr := ms.store.Close(ctx); err == nil {
		err = cerr
	}
	return err
}
