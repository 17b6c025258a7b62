// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Package sharedcomponenttest makes the collector's processor helper fail to make a processor after
// the processor's own state was acquired, so that a test can see the state given back.
package sharedcomponenttest

import (
	"errors"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
)

// helperCounter is the first instrument processorhelper.NewTraces and NewLogs create (their
// obsreport, at collector v0.161.0): failing it fails them, after the factory made its processor.
const helperCounter = "otelcol_processor_incoming_items"

// FailHelper returns settings whose meter refuses processorhelper's first counter and gives every other
// instrument, the processor's own among them, as a no-op one.
func FailHelper(set component.TelemetrySettings) component.TelemetrySettings {
	set.MeterProvider = failingProvider{}
	return set
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
