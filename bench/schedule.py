#!/usr/bin/env python3
"""Measures what each scheduling pass buys: runs the examples and a few large graphs
under every combination of fusion (fused / --no-fuse), worker assignment
(--assign bfs|round-robin|random) and execution order (--order priority|bfs), and
prints one table row per run: subtasks, transfer_bytes, peak_live_chunks and
run_seconds (read from --stats-json).

    cargo build --release -p marsc
    python3 bench/schedule.py                 # every example and large graph
    python3 bench/schedule.py --only tree     # the scripts whose name contains "tree"
    python3 bench/schedule.py --workers 4 --markdown

A switch the binary does not know yet is reported as a failed row rather than
stopping the table.
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Large graphs written for this benchmark: (name, script).
LARGE = [
    (
        # The seed's example, large: 400 leaves of two random chunks each.
        "tree_reduction",
        "import mars.tensor as mt\n"
        "a = mt.random.rand(4_000_000, chunks=10_000)\n"
        "b = mt.random.rand(4_000_000, chunks=10_000)\n"
        "print((a + b).sum())\n",
    ),
    (
        # The same tree, but every leaf also reads the shared scalars 2 and 1.
        "tree_reduction_scalars",
        "import mars.tensor as mt\n"
        "x = mt.random.rand(4_000_000, chunks=10_000)\n"
        "print((x * 2 + 1).sum())\n",
    ),
    (
        "elementwise_chains",
        "import mars.tensor as mt\n"
        "a = mt.random.rand(2000, 2000, chunks=250)\n"
        "b = mt.random.rand(2000, 2000, chunks=250)\n"
        "c = mt.sqrt(mt.abs(mt.sin(a) * 3 - b) + 2)\n"
        "print(mt.exp(-c).sum())\n",
    ),
    (
        "matmul",
        "import mars.tensor as mt\n"
        "a = mt.random.rand(1200, 1200, chunks=200)\n"
        "b = mt.random.rand(1200, 1200, chunks=200)\n"
        "print(((a + 1) @ (b * 2)).sum())\n",
    ),
]

FUSE = [("fused", []), ("unfused", ["--no-fuse"])]
ASSIGN = ["bfs", "round-robin", "random"]
ORDER = ["priority", "bfs"]
COLUMNS = ["script", "fuse", "assign", "order", "subtasks", "transfer_bytes",
           "peak_live_chunks", "run_seconds"]


def scripts(only):
    examples = os.path.join(ROOT, "examples")
    found = [(name[:-3], os.path.join(examples, name))
             for name in sorted(os.listdir(examples)) if name.endswith(".mt")]
    tmp = tempfile.mkdtemp(prefix="marsc-bench-")
    for name, text in LARGE:
        path = os.path.join(tmp, name + ".mt")
        with open(path, "w") as f:
            f.write(text)
        found.append((name, path))
    return [(n, p) for n, p in found if only is None or only in n]


def run(binary, path, workers, switches):
    with tempfile.NamedTemporaryFile(suffix=".json") as stats:
        command = [binary, path, "--quiet", "--workers", str(workers),
                   "--stats-json", stats.name] + switches
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            return None, done.stderr.strip().splitlines()[-1:] or ["failed"]
        with open(stats.name) as f:
            return json.load(f), None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "target/release/marsc"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", help="run only scripts whose name contains this")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"{args.binary} is missing: cargo build --release -p marsc")
    rows = []
    for (name, path), (fuse, fuse_switch), assign, order in itertools.product(
            scripts(args.only), FUSE, ASSIGN, ORDER):
        switches = fuse_switch + ["--assign", assign, "--order", order]
        stats, error = run(args.binary, path, args.workers, switches)
        row = [name, fuse, assign, order]
        if stats is None:
            row += ["error: " + " ".join(error), "", "", ""]
        else:
            row += [str(stats["subtasks"]), str(stats["transfer_bytes"]),
                    str(stats["peak_live_chunks"]), f"{stats['run_seconds']:.3f}"]
        rows.append(row)
        print_row(row, args.markdown, first=len(rows) == 1)
    return 0


def print_row(row, markdown, first):
    widths = [20, 8, 11, 8, 9, 15, 17, 11]
    if markdown:
        if first:
            print("| " + " | ".join(COLUMNS) + " |")
            print("|" + "---|" * len(COLUMNS))
        print("| " + " | ".join(row) + " |", flush=True)
    else:
        if first:
            print("  ".join(c.ljust(w) for c, w in zip(COLUMNS, widths)))
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)), flush=True)


if __name__ == "__main__":
    sys.exit(main())
