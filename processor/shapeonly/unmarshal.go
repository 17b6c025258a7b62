// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"go.opentelemetry.io/collector/confmap"

	"github.com/agentotel/agentotel/internal/confighint"
)

// Unmarshal decodes the configuration exactly as the collector would without this method, and when
// that fails, names each unknown key with the nearest valid one and each wrong value with what is
// expected and an example.
func (c *Config) Unmarshal(conf *confmap.Conf) error {
	// plainConfig has Config's fields and tags but not this method, so decoding into it does not call
	// back here.
	type plainConfig Config
	return confighint.Unmarshal(conf, (*plainConfig)(c))
}
