// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"github.com/agentotel/agentotel/internal/sharedcomponent"
)

// memories: the traces and logs processors of one configured shapeonly share their memory, so a call
// classed on a tool span is withheld in a gen_ai.tool.message log record too.
var memories = sharedcomponent.NewMap[*Config, *memory]()
