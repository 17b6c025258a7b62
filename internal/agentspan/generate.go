// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// docs/conventions.md is written from Builtin(): see conventionsdoc.
//go:generate go run ./conventionsdoc -root ../..

package agentspan
