// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentguard

import (
	"context"
	"fmt"

	"go.opentelemetry.io/collector/component"
	"go.uber.org/zap"

	"github.com/agentotel/agentotel/internal/statestore"
)

// persistence is where the runs outlive a restart: the store of the storage extension storage: names
// (loaded once at start, before the first batch; saved every checkpoint_interval and last at
// shutdown), and its checkpoints. What is loaded follows package statestore's rules.
type persistence struct {
	store       *statestore.Store
	checkpoints *statestore.Checkpoints
}

// openStorage opens the storage extension the config names, loads the runs it holds and starts the
// checkpoints; without storage: it does nothing. A storage: that names no storage extension fails the
// start, naming it.
func (g *guard) openStorage(ctx context.Context, host component.Host) error {
	if g.cfg.Storage == nil {
		return nil
	}
	store, err := statestore.Open(ctx, host, *g.cfg.Storage, g.id, stateVersion, g.logger)
	if err != nil {
		return err
	}
	g.persist.store = store
	restored := store.Restore(ctx, func(payload []byte) error { return g.runs.restore(payload, g.cfg) })
	// The restored runs that idled out while the collector was down end now, and are counted.
	held := g.runs.active(g.now())
	g.flush(ctx)
	if restored {
		g.logger.Info("Restored the runs saved before the restart", zap.Int("runs", held))
	}
	g.persist.checkpoints = statestore.StartCheckpoints(g.cfg.CheckpointInterval, func() {
		if err := g.save(context.Background()); err != nil {
			g.logger.Error("Checkpoint of the runs failed; the previous one stays", zap.Error(err))
		}
	})
	return nil
}

// save writes the runs to storage: encoded under the run table's lock, written outside it. A store
// whose storage could not be opened saves nowhere, and the runs are not encoded for it.
func (g *guard) save(ctx context.Context) error {
	if !g.persist.store.Attached() {
		return nil
	}
	return g.persist.store.Save(ctx, g.runs.encode())
}

// closeStorage stops the checkpoints, saves the runs a last time and releases the storage client.
func (g *guard) closeStorage(ctx context.Context) error {
	if g.persist.store == nil {
		return nil
	}
	g.persist.checkpoints.Stop()
	if err := g.save(ctx); err != nil {
		_ = g.persist.store.Close(ctx)
		return fmt.Errorf("storage: saving the runs at shutdown: %w", err)
	}
	return g.persist.store.Close(ctx)
}
