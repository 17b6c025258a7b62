# Copyright The agentotel Authors
# SPDX-License-Identifier: Apache-2.0

# otelcol-agent: the collector distribution with agentotel's processors.
SHELL := /bin/bash
GO ?= go
GOBIN := $(shell $(GO) env GOPATH)/bin
BUILDER := $(GOBIN)/builder
BUILDER_VERSION := v0.161.0
COLLECTOR := _build/otelcol-agent
STATICCHECK := $(GO) tool -modfile=$(CURDIR)/internal/tools/go.mod staticcheck
COMPONENTS := processor/shapeonly processor/agentguard
GENERATED = $(shell find $(COMPONENTS) -path '*/internal/metadata*' -name '*.go'; ls $(addsuffix /generated_*_test.go,$(COMPONENTS)) $(addsuffix /documentation.md,$(COMPONENTS))) docs/conventions.md
# The distribution builds from the processors' module; test/ is a second module holding the suites
# and tools that need heavy dependencies (Prometheus, Grafana's SDK, contrib processors, gRPC), the demo's
# CLIs in test/cmd among them, so a user who adds our processors to their own build does not pull those in.
SOURCES := $(shell find . -name '*.go' -not -path './_build/*' -not -path './test/*') go.mod go.sum builder-config.yaml
TEST := cd test &&

.PHONY: all tools build run test vet unit rules e2e bench bench-e2e fixtures generate check-generate dashboards clean

all: build

## tools: install the collector builder (ocb) when it is missing.
tools: $(BUILDER)

$(BUILDER):
	$(GO) install go.opentelemetry.io/collector/cmd/builder@$(BUILDER_VERSION)

## build: the otelcol-agent distribution in _build/.
build: $(COLLECTOR)

$(COLLECTOR): $(BUILDER) $(SOURCES)
	$(BUILDER) --config builder-config.yaml

## run: start the collector on deploy/otelcol-agent.yaml, send the sample agent traces, print a summary.
run: build
	@./scripts/run-demo.sh

## test: vet and staticcheck, the generated-code check, unit tests with the race detector (both modules), the
## alert-rule tests, and the end-to-end tests against the built distribution (with a real Prometheus,
## and a second distribution built from the README's drop-in snippet).
test: vet check-generate unit rules e2e

## vet: go vet and staticcheck (pinned in internal/tools) over both modules.
vet:
	$(GO) vet ./...
	$(TEST) $(GO) vet ./... && $(GO) vet -tags scale ./scale/
	$(STATICCHECK) ./...
	$(TEST) $(STATICCHECK) ./... && $(STATICCHECK) -tags scale ./scale/

unit:
	$(GO) test -race -count=1 ./...
	$(TEST) $(GO) test -race -count=1 $$($(GO) list ./... | grep -v -e /test/e2e -e /test/dropin -e /test/docs)

## rules: promtool checks and unit tests of the Prometheus alert rules.
rules:
	./deploy/prometheus/test-rules.sh

e2e: build
	$(TEST) $(GO) test -count=1 -timeout 20m ./e2e/... ./docs/... ./dropin/...

## fixtures: re-capture testdata/sdk from the real agent SDKs (needs npm; the tests only read the files).
fixtures:
	./testdata/sdk/capture.sh

## bench: the micro-benchmarks, six runs each, in a benchstat-ready file.
bench:
	{ $(GO) test -run='^$$' -bench=. -benchmem -count=6 ./... && \
	  $(TEST) $(GO) test -run='^$$' -bench=. -benchmem -count=6 ./...; } | tee bench.out

## bench-e2e: the scale-out and throughput tests on loopback collectors (not part of make test):
## three tier-2 collectors behind load_balancing, a node lost under load, with and without our
## processors, and RSS under a flood of runs. Figures: docs/benchmarks.md and docs/scaling.md.
bench-e2e: build
	$(TEST) $(GO) test -tags scale -count=1 -v -timeout 30m ./scale/

## dashboards: regenerate the Grafana dashboard from test/dashboards (a test fails while it is stale).
dashboards:
	$(TEST) $(GO) run ./dashboards -out ../deploy/grafana/dashboards/agentotel.json

## generate: regenerate mdatagen code from each metadata.yaml, and docs/conventions.md from the registry.
generate:
	$(GO) generate ./processor/... ./internal/agentspan/...

## check-generate: fail when regenerating would change a committed file.
check-generate:
	@before=$$(sha256sum $(GENERATED)); \
	$(MAKE) --no-print-directory generate >/dev/null; \
	after=$$(sha256sum $(GENERATED)); \
	if [ "$$before" != "$$after" ]; then diff <(echo "$$before") <(echo "$$after"); \
		echo "generated code is stale: run make generate and commit"; exit 1; fi

clean:
	rm -rf _build bench.out
