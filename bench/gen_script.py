#!/usr/bin/env python3
"""Writes a generated .mt script of N statements (default 10,000) to stdout.

Used to measure the front end on a large program:
    python3 bench/gen_script.py 10000 > /tmp/big.mt
    cargo build --release -p marsc
    for i in 1 2 3 4 5; do /usr/bin/time -f "%e s %M KB" target/release/marsc check /tmp/big.mt; done
"""
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
rng = random.Random(1)
lines = ["import mars.tensor as mt", "x0 = mt.ones((1000, 1000), chunks=250)"]
for i in range(1, n):
    j = rng.randrange(0, i)
    k = rng.randrange(0, i)
    expr = rng.choice([
        f"x{j} + 1.5",
        f"mt.sqrt(x{j} * 2)",
        f"x{j}.T",
        f"x{j} - x{k}",
        f"(x{j} @ x{j}) / 3",
    ])
    lines.append(f"x{i} = {expr}")
lines.append(f"print(x{n - 1}.sum())")
print("\n".join(lines))
