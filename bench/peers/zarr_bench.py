#!/usr/bin/env python3
"""marsc against dask.array + zarr-python on a 2 GB blosc-lz4 Zarr array, in one run.

Issue 23's benchmark. Makes (once, cached) a float64 Zarr v3 array of 16384 x 16384
(2 GiB) in 1024 x 1024 chunks compressed with blosc-lz4 (byte shuffle, level 5) by
zarr-python, then times, in marsc and in dask.array (threaded scheduler):

- R: read + `(x * 2 + 1).mean(axis=0)`;
- W: read + write `x * 2 + 1` to a new Zarr store with the same chunks and codec.

Each run is its own process, so each has its own peak RSS (`/usr/bin/time -f %M`).
marsc runs also with `--memory-limit` (bounded memory) and with `--chunk-bytes 16MiB`
(chunks nearer dask's, which are the store's 8 MiB chunks). The times: the wall time of the marsc process (and its `run_seconds` from `--stats-json`), and
the time of the timed call in the dask process (`.compute()` / `da.to_zarr`, after
`da.from_zarr`), without its interpreter start-up and imports. The outputs are
checked against each other: the means within 1e-12 relative, the written stores
decoded element for element. Started by `bench/peers/run.sh zarr` (which makes the
virtualenv with zarr and dask); see README.md.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

SIDE = 16384
CHUNK = 1024
HEADER = "import mars.tensor as mt\n"

# The dask side of one run, in its own process: argv = kind, input, output, workers.
DASK_CHILD = r"""
import json, resource, sys, time
import dask, dask.array as da, numpy as np, zarr
from zarr.codecs import BloscCodec
kind, src, out, workers = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
dask.config.set(scheduler="threads", num_workers=workers)
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
x = da.from_zarr(src)
y = x * 2 + 1
if kind == "mean":
    np.save(out, y.mean(axis=0).compute())
else:
    z = zarr.create_array(out, shape=x.shape, chunks=x.chunksize, dtype=x.dtype,
                          compressors=BloscCodec(cname="lz4", clevel=5, shuffle="shuffle"),
                          overwrite=True)
    da.to_zarr(y, z)
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "import_rss_kib": base}))
"""


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run_child(argv, workdir):
    """Runs `argv` under `/usr/bin/time -f %M`; returns (wall seconds, peak RSS in MiB,
    stdout). (Not this process's `wait4`: on Linux a forked child starts with its
    parent's RSS as its high-water mark.)"""
    rss_file = os.path.join(workdir, "rss.txt")
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file] + argv,
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(argv)}\n{done.stderr}")
    with open(rss_file) as f:
        rss_kib = int(f.read().split()[-1])
    return wall, rss_kib / 1024, done.stdout


def make_input(path):
    """The input array, written once: a smooth field plus noise rounded to 0.01,
    as a measured quantity would be (blosc-lz4 with byte shuffle compresses it)."""
    import zarr
    from zarr.codecs import BloscCodec

    if os.path.exists(os.path.join(path, "zarr.json")):
        z = zarr.open_array(path, mode="r")
        if z.shape == (SIDE, SIDE) and z.chunks == (CHUNK, CHUNK) and z.dtype == np.float64:
            return
        sys.exit(f"{path} holds another array; remove it")
    print(f"making the input {path} (once) ...", flush=True)
    partial = path + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    z = zarr.create_array(partial, shape=(SIDE, SIDE), chunks=(CHUNK, CHUNK), dtype="f8",
                          compressors=BloscCodec(cname="lz4", clevel=5, shuffle="shuffle"))
    rng = np.random.default_rng(0)
    cols = np.sin(np.linspace(0, 8 * np.pi, SIDE))
    for start in range(0, SIDE, CHUNK):
        rows = np.cos(np.linspace(0, 4 * np.pi, SIDE)[start:start + CHUNK])[:, None]
        block = 15 + 10 * rows * cols + rng.standard_normal((CHUNK, SIDE))
        z[start:start + CHUNK] = np.round(block, 2)
    os.rename(partial, path)


