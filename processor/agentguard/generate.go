// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

//go:generate go tool -modfile=../../internal/tools/go.mod mdatagen metadata.yaml

package agentguard
