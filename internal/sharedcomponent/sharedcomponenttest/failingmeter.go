// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package sharedcomponenttest makes the collector's processor helper fail to make a processor after
// the processor's own state was acquired, so that a test can see the state given back.
package sharedcomponenttest

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processortest"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
)

// helperCounter is the first instrument processorhelper.NewTraces and NewLogs create (their
// obsreport, at collector v0.161.0): failing it fails them, after the factory made its processor.
const helperCounter = "otelcol_processor_incoming_items"

// FailToMake asks traces and logs, a factory's two create functions, for a processor of cfg each,
// with settings whose meter refuses processorhelper's first counter and gives every other instrument,
// the processor's own among them, as a no-op one; it requires both to fail. The caller then checks
// that its factory holds no state for cfg.
func FailToMake(t testing.TB, typ component.Type, cfg component.Config, traces processor.CreateTracesFunc, logs processor.CreateLogsFunc) {
	t.Helper()
	set := processortest.NewNopSettings(typ)
	set.MeterProvider = failingProvider{}
	_, err := traces(context.Background(), set, cfg, consumertest.NewNop())
	require.Error(t, err, "the traces processor")
	_, err = logs(context.Background(), set, cfg, consumertest.NewNop())
	require.Error(t, err, "the logs processor")
}

type failingProvider struct{ noop.MeterProvider }

func (failingProvider) Meter(string, ...metric.MeterOption) metric.Meter { return failingMeter{} }

type failingMeter struct{ noop.Meter }

func (m failingMeter) Int64Counter(name string, opts ...metric.Int64CounterOption) (metric.Int64Counter, error) {
	if name == helperCounter {
		return nil, errors.New("refused by the test's meter")
	}
	return m.Meter.Int64Counter(name, opts...)
}
