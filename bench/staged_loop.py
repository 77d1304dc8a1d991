#!/usr/bin/env python3
"""A `while` loop steered by a tensor's value (staged execution), marsc against NumPy
and dask.array in one run.

Each iteration makes a small update of `x` (about ten element-wise operations) and
reads back `err = float(abs(x_new - x).max())`, as a convergence loop does; the loop
runs ITERATIONS times (the test `err >= 0` keeps every iteration a real stage). marsc
runs each value as a stage, reusing the chunks of the stages before it; NumPy runs
the same script eagerly; dask persists `x` each iteration and computes `err`.

What is timed: marsc, the whole process (`marsc script.mt`: start-up, compiling,
every stage), and the same script with 0 iterations; the per-iteration figure is the
difference over ITERATIONS (`whole` shows the whole process per iteration too); the
peers, the loop in this process. Medians of --repeat runs. Ratios are peer / marsc
per iteration (above 1: marsc is faster).

    cargo build --release -p marsc
    python3 bench/staged_loop.py                     # 1,000 and 1,000,000 elements
    python3 bench/staged_loop.py --sizes 1000 --iterations 1000 --repeat 3
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from peers import median_time  # noqa: E402  (the peers table's own timing)

try:
    import dask.array as da
except ImportError:  # the table says n/a
    da = None

BODY = """\
    x_new = mt.sqrt(x * x + 1.0) * 0.5 + x * 0.25 - mt.tanh(x) * 0.125 + 0.01
    err = float(mt.abs(x_new - x).max())
    x = x_new
    it += 1
"""

SCRIPT = """\
import mars.tensor as mt
x = mt.linspace(0.0, 1.0, {n}{chunks})
err = 1.0
it = 0
while it < {iterations} and err >= 0:
{body}print(it, err, x.sum())
"""


def marsc_script(n, iterations):
    # Big tensors in chunks of 128K elements, so both workers share each stage.
    chunks = f", chunks={max(n // 8, 1)}" if n >= 1_000_000 else ""
    return SCRIPT.format(n=n, chunks=chunks, iterations=iterations, body=BODY)


def numpy_loop(n, iterations):
    x = np.linspace(0.0, 1.0, n)
    err, it = 1.0, 0
    while it < iterations and err >= 0:
        x_new = np.sqrt(x * x + 1.0) * 0.5 + x * 0.25 - np.tanh(x) * 0.125 + 0.01
        err = float(np.abs(x_new - x).max())
        x = x_new
        it += 1
    return it, err, x.sum()


def dask_loop(n, iterations):
    x = da.linspace(0.0, 1.0, n, chunks=max(n // 8, 1)).persist()
    err, it = 1.0, 0
    while it < iterations and err >= 0:
        x_new = (da.sqrt(x * x + 1.0) * 0.5 + x * 0.25 - da.tanh(x) * 0.125 + 0.01).persist()
        err = float(abs(x_new - x).max().compute())
        x = x_new
        it += 1
    return it, err, float(x.sum().compute())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--marsc", default="target/release/marsc")
    parser.add_argument("--sizes", default="1000,1000000")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if not os.path.exists(args.marsc):
        sys.exit(f"{args.marsc} not found: cargo build --release -p marsc")
    print(f"{'elements':>10} {'marsc/iter':>12} {'(whole)':>12} {'numpy/iter':>12} "
          f"{'dask/iter':>12} {'numpy/marsc':>12} {'dask/marsc':>11}")
    for n in [int(s) for s in args.sizes.split(",")]:
        with tempfile.NamedTemporaryFile("w", suffix=".mt", delete=False) as f:
            f.write(marsc_script(n, args.iterations))
            path = f.name
        with tempfile.NamedTemporaryFile("w", suffix=".mt", delete=False) as f:
            f.write(marsc_script(n, 0))
            empty = f.name
        try:
            out = subprocess.run([args.marsc, path], capture_output=True, text=True)
            if out.returncode != 0:
                sys.exit(f"marsc failed:\n{out.stderr}")
            expected = numpy_loop(n, args.iterations)
            shown = out.stdout.split()
            if int(shown[0]) != expected[0]:
                sys.exit(f"marsc ran {shown[0]} iterations, NumPy {expected[0]}")
            if not np.isclose(float(shown[2]), expected[2], rtol=1e-9):
                sys.exit(f"marsc's sum {shown[2]} differs from NumPy's {expected[2]}")
            t_whole = median_time(
                lambda: subprocess.run([args.marsc, path], capture_output=True, check=True),
                args.repeat,
            )
            t_start = median_time(
                lambda: subprocess.run([args.marsc, empty], capture_output=True, check=True),
                args.repeat,
            )
            t_marsc = max(t_whole - t_start, 1e-9)
        finally:
            os.unlink(path)
            os.unlink(empty)
        t_numpy = median_time(lambda: numpy_loop(n, args.iterations), args.repeat)
        t_dask = median_time(lambda: dask_loop(n, args.iterations), args.repeat) if da else None
        per = lambda t: f"{t / args.iterations * 1e6:10.1f}us"
        dask_cells = (per(t_dask), f"{t_dask / t_marsc:11.2f}") if t_dask else ("n/a", "n/a")
        print(f"{n:>10} {per(t_marsc):>12} {per(t_whole):>12} {per(t_numpy):>12} "
              f"{dask_cells[0]:>12} {t_numpy / t_marsc:12.2f} {dask_cells[1]:>11}")


if __name__ == "__main__":
    main()
