#!/usr/bin/env python3
"""Times a `marsc repl` session of N piped statements, for several shapes of session
(issue 17, item 13: re-lowering every accepted statement on each input made 300/600/
1,200 statements take 0.09/0.32/1.23 s, and 3,000 of some shapes 90 s). A session that
lowers only each new statement grows linearly: doubling N should double the time.

    cargo build --release -p marsc
    python3 bench/repl_session.py                          # every shape, 300..3000
    python3 bench/repl_session.py --shapes chain_echo --sizes 1000 2000 4000
    python3 bench/repl_session.py --write chain 3000 > /tmp/s.txt   # the input alone

Shapes:
  assign      N independent `vI = ones(10) + I`, then one value shown
  echo        N times: `vI = ones(10) * I` and `vI.sum()` shown
  chain       `a = a + 1` N times, then `a.sum()`
  chain_echo  `a = a + 1` and `a[0]` shown, N times (each value reads the whole chain)
  random      N `rI = random.rand(100)` then `rI.sum()` for the last
"""
import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def session_text(shape, n):
    lines = []
    if shape == "assign":
        lines += [f"v{i} = ones(10) + {i}" for i in range(n)]
        lines.append(f"v{n - 1}.sum()")
    elif shape == "echo":
        for i in range(n // 2):
            lines += [f"v{i} = ones(10) * {i}", f"v{i}.sum()"]
    elif shape == "chain":
        lines.append("a = zeros(10)")
        lines += ["a = a + 1"] * n
        lines.append("a.sum()")
    elif shape == "chain_echo":
        lines.append("a = zeros(10)")
        for _ in range(n // 2):
            lines += ["a = a + 1", "a[0]"]
    elif shape == "random":
        lines += [f"r{i} = random.rand(100)" for i in range(n)]
        lines.append(f"r{n - 1}.sum()")
    else:
        raise ValueError(shape)
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--marsc", default=os.path.join(ROOT, "target/release/marsc"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 600, 1200, 3000])
    parser.add_argument("--shapes", nargs="+",
                        default=["assign", "echo", "chain", "chain_echo", "random"])
    parser.add_argument("--write", nargs=2, metavar=("SHAPE", "N"),
                        help="print the session's input and exit")
    args = parser.parse_args()
    if args.write:
        sys.stdout.write(session_text(args.write[0], int(args.write[1])))
        return
    print(f"{'shape':11} {'statements':>10} {'seconds':>8}")
    for shape in args.shapes:
        for n in args.sizes:
            text = session_text(shape, n)
            start = time.monotonic()
            done = subprocess.run([args.marsc, "repl", "--workers", "2"], input=text.encode(),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            seconds = time.monotonic() - start
            status = ""
            if done.returncode != 0 or done.stderr:
                status = f"  exit {done.returncode}: {done.stderr[:200]!r}"
            print(f"{shape:11} {n:>10} {seconds:>8.3f}{status}", flush=True)


if __name__ == "__main__":
    main()
