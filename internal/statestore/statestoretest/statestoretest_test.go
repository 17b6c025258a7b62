// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package statestoretest

import (
	"bytes"
	"context"
	"testing"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/extension/xextension/storage"
)

// The values outlive the client and are kept apart per component, as file_storage's files are.
func TestValuesOutliveClientsPerComponent(t *testing.T) {
	ctx := context.Background()
	ext := New()
	a, b := component.MustNewID("agentguard"), component.MustNewID("shapeonly")
	ca, _ := ext.GetClient(ctx, component.KindProcessor, a, "")
	if v, err := ca.Get(ctx, "state"); v != nil || err != nil {
		t.Fatalf("missing key: got %q, %v; want nil, nil", v, err)
	}
	if err := ca.Set(ctx, "state", []byte("one")); err != nil {
		t.Fatal(err)
	}
	_ = ca.Close(ctx)
	again, _ := ext.GetClient(ctx, component.KindProcessor, a, "")
	if v, _ := again.Get(ctx, "state"); !bytes.Equal(v, []byte("one")) {
		t.Fatalf("after a new client: got %q, want one", v)
	}
	cb, _ := ext.GetClient(ctx, component.KindProcessor, b, "")
	if v, _ := cb.Get(ctx, "state"); v != nil {
		t.Fatalf("another component's namespace holds %q", v)
	}
	ext.SetValue(component.KindProcessor, b, "state", []byte("garbage"))
	get := storage.GetOperation("state")
	if err := cb.Batch(ctx, get); err != nil || !bytes.Equal(get.Value, []byte("garbage")) {
		t.Fatalf("batch get: %q, %v", get.Value, err)
	}
	if v := ext.Value(component.KindProcessor, a, "state"); !bytes.Equal(v, []byte("one")) {
		t.Fatalf("Value: %q", v)
	}
}
