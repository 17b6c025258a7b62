// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"testing"

	"github.com/agentotel/agentotel/internal/configschema"
)

// TestConfigSchemaMatchesConfig: config.schema.yaml names every key Config accepts and no other, with
// its type, its default as createDefaultConfig holds it, and bounds and values Validate agrees with.
func TestConfigSchemaMatchesConfig(t *testing.T) {
	for _, err := range configschema.Check("config.schema.yaml", createDefaultConfig()) {
		t.Error(err)
	}
}
