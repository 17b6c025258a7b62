#!/bin/bash
# Copyright The agentotel Authors
# SPDX-License-Identifier: Apache-2.0
#
# outputs-check.sh OUT [TREE]: what every test of both modules makes the two processors write, as a sorted
# multiset of hashes in OUT, for a refactor that must not change behaviour: run it before and after,
# then diff the two files. TREE is the checkout to measure (this one by default, or a worktree of an
# earlier commit). It copies TREE to a temporary folder, wraps each processor's
# next consumer in the copy (dump.go.txt) so that every batch it passes on is hashed, with ids,
# timestamps and the order of map keys normalised (tests build inputs from Go maps), and runs the
# tests there; the tree itself is not touched. OUT.d keeps each output's JSON by its hash.
set -euo pipefail
OUT=$(realpath -m "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TREE=$(cd "${2:-$ROOT}" && pwd)
W=$(mktemp -d) D=$(mktemp -d)
trap 'rm -rf "$W" "$D"' EXIT
(cd "$TREE" && tar --exclude=./_build --exclude=./.git -cf - .) | (cd "$W" && tar xf -)
for p in shapeonly agentguard; do
  sed "s/PKG/$p/g" "$ROOT/scripts/outputs/dump.go.txt" > "$W/processor/$p/zz_dump.go"
  sed -i 's/cfg, next, \([a-z]*\)\.processTraces/cfg, dumpTraces{next}, \1.processTraces/; s/cfg, next, \([a-z]*\)\.processLogs/cfg, dumpLogs{next}, \1.processLogs/' "$W/processor/$p/factory.go"
  grep -q dumpTraces "$W/processor/$p/factory.go" && grep -q dumpLogs "$W/processor/$p/factory.go" ||
    { echo "processor/$p/factory.go no longer passes 'cfg, next, <p>.processTraces/Logs': update this script" >&2; exit 1; }
done
(cd "$W" && AGENTOTEL_DUMP=$D go test -count=1 ./... > "$OUT.test1.log" 2>&1) || { echo "tests failed (root module): $OUT.test1.log" >&2; }
(cd "$W/test" && AGENTOTEL_DUMP=$D go test -count=1 $(go list ./... | grep -v -e /test/e2e -e /test/dropin -e /test/docs -e /bench) > "$OUT.test2.log" 2>&1) ||
  { echo "tests failed (test module): $OUT.test2.log" >&2; }
rm -rf "$OUT.d" && cp -r "$D" "$OUT.d"
cat "$D"/*.txt | sort | uniq -c > "$OUT"
echo "$(wc -l < "$OUT") distinct outputs in $OUT"