def store_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def marsc_script(kind, src, out):
    body = HEADER + f"x = mt.fromzarr({src!r})\ny = x * 2 + 1\n"
    if kind == "mean":
        return body + f"mt.save({out!r}, y.mean(axis=0))\n"
    return body + f"mt.tozarr({out!r}, y, chunks=({CHUNK}, {CHUNK}), compressor='blosc-lz4')\n"


def remove(path):
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)


def time_marsc(args, kind, src, out, workdir, extra=()):
    script = os.path.join(workdir, f"{kind}.mt")
    stats = os.path.join(workdir, "stats.json")
    with open(script, "w") as f:
        f.write(marsc_script(kind, src, out))
    argv = [args.marsc, "--quiet", "--workers", str(args.workers), "--stats-json", stats]
    argv += list(extra)
    runs = []
    for _ in range(args.repeat):
        remove(out)
        wall, rss, _ = run_child(argv + [script], workdir)
        with open(stats) as f:
            figures = json.load(f)
        runs.append((wall, figures["run_seconds"], rss))
    return runs


def time_dask(args, kind, src, out, workdir):
    child = os.path.join(workdir, "dask_child.py")
    with open(child, "w") as f:
        f.write(DASK_CHILD)
    runs = []
    for _ in range(args.repeat):
        remove(out)
        _, rss, text = run_child([sys.executable, child, kind, src, out, str(args.workers)],
                                 workdir)
        figures = json.loads(text.strip().splitlines()[-1])
        runs.append((figures["seconds"], figures["seconds"], rss, figures["import_rss_kib"] / 1024))
    return runs


def check_means(marsc_out, dask_out):
    a, b = np.load(marsc_out), np.load(dask_out)
    rel = np.max(np.abs(a - b) / np.abs(b))
    return rel <= 1e-12, f"means: max relative difference {rel:.1e}"


def check_stores(marsc_out, dask_out):
    import zarr

    a, b = zarr.open_array(marsc_out, mode="r"), zarr.open_array(dask_out, mode="r")
    def codecs(z):
        return ", ".join(
            f"blosc-{c.cname.value} {c.shuffle.value} level {c.clevel}" if hasattr(c, "cname")
            else type(c).__name__ for c in z.metadata.codecs)

    if a.shape != b.shape or a.chunks != b.chunks or a.dtype != b.dtype:
        return False, f"stores differ: {a.shape} {a.chunks} {a.dtype} vs {b.shape} {b.chunks} {b.dtype}"
    for start in range(0, a.shape[0], CHUNK):
        if not np.array_equal(a[start:start + CHUNK], b[start:start + CHUNK]):
            return False, f"stores differ in rows {start}..{start + CHUNK}"
    return True, (f"stores equal element for element ({store_bytes(marsc_out) / 1e9:.2f} GB "
                  f"marsc, {store_bytes(dask_out) / 1e9:.2f} GB dask); codecs: marsc "
                  f"{codecs(a)}; dask {codecs(b)}")


