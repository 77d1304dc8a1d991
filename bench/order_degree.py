#!/usr/bin/env python3
"""Times `marsc order` on DAGs where one node has a huge in-degree (or out-degree), the
shape that was quadratic (issue 17, item 13: 20k/40k/80k dependencies took
0.7/1.5/6.8 s, 300k took 67 s). Every row should grow linearly with the degree.

    cargo build --release -p marsc
    python3 bench/order_degree.py                       # fan-in and fan-out, 20k..300k
    python3 bench/order_degree.py --marsc target/debug/marsc --sizes 20000 80000
    python3 bench/order_degree.py --write 300000 > /tmp/fanin.dag   # the file alone

Shapes: `fanin` (N roots, one sink reading all of them: in-degree N), `fanout` (one
root read by N sinks), `both` (N roots, N sinks each reading every root is too big,
so: N roots -> one hub -> N sinks).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def dag_text(shape, n):
    lines = []
    if shape == "fanin":
        lines += [f"r{i}:" for i in range(n)]
        lines.append("sink: " + " ".join(f"r{i}" for i in range(n)))
    elif shape == "fanout":
        lines.append("root:")
        lines += [f"s{i}: root" for i in range(n)]
    elif shape == "both":
        lines += [f"r{i}:" for i in range(n)]
        lines.append("hub: " + " ".join(f"r{i}" for i in range(n)))
        lines += [f"s{i}: hub" for i in range(n)]
    else:
        raise ValueError(shape)
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--marsc", default=os.path.join(ROOT, "target/release/marsc"))
    parser.add_argument("--sizes", type=int, nargs="+",
                        default=[20_000, 40_000, 80_000, 300_000])
    parser.add_argument("--shapes", nargs="+", default=["fanin", "fanout", "both"])
    parser.add_argument("--write", type=int, metavar="N",
                        help="print the fan-in DAG of N dependencies and exit")
    args = parser.parse_args()
    if args.write is not None:
        sys.stdout.write(dag_text("fanin", args.write))
        return
    print(f"{'shape':8} {'degree':>8} {'seconds':>8}")
    for shape in args.shapes:
        for n in args.sizes:
            with tempfile.NamedTemporaryFile("w", suffix=".dag", delete=False) as f:
                f.write(dag_text(shape, n))
                path = f.name
            try:
                start = time.monotonic()
                done = subprocess.run([args.marsc, "order", path],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                seconds = time.monotonic() - start
            finally:
                os.unlink(path)
            status = "" if done.returncode == 0 else f"  exit {done.returncode}: {done.stderr[:200]!r}"
            print(f"{shape:8} {n:>8} {seconds:>8.3f}{status}", flush=True)


if __name__ == "__main__":
    main()
