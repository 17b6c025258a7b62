// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package walk

import "go.opentelemetry.io/collector/pdata/pcommon"

// A walk that works per scope or per resource, for spans and log records alike, is a generic function
// over these three: it is written once and instantiated with ptrace's or plog's types.

// Resource is ResourceSpans or ResourceLogs: the resource it describes and its schema URL.
type Resource interface {
	Resource() pcommon.Resource
	SchemaUrl() string
	SetSchemaUrl(string)
}

// Scope is ScopeSpans or ScopeLogs: the instrumentation scope it describes and its schema URL.
type Scope interface {
	Scope() pcommon.InstrumentationScope
	SchemaUrl() string
	SetSchemaUrl(string)
}

// Slice is a pdata slice of either signal. A generic walk indexes it rather than ranging over its All
// iterator: an iterator's closures, through a generic function, cost allocations per batch.
type Slice[T any] interface {
	Len() int
	At(int) T
}
