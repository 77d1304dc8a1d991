#!/usr/bin/env python3
"""uint8 image workloads: marsc with its JIT, marsc interpreted (`--no-jit`) and NumPy,
side by side in one run, over an 8000 x 8000 uint8 image (64 MB; `--side`).

The image is written once to /dev/shm as a .npy file and mapped by marsc; NumPy gets
it in memory. marsc is timed by `run_seconds` of `--stats-json` (the run, not
compiling), NumPy by the call in this process; each is the median of `--repeat`
runs, and marsc's printed answer must equal NumPy's first. Ratios are NumPy / marsc
(> 1: marsc faster) and interpreted / JIT.

    python3 bench/uint8_image.py --marsc target/release/marsc [--side 8000] [--repeat 5]
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


def same(printed, expected):
    try:
        value = float(printed)
    except ValueError:
        return False
    return abs(value - float(expected)) <= 1e-5 * max(1.0, abs(float(expected)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--marsc", default="target/release/marsc")
    parser.add_argument("--side", type=int, default=8000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, size=(args.side, args.side), dtype=np.uint8)
    path = "/dev/shm/marsc_bench_uint8_image.npy"
    np.save(path, img)
    load = f"import mars.tensor as mt\nimg = mt.load({path!r}, mmap_mode='r')\n"
    workloads = [
        ("img.sum() (uint64)", "print(img.sum())", lambda: img.sum()),
        ("(img > 128).sum()", "print((img > 128).sum())", lambda: (img > 128).sum()),
        ("(255 - img).max(axis=0).sum()", "print((255 - img).max(axis=0).sum())",
         lambda: (255 - img).max(axis=0).sum()),
        ("(img / 255).mean()", "print((img / 255).mean())", lambda: (img / 255).mean()),
        ("(img.astype(f32) * 2 + 1).max()",
         "print((img.astype(mt.float32) * 2 + 1).max())",
         lambda: (img.astype(np.float32) * 2 + 1).max()),
    ]
    width = 32
    print(f"{'workload':{width}} {'marsc':>9} {'no-jit':>9} {'numpy':>9} "
          f"{'np/marsc':>8} {'nojit/jit':>9}")
    try:
        for name, line, numpy_fn in workloads:
            script = load + line + "\n"
            jit, printed = median_run_seconds(args.marsc, script, args.repeat)
            interpreted, printed_plain = median_run_seconds(args.marsc, script, args.repeat,
                                                            ["--no-jit"])
            expected = numpy_fn()
            for got in (printed, printed_plain):
                if not same(got, expected):
                    raise SystemExit(f"{name}: marsc printed {got!r}, NumPy {expected!r}")
            t_np = median_time(numpy_fn, args.repeat)
            print(f"{name:{width}} {jit * 1e3:7.1f}ms {interpreted * 1e3:7.1f}ms "
                  f"{t_np * 1e3:7.1f}ms {t_np / jit:8.2f} {interpreted / jit:9.2f}")
    finally:
        os.remove(path)


if __name__ == "__main__":
    main()
