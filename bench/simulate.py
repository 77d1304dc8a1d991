#!/usr/bin/env python3
"""`marsc simulate` at 10, 100 and 1,000 workers: the makespan and bytes moved of the
seed's BFS assignment against round-robin and random, on the examples and on two
large workloads, and the model's error against real runs on this machine.

Workloads of the figures table (each `--assign all`, default model: 10 GB/s links,
50 us hops, 1 us of coordinator per subtask):
- every example that compiles to one plan (scripts that run in stages are skipped);
- `(a * 2 + b).sum()` over two 4000 x 131072 float64 arrays (4 GB each): `load`ed
  (.npy files made sparse in a temporary directory, so nothing is written) in
  automatic chunks of at most 1 MiB, and `rand` in rows of 1 MB with `--no-fuse`;
- `(a @ b).sum()` of 16 x 16 blocks of 8 MB (a and b 16384 x 16384 float64);
- coordinator saturation: the fused `rand` reduction at 1,000 workers with rows of
  128 kB to 64 MB (the same 8,000 chunks, ever longer subtasks).

Calibration: the same model with in-process messaging (--latency 1us, --bandwidth
1000GB/s: a transfer between threads is a pointer) against the fastest `run_seconds`
of `--repeat` real `marsc --workers 1` and `2` runs of smaller scripts; the error is
(model - real) / real.

    cargo build -p marsc            # the simulator (a debug build is fast enough)
    python3 bench/simulate.py --sim target/debug/marsc --run /work/rel-target/release/marsc
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

REDUCTION = """\
import mars.tensor as mt
a = {a}
b = {b}
print((a * 2 + b).sum())
"""

MATMUL = """\
import mars.tensor as mt
a = mt.random.rand({n}, {n}, chunks={c})
b = mt.random.rand({n}, {n}, chunks={c})
print((a @ b).sum())
"""


def rand_rows(rows, cols):
    return f"mt.random.rand({rows}, {cols}, chunks=(1, {cols}))"


def sparse_npy(path, rows, cols):
    """A float64 .npy file of the given shape whose data is a hole (nothing written)."""
    import numpy as np

    header = {"descr": "<f8", "fortran_order": False, "shape": (rows, cols)}
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(f, header)
        f.truncate(f.tell() + rows * cols * 8)


def simulate(sim, script, workers, extra=()):
    out = subprocess.run(
        [sim, "simulate", "--json", "--workers", str(workers), *extra, script],
        capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1] if out.stderr else "failed"
    return json.loads(out.stdout), None


def real_seconds(marsc, script, workers, repeat, extra=()):
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "s.json")
        for _ in range(repeat):
            subprocess.run([marsc, "--quiet", "--workers", str(workers), "--stats-json",
                            stats, *extra, script], check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
            with open(stats) as f:
                times.append(json.load(f)["run_seconds"])
    # The fastest run: the machine is shared, and interference only adds time.
    return min(times)


def fmt_time(s):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s * 1e9:.3g} ns"


def fmt_bytes(b):
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if b >= scale:
            return f"{b / scale:.3g} {unit}"
    return f"{b:.0f} B"


def figures(sim, workloads, worker_counts, model=()):
    print("| workload | subtasks | W | BFS makespan, moved | random | round-robin | BFS coordinator busy |")
    print("|---|---|---|---|---|---|---|")
    for name, script, extra in workloads:
        for workers in worker_counts:
            report, error = simulate(sim, script, workers, [*extra, *model])
            if report is None:
                reason = "runs in stages" if "stages" in error else error
                print(f"| {name} | – | – | skipped: {reason} | | | |", flush=True)
                break
            runs = {run["assign"]: run for run in report["runs"]}
            cells = [f"{fmt_time(runs[p]['makespan_seconds'])}, {fmt_bytes(runs[p]['transfer_bytes'])}"
                     for p in ("bfs", "random", "round-robin")]
            share = runs["bfs"]["coordinator_busy_share"]
            print(f"| {name} | {runs['bfs']['subtasks']} | {workers} | " + " | ".join(cells)
                  + f" | {share:.0%} |", flush=True)


def saturation(sim, script, workers=1000):
    """At `workers`, the fused `(a * 2 + b).sum()` over 4,000 + 4,000 rows of growing
    size: where the coordinator's 1 us per subtask stops mattering."""
    print("| chunk | subtasks | compute per subtask | makespan | coordinator busy | cores busy |")
    print("|---|---|---|---|---|---|")
    for cols in (16384, 131072, 1048576, 8388608):
        text = REDUCTION.format(a=rand_rows(4000, cols), b=rand_rows(4000, cols))
        report, error = simulate(sim, script(f"saturation_{cols}.mt", text), workers,
                                 ["--assign", "bfs"])
        if report is None:
            print(f"| {fmt_bytes(cols * 8)} | skipped: {error} | | | | |")
            continue
        run = report["runs"][0]
        per_subtask = run["compute_busy_seconds"] / run["subtasks"]
        print(f"| {fmt_bytes(cols * 8)} | {run['subtasks']} | {fmt_time(per_subtask)} | "
              f"{fmt_time(run['makespan_seconds'])} | {run['coordinator_busy_share']:.0%} | "
              f"{run['worker_utilization']:.0%} |", flush=True)


