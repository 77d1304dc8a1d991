#!/usr/bin/env python3
"""Two single workloads of bench/peers, quick to rerun alone: W13, the boolean filter
`a[a > 0.5].sum()`, and W8, `nanmean(c)` with a tenth of `c` NaN, over 50M float64.

The inputs are written once to /dev/shm as .npy files and mapped by marsc
(`mmap_mode='r'`); NumPy and dask.array get them in memory. marsc is timed by
`run_seconds` of `--stats-json` (all stages of the run, not compiling), the peers by
the call in this process; each is the median of `--repeat` runs.

    python3 bench/filter_nanmean.py --marsc target/release/marsc [--n 50000000]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from peers import median_time  # noqa: E402  (the peers table's own timing)

try:
    import dask.array as da
except ImportError:  # dask is optional: its column says n/a
    da = None


def median_run_seconds(marsc, script_text, repeat, flags=()):
    """The median `run_seconds` of `repeat` runs of the script (with marsc's `flags`)
    and what it printed."""
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "w.mt")
        stats = os.path.join(tmp, "s.json")
        with open(script, "w") as f:
            f.write(script_text)
        times, printed = [], None
        for _ in range(repeat):
            done = subprocess.run([marsc, *flags, "--stats-json", stats, script],
                                  capture_output=True, text=True, check=True)
            printed = done.stdout.strip()
            with open(stats) as f:
                times.append(json.load(f)["run_seconds"])
        return statistics.median(times), printed


def print_table(marsc, workloads, repeat, same, width=24):
    """Times each `(name, script, numpy_fn, dask_fn)` in marsc (`run_seconds`), NumPy and
    dask (if given) and prints one row each with the ratios peer / marsc; marsc's
    printed answer must pass `same(printed, numpy_fn())` first."""
    print(f"{'workload':{width}} {'marsc':>10} {'numpy':>10} {'ratio':>6} {'dask':>10} {'ratio':>6}")
    for name, script, numpy_fn, dask_fn in workloads:
        m, printed = median_run_seconds(marsc, script, repeat)
        expected = numpy_fn()
        if not same(printed, expected):
            raise SystemExit(f"{name}: marsc printed {printed!r}, NumPy {expected!r}")
        t_np = median_time(numpy_fn, repeat)
        t_da = median_time(dask_fn, repeat) if dask_fn else None
        dask_cells = (f"{t_da * 1e3:8.1f}ms {t_da / m:6.2f}" if t_da else f"{'n/a':>10} {'':>6}")
        print(f"{name:{width}} {m * 1e3:8.1f}ms {t_np * 1e3:8.1f}ms {t_np / m:6.2f} {dask_cells}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--marsc", default="target/release/marsc")
    parser.add_argument("--n", type=int, default=50_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    a = rng.random(args.n)
    c = rng.random(args.n)
    c[rng.random(args.n) < 0.1] = np.nan
    paths = {name: f"/dev/shm/marsc_bench_{name}.npy" for name in ("a", "c")}
    np.save(paths["a"], a)
    np.save(paths["c"], c)
    header = "import mars.tensor as mt\n"
    workloads = [
        ("W13 a[a > 0.5].sum()",
         header + f"a = mt.load({paths['a']!r}, mmap_mode='r')\nprint(a[a > 0.5].sum())\n",
         lambda: a[a > 0.5].sum(),
         (lambda d: (lambda: d[d > 0.5].sum().compute()))(da.from_array(a)) if da else None),
        ("W8 nanmean(c)",
         header + f"c = mt.load({paths['c']!r}, mmap_mode='r')\nprint(mt.nanmean(c))\n",
         lambda: np.nanmean(c),
         (lambda d: (lambda: da.nanmean(d).compute()))(da.from_array(c)) if da else None),
    ]
    try:
        print_table(args.marsc, workloads, args.repeat,
                    lambda printed, expected: abs(float(printed) - expected)
                    <= 1e-9 * abs(expected))
    finally:
        for path in paths.values():
            os.remove(path)


if __name__ == "__main__":
    main()
