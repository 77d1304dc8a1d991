#!/usr/bin/env python3
"""Load test of `marsc serve` on loopback (bounded): starts the server, submits 4
large jobs, then 200 small jobs from 200 concurrent clients while the large ones
run; each client waits for its job with the long-poll `GET /api/jobs/{id}?wait=`.
Reports throughput (small jobs/s), p50/p99 latency of small jobs (submit to
SUCCEEDED), the server's peak RSS (VmHWM), and checks nothing was lost (every job
SUCCEEDED, the list holds them all) and nothing left behind (no job files after
the jobs are deleted, the server exits cleanly on SIGTERM).

    python3 bench/serve_load.py [--marsc target/release/marsc] [--small 200] [--large 4]
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

SMALL = """import mars.tensor as mt
a = mt.arange(10000, chunks=1000).reshape((100, 100))
print((a * 2).sum(), a.mean())
"""

LARGE = """import mars.tensor as mt
x = mt.random.rand(2000, 2000, chunks=250)
y = x @ x
print((y @ y).sum())
"""


def request(base, token, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + token)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=300) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


def run_job(base, token, script, results, index):
    started = time.monotonic()
    status, job = request(base, token, "POST", "/api/jobs", {"script": script, "name": f"j{index}.mt"})
    if status != 202:
        results[index] = ("refused", status, time.monotonic() - started)
        return
    while True:
        status, state = request(base, token, "GET", f"/api/jobs/{job['id']}?wait=30")
        if state["state"] in ("SUCCEEDED", "FAILED", "CANCELLED"):
            break
    results[index] = (state["state"], job["id"], time.monotonic() - started)


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        match = re.search(r"VmHWM:\s+(\d+) kB", status.read())
    return int(match.group(1)) / 1024 if match else float("nan")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marsc", default="target/release/marsc")
    parser.add_argument("--small", type=int, default=200)
    parser.add_argument("--large", type=int, default=4)
    parser.add_argument("--max-jobs", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    token = "load-test-token-0123456789"
    server = subprocess.Popen(
        [args.marsc, "serve", "--bind", "127.0.0.1:0", "--token", token,
         "--workers", str(args.workers), "--max-jobs", str(args.max_jobs), "--max-queued", "1000"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = None
    for line in server.stdout:
        if line.strip().startswith("open "):
            base = line.strip()[5:].split("/?")[0]
            break
    if base is None:
        sys.exit("the server printed no URL")
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()

    large = [None] * args.large
    large_threads = [threading.Thread(target=run_job, args=(base, token, LARGE, large, i)) for i in range(args.large)]
    for thread in large_threads:
        thread.start()
    time.sleep(0.5)
    small = [None] * args.small
    began = time.monotonic()
    small_threads = [threading.Thread(target=run_job, args=(base, token, SMALL, small, i)) for i in range(args.small)]
    for thread in small_threads:
        thread.start()
    for thread in small_threads:
        thread.join()
    small_wall = time.monotonic() - began
    for thread in large_threads:
        thread.join()

    latencies = [r[2] for r in small if r and r[0] == "SUCCEEDED"]
    lost = [r for r in small + large if not r or r[0] != "SUCCEEDED"]
    status, listing = request(base, token, "GET", "/api/jobs")
    listed = len(listing["jobs"])
    rss = peak_rss_mib(server.pid)
    for job in listing["jobs"]:
        request(base, token, "DELETE", f"/api/jobs/{job['id']}")
    status, after = request(base, token, "GET", "/api/jobs")
    tmp = [d for d in os.listdir("/tmp") if d.startswith(f"marsc-serve-{server.pid}-")]
    leftovers = [os.path.join("/tmp", d, f) for d in tmp for f in os.listdir(os.path.join("/tmp", d))]
    server.send_signal(signal.SIGTERM)
    code = server.wait(timeout=60)
    print(f"small jobs: {len(latencies)}/{args.small} succeeded in {small_wall:.2f} s "
          f"-> {len(latencies) / small_wall:.1f} jobs/s")
    print(f"small-job latency while {args.large} large jobs run: "
          f"p50 {percentile(latencies, 50) * 1000:.0f} ms, p99 {percentile(latencies, 99) * 1000:.0f} ms")
    print(f"large jobs: {[round(r[2], 2) if r else None for r in large]} s")
    print(f"server peak RSS: {rss:.0f} MiB")
    print(f"lost: {len(lost)}; listed {listed} of {args.small + args.large}; "
          f"after delete: {len(after['jobs'])} jobs, {len(leftovers)} job files; server exit {code}")
    ok = not lost and listed == args.small + args.large and not after["jobs"] and not leftovers and code == 0
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
