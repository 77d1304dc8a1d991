#!/usr/bin/env python3
"""Per-chunk cost of compiling and running a huge trivial graph (issue 24).

Runs `x = mt.ones(SHAPE, chunks=1); print((x + 1).sum())` with one or more marsc
binaries (e.g. before and after a change), each size `--repeat` times, alternating
the binaries run by run so that a noisy machine hits them alike, and prints per
binary and size the medians of: compile ns per chunk (everything before the first
subtask runs: `compile_seconds` of `--stats-json`), run ns per subtask
(`run_seconds`), peak RSS bytes per chunk (the whole process, from `wait4`), and each
compiler pass's ns per chunk.

    cargo build --release -p marsc
    python3 bench/chunks_scale.py --marsc target/release/marsc \
        [--marsc OTHER_BINARY] [--sizes 1000x300,1000x1000,10000x1000] [--repeat 5]

`1000x300` is about 1 M chunks, `1000x1000` 3.3 M, `10000x1000` 33 M (the graph has
3.3 chunks per element: the ones, the sums and the tree that combines them).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

PASSES = ["tile", "fuse", "schedule", "plan", "jit"]


def run_once(marsc, shape, workers):
    """One whole-process run: its --stats-json figures and peak RSS in bytes."""
    rows, cols = shape
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "big.mt")
        stats = os.path.join(tmp, "stats.json")
        with open(script, "w") as f:
            f.write(
                "import mars.tensor as mt\n"
                f"x = mt.ones(({rows}, {cols}), chunks=1)\n"
                "print((x + 1).sum())\n"
            )
        proc = subprocess.Popen(
            [marsc, "--workers", str(workers), "--stats-json", stats, script],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        out = proc.stdout.read().decode()
        err = proc.stderr.read().decode()
        proc.stdout.close()
        proc.stderr.close()
        if status != 0:
            sys.exit(f"{marsc} failed on {rows}x{cols}: {err.strip()}")
        expected = float(2 * rows * cols)
        if float(out.strip()) != expected:
            sys.exit(f"{marsc} printed {out.strip()} for {rows}x{cols}, not {expected}")
        with open(stats) as f:
            figures = json.load(f)
        figures["rss_bytes"] = usage.ru_maxrss * 1024
        return figures


def summarize(runs):
    chunks = runs[0]["chunks"]
    subtasks = runs[0]["subtasks"]
    med = lambda values: statistics.median(values)
    row = {
        "chunks": chunks,
        "subtasks": subtasks,
        "compile_ns_per_chunk": med([r["compile_seconds"] for r in runs]) * 1e9 / chunks,
        "run_ns_per_subtask": med([r["run_seconds"] for r in runs]) * 1e9 / subtasks,
        "rss_bytes_per_chunk": med([r["rss_bytes"] for r in runs]) / chunks,
    }
    for name in PASSES:
        seconds = [
            next((p["seconds"] for p in r.get("passes", []) if p["pass"] == name), 0.0)
            for r in runs
        ]
        row[name] = med(seconds) * 1e9 / chunks
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--marsc", action="append", required=True,
                        help="a marsc binary (give several to compare)")
    parser.add_argument("--sizes", default="1000x300,1000x1000",
                        help="comma-separated ROWSxCOLS (default 1000x300,1000x1000)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    print(f"| binary | chunks | subtasks | compile ns/chunk | run ns/subtask | "
          f"peak RSS B/chunk | {' | '.join(p + ' ns/chunk' for p in PASSES)} |")
    print("|---" * (6 + len(PASSES)) + "|")
    for shape in sizes:
        runs = {marsc: [] for marsc in args.marsc}
        for _ in range(args.repeat):
            for marsc in args.marsc:
                runs[marsc].append(run_once(marsc, shape, args.workers))
        for marsc in args.marsc:
            row = summarize(runs[marsc])
            passes = " | ".join(f"{row[p]:.0f}" for p in PASSES)
            print(f"| {marsc} | {row['chunks']:,} | {row['subtasks']:,} | "
                  f"{row['compile_ns_per_chunk']:.0f} | {row['run_ns_per_subtask']:.0f} | "
                  f"{row['rss_bytes_per_chunk']:.0f} | {passes} |", flush=True)


if __name__ == "__main__":
    main()
