// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package statestoretest is a storage extension that keeps its values in memory, for the processors'
// unit tests of save and restore: file_storage's behaviour as a processor sees it (one namespace per
// component, Get of a missing key is nil and no error), without a directory. The built collector's
// tests run the real file_storage.
package statestoretest

import (
	"context"
	"sync"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/extension/xextension/storage"
)

// Extension is an in-memory storage extension. Its values outlive its clients, as a file does, so a
// test can shut a processor down, start a new one on the same Extension and see what was saved.
type Extension struct {
	mu     sync.Mutex
	values map[string]map[string][]byte
}

// New returns an empty Extension.
func New() *Extension { return &Extension{values: map[string]map[string][]byte{}} }

// Start does nothing: the values are already there.
func (*Extension) Start(context.Context, component.Host) error { return nil }

// Shutdown keeps the values, as file_storage keeps its files.
func (*Extension) Shutdown(context.Context) error { return nil }

// GetClient returns the client of one component's namespace.
func (e *Extension) GetClient(_ context.Context, kind component.Kind, id component.ID, name string) (storage.Client, error) {
	return &client{ext: e, namespace: kind.String() + "/" + id.String() + "/" + name}, nil
}

// Value is what the component's namespace holds under key, nil when nothing is.
func (e *Extension) Value(kind component.Kind, id component.ID, key string) []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.values[kind.String()+"/"+id.String()+"/"][key]
}

// SetValue replaces what the component's namespace holds under key: a test writes a truncated or
// garbage value this way.
func (e *Extension) SetValue(kind component.Kind, id component.ID, key string, value []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.space(kind.String() + "/" + id.String() + "/")[key] = append([]byte(nil), value...)
}

func (e *Extension) space(namespace string) map[string][]byte {
	s, ok := e.values[namespace]
	if !ok {
		s = map[string][]byte{}
		e.values[namespace] = s
	}
	return s
}

type client struct {
	ext       *Extension
	namespace string
}

func (c *client) Get(_ context.Context, key string) ([]byte, error) {
	c.ext.mu.Lock()
	defer c.ext.mu.Unlock()
	v, ok := c.ext.values[c.namespace][key]
	if !ok {
		return nil, nil
	}
	return append([]byte(nil), v...), nil
}

func (c *client) Set(_ context.Context, key string, value []byte) error {
	c.ext.mu.Lock()
	defer c.ext.mu.Unlock()
	c.ext.space(c.namespace)[key] = append([]byte(nil), value...)
	return nil
}

func (c *client) Delete(_ context.Context, key string) error {
	c.ext.mu.Lock()
	defer c.ext.mu.Unlock()
	delete(c.ext.values[c.namespace], key)
	return nil
}

func (c *client) Batch(ctx context.Context, ops ...*storage.Operation) error {
	for _, op := range ops {
		var err error
		switch op.Type {
		case storage.Get:
			op.Value, err = c.Get(ctx, op.Key)
		case storage.Set:
			err = c.Set(ctx, op.Key, op.Value)
		case storage.Delete:
			err = c.Delete(ctx, op.Key)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (*client) Close(context.Context) error { return nil }

// Host is a component.Host whose extensions are the given ones.
type Host map[component.ID]component.Component

// GetExtensions returns the host's extensions.
func (h Host) GetExtensions() map[component.ID]component.Component { return h }
