#!/usr/bin/env python3
# Copyright The agentotel Authors
# SPDX-License-Identifier: Apache-2.0
"""Splits a system-wide perf profile of the throughput test by collector, as docs/benchmarks.md reports it.

    perf script -i /tmp/perf.data -F comm,pid,ip,sym > /tmp/perf.txt
    scripts/perfsplit.py /tmp/perf.txt                      # samples of each otelcol process, by category
    scripts/perfsplit.py /tmp/perf.txt PID FRAME [DEPTH]    # PID's samples under FRAME, by the frames below it

A sample counts in the first category, in the order of CATEGORIES, that one of its frames matches; the
collector with our processors is the process whose samples reach their processTraces.
"""
import collections
import sys

CATEGORIES = [
    ("agentguard", "processor/agentguard."),
    ("shapeonly", "processor/shapeonly."),
    ("metrics endpoint", "ServeHTTP"),
    ("GC mark workers", "gcBgMarkWorker"),
    ("gzip", "compress/"),
    ("protobuf encoding", "Marshal"),
    ("protobuf decoding", "Unmarshal"),
    ("batch processor", "batchprocessor"),
    ("gRPC", "grpc"),
    ("kernel syscalls", "entry_SYSCALL"),
    ("stack growth", "morestack"),
]


def samples(path):
    """Yields (command, pid, frames from the leaf up) for each sample of a perf script output."""
    with open(path, encoding="utf-8", errors="replace") as f:
        head, frames = None, []
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if head:
                    yield head[0], head[1], frames
                head, frames = None, []
            elif line[0] in " \t":
                parts = line.split(None, 1)
                frames.append(parts[1] if len(parts) > 1 else "?")
            else:
                parts = line.split()
                head = (parts[0], parts[1])
        if head:
            yield head[0], head[1], frames


def by_category(path):
    counts = collections.defaultdict(collections.Counter)
    for comm, pid, frames in samples(path):
        if not comm.startswith("otelcol"):
            continue
        hit = "other"
        for name, pattern in CATEGORIES:
            if any(pattern in fr for fr in frames):
                hit = name
                break
        counts[pid][hit] += 1
    for pid, c in sorted(counts.items(), key=lambda kv: -sum(kv[1].values())):
        print(f"pid {pid}: {sum(c.values())} samples")
        for name, n in c.most_common():
            print(f"  {n:7d}  {name}")


def under(path, pid, frame, depth):
    counts, total = collections.Counter(), 0
    for _, p, frames in samples(path):
        if p != pid:
            continue
        root_first = frames[::-1]
        hits = [i for i, fr in enumerate(root_first) if frame in fr]
        if not hits:
            continue
        total += 1
        below = root_first[hits[-1] + 1 : hits[-1] + 1 + depth]
        counts[" > ".join(below) if below else "(self)"] += 1
    print(f"{total} samples of pid {pid} under {frame}")
    for key, n in counts.most_common(40):
        print(f"  {n:7d}  {key}")


if __name__ == "__main__":
    if len(sys.argv) == 2:
        by_category(sys.argv[1])
    elif len(sys.argv) in (4, 5):
        under(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) == 5 else 1)
    else:
        sys.exit(__doc__)
