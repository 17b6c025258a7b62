// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package agentgen

import (
	"fmt"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// writer turns the neutral description of a run into one convention's spans.
// layout owns structure (ids, parentage, timing, status); a writer owns names,
// kinds and attributes, so a convention is one file and nothing else.
type writer interface {
	scope() string
	agent(s ptrace.Span, r runInfo)
	model(s ptrace.Span, r runInfo, t turn)
	tool(s ptrace.Span, r runInfo, c call)
}

func writerFor(c Convention) (writer, error) {
	switch c {
	case "", GenAI:
		return genaiWriter{}, nil
	case OpenInference:
		return openinferenceWriter{}, nil
	case Vercel:
		return vercelWriter{}, nil
	case OpenLLMetry:
		return openllmetryWriter{}, nil
	case Unknown:
		return unknownWriter{}, nil
	}
	return nil, fmt.Errorf("unknown convention %q (allowed: %v)", c, append(Conventions(), Unknown))
}