def calibration(sim, marsc, scripts, repeat):
    print()
    print("| script | workers | real | model | error |")
    print("|---|---|---|---|---|")
    errors = []
    for name, script, extra in scripts:
        for workers in (1, 2):
            report, error = simulate(sim, script, workers,
                                     ["--assign", "bfs", "--latency", "1us",
                                      "--bandwidth", "1000GB/s", *extra])
            if report is None:
                print(f"| {name} | {workers} | skipped: {error} | | |")
                break
            model = report["runs"][0]["makespan_seconds"]
            real = real_seconds(marsc, script, workers, repeat, extra)
            error = (model - real) / real
            errors.append(error)
            print(f"| {name} | {workers} | {fmt_time(real)} | {fmt_time(model)} | {error:+.0%} |",
                  flush=True)
    if errors:
        absolute = [abs(e) for e in errors]
        log_ratio = [abs(math.log(1 + e)) for e in errors]
        print()
        print(f"model error over {len(errors)} runs: median |error| {statistics.median(absolute):.0%}, "
              f"mean |error| {statistics.mean(absolute):.0%}, "
              f"geometric mean factor {math.exp(statistics.mean(log_ratio)):.2f}x")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sim", default=os.path.join(ROOT, "target/debug/marsc"),
                        help="a marsc with the simulate subcommand")
    parser.add_argument("--run", default=None,
                        help="a release marsc for the calibration runs (none: skip them)")
    parser.add_argument("--workers", default="10,100,1000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-figures", action="store_true")
    args = parser.parse_args()
    sim = os.path.abspath(args.sim)
    worker_counts = [int(w) for w in args.workers.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        def script(name, text):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(f"# {name}\n" + text)
            return path

        if not args.no_figures:
            sparse_npy(os.path.join(tmp, "a.npy"), 4000, 131072)
            sparse_npy(os.path.join(tmp, "b.npy"), 4000, 131072)
            loaded = REDUCTION.format(a=f"mt.load({os.path.join(tmp, 'a.npy')!r})",
                                      b=f"mt.load({os.path.join(tmp, 'b.npy')!r})")
            random = REDUCTION.format(a=rand_rows(4000, 131072), b=rand_rows(4000, 131072))
            workloads = [
                ("load (a*2+b).sum() 2x4GB, ~1MB chunks", script("load_reduction.mt", loaded),
                 ["--chunk-bytes", "1MiB"]),
                ("rand (a*2+b).sum() 2x4000x1MB --no-fuse", script("rand_reduction.mt", random),
                 ["--no-fuse"]),
                ("(a@b).sum() 16x16 blocks of 8MB", script("matmul.mt", MATMUL.format(n=16384, c=1024)),
                 []),
            ]
            print("Default model: 10 GB/s links, 50 us hops, 1 us of coordinator per subtask.")
            print()
            figures(sim, workloads, worker_counts)
            print()
            print("The large workloads with 10 Gb/s links (--bandwidth 1.25GB/s), as in the "
                  "prototype of notes/mpi.md section 5.")
            print()
            figures(sim, workloads, worker_counts, ["--bandwidth", "1.25GB/s"])
            print()
            print("Coordinator saturation at 1,000 workers: rand (a*2+b).sum(), 4,000 + 4,000 "
                  "rows, BFS.")
            print()
            saturation(sim, script)
            print()
            print("The examples (default model).")
            print()
            examples = [(example, os.path.join("examples", example), [])
                        for example in sorted(os.listdir(os.path.join(ROOT, "examples")))
                        if example.endswith(".mt")]
            figures(sim, examples, worker_counts)
        if args.run:
            small = REDUCTION.format(a=rand_rows(400, 131072), b=rand_rows(400, 131072))
            calibrate = [
                ("rand (a*2+b).sum() 2x400x1MB", script("small_reduction.mt", small), []),
                ("rand (a*2+b).sum() --no-fuse", script("small_reduction.mt", small), ["--no-fuse"]),
                ("(a@b).sum() 4x4 blocks of 2MB", script("small_matmul.mt", MATMUL.format(n=2048, c=512)),
                 []),
            ]
            for example in ("chunking", "cosine_similarity", "matrix_powers", "monte_carlo_norm",
                            "moving_sum", "outer_eye", "power_iteration", "standardize_columns",
                            "polynomial", "pca_svd", "random_walk", "normal_equations"):
                calibrate.append((example, os.path.join("examples", example + ".mt"), []))
            calibration(sim, os.path.abspath(args.run), calibrate, args.repeat)


if __name__ == "__main__":
    sys.exit(main())
