#!/usr/bin/env python3
"""Issue 19's sorting workloads, side by side with NumPy and dask.array in one run:
W14 `sort` of 50M float64 (marsc: a distributed sort by regular sampling; dask.array
has no sort of a chunked axis, so its column is n/a), W15 `unique` of 50M int64 with
1,000 distinct values, and W16 `median` of 50M float64.

The inputs are written once to /dev/shm as .npy files and mapped by marsc
(`mmap_mode='r'`); NumPy and dask.array get them in memory. marsc is timed by
`run_seconds` of `--stats-json` (all stages of the run, not compiling), the peers by
the call in this process; each is the median of `--repeat` runs. Every marsc answer
is checked against NumPy's before its time is reported.

    python3 bench/sort_unique.py --marsc target/release/marsc [--n 50000000]
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from filter_nanmean import print_table  # noqa: E402

try:
    import dask.array as da
except ImportError:  # dask is optional: its column says n/a
    da = None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--marsc", default="target/release/marsc")
    parser.add_argument("--n", type=int, default=50_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    a = rng.random(args.n)
    u = rng.integers(0, 1000, args.n)
    paths = {name: f"/dev/shm/marsc_bench_sort_{name}.npy" for name in ("a", "u")}
    np.save(paths["a"], a)
    np.save(paths["u"], u)
    load = {name: f"{name} = mt.load({path!r}, mmap_mode='r')\n" for name, path in paths.items()}
    header = "import mars.tensor as mt\n"

    def sort_numpy():
        s = np.sort(a)
        return f"{s[0]} {s[args.n // 2]} {s[-1]}"

    def unique_numpy():
        v = np.unique(u)
        return f"{v.shape} {v.sum()}"

    workloads = [
        ("W14 sort(a)",
         header + load["a"] + f"s = mt.sort(a)\nprint(s[0], s[{args.n // 2}], s[-1])\n",
         sort_numpy, None),
        ("W15 unique(u), 1000 values",
         header + load["u"] + "v = mt.unique(u)\nprint(v.shape, v.sum())\n",
         unique_numpy,
         (lambda d: (lambda: da.unique(d).compute()))(da.from_array(u)) if da else None),
        ("W16 median(a)",
         header + load["a"] + "print(mt.median(a))\n",
         lambda: str(np.median(a)),
         (lambda d: (lambda: da.median(d, axis=0).compute()))(
             da.from_array(a)) if da else None),
    ]
    try:
        print_table(args.marsc, workloads, args.repeat, lambda printed, expected: printed == expected,
                    width=28)
    finally:
        for path in paths.values():
            os.remove(path)


if __name__ == "__main__":
    main()