def input_dir_default():
    """/dev/shm if it has room for the input and two outputs, else target/."""
    need = 3 * SIDE * SIDE * 8 + (1 << 30)
    if os.path.isdir("/dev/shm") and shutil.disk_usage("/dev/shm").free > need:
        return "/dev/shm"
    return os.path.join(os.path.dirname(__file__), "..", "..", "target")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--marsc", required=True, help="the marsc binary (release build)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="256MiB",
                        help="marsc's --memory-limit for the bounded row (default 256MiB; '' for none)")
    parser.add_argument("--chunk-bytes", default="16MiB",
                        help="marsc's --chunk-bytes for a row with chunks nearer dask's "
                             "(default 16MiB; '' for none)")
    parser.add_argument("--input-dir", default=None,
                        help="where the input (kept) and the outputs go (default /dev/shm "
                             "if it has room, else target/)")
    parser.add_argument("--only", choices=["mean", "write"], help="run one workload")
    args = parser.parse_args()
    input_dir = os.path.abspath(args.input_dir or input_dir_default())
    src = os.path.join(input_dir, f"marsc_zarr_bench_{SIDE}x{SIDE}_blosc_lz4.zarr")
    make_input(src)
    print(f"input: {src}: {SIDE}x{SIDE} float64 ({SIDE * SIDE * 8 / 1e9:.2f} GB), "
          f"chunks {CHUNK}x{CHUNK}, blosc-lz4 shuffle: {store_bytes(src) / 1e9:.2f} GB on disk")
    print(f"workers: {args.workers}; medians of {args.repeat} runs; each run its own process; "
          "ratio = dask / marsc (above 1: marsc is faster)\n")
    print(f"{'workload':24} {'tool':28} {'median s':>9} {'run_s':>7} {'peak RSS':>10} "
          f"{'ratio':>6} {'load start-end':>15}")
    kinds = [args.only] if args.only else ["mean", "write"]
    checks = []
    with tempfile.TemporaryDirectory() as workdir:
        for kind in kinds:
            name = "R (x*2+1).mean(axis=0)" if kind == "mean" else "W x*2+1 to a new Zarr"
            ext = ".npy" if kind == "mean" else ".zarr"
            variants = [("marsc", [])]
            if args.memory_limit:
                variants.append((f"marsc --memory-limit {args.memory_limit}",
                                 ["--memory-limit", args.memory_limit]))
            if args.chunk_bytes:
                variants.append((f"marsc --chunk-bytes {args.chunk_bytes}",
                                 ["--chunk-bytes", args.chunk_bytes]))
            outs = {tool: os.path.join(input_dir, f"marsc_zarr_bench_out_{i}{ext}")
                    for i, tool in enumerate(["dask"] + [v[0] for v in variants])}
            timers = [(variants[0][0], variants[0][1]), ("dask", None)] + variants[1:]
            rows, notes, pending = [], [], {t for t, _ in variants}
            check = check_means if kind == "mean" else check_stores
            for tool, extra in timers:
                before = load_average()
                if extra is None:
                    runs = time_dask(args, kind, src, outs[tool], workdir)
                else:
                    runs = time_marsc(args, kind, src, outs[tool], workdir, extra)
                after = load_average()
                wall = statistics.median(r[0] for r in runs)
                run_s = statistics.median(r[1] for r in runs)
                rss = max(r[2] for r in runs)
                extra_text = ""
                if tool == "dask":
                    extra_text = f" (after imports {statistics.median(r[3] for r in runs):.0f} MiB)"
                rows.append((tool, wall, run_s, rss, before, after, extra_text))
                # Check each marsc output against dask's as soon as both exist, then
                # drop it (at most the input and two outputs on disk at once).
                ready = [t for t, _ in variants if t in pending and os.path.exists(outs[t])]
                for done in ready if os.path.exists(outs["dask"]) else []:
                    ok, text = check(outs[done], outs["dask"])
                    checks.append(ok)
                    notes.append(f"  check {done} vs dask: {'ok' if ok else 'MISMATCH'}: {text}")
                    remove(outs[done])
                    pending.discard(done)
            for tool, wall, run_s, rss, before, after, extra in rows:
                ratio = f"{rows[1][1] / wall:6.2f}" if tool != "dask" else f"{'':>6}"
                run_text = f"{run_s:7.2f}" if tool != "dask" else f"{'':>7}"
                print(f"{name:24} {tool:28} {wall:9.2f} {run_text} {rss:7.0f} MiB {ratio} "
                      f"{before:7.2f}-{after:<7.2f}{extra}", flush=True)
            for note in notes:
                print(note)
            for out in outs.values():
                remove(out)
    print("\nmarsc's time: the wall time of its process (run_s: run_seconds of --stats-json, "
          "execution only); dask's: from da.from_zarr to the end of .compute()/da.to_zarr in "
          "its process. Peak RSS: the largest of the runs' (/usr/bin/time %M).")
    if not all(checks):
        sys.exit("the outputs do not agree")


if __name__ == "__main__":
    main()
