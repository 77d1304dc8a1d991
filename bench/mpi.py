#!/usr/bin/env python3
"""marsc on 1-4 MPI ranks (issue 22): wall time and bytes moved between ranks for W1,
W5 and a large reduction, and the MPI bandwidth marsc's transport achieves against a
raw MPI ping-pong measured in the same run.

Needs a marsc built with the `mpi` feature and the ping-pong example:

    cargo build --release -p marsc --features mpi
    cargo build --release -p marsc-runtime --features mpi --example mpi_pingpong
    python3 bench/mpi.py --marsc target/release/marsc \
        --pingpong target/release/examples/mpi_pingpong

With `--sim BINARY` (a marsc with `marsc simulate`; default: `--marsc`) each row also
shows the simulator's makespan for the same plan on as many workers, its links set to
the transport's measured bandwidth (8 MiB messages) and latency (8 B), and the model's
error against the measured `run_seconds`.

Each (workload, ranks) runs `--repeat` times (median wall time of the whole
`mpirun`, and `run_seconds` of rank 0's --stats-json); bytes between ranks are the
sum of the ranks' received bytes. On a 2-core machine 3 and 4 ranks oversubscribe
the cores (`--workers 1` per rank throughout), so the times show overheads, not
speed-ups; the bytes are what scales.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HEADER = "import mars.tensor as mt\n"

WORKLOADS = [
    ("W1 (a + b).sum(), 2 x 20M", HEADER
     + "a = mt.random.rand(20_000_000, chunks=1_000_000)\n"
     + "b = mt.random.rand(20_000_000, chunks=1_000_000)\n"
     + "print((a + b).sum())\n"),
    ("W5 matmul 2000x2000", HEADER
     + "a = mt.random.rand(2000, 2000, chunks=500)\n"
     + "b = mt.random.rand(2000, 2000, chunks=500)\n"
     + "print((a @ b).sum())\n"),
    ("reduction x.sum(axis=0), 8000x8000", HEADER
     + "x = mt.random.rand(8000, 8000, chunks=(500, 8000))\n"
     + "print(x.sum(axis=0).sum())\n"),
]

ENV = dict(os.environ,
           OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1",
           OMPI_MCA_hwloc_base_binding_policy="none",
           OMPI_MCA_btl_vader_single_copy_mechanism="none")


def run(ranks, marsc, script, workdir):
    stats = os.path.join(workdir, "stats.json")
    command = ["mpirun", "--quiet", "-np", str(ranks), marsc, script,
               "--workers", "1", "--stats-json", stats]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=ENV, cwd=workdir,
                          timeout=600)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    with open(stats) as f:
        figures = json.load(f)
    moved = sum(rank["bytes_received"] for rank in figures.get("ranks", []))
    return wall, figures["run_seconds"], moved, done.stdout


def simulate(binary, script, ranks, bandwidth, latency_us):
    command = [binary, "simulate", script, "--workers", str(ranks), "--assign", "bfs",
               "--bandwidth", f"{bandwidth:.3f}GB/s", "--latency", f"{latency_us:.2f}us",
               "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    return json.loads(done.stdout)["runs"][0]["makespan_seconds"]


def pingpong(binary):
    done = subprocess.run(["mpirun", "--quiet", "-np", "2", binary], capture_output=True,
                          text=True, env=ENV, timeout=600)
    if done.returncode != 0:
        sys.exit(f"the ping-pong failed:\n{done.stderr}")
    return [line.split() for line in done.stdout.splitlines()[1:] if line.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--marsc", default="target/release/marsc")
    parser.add_argument("--pingpong", default="target/release/examples/mpi_pingpong")
    parser.add_argument("--ranks", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sim", help="a marsc with `simulate` (default: --marsc)")
    args = parser.parse_args()
    marsc = os.path.abspath(args.marsc)
    sim = os.path.abspath(args.sim or args.marsc)
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    pings = pingpong(args.pingpong)
    by_size = {int(row[0]): row for row in pings}
    bandwidth = float(by_size[8 << 20][4])
    latency_us = float(by_size[8][2])
    errors = []
    with tempfile.TemporaryDirectory() as workdir:
        print(f"model links: {bandwidth:.2f} GB/s, latency {latency_us:.1f} µs "
              "(the transport's, measured below)")
        print("| workload | ranks | wall s (median) | run s (median) | bytes between ranks "
              "| model s | model error |")
        print("|---|---|---|---|---|---|---|")
        for name, text in WORKLOADS:
            script = os.path.join(workdir, "w.mt")
            with open(script, "w") as f:
                f.write(text)
            outputs = set()
            for ranks in args.ranks:
                walls, runs, moved = [], [], 0
                for _ in range(args.repeat):
                    wall, run_seconds, moved, out = run(ranks, marsc, script, workdir)
                    walls.append(wall)
                    runs.append(run_seconds)
                    outputs.add(out)
                measured = statistics.median(runs)
                model = simulate(sim, script, ranks, bandwidth, latency_us)
                error = (model - measured) / measured
                errors.append(abs(error))
                print(f"| {name} | {ranks} | {statistics.median(walls):.3f} "
                      f"| {measured:.3f} | {moved:,} | {model:.3f} | {error:+.0%} |")
            if len(outputs) != 1:
                sys.exit(f"{name}: the output depends on the ranks: {outputs}")
    print(f"model error: median {statistics.median(errors):.0%}, "
          f"mean {statistics.mean(errors):.0%} (absolute)")
    print()
    print("| message bytes | raw MPI µs | marsc transport µs | raw GB/s | transport GB/s "
          "| transport / raw |")
    print("|---|---|---|---|---|---|")
    for size, raw, transport, raw_gbps, transport_gbps in pings:
        ratio = float(transport) / max(float(raw), 1e-9)
        print(f"| {int(size):,} | {raw} | {transport} | {raw_gbps} | {transport_gbps} "
              f"| {ratio:.2f}x |")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
