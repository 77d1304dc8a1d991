#!/usr/bin/env python3
"""marsc against the tools its users would otherwise pick, in one run.

Runs workloads W1-W13 (issues 6, 19 and 20) in marsc (the CLI, `run_seconds` from --stats-json),
NumPy, numexpr and dask.array (in this process, inputs already in memory), prints
the median of each and marsc's ratio to each peer, and measures the machine's memory
read bandwidth in the same run so that bandwidth-bound workloads can be reported as
a fraction of it. Started by `bench/peers/run.sh`, which makes the virtualenv.

The inputs of W1-W5 are written once to `.npy` files in /dev/shm (RAM; `--input-dir`
picks another directory, e.g. a tmpfs mounted with `huge=always`); the peers hold them
in memory, and the marsc scripts map them with `load(path, mmap_mode='r')`, so both
start from inputs in memory. The run also measures the read bandwidth through such a
mapping, since a file's pages may be 4 KiB where NumPy's arrays get huge pages. A second row per workload, `(rand inputs)`,
times the marsc script that generates its inputs with `mt.random.rand` instead; the
`numpy+inputs` column is NumPy including getting its inputs the same way as that
row's marsc script (`np.load(path, mmap_mode='r')`, or generating them).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

try:
    import numexpr as ne
except ImportError:  # the table says n/a
    ne = None
try:
    import dask
    import dask.array as da
except ImportError:
    da = None


def median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def read_bandwidth(data, repeat, threads):
    """Bytes per second that `threads` threads read from `data` (float64), each summing
    its own slice (NumPy releases the GIL inside reductions). Given a mapped file, this
    reads the pages the marsc scripts read, whose size (4 KiB, or 2 MiB on a
    `huge=always` tmpfs) the file system decides, where NumPy's own arrays get
    transparent huge pages."""
    return statistics.median(read_bandwidth_runs(data, repeat, threads))


def read_bandwidth_runs(data, repeat, threads):
    """`read_bandwidth` of each of `repeat` runs."""
    from concurrent.futures import ThreadPoolExecutor

    slices = np.array_split(data, threads)
    rates = []
    with ThreadPoolExecutor(threads) as pool:
        for _ in range(repeat):
            start = time.perf_counter()
            list(pool.map(np.sum, slices))
            rates.append(data.size * 8 / (time.perf_counter() - start))
    return rates


def shmem_huge_pages_kib():
    """ShmemHugePages from /proc/meminfo (KiB of file pages held as huge pages)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("ShmemHugePages:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_marsc(marscs, script_text, workers, repeat, workdir):
    """Median `run_seconds` of each binary in `marscs` (and the subtask count), the
    binaries alternated run by run so that a shared machine's drift hits them alike."""
    path = os.path.join(workdir, "w.mt")
    stats = os.path.join(workdir, "stats.json")
    with open(path, "w") as f:
        f.write(script_text)
    times, subtasks = [[] for _ in marscs], 0
    for _ in range(repeat):
        for i, marsc in enumerate(marscs):
            done = subprocess.run(
                [marsc, "--quiet", "--workers", str(workers), "--stats-json", stats, path],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            if done.returncode != 0:
                sys.exit(f"{marsc} failed on:\n{script_text}\n{done.stderr}")
            with open(stats) as f:
                figures = json.load(f)
            times[i].append(figures["run_seconds"])
            subtasks = figures["subtasks"]
    return [statistics.median(t) for t in times], subtasks


HEADER = "import mars.tensor as mt\n"
TALL_COLUMNS = 50


def dask_of(*arrays):
    return tuple(da.from_array(x) for x in arrays)


def write_inputs(input_dir, n, side, matmul_side, tall_rows=0):
    """The W1-W5 inputs as .npy files in `input_dir`; returns their paths."""
    rng = np.random.default_rng(0)
    names = ("a", "b", "x", "ma", "mb", "c") + (("tall", "spd") if tall_rows else ())
    paths = {name: os.path.join(input_dir, f"marsc_peers_{name}.npy") for name in names}
    np.save(paths["a"], rng.random(n))
    np.save(paths["b"], rng.random(n))
    np.save(paths["x"], rng.random((side, side)))
    np.save(paths["ma"], rng.random((matmul_side, matmul_side)))
    np.save(paths["mb"], rng.random((matmul_side, matmul_side)))
    # W8's input: a tenth of it NaN.
    c = rng.random(n)
    c[rng.random(n) < 0.1] = np.nan
    np.save(paths["c"], c)
    if tall_rows:
        # W9-W12 (issue 20): a tall-and-skinny matrix for qr/svd, and a symmetric
        # positive definite matrix for cholesky.
        np.save(paths["tall"], rng.random((tall_rows, TALL_COLUMNS)))
        s = rng.random((matmul_side, matmul_side))
        np.save(paths["spd"], s @ s.T + matmul_side * np.eye(matmul_side))
    return paths


def remove_inputs(paths, w3_output):
    for path in list(paths.values()) + [w3_output]:
        if os.path.exists(path):
            os.remove(path)


def workloads(n, side, matmul_side, paths, w3_output):
    """(name, marsc script, make inputs, {peer: run}, bandwidth bytes or None, peers?).

    Rows with `peers` False are the same workload with generated inputs: only marsc
    and NumPy including generating its inputs are timed."""
    rng = np.random.default_rng(0)
    mapped = {
        name: f"{name} = mt.load({path!r}, mmap_mode='r')\n" for name, path in paths.items()
    }
    both = mapped["a"] + mapped["b"]
    both_rand = f"a = mt.random.rand({n})\nb = mt.random.rand({n})\n"
    x_rand = f"x = mt.random.rand({side}, {side})\n"

    def load(*names):
        return lambda: tuple(np.load(paths[name], mmap_mode="r") for name in names)

    def ab():
        return rng.random(n), rng.random(n)

    def x2():
        return (rng.random((side, side)),)

    def mm():
        return rng.random((matmul_side, matmul_side)), rng.random((matmul_side, matmul_side))

    w1 = {
        "numpy": lambda a, b: (a + b).sum(),
        "numexpr": lambda a, b: ne.evaluate("sum(a + b)"),
        "dask": lambda a, b: (a + b).sum().compute(),
    }
    w2 = {
        "numpy": lambda a, b: np.sqrt(a * a + b * b).mean(),
        "numexpr": lambda a, b: ne.evaluate("sum(sqrt(a * a + b * b))") / a.size,
        "dask": lambda a, b: da.sqrt(a * a + b * b).mean().compute(),
    }
    w3 = {
        "numpy": lambda a, b: a * 2.0 + b * 3.0 - 1.0,
        "numexpr": lambda a, b: ne.evaluate("a * 2.0 + b * 3.0 - 1.0"),
        "dask": lambda a, b: (a * 2.0 + b * 3.0 - 1.0).compute(),
    }
    w4a = {
        "numpy": lambda x: x.sum(axis=0),
        "dask": lambda x: x.sum(axis=0).compute(),
    }
    w4b = {
        "numpy": lambda x: x.std(axis=1),
        "dask": lambda x: x.std(axis=1).compute(),
    }
    # Materialized: saved to a file in the input directory, region by region.
    w3_line = f"mt.save({w3_output!r}, a * 2.0 + b * 3.0 - 1.0)\n"
    items = []
    for name, body, fns, nbytes, inputs, rand_inputs, make_rand in [
        ("W1 (a + b).sum()", "print((a + b).sum())\n", w1, 2 * n * 8, both, both_rand, ab),
        ("W2 sqrt(a*a + b*b).mean()", "print(mt.sqrt(a * a + b * b).mean())\n", w2,
         2 * n * 8, both, both_rand, ab),
        ("W3 a*2.0 + b*3.0 - 1.0", w3_line, w3, 3 * n * 8, both, both_rand, ab),
        (f"W4a x.sum(axis=0) {side}x{side}", "print(x.sum(axis=0).sum())\n", w4a,
         side * side * 8, mapped["x"], x_rand, x2),
        (f"W4b x.std(axis=1) {side}x{side}", "print(x.std(axis=1).sum())\n", w4b,
         side * side * 8, mapped["x"], x_rand, x2),
    ]:
        names = ("x",) if name.startswith("W4") else ("a", "b")
        items.append((name, HEADER + inputs + body, load(*names), fns, nbytes, True))
        items.append((f"{name.split()[0]} (rand inputs)", HEADER + rand_inputs + body, make_rand,
                      {"numpy": fns["numpy"]}, nbytes, False))
    w5 = {
        "numpy": lambda a, b: a @ b,
        "dask": lambda a, b: (a @ b).compute(),
    }
    w5_body = "print((a @ b).sum())\n"
    mm_mapped = (f"a = mt.load({paths['ma']!r}, mmap_mode='r')\n"
                 f"b = mt.load({paths['mb']!r}, mmap_mode='r')\n")
    mm_rand = (f"a = mt.random.rand({matmul_side}, {matmul_side})\n"
               f"b = mt.random.rand({matmul_side}, {matmul_side})\n")
    items += [
        (f"W5 matmul {matmul_side}x{matmul_side}", HEADER + mm_mapped + w5_body,
         load("ma", "mb"), w5, None, True),
        ("W5 (rand inputs)", HEADER + mm_rand + w5_body, mm, {"numpy": w5["numpy"]}, None,
         False),
        (
            "W8 nanmean(c), 10% NaN",
            HEADER + mapped["c"] + "print(mt.nanmean(c))\n",
            load("c"),
            {
                "numpy": lambda c: np.nanmean(c),
                "numexpr": lambda c: ne.evaluate("sum(where(c == c, c, 0.0))")
                / ne.evaluate("sum(where(c == c, 1, 0))"),
                "dask": lambda c: da.nanmean(c).compute(),
            },
            n * 8,
            True,
        ),
        (
            "W13 a[a > 0.5].sum() (boolean filter)",
            HEADER + mapped["a"] + "print(a[a > 0.5].sum())\n",
            load("a"),
            {
                "numpy": lambda a: a[a > 0.5].sum(),
                # numexpr cannot select; the same sum without materializing the selection.
                "numexpr": lambda a: ne.evaluate("sum(where(a > 0.5, a, 0.0))"),
                "dask": lambda a: a[a > 0.5].sum().compute(),
            },
            n * 8,
            True,
        ),
        (
            f"W17 einsum('ij,ij->i', x, x) {side}x{side}",
            HEADER + mapped["x"] + "print(mt.einsum('ij,ij->i', x, x).sum())\n",
            load("x"),
            {
                "numpy": lambda x: np.einsum("ij,ij->i", x, x),
                "dask": lambda x: da.einsum("ij,ij->i", x, x).compute(),
            },
            side * side * 8,
            True,
        ),
        (
            "W7 (rand(n) + rand(n)).sum()",
            HEADER + f"print((mt.random.rand({n}) + mt.random.rand({n})).sum())\n",
            lambda: (),
            {
                "numpy": lambda: (rng.random(n) + rng.random(n)).sum(),
                "dask": lambda: (da.random.random(n) + da.random.random(n)).sum().compute(),
            },
            None,
            True,
        ),
    ]
    if "tall" in paths:
        items += linalg_workloads(paths, mapped, load)
    return items


def linalg_workloads(paths, mapped, load):
    """W9-W12 (issue 20): TSQR qr and svd of the tall matrix, solve and cholesky of
    matmul-sized matrices. Each marsc script prints a sum of every result, so all of
    it is computed; dask's qr/svd need the columns in one chunk (its TSQR too)."""
    rows = np.load(paths["tall"], mmap_mode="r").shape[0]
    side = np.load(paths["spd"], mmap_mode="r").shape[0]
    tall_label = f"{rows}x{TALL_COLUMNS}"
    one_column_chunk = {1: -1}
    try:
        import scipy  # noqa: F401  (dask's solve and cholesky need it)

        dask_lu = da is not None
    except ImportError:
        dask_lu = False
    items = [
        (
            f"W9 qr {tall_label}",
            HEADER + mapped["tall"].replace("tall =", "t =")
            + "q, r = mt.linalg.qr(t)\nprint(mt.abs(q).sum() + mt.abs(r).sum())\n",
            load("tall"),
            {
                "numpy": lambda t: np.linalg.qr(t),
                "dask": lambda t: da.compute(*da.linalg.qr(t.rechunk(one_column_chunk))),
            },
            None,
            True,
        ),
        (
            f"W10 svd {tall_label}",
            HEADER + mapped["tall"].replace("tall =", "t =")
            + "u, s, vh = mt.linalg.svd(t, full_matrices=False)\n"
            + "print(mt.abs(u).sum() + s.sum() + mt.abs(vh).sum())\n",
            load("tall"),
            {
                "numpy": lambda t: np.linalg.svd(t, full_matrices=False),
                "dask": lambda t: da.compute(*da.linalg.svd(t.rechunk(one_column_chunk))),
            },
            None,
            True,
        ),
        (
            f"W11 solve {side}x{side}",
            HEADER + mapped["ma"] + mapped["mb"]
            + "print(mt.linalg.solve(ma, mb[:, 0]).sum())\n",
            load("ma", "mb"),
            {
                "numpy": lambda a, b: np.linalg.solve(a, b[:, 0]),
                "dask": lambda a, b: da.linalg.solve(a, b[:, 0]).compute(),
            },
            None,
            True,
        ),
        (
            f"W12 cholesky {side}x{side}",
            HEADER + mapped["spd"] + "print(mt.linalg.cholesky(spd).sum())\n",
            load("spd"),
            {
                "numpy": lambda a: np.linalg.cholesky(a),
                "dask": lambda a: da.linalg.cholesky(a, lower=True).compute(),
            },
            None,
            True,
        ),
    ]
    if not dask_lu:
        for item in items[2:]:
            item[3].pop("dask")
    return items


def tasks_per_second(marsc, workers, repeat, workdir, marsc_chunks, dask_chunks):
    """W6: trivial subtasks per second, marsc vs dask's threaded scheduler."""
    script = HEADER + f"x = mt.ones({marsc_chunks}, chunks=1)\nprint((x + 1).sum())\n"
    seconds, subtasks = run_marsc(marsc, script, workers, repeat, workdir)
    marsc_rates = [subtasks / s for s in seconds]
    dask_rate = None
    if da is not None:
        x = (da.ones(dask_chunks, chunks=1) + 1).sum()
        tasks = len(x.__dask_graph__())
        dask_rate = tasks / median_time(lambda: x.compute(), max(1, repeat // 2))
    return marsc_rates, subtasks, dask_rate


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--marsc", required=True, action="append",
                        help="the marsc binary (release build); given again, another binary "
                             "(e.g. a build from before a change) gets its own column and its "
                             "ratio to the first, the binaries alternated run by run")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    parser.add_argument("--input-dir", default="/dev/shm",
                        help="where the W1-W5 inputs and W3's output go (default /dev/shm; a "
                             "tmpfs mounted with huge=always gives them huge pages like NumPy's)")
    parser.add_argument("--no-linalg", action="store_true",
                        help="skip W9-W12 (qr, svd, solve, cholesky) and their 1.6 GB of inputs")
    parser.add_argument("--only", default="",
                        help="comma-separated workload ids to run (e.g. W9,W10,W11,W12); "
                             "skips the others (W6 too, unless listed)")
    args = parser.parse_args()
    only = {w.strip() for w in args.only.split(",") if w.strip()}
    if args.quick:
        n, side, mside, m_chunks, d_chunks = 1_000_000, 1000, 500, 20_000, 2_000
        tall_rows = 20_000
    else:
        n, side, mside, m_chunks, d_chunks = 50_000_000, 8000, 4000, 1_000_000, 20_000
        tall_rows = 2_000_000
    if args.no_linalg:
        tall_rows = 0
    if da is not None:
        dask.config.set(scheduler="threads", num_workers=args.workers)

    probe = np.ones(max(n, 20_000_000))
    bandwidth = read_bandwidth(probe, args.repeat, args.workers)
    print(f"memory read bandwidth ({args.workers} threads summing): {bandwidth / 1e9:.1f} GB/s "
          "(measured again next to each bandwidth-bound workload: the bw column)")
    huge_before = shmem_huge_pages_kib()
    paths = write_inputs(args.input_dir, n, side, mside, tall_rows)
    w3_output = os.path.join(args.input_dir, "marsc_w3.npy")
    huge_inputs = shmem_huge_pages_kib() - huge_before
    mapped = read_bandwidth(np.load(paths["a"], mmap_mode="r"), args.repeat, args.workers)
    print(f"read bandwidth through a mapping of the inputs in {args.input_dir} "
          f"({huge_inputs // 1024} MiB of them in huge pages): {mapped / 1e9:.1f} GB/s")
    if mapped < 0.8 * bandwidth:
        print(f"note: the mapped inputs read at {100 * mapped / bandwidth:.0f}% of the speed of "
              "NumPy's arrays, which sit on huge pages; for inputs on huge pages too, see "
              "--input-dir in bench/peers/README.md")
    print(f"workers: {args.workers}; medians of {args.repeat} runs; ratio = peer / marsc "
          "(above 1: marsc is faster)\n")
    peers = ["numpy", "numexpr", "dask"]
    print(f"{'workload':34} {'marsc':>8} {'bw':>5} {'%bw':>5} "
          + " ".join(f"{p:>8} {'ratio':>6}" for p in peers) + f" {'numpy+inputs':>12}"
          + "".join(f" {'marsc#' + str(i + 2):>8} {'ratio':>6}" for i in range(len(args.marsc) - 1)))
    try:
        with tempfile.TemporaryDirectory() as workdir:
            items = workloads(n, side, mside, paths, w3_output)
            if only:
                items = [item for item in items if item[0].split()[0] in only]
            table(args, peers, probe, items, workdir)
            if only and "W6" not in only:
                return
            marsc_rates, subtasks, dask_rate = tasks_per_second(
                args.marsc, args.workers, args.repeat, workdir, m_chunks, d_chunks)
    finally:
        remove_inputs(paths, w3_output)
    marsc_rate = marsc_rates[0]
    dask_text = f"{dask_rate:,.0f}/s, ratio {marsc_rate / dask_rate:.0f}x" if dask_rate else "n/a"
    others = "".join(f"; marsc #{i + 2} {rate:,.0f}/s" for i, rate in enumerate(marsc_rates[1:]))
    print(f"\nW6 trivial graph: marsc {marsc_rate:,.0f} subtasks/s ({subtasks:,} subtasks){others}; "
          f"dask {dask_text}")


def table(args, peers, probe, items, workdir):
    """One line per workload: marsc, its share of the bandwidth, each peer and ratio.

    A bandwidth-bound workload's share is over the read bandwidth measured with
    `probe` right before and after marsc's runs (the median of both measurements'
    runs): on a shared VM the bandwidth moves by 2x within minutes, so a figure taken
    once at the start says little about a workload timed later."""
    for name, script, make_inputs, peer_fns, nbytes, with_peers in items:
        if nbytes:
            before = read_bandwidth_runs(probe, args.repeat, args.workers)
        all_s, _ = run_marsc(args.marsc, script, args.workers, args.repeat, workdir)
        marsc_s = all_s[0]
        if nbytes:
            after = read_bandwidth_runs(probe, args.repeat, args.workers)
            bandwidth = statistics.median(before + after)
            share = f"{bandwidth / 1e9:5.1f} {100 * nbytes / marsc_s / bandwidth:4.0f}%"
        else:
            share = f"{'-':>5}     -"
        cells = []
        if with_peers:
            # The peers' inputs are plain arrays in memory (a copy of the mapped file).
            inputs = tuple(np.array(x) for x in make_inputs())
            for peer in peers:
                fn = peer_fns.get(peer)
                if fn is None or (peer == "numexpr" and ne is None) or (peer == "dask" and da is None):
                    cells.append(f"{'n/a':>8} {'':>6}")
                    continue
                args_for = dask_of(*inputs) if peer == "dask" else inputs
                t = median_time(lambda: fn(*args_for), args.repeat)
                cells.append(f"{t:8.3f} {t / marsc_s:6.2f}")
            del inputs
        else:
            cells = [f"{'':>8} {'':>6}" for _ in peers]
        with_inputs = median_time(lambda: peer_fns["numpy"](*make_inputs()), max(1, args.repeat // 2))
        others = "".join(f" {t:8.3f} {t / marsc_s:6.2f}" for t in all_s[1:])
        print(f"{name:34} {marsc_s:8.3f} {share} " + " ".join(cells) + f" {with_inputs:12.3f}"
              + others)


if __name__ == "__main__":
    main()
