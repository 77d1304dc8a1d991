#!/usr/bin/env python3
"""float16 workloads: marsc with its JIT, marsc interpreted (`--no-jit`) and NumPy,
side by side in one run, over two 50M-element float16 arrays (100 MB each; `--n`).

The arrays are written once to /dev/shm as .npy files and mapped by marsc; NumPy gets
them in memory. marsc is timed by `run_seconds` of `--stats-json` (the run, not
compiling), NumPy by the call in this process; each is the median of `--repeat`
runs. marsc's printed answer must equal NumPy's first (float16 results within one
float16 rounding: float16 sums past 8192 elements are rounded per buffer by NumPy, see
docs/language.md), and the saved `sqrt(a*a + b*b)` must equal NumPy's bit for bit
(every element-wise float16 op is rounded to float16, as NumPy's loops do). Ratios are
NumPy / marsc (> 1: marsc faster) and interpreted / JIT.

    python3 bench/float16.py --marsc target/release/marsc [--n 50000000] [--repeat 5]
"""

import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "peers"))
sys.path.insert(0, HERE)
from peers import median_time  # noqa: E402  (the peers table's own timing)
from filter_nanmean import median_run_seconds  # noqa: E402

SAVED = "/dev/shm/marsc_bench_float16_out.npy"


def same(printed, expected):
    try:
        value = float(printed)
    except ValueError:
        return False
    expected = float(expected)
    return value == expected or abs(value - expected) <= 2e-3 * max(1.0, abs(expected))


def saved_equals(expected):
    def check(printed):
        got = np.load(SAVED)
        return got.dtype == np.float16 and np.array_equal(
            got.view(np.uint16), expected.view(np.uint16))
    return check


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--marsc", default="target/release/marsc")
    parser.add_argument("--n", type=int, default=50_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    a = rng.random(args.n, dtype=np.float32).astype(np.float16)
    b = (rng.random(args.n, dtype=np.float32) * 4 - 2).astype(np.float16)
    paths = {"a": "/dev/shm/marsc_bench_float16_a.npy", "b": "/dev/shm/marsc_bench_float16_b.npy"}
    np.save(paths["a"], a)
    np.save(paths["b"], b)
    load = "import mars.tensor as mt\n" + "".join(
        f"{name} = mt.load({path!r}, mmap_mode='r')\n" for name, path in paths.items())
    hyp = np.sqrt(a * a + b * b)
    workloads = [
        # Each compiles to one kernel in float16 lanes (`jit/float16_lanes.rs`): the
        # mean's float32 pairwise sum, the comparison's count, the float32 max.
        ("(a * 2 + 1).mean()", "print((a * 2 + 1).mean())",
         lambda: (a * 2 + 1).mean(), None),
        ("((a * 2 + 1) > 2).sum()", "print(((a * 2 + 1) > 2).sum())",
         lambda: ((a * 2 + 1) > 2).sum(), None),
        ("(a * b).astype(f32).max()", "print((a * b).astype(mt.float32).max())",
         lambda: (a * b).astype(np.float32).max(), None),
        ("save(sqrt(a*a + b*b))", f"mt.save({SAVED!r}, mt.sqrt(a * a + b * b))",
         lambda: np.save(SAVED + ".numpy.npy", np.sqrt(a * a + b * b)), saved_equals(hyp)),
    ]
    width = 28
    print(f"{'workload':{width}} {'marsc':>9} {'no-jit':>9} {'numpy':>9} "
          f"{'np/marsc':>8} {'nojit/jit':>9}")
    try:
        for name, line, numpy_fn, check in workloads:
            script = load + line + "\n"
            expected = numpy_fn()
            jit, printed = median_run_seconds(args.marsc, script, args.repeat)
            ok = check(printed) if check else same(printed, expected)
            interpreted, printed_plain = median_run_seconds(args.marsc, script, args.repeat,
                                                            ["--no-jit"])
            ok = ok and (check(printed_plain) if check else same(printed_plain, expected))
            if not ok:
                raise SystemExit(f"{name}: marsc printed {printed!r} / {printed_plain!r}, "
                                 f"NumPy {expected!r}")
            t_np = median_time(numpy_fn, args.repeat)
            print(f"{name:{width}} {jit * 1e3:7.1f}ms {interpreted * 1e3:7.1f}ms "
                  f"{t_np * 1e3:7.1f}ms {t_np / jit:8.2f} {interpreted / jit:9.2f}")
    finally:
        for path in [*paths.values(), SAVED, SAVED + ".numpy.npy"]:
            if os.path.exists(path):
                os.remove(path)


if __name__ == "__main__":
    main()
