// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package walk

import (
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Both signals' containers and slices fit the generic walk's types; a pdata release that renamed one
// of their methods would stop this file compiling.
var (
	_ Resource                 = ptrace.ResourceSpans{}
	_ Resource                 = plog.ResourceLogs{}
	_ Scope                    = ptrace.ScopeSpans{}
	_ Scope                    = plog.ScopeLogs{}
	_ Slice[ptrace.Span]       = ptrace.SpanSlice{}
	_ Slice[plog.LogRecord]    = plog.LogRecordSlice{}
	_ Slice[plog.ScopeLogs]    = plog.ScopeLogsSlice{}
	_ Slice[ptrace.ScopeSpans] = ptrace.ScopeSpansSlice{}
)
